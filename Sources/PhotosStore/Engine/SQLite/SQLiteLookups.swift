import Foundation
import GRDB
import GRDBSQLite
import PhotosCore
import Synchronization

/// The one-row reads the API makes for nearly every request, on a connection of their own with
/// their statements prepared once: an access token by its secret's hash, and the newest change
/// token (`GET /v1/health`, every change stream's start).
///
/// Through the reader pool each was a tenth to a quarter of a request's time over TCP: the pool's
/// queue, its read transaction and GRDB's row for one indexed row (about 60 µs under 16 clients,
/// the query itself a few). Each look-up still reads the file: a token revoked, narrowed or expired
/// by any process (`photos token revoke`) is refused at the next request, and another process's
/// commit is the newest token at once. A statement is reset as soon as its row is read, so the
/// connection holds no snapshot of the log between look-ups. One look-up at a time: each takes
/// microseconds.
///
/// ```swift
/// let lookups = SQLiteLookups(path: path, busyTimeout: 10)
/// let token = try lookups.token(secretHash: AccessToken.hash(ofSecret: secret))
/// let newest = try lookups.newestToken()
/// ```
final class SQLiteLookups: Sendable {
    /// The statements, by their place in ``State/statements``.
    private enum Lookup: Int, CaseIterable {
        case tokenBySecretHash, newestToken

        var sql: String {
            switch self {
            case .tokenBySecretHash: AccessToken.selectBySecretHash
            case .newestToken: LibraryDatabase.newestTokenSQL
            }
        }
    }

    private let path: String
    private let busyTimeout: TimeInterval
    private struct State: ~Copyable {
        var connection: OpaquePointer?
        var statements = [OpaquePointer?](repeating: nil, count: Lookup.allCases.count)
        var closed = false

        mutating func close() {
            for statement in statements { sqlite3_finalize(statement) }
            sqlite3_close_v2(connection)
            statements = statements.map { _ in nil }
            (connection, closed) = (nil, true)
        }
    }
    private let state = Mutex(State())

    /// Look-ups in the library file at `path`; the connection is opened at the first.
    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    deinit { state.withLock { $0.close() } }

    /// The token whose secret hashes to `secretHash`, expired or not; nil when there is none.
    /// Throws GRDB's `DatabaseError` for SQLite's failures (the store wraps it).
    func token(secretHash: Data) throws -> AccessToken? {
        try step(.tokenBySecretHash, binding: .blob(Array(secretHash))) { statement in
            let columns = 0..<sqlite3_column_count(statement)
            return try AccessToken(row: StoreRow(values: columns.map { SQLValue(statement, $0) }))
        }
    }

    /// The newest change-log entry's token, 0 for an empty log (``LibraryDatabase/currentToken()``).
    func newestToken() throws -> Int64 {
        try step(.newestToken) { sqlite3_column_int64($0, 0) } ?? 0
    }

    /// Closes the connection; a look-up after this throws.
    func close() { state.withLock { $0.close() } }

    /// Runs `lookup` with `value` bound (if any) and reads its first row with `read`; nil for none.
    private func step<T: Sendable>(
        _ lookup: Lookup, binding value: SQLValue? = nil, _ read: @Sendable (OpaquePointer) throws -> T
    ) throws -> T? {
        try state.withLock { state throws -> T? in
            guard !state.closed else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the library is closed")
            }
            let statement = try prepared(lookup, &state)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            if let value { try check(SQLiteSteps.bind(value, to: statement, at: 1), state.connection) }
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return try read(statement)
            case SQLITE_DONE: return nil
            case let code:
                try check(code, state.connection)
                return nil
            }
        }
    }

    /// The statement of `lookup`, the connection opened and the statement prepared on first use.
    private func prepared(_ lookup: Lookup, _ state: inout State) throws -> OpaquePointer {
        if let statement = state.statements[lookup.rawValue] { return statement }
        if state.connection == nil {
            var opened: OpaquePointer?
            let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
            guard code == SQLITE_OK else {
                let message = opened.map { String(cString: sqlite3_errmsg($0)) }
                sqlite3_close_v2(opened)
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
            }
            // The writer may hold the log's recovery lock for a moment; wait as the read connections do.
            sqlite3_busy_timeout(opened, Int32(busyTimeout * 1000))
            state.connection = opened
        }
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v3(
            state.connection, lookup.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        try check(prepared, state.connection)
        state.statements[lookup.rawValue] = statement
        return statement!
    }

    /// Throws SQLite's error for a code other than `SQLITE_OK`, with the connection's message.
    private func check(_ code: Int32, _ connection: OpaquePointer?) throws {
        guard code != SQLITE_OK else { return }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) })
    }
}
