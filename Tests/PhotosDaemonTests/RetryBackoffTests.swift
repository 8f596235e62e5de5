import Foundation
import GRDB
import Logging
import PhotosDaemon
import PhotosStore
import PhotosTestSupport
import PhotosWire
import ServiceLifecycle
import Testing

/// The daemon's pause between failed scans, as a table, and the daemon on a full disk.
@Suite struct RetryBackoffTests {
    @Test(arguments: [
        (1, Duration.milliseconds(500)), (2, .seconds(1)), (3, .seconds(2)), (4, .seconds(4)), (8, .seconds(60)),
        (9, .seconds(60)), (1000, .seconds(60)),
    ])
    func doublesFromHalfASecondToAMinute(failures: Int, delay: Duration) {
        var backoff = RetryBackoff()
        for _ in 0..<failures { backoff.failed() }
        #expect(backoff.delay == delay)
        #expect(backoff.failures == failures)
    }

    @Test func aSuccessStartsOver() {
        var backoff = RetryBackoff()
        #expect(backoff.delay == nil)
        #expect(backoff.failed() == .milliseconds(500))
        #expect(backoff.failed() == .seconds(1))
        backoff.succeeded()
        #expect(backoff.delay == nil && backoff.failures == 0)
        #expect(backoff.failed() == .milliseconds(500))
    }

    @Test func theCapIsNeverBelowTheStart() {
        var backoff = RetryBackoff(initial: .seconds(5), maximum: .seconds(1))
        #expect(backoff.failed() == .seconds(5))
        #expect(backoff.failed() == .seconds(5))
    }

    @Test func theStatusFileIsPrivate() throws {
        let directory = try TemporaryDirectory(prefix: "status-mode")
        let path = directory.path("library.sqlite.status.json").path
        let status = try JSONDecoder().decode(
            DaemonStatus.self,
            from: Data(
                """
                {"pid": 1, "startedAt": 0, "updatedAt": 0, "roots": [], "watches": 0, "watchBudget": 0,
                 "unwatchedDirectories": 0, "queueDepth": 0, "ingested": 0, "updated": 0, "moved": 0, "removed": 0,
                 "rejected": 0, "lastErrors": []}
                """.utf8))
        try status.write(to: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try DaemonStatus.read(from: path) == status)
    }
}

/// The daemon with its library on a real full disk (a tmpfs): scans fail, it says so in its
/// status, waits longer after each failure, and ingests once space is back.
@Suite(.enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs ../shared/corpus, root and tmpfs"))
struct FullDiskDaemonTests {
    static func truncateWriteAheadLog(_ path: String) throws {
        try DatabaseQueue(path: path).writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    @Test func aFullDiskBacksOffReportsAndRecovers() async throws {
        let directory = try TemporaryDirectory(prefix: "full-disk-daemon")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let disk = try SmallFileSystem(megabytes: 2)
        let libraryPath = disk.url.appendingPathComponent("library.sqlite").path
        let database = try LibraryDatabase(path: libraryPath)
        // An empty write-ahead log, so that the scan's commit needs new blocks on the full disk.
        try Self.truncateWriteAheadLog(libraryPath)
        try disk.fill()
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")),
            to: root.appendingPathComponent("a.jpg"))

        var configuration = DaemonConfiguration(libraryPath: libraryPath, roots: [root.path])
        configuration.settle = .milliseconds(20)
        // The status goes where there is space; the backoff is short so that the test is short.
        configuration.statusPath = directory.path("status.json").path
        configuration.retryBackoff = RetryBackoff(initial: .milliseconds(200), maximum: .milliseconds(400))
        let service = DaemonServices(
            configuration: configuration, database: database, monitor: FakeMonitor(), logger: Logger(label: "test"),
            notifier: SystemdNotifier(environment: [:]))
        let group = ServiceGroup(services: service.services(), logger: Logger(label: "test"))
        let started = Date().timeIntervalSince1970
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // The startup scan fails: the status says why and when the next try is.
            var library: DaemonStatus.Library?
            try await waitUntil("the status to say the library is unavailable") {
                library = service.status.library
                return library?.state == "unavailable"
            }
            let failing = try #require(library)
            #expect(failing.state == "unavailable")
            #expect(failing.reason?.contains("no space left") == true, "\(failing.reason ?? "")")
            #expect(failing.consecutiveFailures >= 1)
            // The next try is a time after the failure and at most the longest backoff away
            // (compared with clocks, not with the status' updatedAt, which other writers move on).
            let retryAt = failing.retryAt ?? 0
            #expect(retryAt > started)
            #expect(retryAt <= Date().timeIntervalSince1970 + 0.4 + 1)
            // Tries are spaced by the backoff, not made dozens of times a second: after the
            // second failure the wait has doubled.
            try await waitUntil("a second failure") { (service.status.library?.consecutiveFailures ?? 0) >= 2 }
            #expect((service.status.library?.consecutiveFailures ?? 0) >= 2)
            #expect(try database.assetIDs(matching: .init()).isEmpty)

            try disk.free()
            try await waitUntil("the photo ingested once space is back") {
                try !database.assetIDs(matching: .init()).isEmpty
            }
            #expect(try database.assetIDs(matching: .init()).count == 1)
            try await waitUntil("the status to say the library is available") {
                service.status.library?.state == "available"
            }
            #expect(service.status.library?.state == "available")
            #expect(service.status.library?.consecutiveFailures == 0)
            #expect(service.status.lastErrors.contains { $0.contains("no space left") })
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
