import Foundation
import Logging
import Photos
import PhotosClient
import PhotosServer
import PhotosStore
import PhotosWire
import ServiceLifecycle
import Synchronization

/// The socket API against the same fetch in process (issue 12): photosd's `APIServer` over the
/// synthetic library, served in this process on a socket of its own, and clients on keep-alive
/// connections from threads of their own. The in-process baseline does the work the API does
/// minus HTTP: the fetch, then the page's JSON.
struct APIMeasurement {
    let path: String
    let size: Int
    let iterations: Int
    /// Requests each of the 16 concurrent clients makes in a round (100 at least in a full run, for
    /// a steady rate).
    let concurrentRequests: Int
    /// A goal's verdict (MET, MISSED, or not judged in a smoke run).
    let verdict: (Bool) -> String

    /// Goals of issue 12.
    enum Goal {
        static let overInProcess = 1.5
        static let plusMilliseconds = 0.3
        static let fetchesPerSecond = 5_000.0
    }

    struct Case {
        let name: String
        let target: String
        let inProcess: (PHPhotoLibrary) throws -> [UInt8]
    }

    func run() throws {
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        let favorite = PHAsset.fetchAssets(
            with: {
                let options = PHFetchOptions()
                options.photoLibrary = library
                options.fetchLimit = 1
                return options
            }()
        ).firstObject!.localIdentifier
        let cases = [
            Case(
                name: "50 newest favorites",
                target: "/v1/assets?predicate=favorite+%3D%3D+YES&sort=-creationDate&limit=50"
            ) { library in
                // In one read transaction, as the API reads a listing's fetch and first page.
                try library.database.withinOneRead {
                    let options = PHFetchOptions()
                    options.photoLibrary = library
                    options.predicate = NSPredicate(format: "favorite == YES")
                    options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
                    options.fetchLimit = 50
                    let result = PHAsset.fetchAssets(with: options)
                    var writer = WireJSONWriter()
                    writer.beginListing("assets")
                    try result.writeAssetJSON(in: 0..<50, as: .element, into: &writer)
                    writer.endListing(next: nil)
                    return writer.bytes
                }
            },
            // As photosd reads one asset: its JSON straight from the store's rows, in one read.
            Case(name: "one asset by identifier", target: "/v1/assets/\(favorite)") { library in
                var writer = WireJSONWriter()
                let reader = DescriptionReader(database: library.database, timeZone: library.configuration.timeZone)
                try reader.writeAssets(.localIdentifiers([favorite]), as: .element, into: &writer)
                return writer.bytes
            },
        ]

        let socket = NSTemporaryDirectory() + "photos-bench-api-\(getpid()).sock"
        let listening = DispatchSemaphore(value: 0)
        var logger = Logger(label: "photos-bench.api")
        logger.logLevel = .warning
        let server = APIServer(
            socketPath: socket, library: library, status: { nil }, logger: logger,
            onListening: { listening.signal() })
        let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [], logger: logger))
        let serving = Task.detached { try await group.run() }
        defer {
            let stopped = DispatchSemaphore(value: 0)
            Task.detached {
                await group.triggerGracefulShutdown()
                _ = await serving.result
                stopped.signal()
            }
            stopped.wait()
        }
        guard listening.wait(timeout: .now() + 30) == .success else { throw BenchError("the API did not start") }

        print()
        print(
            "API over a Unix socket, library \(size) (\(iterations) requests per measure; in-process = the same fetch and JSON)"
        )
        print(
            "  measure                                   in-process p50/p99   API 1 client p50/p99   ratio   API 16 clients (best of 3): req/s, p50/p99"
        )
        var verdicts: [String] = []
        for test in cases {
            // The API's answer is the in-process one, byte for byte.
            let expected = try test.inProcess(library)
            let check = try KeepAliveClient(socket: socket)
            let answer = try check.get(test.target)
            guard answer.status == 200, answer.body == expected else {
                throw BenchError("\(test.target) answered \(answer.status), not the in-process bytes")
            }
            for _ in 0..<20 {
                _ = try test.inProcess(library)
                _ = try check.get(test.target)
            }

            var local = Samples()
            for _ in 0..<iterations { local.append(try timed { try test.inProcess(library) }.duration) }
            var remote = Samples()
            for _ in 0..<iterations { remote.append(try timed { try check.get(test.target) }.duration) }
            let (perSecond, concurrent) = try Self.concurrent(
                socket: socket, target: test.target, clients: 16,
                requests: concurrentRequests)
            let ratio = remote.p50 / local.p50
            let bound = Goal.overInProcess * local.p50 + Goal.plusMilliseconds
            verdicts.append(
                "  \(test.name): API p50 \(f(remote.p50)) ms <= \(f(bound)) ms: \(verdict(remote.p50 <= bound)); "
                    + "\(Int(perSecond)) fetches/s at 16 clients >= \(Int(Goal.fetchesPerSecond)): "
                    + "\(verdict(perSecond >= Goal.fetchesPerSecond))")
            print(
                "  \(test.name.padding(toLength: 40, withPad: " ", startingAt: 0))"
                    + "  \(f(local.p50)) / \(f(local.p99))        \(f(remote.p50)) / \(f(remote.p99))          "
                    + "\(String(format: "%.2f", ratio))    \(Int(perSecond)), \(f(concurrent.p50)) / \(f(concurrent.p99))"
            )
        }
        let (healthPerSecond, health) = try Self.concurrent(
            socket: socket, target: "/v1/health", clients: 16, requests: concurrentRequests)
        print(
            "  the server's floor: GET /v1/health (one read of the newest token), 16 clients: "
                + "\(Int(healthPerSecond)) req/s, p50 \(f(health.p50)) / p99 \(f(health.p99)) ms")
        print(
            "  goals (issue 12): API p50 <= \(Goal.overInProcess)x in-process + \(Goal.plusMilliseconds) ms; "
                + ">= \(Int(Goal.fetchesPerSecond)) fetches/s on this machine")
        for verdict in verdicts { print(verdict) }
        try measureDayIndex(library: library, socket: socket)
        try measureStream(library: library, socket: socket)
    }

    /// `GET /v1/days` over the whole library (a timeline's first request), beside the same index in
    /// process (the fetch and the runs, read from two columns of each row), and the asset JSON of
    /// the whole listing that it spares a client. No goal: the figure is reported.
    private func measureDayIndex(library: PHPhotoLibrary, socket: String) throws {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        let client = try KeepAliveClient(socket: socket)
        let answer = try client.get("/v1/days")
        let expected = try PHAsset.fetchAssets(with: options).creationDays()
        guard answer.status == 200,
            (try? JSONDecoder().decode(API.DayIndex.self, from: Data(answer.body))) == expected
        else {
            throw BenchError("/v1/days answered \(answer.status), not the in-process index")
        }
        let rounds = max(5, iterations / 10)
        var local = Samples()
        var remote = Samples()
        for _ in 0..<rounds {
            local.append(try timed { try PHAsset.fetchAssets(with: options).creationDays() }.duration)
            remote.append(try timed { try client.get("/v1/days") }.duration)
        }
        var json = Samples()
        for _ in 0..<max(2, rounds / 5) {
            json.append(
                try timed {
                    var writer = WireJSONWriter()
                    try PHAsset.fetchAssets(with: options).writeAssetJSON(as: .line, into: &writer)
                    return writer.bytes.count
                }.duration)
        }
        print(
            "  day index of all \(size) assets (\(expected.days.count) runs, \(answer.body.count) bytes): "
                + "in-process p50 \(f(local.p50)) ms, GET /v1/days p50 \(f(remote.p50)) / p99 \(f(remote.p99)) ms; "
                + "the listing's asset JSON it spares: \(f(json.p50)) ms")
    }

    /// A change block's start → its entry read by a client following `/v1/changes`, and → the
    /// change details read by a client of a live query that the change touches; for one asset
    /// changed and for 100 in one block (each round turns their favorite flag on, the next off).
    private func measureStream(library: PHPhotoLibrary, socket: String) throws {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.predicate = NSPredicate(format: "favorite == NO")
        options.fetchLimit = 100
        let plain = PHAsset.fetchAssets(with: options)
        let hundred = (0..<plain.count).map { plain.object(at: $0) }
        guard hundred.count == 100 else { throw BenchError("the library has fewer than 100 plain assets") }
        let rounds = min(iterations, 200)
        var verdicts: [String] = []
        for assets in [Array(hundred.prefix(1)), hundred] {
            let what = assets.count == 1 ? "one asset changed" : "100 assets changed in one block"
            // The change stream.
            let follower = try KeepAliveClient(socket: socket)
            try follower.startStream("/v1/changes?since=\(try library.database.currentToken())&follow=true")
            let stream = try Self.changeRounds(library, assets, rounds: rounds) { _ = try follower.nextStreamLine() }
            print(
                "  \(what): commit → its entry on a follow stream p50 \(f(stream.afterCommit.p50)) / p99 "
                    + "\(f(stream.afterCommit.p99)) ms; with the commit \(f(stream.withCommit.p50)) / "
                    + "\(f(stream.withCommit.p99)) ms (\(rounds) changes)")
            verdicts.append(
                "  \(what): commit → stream entry p99 \(f(stream.afterCommit.p99)) ms <= 5: "
                    + "\(verdict(stream.afterCommit.p99 <= 5))")
            // A live query of the favorites, newest first: each round inserts the assets, the next removes them.
            let query = try APIConnection(socket: socket, timeout: nil)
            let body = Array(#"{"predicate": "favorite == YES", "sort": ["-creationDate"]}"#.utf8)
            let head = try query.send("POST", "/v1/queries", headers: ["Content-Type": "application/json"], body: body)
            guard head.status == 200, let initial = try query.nextLine(), initial.hasPrefix(#"{"initial""#) else {
                throw BenchError("the live query answered \(head.status)")
            }
            let decoder = JSONDecoder()
            var touched = 0
            let live = try Self.changeRounds(library, assets, rounds: rounds) {
                guard let line = try query.nextLine() else { throw BenchError("the live query ended") }
                let record = try decoder.decode(API.LiveQueryRecord.self, from: Data(line.utf8))
                touched = (record.inserted?.count ?? 0) + (record.removed?.count ?? 0)
            }
            guard touched == assets.count else { throw BenchError("a live-query record held \(touched) changes") }
            print(
                "  \(what): commit → the live query's change details p50 \(f(live.afterCommit.p50)) / p99 "
                    + "\(f(live.afterCommit.p99)) ms; with the commit \(f(live.withCommit.p50)) / "
                    + "\(f(live.withCommit.p99)) ms (\(rounds) changes; favorites newest first, \(initialCount(initial)) at first)"
            )
            verdicts.append(
                "  \(what): commit → live-query details p99 \(f(live.afterCommit.p99)) ms <= 10: "
                    + "\(verdict(live.afterCommit.p99 <= 10))")
        }
        print(
            "  goals (issue 12): commit → stream entry p99 <= 5 ms; commit → live-query details p99 <= 10 ms, 1-100 changes"
        )
        for verdict in verdicts { print(verdict) }
    }

    /// `rounds` change blocks (after 10 not counted) turning the assets' favorite flag on, then off:
    /// each block's start → `read` returning (the commit included), and its return (the commit made)
    /// → `read` returning. The assets are left as they were (off).
    private static func changeRounds(
        _ library: PHPhotoLibrary, _ assets: [PHAsset], rounds: Int, read: () throws -> Void
    ) throws -> (withCommit: Samples, afterCommit: Samples) {
        var withCommit = Samples()
        var afterCommit = Samples()
        for round in 0..<rounds + 10 {
            let start = ContinuousClock.now
            try library.performChangesAndWait {
                for asset in assets { PHAssetChangeRequest(for: asset).isFavorite = round % 2 == 0 }
            }
            let committed = ContinuousClock.now
            try read()
            if round >= 10 {
                withCommit.append(ContinuousClock.now - start)
                afterCommit.append(ContinuousClock.now - committed)
            }
        }
        if (rounds + 10) % 2 == 1 {
            try library.performChangesAndWait {
                for asset in assets { PHAssetChangeRequest(for: asset).isFavorite = false }
            }
            try read()
        }
        return (withCommit, afterCommit)
    }

    private func initialCount(_ line: String) -> Int {
        (try? JSONDecoder().decode(API.LiveQueryRecord.self, from: Data(line.utf8)))?.initial?.count ?? -1
    }

    private func f(_ value: Double) -> String { String(format: "%.3f", value) }

    /// `clients` threads, each on its own connection, `requests` requests each: requests per second
    /// over the whole, and the latencies.
    /// The best of three rounds of ``concurrentRound(socket:target:clients:requests:)``: on a shared
    /// machine another process's turn lowers a round's figure, never raises it.
    static func concurrent(socket: String, target: String, clients: Int, requests: Int) throws -> (Double, Samples) {
        var best: (Double, Samples)?
        for _ in 0..<3 {
            let round = try concurrentRound(socket: socket, target: target, clients: clients, requests: requests)
            if round.0 > best?.0 ?? 0 { best = round }
        }
        return best!
    }

    static func concurrentRound(socket: String, target: String, clients: Int, requests: Int) throws -> (Double, Samples)
    {
        let results = Mutex<(samples: [Double], failure: String?)>(([], nil))
        let done = DispatchGroup()
        let start = ContinuousClock.now
        for _ in 0..<clients {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let client = try KeepAliveClient(socket: socket)
                    var mine = Samples()
                    for _ in 0..<requests { mine.append(try timed { try client.get(target) }.duration) }
                    results.withLock { $0.samples += mine.milliseconds }
                } catch {
                    results.withLock { $0.failure = "\(error)" }
                }
            }.start()
        }
        done.wait()
        let elapsed = (ContinuousClock.now - start).milliseconds / 1000
        let (values, failure) = results.withLock { ($0.samples, $0.failure) }
        if let failure { throw BenchError(failure) }
        var samples = Samples()
        for value in values { samples.append(.nanoseconds(Int64(value * 1_000_000))) }
        return (Double(clients * requests) / elapsed, samples)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// HTTP/1.1 GETs on one kept-alive Unix-socket connection; bodies by Content-Length.
final class KeepAliveClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(socket path: String) throws {
        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw BenchError("cannot connect to \(path): errno \(errno)") }
    }

    deinit { close(descriptor) }

    func get(_ target: String) throws -> (status: Int, body: [UInt8]) {
        let request = Array("GET \(target) HTTP/1.1\r\nHost: photosd\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else {
            throw BenchError("write failed")
        }
        while true {
            if let end = Self.headEnd(buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let status = Int(head.split(separator: " ")[1]) ?? 0
                var length = 0
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
                while buffer.count < end + 4 + length { try fill() }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return (status, body)
            }
            try fill()
        }
    }

    /// Sends a GET whose answer is a chunked stream, and reads its head.
    func startStream(_ target: String) throws {
        let request = Array("GET \(target) HTTP/1.1\r\nHost: photosd\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else {
            throw BenchError("write failed")
        }
        while Self.headEnd(buffer) == nil { try fill() }
        buffer.removeFirst(Self.headEnd(buffer)! + 4)
    }

    /// The stream's next line of data, skipping the chunks' size lines.
    func nextStreamLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                buffer.removeFirst(newline + 1)
                // A chunk's size line (hex), or the empty line after a chunk: not data.
                if line.isEmpty || line.allSatisfy(\.isHexDigit) { continue }
                return line
            }
            try fill()
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads what the socket has into the buffer's spare room: a client as lean as curl, so that the
    /// server's figures are not the client's (a zeroed 64 KiB array a read cost as much as the server's
    /// JSON for a page).
    private func fill() throws {
        let room = 65536
        var count = 0
        buffer.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { spare, initialized in
                count = read(descriptor, spare.baseAddress! + initialized, spare.count - initialized)
                initialized += max(count, 0)
            }
        }
        guard count > 0 else { throw BenchError("connection closed") }
    }
}
