import GRDB
import GRDBSQLite
import PhotosCore

/// One run of a connection's cached statement, its values bound and its rows stepped through
/// SQLite's own C API.
///
/// GRDB's way to the same statement converts each value to a `DatabaseValue`, boxes them into
/// `StatementArguments`, checks them against the statement and binds them: a tenth of a first
/// scan's committing thread and of an API page's read went there. Here the store's values go to
/// `sqlite3_bind_*` as they are (text copied by SQLite), and the rows are read in place from
/// ``handle``. Valid inside the read or write that made it only; the statement is reset when the
/// run is dropped, so one left before its last row holds nothing.
///
/// ```swift
/// let steps = try SQLiteSteps(db, "SELECT id FROM asset WHERE mediaType = ?", [.int(1)])
/// while try steps.next() { ids.append(sqlite3_column_int64(steps.handle, 0)) }
/// ```
final class SQLiteSteps {
    /// SQLite's statement, on the current row after ``next()`` returned true.
    let handle: SQLiteStatement
    private let statement: Statement
    private let db: Database

    /// Resets the cached statement of `sql` and binds `arguments` to its parameters, in order.
    init(_ db: Database, _ sql: String, _ arguments: [SQLValue]) throws {
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        (self.db, self.statement, self.handle) = (db, statement, handle)
        // The code of the last step, already thrown if it was an error.
        sqlite3_reset(handle)
        guard sqlite3_bind_parameter_count(handle) == Int32(arguments.count) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(sqlite3_bind_parameter_count(handle)) values expected, \(arguments.count) given",
                sql: sql)
        }
        for (index, value) in zip(Int32(1)..., arguments) {
            let code = Self.bind(value, to: handle, at: index)
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
            }
        }
    }

    deinit { sqlite3_reset(handle) }

    /// Steps to the next row: true on one, false past the last.
    func next() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// Steps past every row (a write's, or a statement run for what it does).
    func run() throws { while try next() {} }

    /// Binds `value` to the statement's parameter `index` (from 1); SQLite's result code.
    static func bind(_ value: SQLValue, to handle: SQLiteStatement, at index: Int32) -> Int32 {
        switch value {
        case .null: return sqlite3_bind_null(handle, index)
        case .int(let integer): return sqlite3_bind_int64(handle, index, integer)
        case .double(let double): return sqlite3_bind_double(handle, index, double)
        case .text(var text):
            return text.withUTF8 { bytes in
                // A null pointer would bind NULL, not an empty text.
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, transient)
                }
                return sqlite3_bind_text64(
                    handle, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                    transient, UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob64(handle, index, start, UInt64(bytes.count), transient)
            }
        }
    }
}

/// SQLite's `SQLITE_TRANSIENT`: the value is copied before the bind returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
