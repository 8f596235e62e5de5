import PhotosCore
import PhotosStore

/// One hook's change log read in runs: its ``ChangeFeed`` from the hook's cursor, gathered by a
/// ``HookBatcher``. The daemon's follower waits for commits (``next(settle:)``); `photos hooks run
/// --dry-run` takes what is committed (``ready()``).
struct HookBatches {
    /// What the hook's next run is made of.
    enum Batch: Sendable {
        /// Entries after the cursor, whole and in order (never empty).
        case changes([LibraryChange])
        /// The log no longer holds the entries after the cursor: the hook gets an `expired` run.
        case expired
    }

    let database: LibraryDatabase
    private var feed: ChangeFeed.Iterator
    private var batcher: HookBatcher

    /// The log after `cursor`, in batches of at most `limit` objects.
    init(database: LibraryDatabase, after cursor: Int64, limit: Int) {
        self.database = database
        feed = database.changeFeed(after: cursor).makeAsyncIterator()
        batcher = HookBatcher(limit: limit)
    }

    /// The next batch: waits for a commit unless an entry held back from the last batch starts
    /// this one, takes what is committed, and unless that fills the batch (a backlog being worked
    /// through) lets `settle` pass for more to come and takes that too. Nil once the task is
    /// cancelled; throws `CancellationError` when it is cancelled while settling.
    mutating func next(settle: Duration) async throws -> Batch? {
        do {
            if batcher.isEmpty {
                guard let entry = try await feed.next() else { return nil }
                batcher.offer(entry)
            }
            try takeCommitted()
        } catch let error as StoreError where error.code == .historyExpired {
            batcher.reset()
            return .expired
        }
        if settle > .zero, batcher.wantsMore { try await Task.sleep(for: settle) }
        return try ready()
    }

    /// The batch of what is committed now, without waiting; nil when nothing is.
    mutating func ready() throws -> Batch? {
        do {
            try takeCommitted()
        } catch let error as StoreError where error.code == .historyExpired {
            batcher.reset()
            return .expired
        }
        return batcher.isEmpty ? nil : .changes(batcher.take())
    }

    /// Adds to the batch what is committed now, while it takes more.
    private mutating func takeCommitted() throws {
        while batcher.wantsMore, let entry = try feed.nextCommitted() { batcher.offer(entry) }
    }

    /// Reads the log again after `cursor`: what came after it is given again.
    mutating func rewind(to cursor: Int64) {
        feed = database.changeFeed(after: cursor).makeAsyncIterator()
        batcher.reset()
    }
}
