import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Testing

/// Real responses checked against `openapi/photosd.yaml`: each endpoint's answer, errors included,
/// matches the schema the document gives for its path, status and content type, and every path of
/// the document is answered.
@Suite struct OpenAPIConformanceTests {
    @Test func responsesMatchTheDocument() async throws {
        let document = try OpenAPISchema.document()
        let paths = try #require(document["paths"] as? [String: Any])
        try await APIServerTests.withServer { socket, fixture in
            let asset = try #require(fixture.assets["beach.jpg"])
            let album = try #require(fixture.collections["Trip"])
            let folder = try #require(fixture.collections["2020"])
            try fixture.library.database.write { transaction in
                try transaction.reject(
                    RejectedFile(
                        path: "/photos/cut.jpg", code: "truncated", reason: "JPEG ends inside the scan data",
                        fileSize: 10, modificationTime: 0, rejectedDate: 0))
            }
            let gets: [(template: String, target: String, status: Int)] = [
                ("/v1/health", "/v1/health", 200),
                ("/", "/", 200),
                ("/v1/version", "/v1/version", 200),
                ("/v1/openapi.json", "/v1/openapi.json", 200),
                // An in-process server keeps no metrics (photosd's answer is checked against the
                // document by DaemonOperationsTests).
                ("/metrics", "/metrics", 404),
                ("/v1/status", "/v1/status", 503),
                ("/v1/imports", "/v1/imports", 503),
                ("/v1/rejected", "/v1/rejected?limit=5", 200),
                ("/v1/rejected", "/v1/rejected?limit=0", 400),
                ("/v1/assets", "/v1/assets?sort=-creationDate&includeHidden=true&includeAllBursts=true", 200),
                ("/v1/assets", "/v1/assets?pageSize=2", 200),
                ("/v1/assets", "/v1/assets?predicate=colour", 400),
                ("/v1/assets", "/v1/assets?in=nope", 404),
                ("/v1/assets/{id}", "/v1/assets/\(asset)", 200),
                ("/v1/assets/{id}", "/v1/assets/nope", 404),
                // The fixture's assets have no files on disk: their resources are 404s.
                ("/v1/assets/{id}/original", "/v1/assets/\(asset)/original", 404),
                ("/v1/assets/{id}/resources/{type}", "/v1/assets/\(asset)/resources/photo", 404),
                ("/v1/assets/{id}/thumbnail", "/v1/assets/\(asset)/thumbnail?size=64", 404),
                ("/v1/assets/{id}/metadata", "/v1/assets/\(asset)/metadata", 404),
                ("/v1/assets/{id}/thumbnail", "/v1/assets/\(asset)/thumbnail?size=0", 400),
                ("/v1/albums", "/v1/albums", 200),
                ("/v1/albums", "/v1/albums?type=nope", 400),
                ("/v1/albums/{id}", "/v1/albums/\(album)", 200),
                ("/v1/albums/{id}", "/v1/albums/nope", 404),
                ("/v1/folders", "/v1/folders", 200),
                ("/v1/folders/{id}", "/v1/folders/\(folder)", 200),
                ("/v1/folders/{id}", "/v1/folders/nope", 404),
                ("/v1/changes", "/v1/changes?since=0", 200),
                ("/v1/changes", "/v1/changes?since=x", 400),
                ("/v1/assets", "/v1/assets?sort=creationDate&offset=2&pageSize=2", 200),
                ("/v1/days", "/v1/days?includeHidden=true&includeAllBursts=true", 200),
                ("/v1/days", "/v1/days?sort=pixelWidth", 400),
            ]
            var checks = gets.map {
                (
                    method: "get", template: $0.template, target: $0.target, status: $0.status, body: "",
                    headers: [String: String]()
                )
            }
            // HEAD: GET's status, without a body to check.
            for (template, target) in [
                ("/v1/assets/{id}", "/v1/assets/\(asset)"),
                ("/v1/assets/{id}/original", "/v1/assets/\(asset)/original"),
                ("/v1/assets/{id}/resources/{type}", "/v1/assets/\(asset)/resources/photo"),
                ("/v1/assets/{id}/thumbnail", "/v1/assets/\(asset)/thumbnail?size=64"),
                ("/v1/assets/{id}/metadata", "/v1/assets/\(asset)/metadata"),
            ] {
                let status = template == "/v1/assets/{id}" ? 200 : 404
                checks.append(("head", template, target, status, "", [:]))
            }
            checks.append(("post", "/v1/hooks/{name}/resume", "/v1/hooks/nope/resume", 404, "", [:]))
            checks.append(("post", "/v1/queries", "/v1/queries", 400, #"{"colour": 1}"#, [:]))
            checks.append(("post", "/v1/queries", "/v1/queries", 404, #"{"in": "nope"}"#, [:]))
            checks.append(("post", "/v1/queries", "/v1/queries", 400, #"{"of": "albums", "includeHidden": true}"#, [:]))
            checks.append(("post", "/v1/queries", "/v1/queries", 400, #"{"of": "albums", "type": "folder"}"#, [:]))
            // Whole listings as JSON Lines, as `photos` reads them.
            for listing in ["/v1/assets", "/v1/albums", "/v1/folders"] {
                checks.append(("get", listing, listing, 200, "", ["Accept": "application/x-ndjson"]))
            }
            // Change batches: what each answer looks like, and every body sent is one the document describes.
            let batches: [(status: Int, body: String)] = [
                (
                    200,
                    #"""
                    {"changes": [{"op": "createFolder", "title": "Y", "ref": "y"},
                                 {"op": "createAlbum", "title": "A", "ref": "a", "folder": "$y"},
                                 {"op": "addToAlbum", "album": "$a", "assets": ["\#(asset)"]},
                                 {"op": "editAsset", "asset": "\#(asset)", "isHidden": false, "creationDate": null,
                                  "location": {"latitude": 1.5, "longitude": 2}},
                                 {"op": "moveInAlbum", "album": "\#(album)", "from": [0], "to": 1},
                                 {"op": "renameFolder", "folder": "\#(folder)", "title": "F"}]}
                    """#
                ),
                (200, #"{"changes": []}"#),
                (404, #"{"changes": [{"op": "renameAlbum", "album": "nope", "title": "x"}]}"#),
                (409, #"{"changes": [{"op": "addToFolder", "folder": "\#(folder)", "collections": ["\#(folder)"]}]}"#),
                (403, #"{"changes": [{"op": "createAsset", "path": "/nonexistent/photo.jpg"}]}"#),
            ]
            for batch in batches {
                checks.append(("post", "/v1/changes", "/v1/changes", batch.status, batch.body, [:]))
                let request = try #require(
                    ((((paths["/v1/changes"] as? [String: Any])?["post"] as? [String: Any])?["requestBody"]
                        as? [String: Any])?[
                            "content"] as? [String: Any])?["application/json"] as? [String: Any])
                let sent = try JSONSerialization.jsonObject(with: Data(batch.body.utf8))
                let problems = OpenAPISchema.validate(
                    sent, try #require(request["schema"] as? [String: Any]), in: document, at: "$")
                #expect(problems.isEmpty, "request \(batch.body): \(problems.prefix(5))")
            }
            // Not JSON, an unknown op, an unknown field: 400s; the document refuses those bodies too.
            for body in [
                #"{"changes": [{"op": "paint"}]}"#, #"{"changes": [{"op": "createAlbum", "title": "T", "x": 1}]}"#,
            ] {
                checks.append(("post", "/v1/changes", "/v1/changes", 400, body, [:]))
                let schema: [String: Any] = ["$ref": "#/components/schemas/ChangeBatch"]
                let sent = try JSONSerialization.jsonObject(with: Data(body.utf8))
                #expect(
                    !OpenAPISchema.validate(sent, schema, in: document, at: "$").isEmpty, "the document accepts \(body)"
                )
            }
            checks.append(("post", "/v1/changes", "/v1/changes", 400, #"{"changes": "#, [:]))
            // Access: a bad token is a 401, a level too low a 403.
            let readOnly = try fixture.library.database.createAccessToken(level: .readOnly).secret
            let addOnly = try fixture.library.database.createAccessToken(level: .addOnly).secret
            checks.append(("get", "/v1/assets", "/v1/assets", 401, "", ["Authorization": "Bearer pht_unknown"]))
            checks.append(("get", "/v1/health", "/v1/health", 401, "", ["Authorization": "Bearer pht_unknown"]))
            checks.append(("get", "/v1/assets", "/v1/assets", 403, "", ["Authorization": "Bearer \(addOnly)"]))
            checks.append(
                (
                    "post", "/v1/changes", "/v1/changes", 403, #"{"changes": []}"#,
                    ["Authorization": "Bearer \(readOnly)"]
                ))
            // Uploads: the bytes kept for a createAsset; a client that may not create is refused.
            checks.append(
                (
                    "post", "/v1/uploads", "/v1/uploads?filename=a.jpg", 201, "bytes",
                    ["Authorization": "Bearer \(addOnly)"]
                ))
            checks.append(("post", "/v1/uploads", "/v1/uploads", 403, "bytes", ["Authorization": "Bearer \(readOnly)"]))
            checks.append(("post", "/v1/uploads", "/v1/uploads?colour=red", 400, "bytes", [:]))
            // Recently Deleted (its answers with assets in it: RecentlyDeletedAPITests).
            checks.append(("get", "/v1/trash", "/v1/trash", 200, "", [:]))
            checks.append(("post", "/v1/trash/restore", "/v1/trash/restore", 404, #"{"identifiers": ["nope"]}"#, [:]))
            checks.append(("post", "/v1/trash/restore", "/v1/trash/restore", 400, #"{"identifiers": []}"#, [:]))
            checks.append(
                (
                    "post", "/v1/trash/restore", "/v1/trash/restore", 403, #"{"identifiers": ["nope"]}"#,
                    ["Authorization": "Bearer \(readOnly)"]
                ))
            // This server has no TCP listener for a browser to reach.
            checks.append(("post", "/v1/logins", "/v1/logins", 409, "", [:]))
            checks.append(("post", "/v1/logins", "/v1/logins", 400, #"{"access": "add-only"}"#, [:]))
            checks.append(("post", "/v1/trash/empty", "/v1/trash/empty", 200, #"{"dryRun": true}"#, [:]))
            checks.append(("post", "/v1/trash/empty", "/v1/trash/empty", 404, #"{"identifiers": ["nope"]}"#, [:]))
            for check in checks {
                let reply = try await offPool {
                    try UnixHTTPClient.request(
                        socket, check.method.uppercased(), check.target,
                        headers: check.headers, body: Array(check.body.utf8))
                }
                #expect(reply.status == check.status, "\(check.target): \(reply.text)")
                let operation = try #require(
                    (paths[check.template] as? [String: Any])?[check.method] as? [String: Any],
                    "\(check.method) \(check.template) not in the document")
                var response = try #require(
                    (operation["responses"] as? [String: Any])?["\(reply.status)"] as? [String: Any],
                    "\(check.template): no \(reply.status) in the document")
                response = try OpenAPISchema.resolve(response, in: document)
                if check.method == "head" {
                    #expect(reply.body.isEmpty, "HEAD \(check.target)")
                    continue
                }
                let contentType = reply.headers["content-type"] ?? ""
                let schema = try #require(
                    ((response["content"] as? [String: Any])?[contentType] as? [String: Any])?["schema"]
                        as? [String: Any],
                    "\(check.template) \(reply.status): no schema for \(contentType)")
                let bodies =
                    contentType == "application/x-ndjson"
                    ? reply.text.split(separator: "\n").map { Data($0.utf8) } : [Data(reply.body)]
                #expect(!bodies.isEmpty)
                for body in bodies {
                    let value = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
                    let problems = OpenAPISchema.validate(value, schema, in: document, at: "$")
                    #expect(problems.isEmpty, "\(check.target): \(problems.prefix(5))")
                }
            }
            // Every path the document names was answered.
            #expect(Set(paths.keys) == Set(checks.map(\.template)))
        }
    }
}
