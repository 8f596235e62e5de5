import Foundation
import PhotosCore
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// A photo added to a directory-backed album, and an album created in a directory-backed folder,
/// through the real photosd's API under a root with `write = "files"`: the files move, the directory
/// is made, and the daemon, seeing them, records nothing more (no echo) and keeps the empty album.
@Suite struct DaemonDirectoryAlbumTests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aPhotoMovedAndAnAlbumMadeThroughTheAPIReachTheDiskWithNoEcho() async throws {
        let sample = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let directory = try TemporaryDirectory(prefix: "photos-api-dir-albums")
        let root = directory.path("Pictures")
        for (folder, name) in [("Trip", "inn.jpg"), ("Trip", "road.jpg"), ("Zoo", "lion.jpg")] {
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
        func post(_ body: String) async throws -> API.ChangeBatchResult {
            let reply = try await offPool {
                try UnixHTTPClient.request(
                    socket, "POST", "/v1/changes", headers: ["Content-Type": "application/json"],
                    body: Array(body.utf8))
            }
            #expect(reply.status == 200, "\(reply.text)\n\(daemon.logText)")
            return try JSONDecoder().decode(API.ChangeBatchResult.self, from: Data(reply.body))
        }
        func listed(_ target: String, _ key: String) async throws -> [String: String] {
            let reply = try await get(target)
            let objects = try #require(try reply.object()[key] as? [[String: Any]], "\(reply.text)")
            return Dictionary(
                objects.compactMap { object in
                    (object["localizedTitle"] as? String).flatMap { title in
                        (object["localIdentifier"] as? String).map { (title, $0) }
                    }
                }, uniquingKeysWith: { first, _ in first })
        }
        func assets() async throws -> [String: String] {
            let reply = try await get("/v1/assets")
            let objects = try #require(try reply.object()["assets"] as? [[String: Any]], "\(reply.text)")
            var byPath: [String: String] = [:]
            for object in objects {
                for resource in object["resources"] as? [[String: Any]] ?? [] {
                    if let path = resource["path"] as? String { byPath[path] = object["localIdentifier"] as? String }
                }
            }
            return byPath
        }
        /// Drops a photo in and waits for it: once it is in, the daemon has seen what came before.
        func arrival(_ name: String, count: Int) async throws {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: sample, to: root.appendingPathComponent(name))
            try await waitUntil("photosd to ingest \(name); its log:\n\(daemon.logText)") {
                try await assets().count == count
            }
        }
        func changes(since token: Int64) async throws -> [LibraryChange] {
            let reply = try await get("/v1/changes?since=\(token)")
            return try reply.text.split(separator: "\n").map {
                try JSONDecoder().decode(LibraryChange.self, from: Data($0.utf8))
            }
        }

        let zoo = try #require(try await listed("/v1/albums?type=album", "albums")["Zoo"])
        let inn = try #require(try await assets()[root.path + "/Trip/inn.jpg"])
        let moved = try await post(
            #"{"changes": [{"op": "addToAlbum", "album": "\#(zoo)", "assets": ["\#(inn)"]}]}"#)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path + "/Zoo").sorted() == ["inn.jpg", "lion.jpg"])
        try await arrival("Trip/new.jpg", count: 4)
        let afterMove = try await changes(since: moved.token)
        #expect(afterMove.count == 1, "the arrival alone, no echo of the move")
        #expect(afterMove.allSatisfy { $0.asset.deleted.isEmpty && !$0.asset.updated.contains(inn) })
        #expect(try await assets()[root.path + "/Zoo/inn.jpg"] == inn, "the same asset")

        // `photos mv` through the daemon (--socket), whose roots' policies apply: it says what moved.
        // Its plan is read from the library photosd serves, not from another one the command would
        // find by default (here a user's default library, which knows none of these albums).
        let road = try #require(try await assets()[root.path + "/Trip/road.jpg"])
        let dataHome = directory.path("data-home").path
        try FileManager.default.createDirectory(atPath: dataHome + "/photosd", withIntermediateDirectories: true)
        _ = try LibraryDatabase(path: dataHome + "/photosd/library.sqlite")
        let cli = try await offPool {
            try BuiltProducts.run(
                "photos", ["mv", root.path + "/Trip/road.jpg", root.path + "/Zoo", "--socket", socket],
                environment: ["XDG_DATA_HOME": dataHome])
        }
        #expect(cli.status == 0, "\(cli.stderr)\n\(daemon.logText)")
        #expect(
            cli.stdout == "\(road)  moved \(root.path)/Trip/road.jpg -> \(root.path)/Zoo/road.jpg\n", "\(cli.stderr)")
        #expect(try await assets()[root.path + "/Zoo/road.jpg"] == road)

        let folders = try await listed("/v1/folders", "folders")
        let top = try #require(folders["Pictures"], "\(folders)")
        let made = try await post(
            #"{"changes": [{"op": "createAlbum", "title": "Birds", "folder": "\#(top)", "ref": "birds"}]}"#)
        let birds = try #require(made.created["birds"])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root.path + "/Birds", isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        // A photo in a new directory: the daemon settles the whole tree, and keeps the empty album.
        try await arrival("New/newer.jpg", count: 5)
        let afterMade = try await changes(since: made.token)
        #expect(afterMade.count == 1, "the arrival alone: the empty album is kept")
        #expect(afterMade.allSatisfy { $0.assetCollection.deleted.isEmpty })
        #expect(try await listed("/v1/albums?type=album", "albums")["Birds"] == birds)

        // `photos mv` of a photo into a user album, through this photosd: refused as without it (no
        // directory to move into), never turned into adding the photo to the album.
        let created = try await post(#"{"changes": [{"op": "createAlbum", "title": "Best", "ref": "best"}]}"#)
        let best = try #require(created.created["best"])
        let mv = try await offPool {
            try BuiltProducts.run(
                "photos",
                [
                    "mv", "--library", directory.path("library.sqlite").path, "--config", config.path, "--socket",
                    socket, inn, best,
                ])
        }
        #expect(mv.status != 0 && mv.stderr.contains("mirrors no directory"), "\(mv.stdout)\(mv.stderr)")
        let album = try await get("/v1/albums/\(best)")
        #expect(try album.object()["estimatedAssetCount"] as? Int == 0, "\(album.text)")
    }
}
