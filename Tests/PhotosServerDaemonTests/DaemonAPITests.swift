import Foundation
import Glibc
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

/// The real `photosd` with its API on a socket of the test's: a photo dropped into a watched root
/// reaches a follow stream and the listings, and SIGTERM with a stream attached exits promptly.
@Suite struct DaemonAPITests {
    @Test func aNewPhotoReachesTheStreamAndTheListingsAndSIGTERMEndsTheStream() async throws {
        guard let sample = Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg") else {
            print("⚠️ DaemonAPITests: ../shared/corpus is absent; skipping the end-to-end API test")
            return
        }
        let directory = try TemporaryDirectory(prefix: "photos-api")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        let daemon = try await APIDaemon(directory: directory, root: root)
        let (process, socket) = (daemon.process, daemon.socket)
        func daemonLog() -> String { daemon.logText }

        // The directory holding the socket was made private; the socket too.
        var info = stat()
        #expect(stat((socket as NSString).deletingLastPathComponent, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600)

        let health = try JSONDecoder().decode(
            API.Health.self,
            from: Data(try await offPool { try UnixHTTPClient.request(socket, "GET", "/v1/health") }.body))
        let stream = try UnixHTTPClient(socket: socket)
        let head = try await offPool { try stream.send("GET", "/v1/changes?since=\(health.token)&follow=true") }
        #expect(head.status == 200)

        let copy = root.appendingPathComponent("Trip/inn.jpg")
        try FileManager.default.copyItem(at: sample, to: copy)
        let line = try #require(try await offPool { try stream.nextLine() }, "no change streamed:\n\(daemonLog())")
        let entry = try JSONDecoder().decode(LibraryChange.self, from: Data(line.utf8))
        #expect(entry.token > health.token)
        let identifier = try #require(entry.asset.inserted.first, "\(line)")
        // The album its directory became came in the same entry.
        #expect(!entry.assetCollection.inserted.isEmpty)

        let reply = try await offPool { try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(identifier)") }
        #expect(reply.status == 200, "\(reply.text)")
        let asset = try JSONDecoder().decode(AssetDescription.self, from: Data(reply.body))
        #expect(asset.resources.first?.path == copy.path)
        #expect(asset.albums.map(\.localizedTitle) == ["Trip"])
        #expect(asset.pixelWidth > 0 && asset.creationDate != nil)
        // Its file, whole, in part, and not again when unchanged.
        let bytes = [UInt8](try Data(contentsOf: copy))
        let original = try await offPool {
            try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(identifier)/original")
        }
        #expect(original.status == 200)
        #expect(original.body == bytes)
        #expect(original.headers["content-type"] == "image/jpeg")
        #expect(original.headers["accept-ranges"] == "bytes")
        let etag = try #require(original.headers["etag"])
        let byType = try await offPool {
            try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(identifier)/resources/photo")
        }
        #expect(byType.body == bytes)
        for (range, expected) in [
            ("bytes=0-99", 0..<100), ("bytes=-10", bytes.count - 10..<bytes.count),
            ("bytes=100-", 100..<bytes.count),
        ] {
            let part = try await offPool {
                try UnixHTTPClient.request(
                    socket, "GET", "/v1/assets/\(identifier)/original", headers: ["Range": range])
            }
            #expect(part.status == 206, "\(range)")
            #expect(part.body == Array(bytes[expected]), "\(range)")
            #expect(
                part.headers["content-range"]
                    == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(bytes.count)")
        }
        let unchanged = try await offPool {
            try UnixHTTPClient.request(
                socket, "GET", "/v1/assets/\(identifier)/original", headers: ["If-None-Match": etag])
        }
        #expect(unchanged.status == 304 && unchanged.body.isEmpty)
        let beyond = try await offPool {
            try UnixHTTPClient.request(
                socket, "GET", "/v1/assets/\(identifier)/original", headers: ["Range": "bytes=999999999-"])
        }
        #expect(beyond.status == 416)
        #expect(beyond.headers["content-range"] == "bytes */\(bytes.count)")
        let noVideo = try await offPool {
            try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(identifier)/resources/video")
        }
        #expect(noVideo.status == 404)

        let listing = try await offPool {
            try UnixHTTPClient.request(socket, "GET", "/v1/assets?predicate=mediaType+%3D%3D+1")
        }
        let page = try JSONDecoder().decode([String: [AssetDescription]].self, from: Data(listing.body))
        #expect(page["assets"]?.map(\.localIdentifier) == [identifier])
        let status = try await offPool { try UnixHTTPClient.request(socket, "GET", "/v1/status") }
        #expect(try JSONDecoder().decode(DaemonStatus.self, from: Data(status.body)).roots.map(\.path) == [root.path])

        // SIGTERM with the stream attached: the stream ends and photosd exits 0, promptly.
        let stopped = ContinuousClock.now
        process.terminate()
        #expect(try await offPool { try stream.nextLine() } == nil)
        try await waitForExit(
            of: process, "photosd to exit within 10 s of SIGTERM",
            timeout: .seconds(10) - (ContinuousClock.now - stopped))
        #expect(process.terminationStatus == 0, "\(daemonLog())")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// A photo whose name, and whose folder's, are not UTF-8 (`caf\xE9.jpg` in a folder named with
    /// 0xFF) has its original, its file's ranges and its camera details served, as any photo has.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aPhotoNamedWithBytesThatAreNotUTF8IsServedWhole() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-api-bytes")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let folder = PathBytes.string(Array(root.path.utf8) + [0x2F, 0xFF] + Array("older".utf8))
        #expect(PathBytes.withCString(folder) { mkdir($0, 0o755) } == 0)
        let path = folder + "/" + PathBytes.string(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let bytes = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        let descriptor = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        try #require(descriptor >= 0)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(descriptor)
        let daemon = try await APIDaemon(directory: directory, root: root)
        let socket = daemon.socket

        let listing = try await offPool { try UnixHTTPClient.request(socket, "GET", "/v1/assets") }
        let page = try JSONDecoder().decode([String: [AssetDescription]].self, from: Data(listing.body))
        let asset = try #require(page["assets"]?.first, "\(listing.text)")
        let identifier = asset.localIdentifier
        let original = try await offPool {
            try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(identifier)/original")
        }
        #expect(original.status == 200, "\(original.text)")
        #expect(Data(original.body) == bytes)
        let part = try await offPool {
            try UnixHTTPClient.request(
                socket, "GET", "/v1/assets/\(identifier)/resources/photo", headers: ["Range": "bytes=10-19"])
        }
        #expect(part.status == 206 && Data(part.body) == bytes[10..<20], "\(part.text)")
        let metadata = try await offPool {
            try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(identifier)/metadata")
        }
        #expect(metadata.status == 200, "\(metadata.text)")
        let camera = try JSONDecoder().decode(API.AssetMetadata.self, from: Data(metadata.body)).camera
        #expect(camera.model == "Canon PowerShot S5 IS", "the file's EXIF, read: \(metadata.text)")
    }
}
