import Foundation
import GRDB
import GRDBSQLite
import PhotosCore
import Synchronization

/// Looks access tokens up by their secret's hash, for every request a client sends with a token,
/// on a connection of its own with its statement prepared once.
///
/// Through the reader pool the look-up was a tenth of an API request's time over TCP: the pool's
/// queue, its read transaction and GRDB's row for one indexed row (about 60 µs under 16 clients,
/// the query itself a few). Each look-up still reads the table: a token revoked, narrowed or
/// expired by any process (`photos token revoke`) is refused at the next request, as before. The
/// statement is reset as soon as its row is read, so the connection holds no snapshot of the log
/// between requests. One look-up at a time: each takes microseconds.
///
/// ```swift
/// let reader = SQLiteTokenReader(path: path, busyTimeout: 10)
/// let token = try reader.token(secretHash: AccessToken.hash(ofSecret: secret))
/// ```
final class SQLiteTokenReader: Sendable {
    private let path: String
    private let busyTimeout: TimeInterval
    private struct State: ~Copyable {
        var connection: OpaquePointer?
        var statement: OpaquePointer?
        var closed = false

        mutating func close() {
            sqlite3_finalize(statement)
            sqlite3_close_v2(connection)
            (statement, connection, closed) = (nil, nil, true)
        }
    }
    private let state = Mutex(State())

    /// A reader of the library file at `path`; its connection is opened at its first look-up.
    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    deinit { state.withLock { $0.close() } }

    /// The token whose secret hashes to `secretHash`, expired or not; nil when there is none.
    /// Throws GRDB's `DatabaseError` for SQLite's failures (the store wraps it).
    func token(secretHash: Data) throws -> AccessToken? {
        try state.withLock { state throws -> AccessToken? in
            guard !state.closed else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the library is closed")
            }
            let statement = try prepared(&state)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            try check(SQLiteSteps.bind(.blob(Array(secretHash)), to: statement!, at: 1), state.connection)
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                let columns = 0..<sqlite3_column_count(statement)
                return try AccessToken(row: StoreRow(values: columns.map { SQLValue(statement!, $0) }))
            case SQLITE_DONE: return nil
            case let code:
                try check(code, state.connection)
                return nil
            }
        }
    }

    /// Closes the connection; a look-up after this throws.
    func close() { state.withLock { $0.close() } }

    /// The statement, the connection opened and the statement prepared on first use.
    private func prepared(_ state: inout State) throws -> OpaquePointer? {
        if let statement = state.statement { return statement }
        if state.connection == nil {
            var opened: OpaquePointer?
            let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
            guard code == SQLITE_OK else {
                let message = opened.map { String(cString: sqlite3_errmsg($0)) }
                sqlite3_close_v2(opened)
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
            }
            // The writer may hold the log's recovery lock for a moment; wait as the pool's readers do.
            sqlite3_busy_timeout(opened, Int32(busyTimeout * 1000))
            state.connection = opened
        }
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v3(
            state.connection, AccessToken.selectBySecretHash, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        try check(prepared, state.connection)
        state.statement = statement
        return statement
    }

    /// Throws SQLite's error for a code other than `SQLITE_OK`, with the connection's message.
    private func check(_ code: Int32, _ connection: OpaquePointer?) throws {
        guard code != SQLITE_OK else { return }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) })
    }
}
