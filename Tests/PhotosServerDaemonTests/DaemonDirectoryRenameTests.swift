import Foundation
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

/// Renaming a directory-backed album through the real photosd's API, under a root with
/// `write = "files"`: the directory is renamed, and the daemon, seeing the rename, records nothing
/// more (no echo): one change in the log, the same identifiers.
@Suite struct DaemonDirectoryRenameTests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func anAlbumRenamedThroughTheAPIRenamesItsDirectoryAndTheDaemonRecordsNoEcho() async throws {
        let sample = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let directory = try TemporaryDirectory(prefix: "photos-api-rename")
        let root = directory.path("Pictures")
        for (folder, name) in [("Trip", "inn.jpg"), ("Zoo", "lion.jpg")] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: sample, to: root.appendingPathComponent("\(folder)/\(name)"))
        }
        let config = directory.path("config.toml")
        try Data("roots = [{ path = \"\(root.path)\", write = \"files\" }]\n".utf8).write(to: config)
        let daemon = try await APIDaemon(directory: directory, root: root, arguments: ["--config", config.path])
        let socket = daemon.socket
        func get(_ target: String) async throws -> UnixHTTPClient.Reply {
            try await offPool { try UnixHTTPClient.request(socket, "GET", target) }
        }
        func albums() async throws -> [String: String] {
            let listed = try await get("/v1/albums?type=album")
            let albums = try #require(try listed.object()["albums"] as? [[String: Any]], "\(listed.text)")
            return Dictionary(
                uniqueKeysWithValues: albums.compactMap { album in
                    (album["localizedTitle"] as? String).flatMap { title in
                        (album["localIdentifier"] as? String).map { (title, $0) }
                    }
                })
        }
        let zoo = try #require(try await albums()["Zoo"])
        func members() async throws -> [String] {
            let listed = try await get("/v1/assets?in=\(zoo)")
            return (try listed.object()["assets"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String }
                ?? []
        }
        let membersBefore = try await members()
        #expect(membersBefore.count == 1)

        let body = #"{"changes": [{"op": "renameAlbum", "album": "\#(zoo)", "title": "Aquarium"}]}"#
        let reply = try await offPool {
            try UnixHTTPClient.request(
                socket, "POST", "/v1/changes", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        }
        #expect(reply.status == 200, "\(reply.text)\n\(daemon.logText)")
        let result = try JSONDecoder().decode(API.ChangeBatchResult.self, from: Data(reply.body))
        // The root's own files of the library (its identifier log) aside.
        let entries = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
            !$0.hasPrefix(".photosd-")
        }.sorted()
        #expect(entries == ["Aquarium", "Trip"], "the directory is renamed")

        // A photo arriving after the rename: once it is in, the daemon has seen the rename too.
        try FileManager.default.copyItem(at: sample, to: root.appendingPathComponent("Trip/new.jpg"))
        try await waitUntil("photosd to ingest Trip/new.jpg; its log:\n\(daemon.logText)") {
            let listed = try await get("/v1/assets")
            return (try listed.object()["assets"] as? [[String: Any]])?.count == 3
        }
        let after = try await get("/v1/changes?since=\(result.token)")
        let changes = try after.text.split(separator: "\n").map {
            try JSONDecoder().decode(LibraryChange.self, from: Data($0.utf8))
        }
        #expect(changes.count == 1, "the arrival alone, no echo of the rename: \(after.text)")
        #expect(changes.allSatisfy { $0.asset.updated.isEmpty && $0.asset.deleted.isEmpty }, "\(after.text)")
        #expect(changes.allSatisfy { !$0.assetCollection.updated.contains(zoo) }, "\(after.text)")
        #expect(try await albums()["Aquarium"] == zoo, "the same album")

        // `photos mv` through the daemon (--socket): its policies, its commit.
        let trip = try #require(try await albums()["Trip"])
        let moved = try await offPool {
            try BuiltProducts.run("photos", ["mv", root.path + "/Trip", "Travel", "--socket", socket])
        }
        #expect(moved.status == 0, "\(moved.stderr)\n\(daemon.logText)")
        #expect(moved.stdout == "album \(root.path)/Trip -> \(root.path)/Travel\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix(".photosd-") }
                .sorted()
                == ["Aquarium", "Travel"])
        #expect(try await albums()["Travel"] == trip)
        #expect(try await members() == membersBefore, "the same assets")
    }
}
