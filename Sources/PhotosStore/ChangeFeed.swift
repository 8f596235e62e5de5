import PhotosCore
import Synchronization

/// The library's committed changes as an endless asynchronous sequence: every change-log entry
/// after a token, in order, by any process, then each new one as it is committed.
///
/// It reads the log in pages and, when it has caught up, sleeps until a commit: one made through
/// this `LibraryDatabase` wakes it at once and hands it its entry (the next one is taken as it is,
/// without reading the log), another connection's or process's when the database's ``CommitSignal`` says
/// the library file was written (inotify; no polling, nothing runs while nobody writes; an in-memory
/// library has no other writer and needs no signal). It throws
/// ``StoreError`` `.historyExpired` (PhotoKit's 3105) when entries after the token were pruned:
/// never a silent gap. It ends (returns nil) when its task is cancelled, or when its ``FeedStop``
/// is stopped.
///
/// This is the one reader of the log that follows it: `PHPhotoLibraryChangeObserver` delivery,
/// `photos changes --follow` and the daemon's consumers read through it, each with its own cursor.
///
/// ```swift
/// for try await entry in database.changeFeed(after: lastSeenToken) {
///     print(entry.token, entry.asset.inserted)
///     lastSeenToken = entry.token
/// }
/// ```
public struct ChangeFeed: AsyncSequence, Sendable {
    public typealias Element = LibraryChange

    /// The most entries read at once.
    public static let pageSize = 256

    let database: LibraryDatabase
    let token: Int64
    let stop: FeedStop?

    public func makeAsyncIterator() -> Iterator {
        Iterator(database: database, token: token, stop: stop)
    }

    /// Reads the log from the feed's token on.
    public struct Iterator: AsyncIteratorProtocol {
        let database: LibraryDatabase
        let stop: FeedStop?
        /// The token of the last entry handed out.
        var token: Int64
        var buffer: [LibraryChange] = []
        var wakeups: Wakeups?
        /// The wakeups counted when the feed last knew it had every committed entry: while the
        /// count stays there, nothing new was committed and ``nextCommitted()`` need not read.
        var caughtUpAt: Int?

        init(database: LibraryDatabase, token: Int64, stop: FeedStop?) {
            self.database = database
            self.token = token
            self.stop = stop
        }

        /// The next entry, waiting for a commit when there is none; nil once the task is cancelled
        /// or the feed's ``FeedStop`` stopped.
        public mutating func next() async throws -> LibraryChange? {
            // Watching starts before the first read, so a commit landing between a read that found
            // nothing and the wait after it still wakes the wait.
            if wakeups == nil { wakeups = Wakeups(database: database, stop: stop) }
            while buffer.isEmpty {
                if Task.isCancelled || stop?.isStopped == true { return nil }
                try read()
                if buffer.isEmpty {
                    guard let wakeup = await wakeups!.wait() else { return nil }
                    // This process's commit of the very next entry: nothing lies between, so it is
                    // taken as it is (the log's copy says the same), and the feed has caught up
                    // unless a wakeup was counted after it.
                    if case .committed(let entry, let count) = wakeup, entry.token == token + 1 {
                        buffer = [entry]
                        caughtUpAt = count
                    }
                }
            }
            let entry = buffer.removeFirst()
            token = entry.token
            return entry
        }

        /// The next page of the log after ``token``.
        private mutating func read() throws {
            let count = wakeups?.count
            buffer = try database.changes(after: token, limit: ChangeFeed.pageSize)
            caughtUpAt = buffer.count < ChangeFeed.pageSize ? count : nil
        }

        /// The next entry already committed, or nil without waiting: how a consumer that batches
        /// (the exec hooks) takes everything that is there before it acts. Once the feed knows it
        /// has caught up, it reads the log again only after a wakeup: another process's commit
        /// counts from its commit signal, a few milliseconds after it.
        public mutating func nextCommitted() throws -> LibraryChange? {
            if buffer.isEmpty {
                if let caughtUpAt, caughtUpAt == wakeups?.count { return nil }
                try read()
            }
            guard !buffer.isEmpty else { return nil }
            let entry = buffer.removeFirst()
            token = entry.token
            return entry
        }
    }

    /// One reason to look at the log again.
    enum Wakeup: Sendable {
        /// The library file was written, by some process.
        case signalled
        /// This `LibraryDatabase` committed `entry`; `count` is ``Wakeups/count`` right after it.
        case committed(LibraryChange, count: Int)
    }

    /// Commits as an async stream that keeps at most one pending wakeup (the newest): this
    /// database's own at once, with their entries, other connections' through the database's
    /// commit signal, which this stops following when the iterator goes.
    final class Wakeups: Sendable {
        private let follower: CommitFollower?
        private let stream: AsyncStream<Wakeup>
        private let localCommits: LocalCommits
        private let subscription: Int
        private let stop: FeedStop?
        private let stopSubscription: Int?
        private let counter = Counter()

        /// How many wakeups came so far, counted before each is yielded.
        var count: Int { counter.value.load(ordering: .acquiring) }

        private final class Counter: Sendable {
            let value = Atomic<Int>(0)

            /// Counts one wakeup; the count with it.
            func increment() -> Int { value.add(1, ordering: .acquiringAndReleasing).newValue }
        }

        init(database: LibraryDatabase, stop: FeedStop?) {
            let (stream, continuation) = AsyncStream<Wakeup>.makeStream(bufferingPolicy: .bufferingNewest(1))
            self.stream = stream
            self.stop = stop
            stopSubscription = stop?.add { continuation.finish() }
            let counter = self.counter
            localCommits = database.localCommits
            subscription = localCommits.add { entry in
                let count = counter.increment()
                continuation.yield(.committed(entry, count: count))
            }
            // Nobody else can write an in-memory library: its own commits are all there is.
            follower =
                database.isPrivate
                ? nil
                : database.followCommits {
                    _ = counter.increment()
                    continuation.yield(.signalled)
                }
        }

        /// Waits for the next wakeup; nil when the task is cancelled or the feed stopped.
        func wait() async -> Wakeup? {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }

        deinit {
            follower?.cancel()
            localCommits.remove(subscription)
            if let stopSubscription { stop?.remove(stopSubscription) }
        }
    }
}

/// Ends change feeds from outside the tasks that read them: a server that stops ends its follow
/// streams this way, and their responses still end properly, as cancelling the tasks writing
/// them would not let them.
public final class FeedStop: Sendable {
    private let state = Mutex<(stopped: Bool, next: Int, enders: [Int: @Sendable () -> Void])>((false, 0, [:]))

    /// A stop not stopped yet.
    public init() {}

    /// Ends every feed made with this stop at its next wait (and any made later at once).
    public func stop() {
        let enders = state.withLock { state in
            state.stopped = true
            defer { state.enders = [:] }
            return Array(state.enders.values)
        }
        for end in enders { end() }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Calls `end` at ``stop()`` (at once when already stopped); the number is for ``remove(_:)``.
    func add(_ end: @escaping @Sendable () -> Void) -> Int {
        let (number, stopped) = state.withLock { state in
            state.next += 1
            if !state.stopped { state.enders[state.next] = end }
            return (state.next, state.stopped)
        }
        if stopped { end() }
        return number
    }

    func remove(_ number: Int) {
        _ = state.withLock { $0.enders.removeValue(forKey: number) }
    }
}

/// The change feeds of one `LibraryDatabase` in this process, told of each of its commits, with its
/// entry, as soon as the commit returns: a process's own changes reach its observers and hooks
/// without waiting for the kernel's file events and the commit signal's settle checks, and without
/// reading back what was just written.
final class LocalCommits: Sendable {
    private let state = Mutex<(next: Int, wakers: [Int: @Sendable (LibraryChange) -> Void])>((0, [:]))

    /// Calls `wake` after every commit until ``remove(_:)`` is called with the number returned.
    func add(_ wake: @escaping @Sendable (LibraryChange) -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.wakers[state.next] = wake
            return state.next
        }
    }

    /// Stops waking a feed.
    func remove(_ subscription: Int) {
        _ = state.withLock { $0.wakers.removeValue(forKey: subscription) }
    }

    /// Wakes every feed with the entry just committed (outside the lock: a waker only yields to a stream).
    func announce(_ entry: LibraryChange) {
        let wakers = state.withLock { Array($0.wakers.values) }
        for wake in wakers { wake(entry) }
    }
}

extension LibraryDatabase {
    /// The committed changes after `token`, then each new one as it is committed (``ChangeFeed``),
    /// until the task reading them is cancelled or `stop` is stopped.
    public func changeFeed(after token: Int64, stoppedBy stop: FeedStop? = nil) -> ChangeFeed {
        ChangeFeed(database: self, token: token, stop: stop)
    }
}
