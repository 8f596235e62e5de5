import Dispatch
import PhotosCore
import PhotosWatcher
import Synchronization

/// The library's committed changes as an endless asynchronous sequence: every change-log entry
/// after a token, in order, by any process, then each new one as it is committed.
///
/// It reads the log in pages and, when it has caught up, sleeps until a commit: one made through
/// this `LibraryDatabase` wakes it at once, another connection's or process's when a
/// ``CommitSignal`` says the library file was written (inotify; no polling, nothing runs while
/// nobody writes; an in-memory library has no other writer and needs no signal). It throws
/// ``StoreError`` `.historyExpired` (PhotoKit's 3105) when entries after the token were pruned:
/// never a silent gap. It ends (returns nil) when its task is cancelled.
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

    public func makeAsyncIterator() -> Iterator {
        Iterator(database: database, token: token)
    }

    /// Reads the log from the feed's token on.
    public struct Iterator: AsyncIteratorProtocol {
        let database: LibraryDatabase
        /// The token of the last entry handed out.
        var token: Int64
        var buffer: [LibraryChange] = []
        var wakeups: Wakeups?

        init(database: LibraryDatabase, token: Int64) {
            self.database = database
            self.token = token
        }

        /// The next entry, waiting for a commit when there is none; nil once the task is cancelled.
        public mutating func next() async throws -> LibraryChange? {
            // Watching starts before the first read, so a commit landing between a read that found
            // nothing and the wait after it still wakes the wait.
            if wakeups == nil { wakeups = Wakeups(database: database) }
            while buffer.isEmpty {
                if Task.isCancelled { return nil }
                buffer = try database.changes(after: token, limit: ChangeFeed.pageSize)
                if buffer.isEmpty {
                    guard await wakeups!.wait() else { return nil }
                }
            }
            let entry = buffer.removeFirst()
            token = entry.token
            return entry
        }

        /// The next entry already committed, or nil without waiting: how a consumer that batches
        /// (the exec hooks) takes everything that is there before it acts.
        public mutating func nextCommitted() throws -> LibraryChange? {
            if buffer.isEmpty { buffer = try database.changes(after: token, limit: ChangeFeed.pageSize) }
            guard !buffer.isEmpty else { return nil }
            let entry = buffer.removeFirst()
            token = entry.token
            return entry
        }
    }

    /// Commits as an async stream that keeps at most one pending wakeup: this database's own at
    /// once, other connections' through a commit signal, which is cancelled (its inotify
    /// descriptor closed) when the iterator goes.
    final class Wakeups: Sendable {
        private let signal: CommitSignal?
        private let stream: AsyncStream<Void>
        private let localCommits: LocalCommits
        private let subscription: Int

        init(database: LibraryDatabase) {
            let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            self.stream = stream
            localCommits = database.localCommits
            subscription = localCommits.add { continuation.yield() }
            // Nobody else can write an in-memory library: its own commits are all there is.
            signal = database.path.map { path in
                CommitSignal(path: path, queue: DispatchQueue(label: "photos.change-feed")) { continuation.yield() }
            }
        }

        /// Waits for the next signal; false when the task is cancelled.
        func wait() async -> Bool {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next() != nil
        }

        deinit {
            signal?.cancel()
            localCommits.remove(subscription)
        }
    }
}

/// The change feeds of one `LibraryDatabase` in this process, told of each of its commits as soon
/// as the commit returns: a process's own changes reach its observers and hooks without waiting for
/// the kernel's file events and the commit signal's settle checks.
final class LocalCommits: Sendable {
    private let state = Mutex<(next: Int, wakers: [Int: @Sendable () -> Void])>((0, [:]))

    /// Calls `wake` after every commit until ``remove(_:)`` is called with the number returned.
    func add(_ wake: @escaping @Sendable () -> Void) -> Int {
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

    /// Wakes every feed (outside the lock: a waker only yields to a stream).
    func announce() {
        let wakers = state.withLock { Array($0.wakers.values) }
        for wake in wakers { wake() }
    }
}

extension LibraryDatabase {
    /// The committed changes after `token`, then each new one as it is committed (``ChangeFeed``).
    public func changeFeed(after token: Int64) -> ChangeFeed {
        ChangeFeed(database: self, token: token)
    }
}
