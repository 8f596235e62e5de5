import PhotosWire
import Foundation
import Glibc
import Logging
import PhotosCore
import PhotosDaemon
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import PhotosWatcher
import ServiceLifecycle
import Testing

/// Runs `services` in a group until `body` returns, then shuts the group down gracefully.
func withGroup(_ services: [any Service], _ body: () async throws -> Void) async throws {
    let group = ServiceGroup(services: services, logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        try await body()
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
}

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`.
final class NotifySocket {
    let path: String
    let fd: Int32

    init(directory: TemporaryDirectory) throws {
        path = directory.path("notify.sock").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(fd >= 0 && bound == 0)
    }

    deinit { close(fd) }

    /// The next message, or nil when none arrives within `milliseconds`.
    func receive(within milliseconds: Int32) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    }
}

extension NotifySocket {
    /// The next message, waited for on a thread of its own, not one of the shared pool (the service
    /// that sends it needs one); nil after the tests' usual wait (``defaultWaitTimeout``, 5 minutes).
    /// Two minutes were not enough in full runs: the whole run shares the pool's two threads with
    /// hundreds of synchronous tests, and a fresh CI run saw `READY=1` come 2 to 3 minutes late.
    func awaitMessage() async -> String? {
        let milliseconds = Int32(clamping: defaultWaitTimeout.components.seconds * 1000)
        return (try? await offPool { self.receive(within: milliseconds) }) ?? nil
    }

    /// The messages up to and including `last`, each waited for on the socket (blocking: call it
    /// through ``offPool(_:)``); throws naming `last` when it has not come within `timeout`.
    func messages(until last: String, timeout: Duration = defaultWaitTimeout) throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var messages: [String] = []
        while messages.last != last {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw WaitFailed(what: "\(last) (got \(messages))", reason: "timed out after \(timeout)")
            }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
            if let message = receive(within: milliseconds) { messages.append(message) }
        }
        return messages
    }
}

@Suite struct WatchdogServiceTests {
    @Test func readyOnlyAfterTheStartupScanThenStoppingOnShutdown() async throws {
        let directory = try TemporaryDirectory(prefix: "watchdog")
        let socket = try NotifySocket(directory: directory)
        let board = StatusBoard()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "40000"])
        let service = WatchdogService(notifier: notifier, board: board, logger: Logger(label: "test"))
        try await withGroup([service]) {
            board.update { $0.totals.ingested = 3 }
            #expect(socket.receive(within: 100) == nil, "not ready before the startup scan")
            board.update { $0.isReady = true }
            #expect(await socket.awaitMessage() == "READY=1")
            #expect(await socket.awaitMessage() == "WATCHDOG=1", "fed at half of WATCHDOG_USEC")
        }
        var messages: [String] = []
        while let message = socket.receive(within: 0) { messages.append(message) }
        #expect(messages.contains("STOPPING=1"), "\(messages)")
    }
}

@Suite struct RootTrackerTests {
    @Test func followsRootsThenAsksForTheStartupScan() async throws {
        let directory = try TemporaryDirectory(prefix: "root-tracker")
        let present = directory.path("present").path
        let missing = directory.path("missing").path
        try FileManager.default.createDirectory(atPath: present, withIntermediateDirectories: true)
        let monitor = FakeMonitor()
        let board = StatusBoard()
        let scans = ScanQueue()
        let tracker = RootTracker(
            roots: WatchedRoots([present, missing]), monitor: monitor, board: board, scans: scans,
            pollInterval: .seconds(60), logger: Logger(label: "test"))
        try await withGroup([tracker]) {
            try await waitUntil("the startup scan's work") {
                scans.take() == ScanWork(roots: [present, missing], reasons: ["startup"])
            }
            #expect(monitor.roots == [present, missing], "both watched before the scan was asked for")
            tracker.post(.event(.polling(root: present, reason: "deep is beyond the inotify watch budget")))
            tracker.post(
                .scanned(
                    offlineRoots: [missing],
                    unreadable: [
                        UnreadableDirectoryRecord(path: present + "/locked", code: EACCES, reason: "EACCES", since: 0)
                    ]))
            try await waitUntil("the missing root to be offline") {
                board.read { $0.roots[missing]?.state == "offline" }
            }
            #expect(board.read { $0.roots[present]?.state } == "polling")
            #expect(board.read { $0.errors.contains { $0.contains("locked cannot be read") } })
            #expect(tracker.unwatchedRoots == [present, missing])
            // Once the directory reads again, only the offline root is left to poll.
            tracker.post(.event(.offline(root: missing, reason: "unmounted or removed")))
            tracker.post(.scanned(offlineRoots: [], unreadable: []))
            board.update { $0.roots[present] = nil }
            try await waitUntil("the missing root to be unwatched") { tracker.unwatchedRoots == [missing] }
        }
    }
}

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ScanRunnerTests {
    @Test func runsQueuedWorkAndReportsWhatItFound() async throws {
        let directory = try TemporaryDirectory(prefix: "scan-runner")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("2008"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")),
            to: root.appendingPathComponent("2008/a.jpg"))
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        let board = StatusBoard()
        let scans = ScanQueue()
        let outcomes = AsyncStream<ScanRunner.Outcome>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let runner = ScanRunner(
            scanner: FolderScanner(database: database, timeZone: .current, rules: IgnoreRules(), quietTime: 0),
            database: database, queue: scans, board: board, backoff: RetryBackoff(), libraryPath: "library.sqlite",
            logger: Logger(label: "test"), report: { outcomes.continuation.yield($0) })
        try await withGroup([runner]) {
            scans.submit(ScanWork(roots: [root.path], reasons: ["startup"]))
            try await waitUntil("ready once the startup scan is done") { board.read(\.isReady) }
            #expect(board.read(\.totals.ingested) == 1)
            #expect(try database.assetIDs(matching: .init()).count == 1)
            var reported = outcomes.stream.makeAsyncIterator()
            let first = await reported.next()
            #expect(first == ScanRunner.Outcome(offlineRoots: [], unreadable: [], stillChanging: []))
            // A look at one file finds the new file alone.
            try FileManager.default.copyItem(
                at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")),
                to: root.appendingPathComponent("2008/b.jpg"))
            scans.submit(
                ScanWork(files: [root.path: [root.appendingPathComponent("2008/b.jpg").path]], reasons: ["changes"]))
            try await waitUntil("two ingested") { board.read(\.totals.ingested) == 2 }
            #expect(board.read(\.libraryFailure) == nil && board.read(\.consecutiveFailures) == 0)
        }
    }
}

@Suite struct StatusReporterTests {
    @Test func writesNothingBeforeReadyThenEachPublishedChange() async throws {
        let directory = try TemporaryDirectory(prefix: "status-reporter")
        let path = directory.path("status.json").path
        let board = StatusBoard()
        let monitor = FakeMonitor()
        let reporter = StatusReporter(
            board: board, roots: WatchedRoots(["/p"]), monitor: monitor, path: path, logger: Logger(label: "test"))
        try await withGroup([reporter]) {
            board.update { $0.totals.ingested = 1 }
            try await Task.sleep(for: .milliseconds(50))  // Kept: a quiet period, proving that nothing comes.
            #expect(!FileManager.default.fileExists(atPath: path), "no status file before the startup scan")
            board.update { $0.isReady = true }
            try await waitUntil("the status file with one ingested") {
                (try? DaemonStatus.read(from: path))?.ingested == 1
            }
            board.update(publish: false) { $0.totals.ingested = 2 }
            board.update { $0.totals.rejected = 1 }
            try await waitUntil("the status file with one rejected") {
                (try? DaemonStatus.read(from: path))?.rejected == 1
            }
            #expect(try DaemonStatus.read(from: path).ingested == 2, "an unpublished change is written with the next")
            board.update(publish: false) { $0.totals.moved = 5 }
        }
        #expect(try DaemonStatus.read(from: path).moved == 5, "the last status is written on the way out")
        #expect(try DaemonStatus.read(from: path).roots.map { [$0.path, $0.state] } == [["/p", "watching"]])
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs"))
    func aRootRemountedReadOnlyIsSaidUnwritableWithoutAnyOtherChange() async throws {
        let directory = try TemporaryDirectory(prefix: "status-reporter")
        let path = directory.path("status.json").path
        let disk = try SmallFileSystem(megabytes: 1)
        let board = StatusBoard()
        let reporter = StatusReporter(
            board: board, roots: WatchedRoots([disk.url.path]),
            policies: LibraryRoots([LibraryRoot(path: disk.url.path, write: .files)]), monitor: FakeMonitor(),
            path: path, logger: Logger(label: "test"), restrictionInterval: .milliseconds(20))
        func restriction() -> String?? { (try? DaemonStatus.read(from: path))?.roots.first?.writeRestriction }
        try await withGroup([reporter]) {
            board.update { $0.isReady = true }
            try await waitUntil("the status file") { restriction() == .some(nil) }
            try disk.makeReadOnly()
            try await waitUntil("the root said read-only") { restriction()??.contains("read-only") == true }
        }
    }

    @Test func aStatusFileThatCouldNotBeWrittenIsNotToldAsTheStatus() throws {
        let directory = try TemporaryDirectory(prefix: "status-reporter")
        let path = directory.path("status.json").path
        let board = StatusBoard()
        let reporter = StatusReporter(
            board: board, roots: WatchedRoots(["/p"]), monitor: FakeMonitor(), path: path, logger: Logger(label: "test")
        )
        board.update { $0.isReady = true }
        reporter.write()
        let read = { try DaemonStatus.read(from: path) }
        #expect(try reporter.status(readingFile: read)?.library?.state == "available")

        // The library's disk fills: scans fail, and the file cannot be written (a directory took its name).
        board.update { $0.libraryFailure = "database or disk is full (SQLite 13)" }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        reporter.write()
        let told = try reporter.status(readingFile: { nil })
        #expect(told?.library?.state == "unavailable")
        #expect(told?.library?.reason == "database or disk is full (SQLite 13)")

        // Written again: the file is the status once more.
        try FileManager.default.removeItem(atPath: path)
        reporter.write()
        #expect(try reporter.status(readingFile: read)?.library?.state == "unavailable")
        #expect(try reporter.status(readingFile: { nil }) == nil, "the file's, not the status now")
    }
}
