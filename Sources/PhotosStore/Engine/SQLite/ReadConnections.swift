import Foundation
import GRDB
import Synchronization

/// The read-only connections a file's library reads on, each taken by one read transaction at a
/// time and put back after it.
///
/// GRDB's reader pool did the same with a semaphore, a dispatch queue guarding the pool, another
/// serializing each connection, and `PRAGMA query_only` set and cleared around every read: under
/// 16 API clients on two cores its threads waited on each other, and one read transaction cost
/// photosd about as much CPU as the rest of a `GET /v1/health`. Here a connection is taken from a
/// list under a mutex, and its transaction is two prepared statements (`BEGIN`, `COMMIT`) on a
/// connection opened read-only. A read finding none idle opens one; at most ``kept`` wait idle, the others
/// are closed as their reads end. Nothing is held between reads: no snapshot keeps the log from
/// being checkpointed.
///
/// ```swift
/// let connections = ReadConnections(path: path, configuration: configuration)
/// let count = try connections.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") }
/// ```
final class ReadConnections: Sendable {
    /// Idle connections kept open: as a rule a thread or two per core reads at once at most; more
    /// than eight would hold file handles and page caches for nothing.
    static let kept = min(8, 2 * max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let path: String
    private let configuration: Configuration
    private let idle = Mutex<[DatabaseQueue]>([])

    /// Connections to the library file at `path`, opened with `configuration` made read-only.
    init(path: String, configuration: Configuration) {
        var configuration = configuration
        configuration.readonly = true
        self.path = path
        self.configuration = configuration
    }

    /// Closes the idle connections. The library's writer closes last: the last connection to a file
    /// in WAL mode checkpoints it and removes its `-wal` and `-shm` files, which a read-only one
    /// cannot.
    func close() {
        idle.withLock { $0.removeAll() }
    }

    /// Runs `body` in a read transaction (one snapshot of the file) on a connection of its own.
    /// Throws SQLite's errors (GRDB's `DatabaseError`) as they are, and `body`'s.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let queue = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        // Back in the list only with its transaction ended: never a snapshot kept between reads.
        var ended = false
        defer { if ended { idle.withLock { if $0.count < Self.kept { $0.append(queue) } } } }
        return try queue.inDatabase { db in
            defer { ended = !db.isInsideTransaction }
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            do {
                let value = try body(db)
                if db.isInsideTransaction { try db.cachedStatement(sql: "COMMIT TRANSACTION").execute() }
                return value
            } catch {
                if db.isInsideTransaction { try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
                throw error
            }
        }
    }
}
