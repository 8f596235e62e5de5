import Dispatch
import Foundation
import Logging
import PhotosCore
import PhotosIngest
import PhotosStore
import PhotosWatcher
import PhotosWire
import ServiceLifecycle
import Synchronization

/// Keeps a library true to its roots: reconciles at startup, then applies every change on disk
/// once the tree has been quiet for the settle period.
///
/// Roots are watched with inotify where it works; roots on network or FUSE file systems, roots
/// with more directories than the watch budget allows, and offline roots are crawled every poll
/// interval instead (and an offline root is watched again when it comes back). Changes are
/// applied by the same ``FolderScanner`` as `photos scan`, so identity, favorites and albums survive
/// moves and renames, and a batch in flight commits or rolls back whole on shutdown.
public final class WatchService: Service, Sendable {
    let configuration: DaemonConfiguration
    let database: LibraryDatabase
    let scanner: FolderScanner
    let monitor: any FileMonitor
    let logger: Logger
    let notifier: SystemdNotifier
    private let state: Mutex<State>
    /// Scans run here, one at a time, off the cooperative pool (they block on I/O and SQLite).
    private let scanQueue = DispatchQueue(label: "photosd.scan")

    struct State {
        var coalescer = ChangeCoalescer()
        var movedFrom: [UInt32: String] = [:]
        /// Roots to rescan whole (startup, overflow, directories created, moved or removed).
        var pendingRoots: Set<String> = []
        /// Directories whose files changed, by root: rescanned alone when their root is not pending.
        var dirtyDirectories: [String: Set<String>] = [:]
        var lastEvent = ContinuousClock.now
        var rootStates: [String: DaemonStatus.Root] = [:]
        var totals = ScanReport()
        var errors: [String] = []
        /// Directories found unreadable (kept, unavailable), by root: those roots are polled until
        /// the directories read again, since a stale mount coming back sends no inotify event.
        var unreadable: [String: Set<String>] = [:]
        let startedAt = Date().timeIntervalSince1970
        /// Failed scans in a row, and the wait before the next.
        var backoff: RetryBackoff
        /// No scan starts before this while scans fail.
        var retryAt: ContinuousClock.Instant?
        /// Why the last scan failed, while they fail.
        var failure: String?
    }

    /// A service watching `configuration.roots` into `database` through `monitor`.
    public init(
        configuration: DaemonConfiguration, database: LibraryDatabase, monitor: any FileMonitor, logger: Logger,
        notifier: SystemdNotifier = SystemdNotifier()
    ) {
        var configuration = configuration
        configuration.roots = configuration.roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.configuration = configuration
        self.database = database
        // The daemon saw each file closed and waited for the settle period: no extra quiet time.
        scanner = FolderScanner(
            database: database, timeZone: configuration.timeZone, rules: configuration.rules, quietTime: 0)
        self.monitor = monitor
        self.logger = logger
        self.notifier = notifier
        state = Mutex(State(backoff: configuration.retryBackoff))
    }

    public func run() async throws {
        // Watch before the startup scan, so nothing changed during it is missed.
        for root in configuration.roots { follow(root) }
        await scan(configuration.roots, reason: "startup")
        notifier.send("READY=1")
        logger.info("watching", metadata: ["roots.count": "\(configuration.roots.count)", "watches": "\(monitor.watchCount)"])
        writeStatus()
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await self.consumeEvents() }
                group.addTask { try await self.applySettledChanges() }
                group.addTask { try await self.pollUnwatchedRoots() }
                if let interval = self.notifier.watchdogInterval {
                    group.addTask {
                        while true {
                            try await Task.sleep(for: interval / 2)
                            self.notifier.send("WATCHDOG=1")
                        }
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.notifier.send("STOPPING=1")
            self.logger.info("stopping")
            self.monitor.stop()
        }
        writeStatus()
    }

    // MARK: Roots

    /// Watches a root, or decides to poll it (network file system, not watchable, offline).
    private func follow(_ root: String) {
        let entry: DaemonStatus.Root
        if case .network(let kind) = FileSystemKind.of(root) {
            entry = DaemonStatus.Root(path: root, state: "polling", reason: "\(kind) file system: inotify is silent there")
        } else {
            do {
                try monitor.addRoot(root)
                let unwatched = monitor.unwatchedDirectories.filter { $0 == root || $0.hasPrefix(root + "/") }
                entry = unwatched.isEmpty
                    ? DaemonStatus.Root(path: root, state: "watching", reason: nil)
                    : DaemonStatus.Root(
                        path: root, state: "polling",
                        reason: "\(unwatched.count) directories beyond the inotify watch budget")
            } catch {
                let offline = error.code == .notFound || error.code == .notADirectory
                entry = DaemonStatus.Root(path: root, state: offline ? "offline" : "polling", reason: error.message)
            }
        }
        if entry.state != "watching" {
            logger.info("root not watched", metadata: ["root.path": "\(root)", "root.state": "\(entry.state)",
                                                       "reason": "\(entry.reason ?? "")"])
        }
        state.withLock { $0.rootStates[root] = entry }
    }

    private func root(of path: String) -> String? {
        configuration.roots.filter { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }.max { $0.count < $1.count }
    }

    // MARK: Events

    private func consumeEvents() async {
        for await event in monitor.events.cancelOnGracefulShutdown() {
            handle(event)
        }
    }

    /// Queues an event: folds it into the pending changes and marks its root for the next scan.
    func handle(_ event: FileEvent) {
        guard let root = root(of: event.path) else { return }
        let name = (event.path as NSString).lastPathComponent
        state.withLock { state in
            state.lastEvent = .now
            switch event.kind {
            case .overflow:
                state.errors.append("event queue overflow under \(root): recrawling")
                state.pendingRoots.insert(root)
                return
            case .rootUnmounted, .watchRemoved:
                // A file system unmounted inside a root only changes what is under it: rescan. The
                // root itself going away makes it offline (its assets stay) until it returns.
                if event.path == root {
                    state.rootStates[root] = DaemonStatus.Root(path: root, state: "offline", reason: "unmounted or removed")
                }
                state.pendingRoots.insert(root)
                return
            case .budgetExhausted:
                state.rootStates[root] = DaemonStatus.Root(
                    path: root, state: "polling", reason: "\(event.path) is beyond the inotify watch budget")
                return
            default:
                break
            }
            // Temporary and hidden names wait for the rename that gives them their final name.
            if !event.isDirectory && configuration.rules.isIgnoredName(name) {
                if case .movedFrom(let cookie) = event.kind { state.movedFrom[cookie] = event.path }
                return
            }
            switch event.kind {
            case .created: state.coalescer.record(.created, at: event.path)
            case .closedWrite, .modified, .attributes: state.coalescer.record(.updated, at: event.path)
            case .deleted: state.coalescer.record(.deleted, at: event.path)
            case .movedFrom(let cookie): state.movedFrom[cookie] = event.path
            case .movedTo(let cookie):
                if let source = state.movedFrom.removeValue(forKey: cookie) {
                    state.coalescer.move(from: source, to: event.path)
                    state.dirtyDirectories[root, default: []].insert((source as NSString).deletingLastPathComponent)
                } else {
                    state.coalescer.record(.created, at: event.path)
                }
            default: break
            }
            if event.isDirectory {
                // The tree's shape changed: folders and albums may too.
                state.pendingRoots.insert(root)
            } else {
                state.dirtyDirectories[root, default: []].insert((event.path as NSString).deletingLastPathComponent)
            }
        }
    }

    /// Applies what is pending once no event has come for the settle period.
    private func applySettledChanges() async throws {
        let tick = max(configuration.settle / 4, .milliseconds(5))
        while true {
            try await Task.sleep(for: tick)
            let work: (roots: [String], directories: [String: Set<String>])? = state.withLock { state in
                guard !state.pendingRoots.isEmpty || !state.dirtyDirectories.isEmpty,
                    ContinuousClock.now - state.lastEvent >= configuration.settle,
                    state.retryAt.map({ ContinuousClock.now >= $0 }) ?? true
                else { return nil }
                // A file moved out of the watched trees left no moved-to: its directory is dirty too.
                for source in state.movedFrom.values {
                    if let root = self.root(of: source) {
                        state.dirtyDirectories[root, default: []].insert((source as NSString).deletingLastPathComponent)
                    }
                }
                defer {
                    state.pendingRoots = []
                    state.dirtyDirectories = [:]
                    state.movedFrom = [:]
                    _ = state.coalescer.drain()
                }
                return (state.pendingRoots.sorted(), state.dirtyDirectories.filter { !state.pendingRoots.contains($0.key) })
            }
            guard let work else { continue }
            if !work.roots.isEmpty { await scan(work.roots, reason: "changes") }
            for (root, directories) in work.directories.sorted(by: { $0.key < $1.key }) {
                await scan(root: root, directories: directories)
            }
        }
    }

    /// Crawls the roots inotify cannot follow, and watches offline roots again when they return.
    private func pollUnwatchedRoots() async throws {
        while true {
            try await Task.sleep(for: configuration.pollInterval)
            let (roots, waiting) = state.withLock { state in
                (
                    Set(state.rootStates.values.filter { $0.state != "watching" }.map(\.path))
                        .union(state.unreadable.filter { !$0.value.isEmpty }.keys),
                    state.retryAt.map { ContinuousClock.now < $0 } ?? false
                )
            }
            // While scans fail, the backoff decides when to try again; the failed roots are pending.
            guard !roots.isEmpty, !waiting else { continue }
            for root in roots where state.withLock({ $0.rootStates[root]?.state }) == "offline" {
                follow(root)
            }
            await scan(roots.sorted(), reason: "poll")
        }
    }

    // MARK: Scanning

    /// Runs the scanner over some roots on the scan queue and records what it did.
    private func scan(_ roots: [String], reason: String) async {
        let scanner = self.scanner
        await run(reason: reason, roots: roots) { try scanner.scan(roots: roots) }
    }

    /// Rescans only some directories of a root (their files changed, the tree's shape did not).
    private func scan(root: String, directories: Set<String>) async {
        let scanner = self.scanner
        await run(reason: "changes", roots: [root]) { try scanner.scan(root: root, directories: directories) }
    }

    private func run(reason: String, roots: [String], _ work: @escaping @Sendable () throws -> ScanReport) async {
        let outcome: Result<ScanReport, any Error> = await withCheckedContinuation { continuation in
            scanQueue.async {
                continuation.resume(returning: Result { try work() })
            }
        }
        switch outcome {
        case .success(let report):
            let recovered = state.withLock { state in
                defer {
                    state.backoff.succeeded()
                    state.retryAt = nil
                    state.failure = nil
                }
                return state.failure != nil
            }
            if recovered { logger.info("the library can be used again", metadata: ["scan.reason": "\(reason)"]) }
            var unreadable: [UnreadableDirectoryRecord] = []
            do {
                unreadable = try database.unreadableDirectories()
            } catch {
                logger.error("cannot read the unreadable directories", metadata: ["error": "\(error)"])
            }
            state.withLock { state in
                state.totals.ingested += report.ingested
                state.totals.updated += report.updated
                state.totals.moved += report.moved
                state.totals.removed += report.removed
                state.totals.rejected += report.rejected
                for root in report.offlineRoots {
                    state.rootStates[root] = DaemonStatus.Root(path: root, state: "offline", reason: "cannot be read")
                }
                // The store knows every unreadable directory (a partial scan sees only some):
                // report the new ones once, and poll their roots until they read again.
                let known = state.unreadable.values.reduce(into: Set<String>()) { $0.formUnion($1) }
                for directory in unreadable where !known.contains(directory.path) {
                    logger.warning(
                        "directory cannot be read: its assets are kept, unavailable",
                        metadata: ["directory.path": "\(directory.path)", "error": "\(directory.reason)"])
                    state.errors.append(
                        "\(Date()): \(directory.path) cannot be read (\(directory.reason)): "
                            + "its assets are kept, unavailable")
                }
                state.unreadable = Dictionary(grouping: unreadable.map(\.path)) { self.root(of: $0) ?? "" }
                    .mapValues(Set.init)
                if !report.stillChanging.isEmpty {
                    // Still being written: look again once they settle.
                    state.pendingRoots.formUnion(report.stillChanging.compactMap(self.root(of:)))
                    state.lastEvent = .now
                }
            }
            if report.ingested + report.updated + report.moved + report.removed + report.rejected > 0 {
                logger.info(
                    "applied changes",
                    metadata: [
                        "scan.reason": "\(reason)", "ingested": "\(report.ingested)", "updated": "\(report.updated)",
                        "moved": "\(report.moved)", "removed": "\(report.removed)", "rejected": "\(report.rejected)",
                    ])
            }
        case .failure(let error):
            // One log line per try: the backoff spaces the tries, 0.5 s doubling to a minute.
            let (delay, failures) = state.withLock { state in
                let delay = state.backoff.failed()
                state.retryAt = .now + delay
                state.failure = "\(error)"
                state.errors.append("\(Date()): scan failed: \(error)")
                if state.errors.count > 100 { state.errors.removeFirst(state.errors.count - 100) }
                state.pendingRoots.formUnion(roots)
                return (delay, state.backoff.failures)
            }
            logger.error(
                "scan failed; the library cannot be used",
                metadata: [
                    "scan.reason": "\(reason)", "error": "\(error)", "retry.seconds": "\(delay.seconds)",
                    "failures": "\(failures)", "library.path": "\(configuration.libraryPath)",
                ])
        }
        writeStatus()
    }

    // MARK: Status

    /// The daemon's status now.
    public var status: DaemonStatus {
        state.withLock { state in
            DaemonStatus(
                pid: getpid(), startedAt: state.startedAt, updatedAt: Date().timeIntervalSince1970,
                roots: configuration.roots.map { state.rootStates[$0] ?? .init(path: $0, state: "watching", reason: nil) },
                watches: monitor.watchCount, watchBudget: WatchBudget.system().limit,
                unwatchedDirectories: monitor.unwatchedDirectories.count,
                queueDepth: state.coalescer.pending.count + state.movedFrom.count,
                ingested: state.totals.ingested,
                updated: state.totals.updated, moved: state.totals.moved, removed: state.totals.removed,
                rejected: state.totals.rejected, lastErrors: Array(state.errors.suffix(10)),
                library: DaemonStatus.Library(
                    state: state.failure == nil ? "available" : "unavailable", reason: state.failure,
                    consecutiveFailures: state.backoff.failures,
                    retryAt: state.retryAt.map { Date().timeIntervalSince1970 + (($0 - .now).seconds) }))
        }
    }

    private func writeStatus() {
        do {
            try status.write(to: configuration.statusPath)
        } catch {
            logger.warning("cannot write status", metadata: ["file.path": "\(configuration.statusPath)", "error": "\(error)"])
        }
    }
}
