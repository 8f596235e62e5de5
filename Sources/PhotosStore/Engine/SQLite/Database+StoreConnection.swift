import GRDB
import PhotosCore

/// SQLite's connection (GRDB's `Database`, in the transaction a `read` or `write` opened) as the
/// store's engine-neutral ``StoreConnection``.
extension Database: StoreConnection {
    package var dialect: SQLDialect { .sqlite }

    /// A statement with arguments is prepared once per connection (the writes a commit repeats: the
    /// change log's row, a journal entry); one without, as DDL is, may hold several statements.
    @discardableResult
    package func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        if arguments.isEmpty {
            try execute(sql: sql)
        } else {
            try cachedStatement(sql: sql).execute(
                arguments: StatementArguments(databaseValues: arguments.map(\.databaseValue)))
        }
        return changesCount
    }

    /// The key is the rowid SQLite's tables' INTEGER PRIMARY KEY names.
    package func insert(_ sql: String, _ arguments: [SQLValue], key: String) throws -> Int64 {
        try execute(sql, arguments)
        return lastInsertedRowID
    }

    package func rows<Value>(_ sql: String, _ arguments: [SQLValue], _ decode: (StoreRow) throws -> Value) throws
        -> [Value]
    {
        let statement = try cachedStatement(sql: sql)
        statement.arguments = StatementArguments(databaseValues: arguments.map(\.databaseValue))
        let cursor = try Row.fetchCursor(statement)
        var values: [Value] = []
        while let row = try cursor.next() {
            values.append(try decode(StoreRow(values: row.databaseValues.map(SQLValue.init))))
        }
        return values
    }
}

extension SQLValue {
    /// A value SQLite returned, as the store's neutral value.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .blob(let data): self = .blob(Array(data))
        case .int64(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .text(text)
        }
    }
}
