import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the library's write-ahead log into the database file off the commit path.
///
/// SQLite checkpoints by itself when a commit leaves the log at 1,000 pages or more, in that
/// commit, on the committing thread: one file in about fifty made its observers and hooks wait 3
/// to 5 ms more (a daemon's p99 from close() to the commit). Here the writer's connection hands
/// that work to a connection of this checkpointer's own, on a utility queue, a moment after the
/// commit (``delay``), so that what waits for the commit (observers, hooks) goes first. A passive
/// checkpoint takes no lock writers wait for: commits go on while it copies.
///
/// A checkpoint that cannot keep up (a long scan committing batches back to back, where each
/// checkpoint finds new frames behind it and the log never starts over) is caught by the writer:
/// a commit that leaves the log at ``inlineLimit`` pages or more checkpoints inline, as SQLite
/// would, so the log stays bounded.
final class WALCheckpointer: Sendable {
    /// Pages in the log after which a checkpoint is due (SQLite's own autocheckpoint default).
    let threshold: Int32
    /// Pages in the log after which the committing connection checkpoints itself.
    let inlineLimit: Int32
    /// How long after the commit that made a checkpoint due it starts.
    let delay: DispatchTimeInterval
    private let path: String
    private let queue: DispatchQueue
    private struct State {
        var connection: OpaquePointer?
        var scheduled = false
        var closed = false
        var runs = 0
        var inlineRuns = 0
        var largestLog: Int32 = 0

        mutating func takeConnection() -> OpaquePointer? {
            defer { connection = nil }
            return connection
        }
    }
    private let state = Mutex(State())

    /// A checkpointer for the library file at `path`; its connection is opened at its first checkpoint.
    init(
        path: String, threshold: Int32 = 1000, inlineLimit: Int32 = 16_000,
        delay: DispatchTimeInterval = .milliseconds(20),
        queue: DispatchQueue = DispatchQueue(label: "photos.wal-checkpoint", qos: .utility)
    ) {
        self.path = path
        self.threshold = threshold
        self.inlineLimit = max(threshold, inlineLimit)
        self.delay = delay
        self.queue = queue
    }

    /// What it has done: checkpoints run off the commit path and inline, and the most pages a
    /// commit left in the log.
    var counts: (runs: Int, inlineRuns: Int, largestLog: Int32) {
        state.withLock { ($0.runs, $0.inlineRuns, $0.largestLog) }
    }

    /// Makes `db` (the writer's connection) report its commits here instead of checkpointing
    /// in them. The checkpointer must outlive the connection's commits (the library holds both).
    func attach(to db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, Self.hook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Closes this checkpointer's connection, once a checkpoint under way is done; none starts after.
    func close() {
        let connection = state.withLock { state in
            state.closed = true
            // A checkpoint due or under way closes the connection when it is done.
            return state.scheduled ? nil : state.takeConnection()
        }
        if let connection { sqlite3_close_v2(connection) }
    }

    /// SQLite's `sqlite3_wal_hook` callback: context, connection, database name, pages in the log.
    private typealias Hook =
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32)
        -> Int32

    private static let hook: Hook = { context, connection, _, pages in
        guard let context else { return SQLITE_OK }
        Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(pages: pages, by: connection)
        return SQLITE_OK
    }

    /// A commit left `pages` pages in the log.
    private func committed(pages: Int32, by connection: OpaquePointer?) {
        let inline = pages >= inlineLimit
        let schedule = state.withLock { state in
            state.largestLog = max(state.largestLog, pages)
            if inline { state.inlineRuns += 1 }
            guard !inline, pages >= threshold, !state.scheduled, !state.closed else { return false }
            state.scheduled = true
            return true
        }
        if inline {
            // The writer holds the write lock: no frame lands behind the copy, so the next write can
            // start the log over.
            sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if schedule {
            queue.asyncAfter(deadline: .now() + delay) { [self] in checkpoint() }
        }
    }

    private func checkpoint() {
        let connection = state.withLock { state -> OpaquePointer? in
            if state.closed { return nil }
            if state.connection == nil {
                var opened: OpaquePointer?
                if sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK {
                    state.connection = opened
                } else {
                    sqlite3_close_v2(opened)
                }
            }
            return state.connection
        }
        if let connection {
            // A connection that has not read the database yet does not know it is in WAL mode,
            // and its checkpoint does nothing: a look at the schema opens the log.
            sqlite3_exec(connection, "SELECT count(*) FROM sqlite_schema", nil, nil, nil)
            sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
        let orphan = state.withLock { state in
            state.scheduled = false
            if connection != nil { state.runs += 1 }
            // Closed meanwhile: the connection is this call's to close.
            return state.closed ? state.takeConnection() : nil
        }
        if let orphan { sqlite3_close_v2(orphan) }
    }
}
