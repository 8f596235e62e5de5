import Dispatch
import PhotosCore
import PhotosWatcher

/// The library's committed changes as an endless asynchronous sequence: every change-log entry
/// after a token, in order, by any process, then each new one as it is committed.
///
/// It reads the log in pages and, when it has caught up, sleeps until a ``CommitSignal`` says the
/// library file was written (inotify; no polling, nothing runs while nobody writes). It throws
/// ``StoreError`` `.historyExpired` (PhotoKit's 3105) when entries after the token were pruned:
/// never a silent gap. It ends (returns nil) when its task is cancelled.
///
/// This is the one reader of the log that follows it; `photos changes --follow` and the daemon's
/// consumers read through it, each with its own cursor.
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
            if wakeups == nil { wakeups = Wakeups(path: database.path) }
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

    /// Commit signals as an async stream that keeps at most one pending wakeup; the signal is
    /// cancelled (its inotify descriptor closed) when the iterator goes.
    final class Wakeups: Sendable {
        private let signal: CommitSignal
        private let stream: AsyncStream<Void>

        init(path: String?) {
            let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            self.stream = stream
            signal = CommitSignal(path: path, queue: DispatchQueue(label: "photos.change-feed")) {
                continuation.yield()
            }
        }

        /// Waits for the next signal; false when the task is cancelled.
        func wait() async -> Bool {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next() != nil
        }

        deinit { signal.cancel() }
    }
}

extension LibraryDatabase {
    /// The committed changes after `token`, then each new one as it is committed (``ChangeFeed``).
    public func changeFeed(after token: Int64) -> ChangeFeed {
        ChangeFeed(database: self, token: token)
    }
}
