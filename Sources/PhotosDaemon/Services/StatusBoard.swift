import PhotosWire
import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosWatcher
import Synchronization

/// The daemon's shared status: every service writes its part here, and the status reporter
/// writes the whole to the status file for `photos status` whenever a part changes.
///
/// Another service adds its own top-level section to the status file with ``Board/sections``;
/// the value is any `Encodable & Sendable` and appears under its key (a key of ``DaemonStatus``
/// itself is never replaced, so old readers of the file keep working):
///
/// ```swift
/// board.update { $0.sections["hooks"] = hooks.map(HookStatus.init) }   // file gets "hooks": [...]
/// board.update(publish: false) { $0.queueDepth = 12 }                  // no write for this alone
/// for await _ in board.subscribe() { print(board.read(\.totals.ingested)) }
/// ```
public final class StatusBoard: Sendable {
    /// What the services report.
    public struct Board: Sendable {
        /// When the daemon started, seconds since 1970.
        public var startedAt = Date().timeIntervalSince1970
        /// How each root is followed; a root missing here is `watching`.
        public var roots: [String: DaemonStatus.Root] = [:]
        /// Totals since the daemon started.
        public var totals = ScanReport()
        /// The most recent errors, newest last (the last 100 are kept).
        public var errors: [String] = []
        /// Changes waiting for the tree to settle.
        public var queueDepth = 0
        /// Why the last scan failed, while scans fail (the library is unavailable).
        public var libraryFailure: String?
        /// Scans failed in a row.
        public var consecutiveFailures = 0
        /// No scan starts before this while scans fail.
        public var retryAt: ContinuousClock.Instant?
        /// Whether the startup scan is done: the status file is written from then on.
        public var isReady = false
        /// Sections other services add to the status file, by top-level key.
        public var sections: [String: any Encodable & Sendable] = [:]

        /// Records an error for the status file, keeping the last 100.
        public mutating func append(error: String) {
            errors.append(error)
            if errors.count > 100 { errors.removeFirst(errors.count - 100) }
        }
    }

    private struct State: Sendable {
        var board = Board()
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextSubscriber = 0
    }

    private let state = Mutex(State())

    /// An empty board.
    public init() {}

    /// Reads the board.
    public func read<T: Sendable>(_ body: (Board) -> T) -> T {
        state.withLock { body($0.board) }
    }

    /// Changes the board and, with `publish`, tells the subscribers (the status file is written).
    @discardableResult
    public func update<T: Sendable>(publish: Bool = true, _ body: (inout Board) -> T) -> T {
        let (result, subscribers) = state.withLock { state in
            (body(&state.board), publish ? Array(state.subscribers.values) : [])
        }
        for subscriber in subscribers { subscriber.yield() }
        return result
    }

    /// A stream with one element after each published update (updates in between fold into one).
    public func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The daemon's status now, in the shape of the status file (without the added sections).
    public func status(
        roots: WatchedRoots, policies: LibraryRoots = LibraryRoots([]), monitor: any FileMonitor
    ) -> DaemonStatus {
        let board = read { $0 }
        return DaemonStatus(
            pid: getpid(), startedAt: board.startedAt, updatedAt: Date().timeIntervalSince1970,
            roots: roots.paths.map { path in
                var root = board.roots[path] ?? .init(path: path, state: "watching", reason: nil)
                // The policy of this root itself (an inner root has its own), checked against the disk now.
                let policy = policies.roots.first { $0.path == path }?.write ?? .none
                root.write = policy.rawValue
                root.writeRestriction = policy == .none ? nil : FileOperations.writeRestriction(ofDirectory: path)
                return root
            },
            watches: monitor.watchCount, watchBudget: WatchBudget.system().limit,
            unwatchedDirectories: monitor.unwatchedDirectories.count,
            queueDepth: board.queueDepth,
            ingested: board.totals.ingested, updated: board.totals.updated, moved: board.totals.moved,
            removed: board.totals.removed, rejected: board.totals.rejected, lastErrors: Array(board.errors.suffix(10)),
            library: DaemonStatus.Library(
                state: board.libraryFailure == nil ? "available" : "unavailable", reason: board.libraryFailure,
                consecutiveFailures: board.consecutiveFailures,
                retryAt: board.retryAt.map { Date().timeIntervalSince1970 + ($0 - .now).seconds }))
    }
}
