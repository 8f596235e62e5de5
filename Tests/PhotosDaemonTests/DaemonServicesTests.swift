import PhotosWire
import Foundation
import Glibc
import Logging
import Photos
import PhotosDaemon
import PhotosStore
import PhotosTestSupport
import PhotosWatcher
import ServiceLifecycle
import Synchronization
import Testing

/// A monitor that reports only what the test tells it to: for what real inotify cannot be made
/// to do without root (a queue overflow at will, the system's watch limit).
final class FakeMonitor: FileMonitor, @unchecked Sendable {
    let events: AsyncStream<FileEvent>
    private let continuation: AsyncStream<FileEvent>.Continuation
    private let watched = Mutex<[String]>([])
    let refuse: Bool
    /// Roots that are gone (unmounted): watching them fails as inotify_add_watch would.
    let missing = Mutex<Set<String>>([])

    init(refuseRoots: Bool = false) {
        (events, continuation) = AsyncStream.makeStream()
        refuse = refuseRoots
    }

    func addRoot(_ path: String) throws(WatchError) {
        if refuse { throw WatchError(code: .watchLimitReached, message: "no watches left", path: path) }
        if missing.withLock({ $0.contains(path) }) {
            throw WatchError(code: .notFound, message: "\(path) does not exist", path: path)
        }
        watched.withLock { $0.append(path) }
    }

    func emit(_ event: FileEvent) { continuation.yield(event) }
    func stop() { continuation.finish() }
    var roots: [String] { watched.withLock { $0 } }
    var watchCount: Int { roots.count }
    var unwatchedDirectories: [String] { [] }
}

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DaemonServicesTests {
    let directory: TemporaryDirectory
    var root: URL { directory.path("Pictures") }

    init() throws {
        directory = try TemporaryDirectory(prefix: "daemon-services")
        try FileManager.default.createDirectory(at: directory.path("Pictures"), withIntermediateDirectories: true)
    }

    func put(_ name: String) throws {
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")),
            to: root.appendingPathComponent(name))
    }

    /// Runs the daemon's services with a fake monitor until `body` returns, then shuts them down
    /// gracefully.
    func withService(
        monitor: FakeMonitor, pollSeconds: Int = 60, _ body: (LibraryDatabase, DaemonServices) async throws -> Void
    ) async throws {
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        var configuration = DaemonConfiguration(libraryPath: directory.path("library.sqlite").path, roots: [root.path])
        configuration.settle = .milliseconds(20)
        configuration.pollInterval = .seconds(pollSeconds)
        let service = DaemonServices(
            configuration: configuration, database: database, monitor: monitor, logger: Logger(label: "test"),
            notifier: SystemdNotifier(environment: [:]))
        let group = ServiceGroup(services: service.services(), logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // Started once the startup scan wrote the status.
            try await waitUntil("the startup scan to write the status file") {
                FileManager.default.fileExists(atPath: configuration.statusPath)
            }
            try await body(database, service)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    func waitForAssets(_ database: LibraryDatabase, count: Int) async throws {
        try await waitUntil("the library to hold \(count) assets") {
            try database.assetIDs(matching: .init()).count == count
        }
    }

    @Test func anOverflowRecrawlsTheRoot() async throws {
        let monitor = FakeMonitor()
        try await withService(monitor: monitor) { database, _ in
            try await waitForAssets(database, count: 0)
            // Files arrive, but their events are lost: only the overflow says so.
            try put("a.jpg")
            try put("b.jpg")
            try await Task.sleep(for: .milliseconds(100))  // Kept: a quiet period, proving that nothing comes.
            #expect(try database.assetIDs(matching: .init()).isEmpty)
            monitor.emit(FileEvent(path: root.path, kind: .overflow))
            try await waitForAssets(database, count: 2)
        }
    }

    @Test func aRootBeyondTheWatchBudgetIsPolled() async throws {
        let monitor = FakeMonitor(refuseRoots: true)
        try await withService(monitor: monitor, pollSeconds: 1) { database, service in
            #expect(service.status.roots.map(\.state) == ["polling"])
            #expect(service.status.roots.first?.reason?.contains("no watches left") == true)
            try put("late.jpg")
            try await waitForAssets(database, count: 1)
        }
    }

    @Test func eventsForFilesApplyTheirDirectory() async throws {
        let monitor = FakeMonitor()
        try await withService(monitor: monitor) { database, service in
            try await waitForAssets(database, count: 0)
            try put("x.jpg")
            monitor.emit(FileEvent(path: root.appendingPathComponent("x.jpg").path, kind: .created))
            monitor.emit(FileEvent(path: root.appendingPathComponent("x.jpg").path, kind: .closedWrite))
            try await waitForAssets(database, count: 1)
            // The totals are updated right after the commit.
            try await waitUntil("the ingested total") { service.status.ingested != 0 }
            #expect(service.status.ingested == 1)
            // Under load the two events may settle in two batches; either way the queue empties.
            try await waitUntil("the queue to empty") { service.status.queueDepth == 0 }
            #expect(service.status.queueDepth == 0, "applied changes leave the queue")
            #expect(service.status.ingested == 1, "the second batch finds nothing new")
        }
    }

    @Test func aSectionAddedByAnotherServiceIsInTheStatusFile() async throws {
        let monitor = FakeMonitor()
        try await withService(monitor: monitor) { database, daemon in
            let path = DaemonConfiguration.statusPath(forLibrary: directory.path("library.sqlite").path)
            // A section under a key of the status itself is left out: old readers keep working.
            daemon.board.update {
                $0.sections["importer"] = ["queue": "parked"]
                $0.sections["roots"] = 7
                $0.sections["hooks"] = 7
            }
            var object: [String: Any] = [:]
            try await waitUntil("the importer section in the status file") {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                return object["importer"] != nil
            }
            #expect(object["importer"] as? [String: String] == ["queue": "parked"])
            #expect(object["hooks"] == nil, "photos status fills in the hooks; a section may not")
            let status = try DaemonStatus.read(from: path)
            #expect(status.roots.map(\.state) == ["watching"])
            #expect(status.pid == getpid())
            #expect(FileManager.default.fileExists(atPath: path))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func theRootUnmountedIsOfflineThenWatchedAgainWhenPolled() async throws {
        let monitor = FakeMonitor()
        try await withService(monitor: monitor, pollSeconds: 1) { _, daemon in
            #expect(monitor.roots == [root.path], "watched before the startup scan")
            // The root goes away: offline, and still offline after the polls while it is gone.
            monitor.missing.withLock { $0 = [root.path] }
            monitor.emit(FileEvent(path: root.path, kind: .rootUnmounted))
            try await waitUntil("the root to be offline") { daemon.status.roots.first?.state == "offline" }
            #expect(daemon.status.roots.first?.state == "offline")
            // Kept: the polls (every second) that must not bring it back are counted by the clock.
            try await Task.sleep(for: .milliseconds(1500))
            #expect(daemon.status.roots.first?.state == "offline")
            #expect(monitor.roots == [root.path])
            // It comes back: the next poll watches it again.
            monitor.missing.withLock { $0 = [] }
            try await waitUntil("the root to be watched again") { daemon.status.roots.first?.state == "watching" }
            #expect(daemon.status.roots.first?.state == "watching")
            #expect(monitor.roots == [root.path, root.path])
        }
    }
}

@Suite struct SystemdNotifierTests {
    @Test func sendsDatagramsToNotifySocket() throws {
        let directory = try TemporaryDirectory(prefix: "notify")
        let path = directory.path("notify.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
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
        #expect(bound == 0)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"])
        #expect(notifier.watchdogInterval == .seconds(2))
        #expect(notifier.send("READY=1"))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "READY=1")
        #expect(SystemdNotifier(environment: [:]).send("READY=1") == false, "outside systemd nothing is sent")
    }
}
