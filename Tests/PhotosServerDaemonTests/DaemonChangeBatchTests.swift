import Foundation
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

/// `POST /v1/changes` against the real `photosd`: a batch that imports a file, makes an album by
/// placeholder and fills it with the new asset and one the daemon ingested from its root; the album
/// is then in `GET /v1/albums`, and the batch's commit in the `GET /v1/changes` stream under the
/// token the answer gave.
@Suite struct DaemonChangeBatchTests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aBatchWithPlaceholdersReachesTheAlbumsAndTheChangeStream() async throws {
        let sample = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let directory = try TemporaryDirectory(prefix: "photos-api-batch")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sample, to: root.appendingPathComponent("Trip/inn.jpg"))
        // A file of the user's outside the watched root, to import by copy.
        let outside = directory.path("Downloads/new.jpg")
        try FileManager.default.createDirectory(
            at: outside.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sample, to: outside)
        let daemon = try await APIDaemon(directory: directory, root: root)
        let socket = daemon.socket
        func get(_ target: String) async throws -> UnixHTTPClient.Reply {
            try await offPool { try UnixHTTPClient.request(socket, "GET", target) }
        }

        // The startup scan ingested the root's photo.
        let listed = try await get("/v1/assets")
        let ingested = try #require(
            (try listed.object()["assets"] as? [[String: Any]])?.first?["localIdentifier"] as? String, "\(listed.text)")
        let health = try JSONDecoder().decode(API.Health.self, from: Data(try await get("/v1/health").body))
        let stream = try UnixHTTPClient(socket: socket)
        let head = try await offPool { try stream.send("GET", "/v1/changes?since=\(health.token)&follow=true") }
        #expect(head.status == 200)

        let body = #"""
            {"changes": [
              {"op": "createAsset", "path": "\#(outside.path)", "ref": "new"},
              {"op": "createAlbum", "title": "Best of", "ref": "best"},
              {"op": "addToAlbum", "album": "$best", "assets": ["$new", "\#(ingested)"]}
            ]}
            """#
        let reply = try await offPool {
            try UnixHTTPClient.request(
                socket, "POST", "/v1/changes", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        #expect(reply.status == 200, "\(reply.text)\n\(daemon.logText)")
        let result = try JSONDecoder().decode(API.ChangeBatchResult.self, from: Data(reply.body))
        let album = try #require(result.created["best"])
        let created = try #require(result.created["new"])
        #expect(result.token > health.token)
        // Copied, not taken: the user's file is where it was.
        #expect(try Data(contentsOf: outside) == (try Data(contentsOf: sample)))

        // The album, by listing and in order.
        let albums = try await get("/v1/albums?type=album")
        let described = try #require(
            (try albums.object()["albums"] as? [[String: Any]])?.first { $0["localIdentifier"] as? String == album },
            "\(albums.text)")
        #expect(described["localizedTitle"] as? String == "Best of")
        #expect(described["estimatedAssetCount"] as? Int == 2)
        let members = try await get("/v1/assets?in=\(album)")
        #expect(
            (try members.object()["assets"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String }
                == [created, ingested])

        // The stream's entry for the answer's token holds what the batch made.
        let token = result.token
        let line = try await offPool { () -> String? in
            for _ in 0..<20 {
                guard let line = try stream.nextLine() else { return nil }
                if (try? JSONDecoder().decode(LibraryChange.self, from: Data(line.utf8)))?.token == token {
                    return line
                }
            }
            return nil
        }
        let entry = try JSONDecoder().decode(
            LibraryChange.self, from: Data(try #require(line, "no entry \(token)").utf8))
        #expect(entry.assetCollection.inserted == [album])
        #expect(entry.asset.inserted == [created])
    }
}
