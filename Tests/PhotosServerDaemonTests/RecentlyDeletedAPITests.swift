import Foundation
import PhotosTestSupport
import PhotosWire
import Testing

/// Recently Deleted through the real `photosd`'s API under a root with `write = "files"`:
/// `GET /v1/trash` lists what `photos trash list --json` lists, `POST /v1/trash/restore` brings an
/// asset back with its identifier, `POST /v1/trash/empty` erases the rest from the Trash; the smart
/// album is fetched by its identifier; a read-only client may list but not restore or empty.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RecentlyDeletedAPITests {
    @Test func theTrashIsListedRestoredAndEmptiedThroughTheAPI() async throws {
        let sample = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let directory = try TemporaryDirectory(prefix: "photosd-recently-deleted")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        let first = root.appendingPathComponent("Trip/first.jpg").path
        let second = root.appendingPathComponent("Trip/second.jpg").path
        for path in [first, second] { try FileManager.default.copyItem(atPath: sample.path, toPath: path) }
        let config = directory.path("photosd.toml")
        try Data("roots = [{ path = \"\(root.path)\", write = \"files\" }]\n".utf8).write(to: config)
        let trash = directory.path("data/Trash").path
        let environment = ["XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path]
        let daemon = try await APIDaemon(
            directory: directory, root: root, arguments: ["--config", config.path], environment: environment)
        let socket = daemon.socket
        func request(_ method: String, _ target: String, _ body: String = "", token: String? = nil) async throws
            -> UnixHTTPClient.Reply
        {
            var headers = ["Content-Type": "application/json"]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            return try await offPool {
                try UnixHTTPClient.request(socket, method, target, headers: headers, body: Array(body.utf8))
            }
        }
        func identifiers(_ target: String) async throws -> [String] {
            let reply = try await request("GET", target)
            return (try reply.object()["assets"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String }
                ?? []
        }
        let document = try OpenAPISchema.document()
        func expectConforms(_ reply: UnixHTTPClient.Reply, _ schema: String) throws {
            let value = try JSONSerialization.jsonObject(with: Data(reply.body))
            let problems = OpenAPISchema.validate(
                value, ["$ref": "#/components/schemas/\(schema)"], in: document, at: "$")
            #expect(problems.isEmpty, "\(reply.text): \(problems.prefix(5))")
        }

        var ingested: [String] = []
        try await waitUntil("the startup scan's two photos", whileRunning: daemon.process) {
            ingested = try await identifiers("/v1/assets")
            return ingested.count == 2
        }
        // Which identifier is which file.
        var byPath: [String: String] = [:]
        for identifier in ingested {
            let asset = try await request("GET", "/v1/assets/\(identifier)").object()
            let path = try #require((asset["resources"] as? [[String: Any]])?.first?["path"] as? String)
            byPath[path] = identifier
        }
        let firstID = try #require(byPath[first]), secondID = try #require(byPath[second])
        for identifier in [firstID, secondID] {
            let deleted = try await request(
                "POST", "/v1/changes", #"{"changes": [{"op": "deleteAssets", "assets": ["\#(identifier)"]}]}"#)
            #expect(deleted.status == 200, "\(deleted.text)\n\(daemon.logText)")
        }
        #expect(try await identifiers("/v1/assets").isEmpty)

        // The listing: the latest deletion first, each file with its place in the Trash.
        let listed = try await request("GET", "/v1/trash")
        #expect(listed.status == 200, "\(listed.text)")
        let listing = try JSONDecoder().decode(API.TrashListing.self, from: Data(listed.body))
        #expect(listing.assets.map(\.localIdentifier) == [secondID, firstID])
        #expect(listing.assets.map { $0.files.map(\.path) } == [[second], [first]])
        #expect(
            listing.assets.map { $0.files.map(\.trashPath) } == [
                [trash + "/files/second.jpg"], [trash + "/files/first.jpg"],
            ])
        let listedObject = try listed.object()
        let document2 = try #require(
            ((((document["paths"] as? [String: Any])?["/v1/trash"] as? [String: Any])?["get"] as? [String: Any])?[
                "responses"] as? [String: Any])?["200"] as? [String: Any])
        let schema = try #require(
            ((document2["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                as? [String: Any])
        #expect(OpenAPISchema.validate(listedObject, schema, in: document, at: "$").isEmpty)
        // The same objects `photos trash list --json` writes, line by line.
        let cli = try await offPool {
            try BuiltProducts.run(
                "photos", ["trash", "list", "--json", "--library", directory.path("library.sqlite").path],
                environment: environment)
        }
        #expect(cli.status == 0, "\(cli.stderr)")
        let lines = try cli.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(API.TrashedAsset.self, from: Data($0.utf8))
        }
        #expect(lines == listing.assets)
        // Through photosd's socket, as a table and as JSON: the file's bytes, with no file read (the
        // library named beside the socket is not there: photosd's answer is the listing).
        for form in [[], ["--json"]] {
            let fromFile = try await offPool {
                try BuiltProducts.run(
                    "photos", ["trash", "list", "--library", directory.path("library.sqlite").path] + form,
                    environment: environment)
            }
            let fromSocket = try await offPool {
                try BuiltProducts.run(
                    "photos",
                    ["trash", "list", "--socket", daemon.socket, "--library", directory.path("gone.sqlite").path]
                        + form,
                    environment: environment)
            }
            #expect(fromSocket.status == 0, "\(fromSocket.stderr)")
            #expect(fromSocket.stdout == fromFile.stdout && fromFile.stdout.contains(trash + "/files/first.jpg"))
        }

        // The smart album, by its identifier: the same assets, counted.
        let albums = try await request("GET", "/v1/albums?type=smartAlbum").object()
        let smart = try #require(albums["albums"] as? [[String: Any]])
        #expect(!smart.contains { $0["subtype"] as? String == "smartAlbumRecentlyDeleted" }, "listed only when asked")
        let albumID = "00000000-0000-0000-0000-000001000100/L0/040"
        let album = try await request("GET", "/v1/albums/\(albumID)")
        #expect(album.status == 200, "\(album.text)")
        #expect(try album.object()["subtype"] as? String == "smartAlbumRecentlyDeleted")
        #expect(try album.object()["estimatedAssetCount"] as? Int == 2, "\(album.text)")
        #expect(try await identifiers("/v1/assets?in=\(albumID)") == [secondID, firstID])

        // Access: a read-only client lists but cannot restore or empty.
        let readOnly = try await offPool {
            try BuiltProducts.run(
                "photos",
                [
                    "token", "create", "--access", "read-only", "--json", "--library",
                    directory.path("library.sqlite").path,
                ])
        }
        let readOnlyToken = try #require(
            try (JSONSerialization.jsonObject(with: Data(readOnly.stdout.utf8)) as? [String: Any])?["token"]
                as? String, "\(readOnly.stdout) \(readOnly.stderr)")
        #expect(try await request("GET", "/v1/trash", token: readOnlyToken).status == 200)
        let refused = try await request(
            "POST", "/v1/trash/restore", #"{"identifiers": ["\#(firstID)"]}"#, token: readOnlyToken)
        #expect(refused.status == 403, "\(refused.text)")
        #expect(try await request("POST", "/v1/trash/empty", token: readOnlyToken).status == 403)
        #expect(FileManager.default.fileExists(atPath: trash + "/files/first.jpg"))

        // A dry run moves nothing.
        let dry = try await request("POST", "/v1/trash/restore", #"{"identifiers": ["\#(firstID)"], "dryRun": true}"#)
        #expect(dry.status == 200, "\(dry.text)")
        #expect(
            try JSONDecoder().decode(API.TrashResult.self, from: Data(dry.body))
                == API.TrashResult(
                    dryRun: true, assets: [.init(localIdentifier: firstID, files: [first])]))
        #expect(!FileManager.default.fileExists(atPath: first))

        // Restoring: the same asset, back at its path.
        let restored = try await request("POST", "/v1/trash/restore", #"{"identifiers": ["\#(firstID)"]}"#)
        #expect(restored.status == 200, "\(restored.text)")
        try expectConforms(restored, "TrashResult")
        #expect(
            try JSONDecoder().decode(API.TrashResult.self, from: Data(restored.body))
                == API.TrashResult(
                    dryRun: false, assets: [.init(localIdentifier: firstID, files: [first])]))
        #expect(FileManager.default.fileExists(atPath: first))
        #expect(!FileManager.default.fileExists(atPath: trash + "/files/first.jpg"))
        try await waitUntil("the restored asset in the library", whileRunning: daemon.process) {
            try await identifiers("/v1/assets") == [firstID]
        }
        #expect(try await identifiers("/v1/assets?in=\(albumID)") == [secondID])
        // The same request again: restored already, said so, and no error (it was a 404); an
        // identifier the library never had still is one.
        let again = try await request("POST", "/v1/trash/restore", #"{"identifiers": ["\#(firstID)"]}"#)
        #expect(again.status == 200, "restored already: \(again.text)")
        try expectConforms(again, "TrashResult")
        #expect(
            try JSONDecoder().decode(API.TrashResult.self, from: Data(again.body))
                == API.TrashResult(dryRun: false, assets: [], alreadyRestored: [firstID]))
        let never = "00000000-0000-0000-0000-000000000000/L0/001"
        let unknown = try await request(
            "POST", "/v1/trash/restore", #"{"identifiers": ["\#(firstID)", "\#(never)"]}"#)
        #expect(unknown.status == 404, "\(unknown.text)")
        #expect(unknown.text.contains(never), "\(unknown.text)")

        // `photos trash empty` goes through photosd when given its socket: a read-only token is refused
        // there (the library file would have let it), and a dry run says what photosd would erase.
        let libraryPath = directory.path("library.sqlite").path
        let cliRefused = try await offPool {
            try BuiltProducts.run(
                "photos", ["trash", "empty", "--library", libraryPath, "--socket", socket, "--token", readOnlyToken],
                environment: environment)
        }
        #expect(cliRefused.status != 0)
        #expect(cliRefused.stderr.contains("a read-only client cannot change the library"), "\(cliRefused.stderr)")
        #expect(FileManager.default.fileExists(atPath: trash + "/files/second.jpg"))
        let cliDry = try await offPool {
            try BuiltProducts.run(
                "photos", ["trash", "empty", "--dry-run", "--library", libraryPath, "--socket", socket],
                environment: environment)
        }
        #expect(cliDry.status == 0, "\(cliDry.stderr)")
        #expect(cliDry.stdout == "\(secondID)  would erase \(trash)/files/second.jpg\n")

        // A misspelt field is refused, never skipped: without its identifiers the request would
        // empty everything.
        let misspelt = try await request(
            "POST", "/v1/trash/empty", #"{"identifier": ["\#(secondID)"], "dryrun": true}"#)
        #expect(misspelt.status == 400, "\(misspelt.text)")
        #expect(misspelt.text.contains("unknown fields dryrun, identifier in a trash request"), "\(misspelt.text)")
        #expect(FileManager.default.fileExists(atPath: trash + "/files/second.jpg"))

        // Emptying: the rest is erased from the Trash, and the library forgets it.
        let emptied = try await request("POST", "/v1/trash/empty")
        #expect(emptied.status == 200, "\(emptied.text)")
        try expectConforms(emptied, "TrashResult")
        #expect(
            try JSONDecoder().decode(API.TrashResult.self, from: Data(emptied.body))
                == API.TrashResult(
                    dryRun: false, assets: [.init(localIdentifier: secondID, files: [trash + "/files/second.jpg"])]))
        #expect(!FileManager.default.fileExists(atPath: trash + "/files/second.jpg"))
        #expect(!FileManager.default.fileExists(atPath: trash + "/info/second.jpg.trashinfo"))
        #expect(
            try JSONDecoder().decode(API.TrashListing.self, from: Data(try await request("GET", "/v1/trash").body))
                .assets.isEmpty)
        #expect(FileManager.default.fileExists(atPath: first), "the restored photo stays")
    }
}
