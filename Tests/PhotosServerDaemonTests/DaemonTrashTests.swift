import Foundation
import PhotosTestSupport
import PhotosWire
import Testing

/// Deleting through the real `photosd` under a root with `write = "files"`: `POST /v1/changes` moves
/// the photo to the Trash (a Trash of the test's own), and when trash-cli's `trash-restore` brings
/// it back, the daemon's watcher finds the same file at its path and the same asset returns, with
/// its album.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DaemonTrashTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/trash-restore"), "needs trash-cli"))
    func aPhotoDeletedThroughTheAPIAndRestoredByTrashCLIComesBackWithItsIdentifierAndAlbum() async throws {
        let sample = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let directory = try TemporaryDirectory(prefix: "photosd-trash")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        let photo = root.appendingPathComponent("Trip/inn.jpg").path
        try FileManager.default.copyItem(atPath: sample.path, toPath: photo)
        let config = directory.path("photosd.toml")
        try Data("roots = [{ path = \"\(root.path)\", write = \"files\" }]\n".utf8).write(to: config)
        let environment = ["XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path]
        let daemon = try await APIDaemon(
            directory: directory, root: root, arguments: ["--config", config.path], environment: environment)
        let socket = daemon.socket
        func get(_ target: String) async throws -> UnixHTTPClient.Reply {
            try await offPool { try UnixHTTPClient.request(socket, "GET", target) }
        }
        func post(_ body: String) async throws -> UnixHTTPClient.Reply {
            try await offPool {
                try UnixHTTPClient.request(
                    socket, "POST", "/v1/changes", headers: ["Content-Type": "application/json"], body: Array(body.utf8)
                )
            }
        }
        func identifiers(_ target: String) async throws -> [String] {
            let reply = try await get(target)
            return (try reply.object()["assets"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String }
                ?? []
        }

        var ingested: String?
        try await waitUntil("the startup scan's photo", whileRunning: daemon.process) {
            ingested = try await identifiers("/v1/assets").first
            return ingested != nil
        }
        let identifier = try #require(ingested)
        let made = try await post(
            #"{"changes": [{"op": "createAlbum", "title": "Best", "ref": "best"}, "#
                + #"{"op": "addToAlbum", "album": "$best", "assets": ["\#(identifier)"]}]}"#)
        #expect(made.status == 200, "\(made.text)")
        let album = try #require(
            try JSONDecoder().decode(API.ChangeBatchResult.self, from: Data(made.body)).created["best"])

        let deleted = try await post(#"{"changes": [{"op": "deleteAssets", "assets": ["\#(identifier)"]}]}"#)
        #expect(deleted.status == 200, "\(deleted.text)\n\(daemon.logText)")
        let trashed = directory.path("data/Trash/files/inn.jpg").path
        #expect(FileManager.default.fileExists(atPath: trashed), "in the test's own Trash")
        #expect(!FileManager.default.fileExists(atPath: photo))
        #expect(try await identifiers("/v1/assets").isEmpty)
        #expect(try await identifiers("/v1/assets?in=\(album)").isEmpty)

        let status = try await offPool {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/trash-restore")
            process.arguments = [photo]
            process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { old, _ in old }
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data("0\n".utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: photo))
        try await waitUntil("the restored photo's asset, in its album", whileRunning: daemon.process) {
            try await identifiers("/v1/assets?in=\(album)") == [identifier]
        }
        #expect(try await identifiers("/v1/assets") == [identifier], "the same asset, not a new one")
    }
}
