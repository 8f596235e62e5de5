import Foundation
import Logging
import PhotosStore
import PhotosWire
import PhotosWatcher
import ServiceLifecycle
import Synchronization

/// Follows each root: watches it with inotify where that works, else polls it (network and FUSE
/// file systems, roots beyond the watch budget), marks it offline when it goes away and watches
/// it again when it comes back; polls the roots holding unreadable directories until they read
/// again (a stale mount coming back sends no inotify event).
///
/// It asks for the startup scan once every root is followed (so that nothing changed during the
/// scan is missed) and for a crawl of unwatched roots every poll interval. It learns what the
/// settler saw (``EventSettler/Notice``) and what scans found through ``post(_:)``; the root
/// states are on the ``StatusBoard``.
public final class RootTracker: Service, Sendable {
    /// What the root tracker is told.
    public enum Notice: Sendable, Hashable {
        /// What an event said about a root.
        case event(EventSettler.Notice)
        /// What a scan found: roots that could not be read, and every unreadable directory the
        /// library knows (a partial scan sees only some).
        case scanned(offlineRoots: [String], unreadable: [UnreadableDirectoryRecord])
    }

    let roots: WatchedRoots
    let monitor: any FileMonitor
    let board: StatusBoard
    let scans: ScanQueue
    /// The watch walks going on, for the scans that list their roots meanwhile.
    let walks: RootWalks
    let pollInterval: Duration
    let logger: Logger
    private let notices: AsyncStream<Notice>
    private let continuation: AsyncStream<Notice>.Continuation
    /// Directories found unreadable, by root: those roots are polled until they read again.
    private let unreadable = Mutex<[String: Set<String>]>([:])

    /// A tracker of `roots`, watched through `monitor`.
    public init(
        roots: WatchedRoots, monitor: any FileMonitor, board: StatusBoard, scans: ScanQueue, pollInterval: Duration,
        logger: Logger, walks: RootWalks = RootWalks()
    ) {
        self.roots = roots
        self.walks = walks
        self.monitor = monitor
        self.board = board
        self.scans = scans
        self.pollInterval = pollInterval
        self.logger = logger
        // Notices are rare (a root comes or goes, a scan ends); a later scan's notice supersedes
        // an earlier one, so the oldest are the ones to lose if this ever fills.
        (notices, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    /// Tells the tracker something about a root.
    public func post(_ notice: Notice) { continuation.yield(notice) }

    public func run() async throws {
        // Watch before the startup scan lists each directory, so nothing changed during it is missed.
        for root in roots.paths { follow(root) }
        scans.submit(ScanWork(roots: Set(roots.paths), reasons: ["startup"]))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await cancelWhenGracefulShutdown { for await notice in self.notices { self.handle(notice) } }
            }
            group.addTask { try await self.poll() }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Makes `paths` the roots (a reload of the configuration) and returns what changed.
    ///
    /// A new root is sorted into before it is watched and crawled after, so that nothing made in
    /// it meanwhile is missed: an event is settled, and what came before its watch the crawl finds.
    /// A removed root stops being watched and polled, and its assets stay in the library as an
    /// offline root's do (``markOffline`` is called with it); a root that lay inside a removed one
    /// is watched again on its own and crawled for what changed while it was not.
    public func replaceRoots(
        with paths: [String], markOffline: (String) -> Void = { _ in }
    ) -> (added: [String], removed: [String]) {
        let (added, removed) = roots.replace(with: paths)
        for root in removed { monitor.removeRoot(root) }
        scans.drop(roots: Set(removed))
        if !removed.isEmpty {
            board.update { board in for root in removed { board.roots[root] = nil } }
            unreadable.withLock { known in for root in removed { known[root] = nil } }
            for root in removed { markOffline(root) }
        }
        let uncovered = roots.paths.filter { root in
            !added.contains(root) && removed.contains { root.hasPrefix($0 == "/" ? "/" : $0 + "/") }
        }
        for root in added + uncovered { follow(root) }
        scans.submit(ScanWork(roots: Set(added + uncovered), reasons: ["reload"]))
        return (added, removed)
    }

    /// Watches a root, or decides to poll it (network file system, not watchable, offline).
    ///
    /// Returns once the root itself is watched: its directories are watched on a thread of their
    /// own (a walk in ``walks``), while the scan lists those already watched. A root whose walk
    /// found directories beyond the watch budget is polled from its end on.
    func follow(_ root: String) {
        if case .network(let kind) = FileSystemKind.of(root) {
            record(
                DaemonStatus.Root(path: root, state: "polling", reason: "\(kind) file system: inotify is silent there"))
            return
        }
        let walk: RootWalk
        do {
            walk = try monitor.startRoot(root)
        } catch {
            let offline = error.code == .notFound || error.code == .notADirectory
            record(DaemonStatus.Root(path: root, state: offline ? "offline" : "polling", reason: error.message))
            return
        }
        walks.add(walk, for: root)
        record(DaemonStatus.Root(path: root, state: "watching", reason: nil))
        walk.whenEnded { [self] in
            let unwatched = monitor.unwatchedDirectories.filter { $0 == root || $0.hasPrefix(root + "/") }
            guard !unwatched.isEmpty else { return }
            record(
                DaemonStatus.Root(
                    path: root, state: "polling",
                    reason: "\(unwatched.count) directories beyond the inotify watch budget"))
        }
    }

    /// Puts a root's state on the board, and in the log when it is not watched.
    private func record(_ entry: DaemonStatus.Root) {
        if entry.state != "watching" {
            // A root that is not there (mistyped, or its disk not mounted) is a warning: watching
            // nothing there is rarely what was meant. Polling is a choice the daemon made.
            let level: Logger.Level = entry.state == "offline" ? .warning : .info
            logger.log(
                level: level, "root not watched",
                metadata: [
                    "root.path": "\(entry.path)", "root.state": "\(entry.state)", "reason": "\(entry.reason ?? "")",
                ])
        }
        board.update { $0.roots[entry.path] = entry }
    }

    func handle(_ notice: Notice) {
        switch notice {
        case .event(.overflow(let root)):
            board.update { $0.append(error: "event queue overflow under \(root): recrawling") }
        case .event(.offline(let root, let reason)):
            board.update { $0.roots[root] = DaemonStatus.Root(path: root, state: "offline", reason: reason) }
        case .event(.polling(let root, let reason)):
            board.update { $0.roots[root] = DaemonStatus.Root(path: root, state: "polling", reason: reason) }
        case .scanned(let offlineRoots, let records):
            let grouped = Dictionary(grouping: records.map(\.path)) { self.roots.root(of: $0) ?? "" }
                .mapValues(Set.init)
            let known = unreadable.withLock { known in
                defer { known = grouped }
                return known.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            }
            let new = records.filter { !known.contains($0.path) }
            for directory in new {
                logger.warning(
                    "directory cannot be read: its assets are kept, unavailable",
                    metadata: ["directory.path": "\(directory.path)", "error": "\(directory.reason)"])
            }
            guard !offlineRoots.isEmpty || !new.isEmpty else { return }
            board.update { board in
                for root in offlineRoots {
                    board.roots[root] = DaemonStatus.Root(path: root, state: "offline", reason: "cannot be read")
                }
                // Reported once each, when first found.
                for directory in new {
                    board.append(
                        error: "\(Date()): \(directory.path) cannot be read (\(directory.reason)): "
                            + "its assets are kept, unavailable")
                }
            }
        }
    }

    /// The roots to crawl now: not watched, or holding unreadable directories.
    public var unwatchedRoots: Set<String> {
        let notWatching = board.read { board in board.roots.values.filter { $0.state != "watching" }.map(\.path) }
        return Set(notWatching).union(unreadable.withLock { $0.filter { !$0.value.isEmpty }.keys })
    }

    /// Crawls the roots inotify cannot follow, and watches offline roots again when they return.
    private func poll() async throws {
        while true {
            try await Task.sleep(for: pollInterval)
            // While scans fail, the backoff decides when to try again; the failed roots are pending.
            guard board.read({ $0.retryAt.map { ContinuousClock.now < $0 } ?? false }) == false else { continue }
            let roots = unwatchedRoots
            guard !roots.isEmpty else { continue }
            for root in roots.sorted() where board.read({ $0.roots[root]?.state }) == "offline" {
                follow(root)
            }
            scans.submit(ScanWork(roots: roots, reasons: ["poll"]))
        }
    }
}
