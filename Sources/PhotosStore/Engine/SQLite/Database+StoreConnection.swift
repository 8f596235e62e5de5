import Foundation
import GRDB
import GRDBSQLite
import PhotosCore

/// SQLite's connection (GRDB's `Database`, in the transaction a `read` or `write` opened) as the
/// store's engine-neutral ``StoreConnection``.
extension Database: StoreConnection {
    package var dialect: SQLDialect { .sqlite }

    /// A statement is prepared once per connection (the writes a commit repeats: the change log's
    /// row, a journal entry, the albums' figures); a script of several (DDL), which has no arguments
    /// and ends its statements with `;`, is run as it is.
    @discardableResult
    package func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        if arguments.isEmpty {
            // Through GRDB, which follows the transactions a BEGIN or COMMIT opens and ends.
            if sql.utf8.contains(UInt8(ascii: ";")) {
                try execute(sql: sql)
            } else {
                try cachedStatement(sql: sql).execute()
            }
        } else {
            try SQLiteSteps(self, sql, arguments).run()
        }
        return changesCount
    }

    /// The key is the rowid SQLite's tables' INTEGER PRIMARY KEY names.
    package func insert(_ sql: String, _ arguments: [SQLValue], key: String) throws -> Int64 {
        try execute(sql, arguments)
        return lastInsertedRowID
    }

    /// Rows are read column by column from SQLite's own statement, into one buffer reused from row
    /// to row: the neutral row costs what GRDB's `Row` does (photos-bench's fetches and commits).
    package func rows<Value>(_ sql: String, _ arguments: [SQLValue], _ decode: (StoreRow) throws -> Value) throws
        -> [Value]
    {
        let steps = try SQLiteSteps(self, sql, arguments)
        let handle = steps.handle
        let count = sqlite3_column_count(handle)
        var buffer: [SQLValue] = []
        buffer.reserveCapacity(Int(count))
        var values: [Value] = []
        while try steps.next() {
            buffer.removeAll(keepingCapacity: true)
            for column in 0..<count { buffer.append(SQLValue(handle, column)) }
            values.append(try decode(StoreRow(values: buffer)))
        }
        return values
    }

    /// Read with SQLite's C API: a snapshot of a whole library's ids is a hundred thousand rows.
    package func integers(_ sql: String, _ arguments: [SQLValue]) throws -> [Int64] {
        let steps = try SQLiteSteps(self, sql, arguments)
        let handle = steps.handle
        var values: [Int64] = []
        while try steps.next() {
            guard sqlite3_column_type(handle, 0) == SQLITE_INTEGER else {
                values.append(try StoreRow(values: [SQLValue(handle, 0)]).int64(0))
                continue
            }
            values.append(sqlite3_column_int64(handle, 0))
        }
        return values
    }
}

extension SQLValue {
    /// A column of SQLite's current row, as the store's neutral value.
    init(_ statement: SQLiteStatement, _ column: Int32) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: self = .int(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: self = .double(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // The pointer first, then its length, as SQLite asks.
            let text = sqlite3_column_text(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            self = .text(
                text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes else {
                self = .blob([])
                return
            }
            self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: self = .null
        }
    }
}
