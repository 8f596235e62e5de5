import Foundation
import Logging
import Photos
import PhotosTestSupport
import PhotosWire
import ServiceLifecycle
import Testing

@testable import PhotosServer

/// The API in this process over the fixture library, on a socket of its own: what each endpoint
/// answers, its errors, paging, and the change stream.
@Suite struct APIServerTests {
    /// Runs the server over a fresh fixture for `body`, then stops it gracefully.
    static func withServer(
        status: DaemonStatus? = nil, startup: StartupProgress? = nil,
        maximumStreams: Int = APIServer.defaultMaximumStreams,
        idleTimeout: Duration = APIServer.defaultIdleTimeout, ownerUID: uid_t? = getuid(), listen: ListenAddress? = nil,
        _ body: (_ socket: String, _ fixture: LibraryFixture) async throws -> Void
    ) async throws {
        let fixture = try LibraryFixture()
        try await withServer(
            library: fixture.library, socket: fixture.directory.path("api.sock").path, status: status, startup: startup,
            maximumStreams: maximumStreams, idleTimeout: idleTimeout, ownerUID: ownerUID, listen: listen
        ) { socket in try await body(socket, fixture) }
    }

    /// Runs the server over `library` on `socket` for `body`, then stops it gracefully.
    static func withServer(
        library: PHPhotoLibrary, socket: String, status: DaemonStatus? = nil, startup: StartupProgress? = nil,
        maximumStreams: Int = APIServer.defaultMaximumStreams, idleTimeout: Duration = APIServer.defaultIdleTimeout,
        ownerUID: uid_t? = getuid(), listen: ListenAddress? = nil,
        _ body: (_ socket: String) async throws -> Void
    ) async throws {
        let listening = AsyncStream<Void>.makeStream()
        let server = APIServer(
            socketPath: socket, library: library, status: { status }, startup: { startup },
            logger: Logger(label: "api-test"),
            maximumStreams: maximumStreams, idleTimeout: idleTimeout, listen: listen, ownerUID: ownerUID,
            onListening: { listening.continuation.yield() })
        let group = ServiceGroup(
            configuration: .init(services: [server], gracefulShutdownSignals: [], logger: Logger(label: "api-test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var ready = listening.stream.makeAsyncIterator()
            _ = await ready.next()
            do {
                try await body(socket)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        // The socket is the server's: gone once it stops.
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    static func get(_ socket: String, _ target: String, headers: [String: String] = [:]) async throws
        -> UnixHTTPClient.Reply
    {
        try await offPool { try UnixHTTPClient.request(socket, "GET", target, headers: headers) }
    }

    @Test func healthAndTheSocketsMode() async throws {
        let status = OperationsRouteTests.status(roots: [("/p", "watching")])
        try await Self.withServer(status: status) { socket, fixture in
            let reply = try await Self.get(socket, "/v1/health")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json")
            let health = try JSONDecoder().decode(API.Health.self, from: Data(reply.body))
            #expect(health.status == "ok")
            #expect(health.token == (try fixture.library.database.currentToken()))
            var info = stat()
            #expect(lstat(socket, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
        }
    }

    /// Every path that answers GET answers HEAD (RFC 9110 9.3.2): GET's status and headers, no
    /// body; a 405 names HEAD beside GET.
    @Test func everyPathThatAnswersGETAnswersHEAD() async throws {
        let status = OperationsRouteTests.status(roots: [("/p", "watching")])
        try await Self.withServer(status: status) { socket, _ in
            for target in [
                "/v1/health", "/v1/version", "/v1/status", "/v1/assets?limit=2", "/v1/albums", "/v1/folders",
                "/v1/openapi.json", "/metrics", "/v1/trash", "/v1/days", "/v1/nothing-here",
            ] {
                let get = try await Self.get(socket, target)
                let head = try await offPool { try UnixHTTPClient.request(socket, "HEAD", target) }
                #expect(head.status == get.status && head.body.isEmpty, "HEAD \(target): \(head.status)")
                #expect(head.headers["content-type"] == get.headers["content-type"], "HEAD \(target)")
                if let length = head.headers["content-length"], get.headers["transfer-encoding"] == nil {
                    #expect(length == "\(get.body.count)", "HEAD \(target)")
                }
            }
            let refused = try await offPool { try UnixHTTPClient.request(socket, "DELETE", "/v1/health") }
            #expect(refused.status == 405 && refused.headers["allow"] == "GET, HEAD", "\(refused.headers)")
        }
    }

    @Test func assetsListTheFetchWithPredicateSortAndLimit() async throws {
        try await Self.withServer { socket, fixture in
            // The same fetch in process, described as the CLI's --json describes it.
            let options = fixture.options {
                $0.predicate = NSPredicate(format: "favorite == YES")
                $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            }
            var expected: [AssetDescription] = []
            try PHAsset.fetchAssets(with: options).forEachDescriptionPage { expected += $0 }
            #expect(expected.count == 3)

            let reply = try await Self.get(socket, "/v1/assets?predicate=favorite+%3D%3D+YES&sort=-creationDate")
            #expect(reply.status == 200, "\(reply.text)")
            let page = try JSONDecoder().decode([String: [AssetDescription]].self, from: Data(reply.body))
            #expect(page["assets"] == expected)

            let limited = try await Self.get(socket, "/v1/assets?sort=creationDate&limit=2")
            let oldestTwo = fixture.names(
                PHAsset.fetchAssets(
                    with: fixture.options {
                        $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
                        $0.fetchLimit = 2
                    }))
            #expect(oldestTwo.count == 2)
            #expect(try Self.assetNames(limited) == oldestTwo)
        }
    }

    @Test func pagesFollowTheirCursorWhileTheLibraryChanges() async throws {
        try await Self.withServer { socket, fixture in
            var all: [String] = []
            var target = "/v1/assets?sort=creationDate&includeAllBursts=true&pageSize=3"
            var pages = 0
            while true {
                let reply = try await Self.get(socket, target)
                #expect(reply.status == 200, "\(reply.text)")
                let object = try reply.object()
                all += try Self.assetNames(reply)
                pages += 1
                if pages == 1 {
                    // A deletion of what the first page listed: a listing that ran its query again
                    // from an offset would now skip one; the cursor's snapshot does not shift.
                    let first = fixture.asset(all[0])
                    try fixture.library.performChangesAndWait {
                        PHAssetChangeRequest.deleteAssets([first] as NSArray)
                    }
                }
                guard let next = object["next"] as? String else { break }
                target = "/v1/assets?next=\(next)&pageSize=3"
            }
            let fresh = fixture.names(
                PHAsset.fetchAssets(
                    with: fixture.options {
                        $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
                        $0.includeAllBurstAssets = true
                    }))
            #expect(!fresh.contains(all[0]))
            #expect(all == [all[0]] + fresh)
            #expect(pages == 4)
            // A cursor serves once.
            let again = try await Self.get(socket, target)
            #expect(again.status == 404)
        }
    }

    /// Clients that connect and stall (sending nothing, half a head, half a body) are closed after
    /// the idle timeout while others are served; a follow stream quiet for longer is not cut.
    @Test func stalledClientsAreClosedAndQuietStreamsAreNot() async throws {
        try await Self.withServer(idleTimeout: .milliseconds(400)) { socket, fixture in
            let follower = try UnixHTTPClient(socket: socket, timeout: 10)
            let since = try fixture.library.database.currentToken()
            _ = try await offPool { try follower.send("GET", "/v1/changes?since=\(since)&follow=true") }
            let started = ContinuousClock.now
            let stalled = try [
                "", "GET /v1/health HTTP/1.1\r\nHost: photosd\r\n",
                "POST /v1/changes HTTP/1.1\r\nHost: photosd\r\nContent-Length: 100\r\n\r\n{\"changes\"",
            ].map { try StalledClient(socket: socket, sending: $0) }
            #expect(try await Self.get(socket, "/v1/health").status == 200)
            for client in stalled {
                #expect(try await offPool { try client.waitForClose(seconds: 10) }, "\(client.sent)")
            }
            #expect(ContinuousClock.now - started >= .milliseconds(350))
            // The stream, quiet for three timeouts and more, still brings the next change.
            // Kept: the quiet time is what is tested (the stream outlives the idle timeouts).
            try await Task.sleep(for: .milliseconds(1_200))
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
            let line = try await offPool { try follower.nextLine() }
            #expect(line?.contains(beach.localIdentifier) == true, "\(line ?? "the stream ended")")
        }
    }

    /// A raw connection that sends `sent` and then nothing.
    final class StalledClient: Sendable {
        let descriptor: Int32
        let sent: String

        init(socket path: String, sending text: String) throws {
            descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            sent = text
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(connected == 0)
            let bytes = Array(text.utf8)
            try #require(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        }

        deinit { close(descriptor) }

        /// What the server sent, read until `done` says it is all or 10 seconds passed.
        func received(until done: (String) -> Bool) throws -> String {
            var limit = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !done(String(decoding: received, as: UTF8.self)) {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                received += buffer.prefix(count)
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// Whether the server closed the connection (end of file, or a reset) within `seconds`,
        /// having answered nothing.
        func waitForClose(seconds: Int) throws -> Bool {
            var limit = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            return count == 0 || (count < 0 && errno == ECONNRESET)
        }
    }

    /// A stream's records: a JSON line, or an SSE event with its id and event name when given.
    @Test func streamRecordsAreLinesOrEvents() {
        let json = Array(#"{"a":1}"#.utf8)
        let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        #expect(text(StreamFormat.lines.record(json, id: 3, event: "error")) == "{\"a\":1}\n")
        #expect(text(StreamFormat.events.record(json)) == "data: {\"a\":1}\n\n")
        #expect(
            text(StreamFormat.events.record(json, id: 3, event: "error")) == "id: 3\nevent: error\ndata: {\"a\":1}\n\n")
        #expect(text(StreamFormat.events.start(after: 7)) == "id: 7\n\n" && StreamFormat.lines.start(after: 7).isEmpty)
        #expect(StreamFormat.events.contentType == "text/event-stream")
        #expect(StreamFormat.lines.contentType == "application/x-ndjson")
    }

    /// A cursor pages its own listing only: another endpoint answers 404 and leaves it to its own.
    @Test func aCursorServesOnlyItsOwnListing() async throws {
        try await Self.withServer { socket, _ in
            let first = try await Self.get(socket, "/v1/assets?pageSize=1").object()
            let cursor = try #require(first["next"] as? String)
            for other in ["/v1/folders", "/v1/albums"] {
                let reply = try await Self.get(socket, "\(other)?next=\(cursor)")
                #expect(reply.status == 404, "\(other): \(reply.text)")
            }
            let second = try await Self.get(socket, "/v1/assets?next=\(cursor)&pageSize=1")
            #expect(second.status == 200)
            #expect(try #require(second.object()["assets"] as? [[String: Any]]).count == 1)
        }
    }

    /// `Accept: application/x-ndjson`: the whole listing, one object a line, what the pages hold
    /// together; paging it is a 400.
    @Test func wholeListingsAsJSONLines() async throws {
        try await Self.withServer { socket, fixture in
            let lines = ["Accept": "application/x-ndjson"]
            for listing in ["assets", "albums", "folders"] {
                var paged: [[String: Any]] = []
                var target = "/v1/\(listing)?pageSize=1"
                while true {
                    let object = try await Self.get(socket, target).object()
                    paged += try #require(object[listing] as? [[String: Any]])
                    guard let next = object["next"] as? String else { break }
                    target = "/v1/\(listing)?next=\(next)"
                }
                let whole = try await Self.get(socket, "/v1/\(listing)", headers: lines)
                #expect(whole.status == 200)
                #expect(whole.headers["content-type"] == "application/x-ndjson")
                let objects = try whole.text.split(separator: "\n").map {
                    try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                }
                #expect(objects.count == paged.count && !objects.isEmpty, "\(listing)")
                #expect(
                    objects.map { $0["localIdentifier"] as? String } == paged.map { $0["localIdentifier"] as? String })
            }
            let sorted = try await Self.get(
                socket, "/v1/assets?sort=creationDate&includeAllBursts=true", headers: lines)
            let names = try sorted.text.split(separator: "\n").map {
                try JSONDecoder().decode(AssetDescription.self, from: Data($0.utf8)).localIdentifier
            }
            let expected = PHAsset.fetchAssets(
                with: fixture.options {
                    $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
                    $0.includeAllBurstAssets = true
                })
            #expect(names == (0..<expected.count).map { expected.object(at: $0).localIdentifier })
            let paging = try await Self.get(socket, "/v1/assets?pageSize=2", headers: lines)
            #expect(paging.status == 400)
            #expect(paging.errorMessage.contains("pageSize"), "\(paging.text)")
        }
    }

    @Test func objectsByIdentifierWithSlashesEncodedOrNot() async throws {
        try await Self.withServer { socket, fixture in
            let identifier = try #require(fixture.assets["secret.jpg"])
            #expect(identifier.contains("/"))
            for target in [
                "/v1/assets/\(identifier)",
                "/v1/assets/\(identifier.replacingOccurrences(of: "/", with: "%2F"))",
            ] {
                let reply = try await Self.get(socket, target)
                #expect(reply.status == 200, "\(target): \(reply.text)")
                let asset = try JSONDecoder().decode(AssetDescription.self, from: Data(reply.body))
                #expect(asset.localIdentifier == identifier)
                #expect(asset.isHidden)
            }
            let trip = try #require(fixture.collections["Trip"])
            let album = try await Self.get(socket, "/v1/albums/\(trip)")
            #expect(try album.object()["localizedTitle"] as? String == "Trip")
            let folder = try await Self.get(socket, "/v1/folders/\(try #require(fixture.collections["2020"]))")
            #expect(try folder.object()["localizedTitle"] as? String == "2020")
            let inTrip = try await Self.get(socket, "/v1/assets?in=\(trip)")
            #expect(try Self.assetNames(inTrip) == ["beach.jpg", "pano.jpg", "movie.mov"])
            let albums = try await Self.get(socket, "/v1/albums?type=album")
            #expect(
                try (albums.object()["albums"] as? [[String: Any]])?.compactMap { $0["localizedTitle"] as? String }
                    .sorted()
                    == ["Trip", "Winter"])
        }
    }

    @Test(arguments: [
        ("/v1/assets?predicate=colour+%3D%3D+1", 400),
        ("/v1/assets?sort=flavour", 400),
        ("/v1/assets?limit=-1", 400),
        ("/v1/assets?pageSize=0", 400),
        ("/v1/assets?includeHidden=maybe", 400),
        ("/v1/assets?colour=red", 400),
        ("/v1/assets?next=nope", 404),
        ("/v1/assets/nope", 404),
        ("/v1/albums/nope", 404),
        ("/v1/assets?in=nope", 404),
        ("/v1/albums?type=folder", 400),
        ("/v1/changes?since=abc", 400),
        ("/v1/nothing", 404),
        ("/v1/status", 503),
    ])
    func badRequestsGetTheErrorShape(target: String, status: Int) async throws {
        try await Self.withServer { socket, _ in
            let reply = try await Self.get(socket, target)
            #expect(reply.status == status, "\(target): \(reply.text)")
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
            #expect(error.error.code == status)
            #expect(error.error.domain == "HTTP")
            #expect(!error.error.message.isEmpty)
        }
    }

    @Test func statusIsTheDaemons() async throws {
        let status = DaemonStatus(
            pid: 42, startedAt: 1, updatedAt: 2, roots: [.init(path: "/p", state: "watching", reason: nil)], watches: 3,
            watchBudget: 100, unwatchedDirectories: 0, queueDepth: 0, ingested: 5, updated: 0, moved: 0, removed: 0,
            rejected: 0, lastErrors: [])
        try await Self.withServer(status: status) { socket, _ in
            let reply = try await Self.get(socket, "/v1/status")
            #expect(reply.status == 200)
            #expect(try JSONDecoder().decode(DaemonStatus.self, from: Data(reply.body)) == status)
        }
    }

    @Test func statusDuringTheStartupCrawlSaysHowFarItIs() async throws {
        let progress = StartupProgress(
            pid: 42, startedAt: 1, updatedAt: 2, done: false, directoriesDone: 120, directories: 300, filesSeen: 5000,
            ingested: 4000, rejected: 2, seconds: 12.4)
        try await Self.withServer(startup: progress) { socket, _ in
            let reply = try await Self.get(socket, "/v1/status")
            #expect(reply.status == 503)
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
            // The words `photos status` prints while photosd crawls.
            #expect(error.error.message == "photosd is starting: \(progress.summary)")
            #expect(progress.summary.hasPrefix("startup crawl: 120 of 300 directories, 5000 files seen"))
        }
    }

    @Test func changesAreTheLogThenAStreamOfCommits() async throws {
        try await Self.withServer { socket, fixture in
            let database = fixture.library.database
            let token = try database.currentToken()
            // Without follow: the log after the token, then the end.
            let log = try await Self.get(socket, "/v1/changes?since=0")
            #expect(log.status == 200)
            #expect(log.headers["content-type"] == "application/x-ndjson")
            let lines = log.text.split(separator: "\n")
            #expect(lines.count == (try database.changes(after: 0).count))
            let last = try JSONDecoder().decode(LibraryChange.self, from: Data(lines.last!.utf8))
            #expect(last.token == token)

            // With follow: each commit as it lands, as NDJSON and as SSE.
            let stream = try UnixHTTPClient(socket: socket)
            let head = try await offPool { try stream.send("GET", "/v1/changes?since=\(token)&follow=true") }
            #expect(head.status == 200)
            let events = try UnixHTTPClient(socket: socket)
            _ = try await offPool {
                try events.send("GET", "/v1/changes?since=\(token)&follow=1", headers: ["Accept": "text/event-stream"])
            }
            // An event of its start alone first: an EventSource that reconnects resumes there.
            #expect(try await offPool { [try events.nextLine(), try events.nextLine()] } == ["id: \(token)", ""])
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: beach).isHidden = true
            }
            let line = try #require(try await offPool { try stream.nextLine() })
            let entry = try JSONDecoder().decode(LibraryChange.self, from: Data(line.utf8))
            #expect(entry.token == token + 1)
            #expect(entry.asset.updated == [beach.localIdentifier])
            #expect(try await offPool { try events.nextLine() } == "id: \(token + 1)")
            let data = try #require(try await offPool { try events.nextLine() })
            #expect(data.hasPrefix("data: {"))
            #expect(try JSONDecoder().decode(LibraryChange.self, from: Data(data.dropFirst(6).utf8)) == entry)
        }
        // (withServer's graceful shutdown ended both streams: it returned.)
    }

    @Test func followStreamsAreBoundedAndAClosedOneFreesItsPlace() async throws {
        try await Self.withServer(maximumStreams: 2) { socket, fixture in
            let beach = fixture.asset("beach.jpg")
            var streams: [UnixHTTPClient] = []
            for _ in 0..<2 {
                let stream = try UnixHTTPClient(socket: socket)
                #expect(try await offPool { try stream.send("GET", "/v1/changes?follow=true") }.status == 200)
                streams.append(stream)
            }
            let refused = try await Self.get(socket, "/v1/changes?follow=true")
            #expect(refused.status == 503)
            #expect(try refused.object()["error"] != nil)
            // The log without follow is not a stream: still served.
            #expect(try await Self.get(socket, "/v1/changes").status == 200)
            // A client that leaves frees its place, once the server sees it gone (its next write).
            streams.removeFirst()
            try await waitUntil("a new stream to be admitted once the server sees the closed one") {
                // A commit makes the server write to every stream, and find the closed one.
                try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
                let again = try UnixHTTPClient(socket: socket)
                let head = try await offPool { try again.send("GET", "/v1/changes?follow=true") }
                if head.status == 200 { streams.append(again) }
                return head.status == 200
            }
        }
    }

    /// HEAD of a follow stream answers its head and takes no place among the streams, however
    /// long its connection stays open.
    @Test func aHeadOfAFollowStreamTakesNoPlace() async throws {
        try await Self.withServer(maximumStreams: 1) { socket, _ in
            // Three HEADs on one kept-alive connection that stays open.
            let request = "HEAD /v1/changes?follow=true HTTP/1.1\r\nHost: photosd\r\n\r\n"
            let asking = try StalledClient(socket: socket, sending: String(repeating: request, count: 3))
            let answers = try await offPool {
                try asking.received(until: { $0.components(separatedBy: "\r\n\r\n").count > 3 })
            }
            let heads = answers.components(separatedBy: "\r\n\r\n").dropLast()
            #expect(heads.count == 3 && heads.allSatisfy { $0.hasPrefix("HTTP/1.1 200") }, "\(answers)")
            #expect(heads.allSatisfy { $0.lowercased().contains("content-type: application/x-ndjson") })

            let stream = try UnixHTTPClient(socket: socket)
            #expect(try await offPool { try stream.send("GET", "/v1/changes?follow=true") }.status == 200)
            // HEAD says what GET says, the refusal of one stream too many included.
            let refused = try await offPool { try UnixHTTPClient.request(socket, "HEAD", "/v1/changes?follow=true") }
            #expect(refused.status == 503 && refused.body.isEmpty)
            #expect(
                try await offPool { try UnixHTTPClient.request(socket, "HEAD", "/v1/changes?since=-1") }.status == 400)
        }
    }

    @Test func anExpiredTokenIs410With3105() async throws {
        try await Self.withServer { socket, fixture in
            let beach = fixture.asset("beach.jpg")
            for _ in 0..<3 {
                try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
            }
            _ = try fixture.library.database.pruneHistory(keeping: 1)
            let reply = try await Self.get(socket, "/v1/changes?since=1&follow=true")
            #expect(reply.status == 410)
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
            #expect(error.error.code == 3105)
            #expect(error.error.domain == PHPhotosErrorDomain)
        }
    }

    @Test func aSocketFileThatIsNotASocketIsLeftAloneAndTheServerDoesNotStart() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("photosd.sock").path
        try Data("a user's file".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: APIStartError.self) { try SocketFile.prepare(path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a user's file")
    }

    @Test(arguments: [
        ("bytes=0-0", 0...0), ("bytes=0-9", 0...9), ("bytes=5-", 5...9), ("bytes=-3", 7...9), ("bytes=-30", 0...9),
        ("bytes=8-100", 8...9),
    ])
    func byteRangesWithinTenBytes(header: String, expected: ClosedRange<Int>) {
        #expect(ResourceRoutes.byteRange(header, size: 10) == .range(expected))
    }

    @Test(arguments: ["bytes=10-", "bytes=-0", "bytes=10-12", "bytes=99999999999999999999-"])
    func unsatisfiableByteRanges(header: String) {
        #expect(ResourceRoutes.byteRange(header, size: 10) == .unsatisfiable)
        #expect(ResourceRoutes.byteRange(header, size: 0) == .unsatisfiable)
    }

    /// RFC 9110 14.2: a unit the server does not know, and a range that does not parse, are ignored;
    /// so are several ranges here (answered whole rather than as multipart/byteranges).
    @Test(arguments: ["bytes=5-2", "bytes=0-1,4-5", "items=0-1", "bytes=x-1", "bytes=-", "bytes=+1-2", "bytes 0-1"])
    func ignoredByteRanges(header: String) {
        #expect(ResourceRoutes.byteRange(header, size: 10) == .ignored)
    }

    @Test(arguments: [
        ("\"a\"", true), ("W/\"a\"", true), ("\"b\", \"a\"", true), ("\"a\",\"b\"", true), (" * ", true),
        ("\"b\", W/\"a\"", true), ("\"b\"", false), ("\"a", false), ("a", false), ("\"b\", *", false), ("", false),
    ])
    func ifNoneMatchListsAndWeakTagsNameATagByWeakComparison(header: String, matches: Bool) {
        #expect(EntityTag.anyMatches(header, "\"a\"") == matches)
    }

    @Test func resourcePathsAreToldFromIdentifiers() {
        #expect(ResourceRoutes.resource(in: "A/L0/001/original")! == ("A/L0/001", nil))
        #expect(ResourceRoutes.resource(in: "A/L0/001/resources/pairedVideo")! == ("A/L0/001", "pairedVideo"))
        #expect(ResourceRoutes.resource(in: "A/L0/001") == nil)
    }

    static func assetNames(_ reply: UnixHTTPClient.Reply) throws -> [String] {
        let assets = try #require(try reply.object()["assets"] as? [[String: Any]], "\(reply.text)")
        return assets.compactMap { asset in
            ((asset["resources"] as? [[String: Any]])?.first?["path"] as? String).map {
                ($0 as NSString).lastPathComponent
            }
        }
    }
}
