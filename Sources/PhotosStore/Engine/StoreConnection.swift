import PhotosCore

/// One transaction's connection to the library, whatever engine keeps it: SQL with `?`
/// placeholders and the store's engine-neutral values (``PhotosCore/SQLValue``), rows read by
/// column position.
///
/// The seam a second engine plugs into: the store's code written against it names no engine's
/// type. SQLite's connection (GRDB's `Database`) and PostgreSQL's (``PostgreSQLConnection``)
/// conform, held to the same contract by the tests. Where the engines' SQL differs, the code asks
/// ``dialect``; where each statement is a round trip (PostgreSQL), rows a transaction inserts may
/// be held and sent many to a statement (``insertLater(_:_:)``, ``reservedKey(of:)``).
///
/// ```swift
/// let states = try connection.rows("SELECT \(HookState.columns) FROM hook ORDER BY name") {
///     try HookState(row: $0)
/// }
/// try connection.execute("UPDATE hook SET enabled = 0 WHERE name = ?", [.text(name)])
/// ```
package protocol StoreConnection {
    /// The SQL this connection's engine speaks where the engines differ.
    var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// Runs an `INSERT` of one row into a table whose key is generated (the column `key`: `id`, or
    /// the change log's `token`); returns that key.
    func insert(_ sql: String, _ arguments: [SQLValue], key: String) throws -> Int64

    /// The rows of a query, each made into a value by `decode` while it is current.
    func rows<Value>(_ sql: String, _ arguments: [SQLValue], _ decode: (StoreRow) throws -> Value) throws -> [Value]

    /// The first column of every row of a query, each a whole number (a row that holds NULL or
    /// anything else there is a ``StoreError``): the row ids of a fetch, read without a row value
    /// per row.
    func integers(_ sql: String, _ arguments: [SQLValue]) throws -> [Int64]

    /// Inserts one row, now or later: where statements are round trips (PostgreSQL), the row is
    /// held until the connection's next statement or its transaction's commit, and the rows held
    /// are then inserted many to a statement. Rows of one table go in the order given; a row goes
    /// after every row held before it of the tables it names as depending on
    /// (``LaterInsert/dependsOn``: a resource on assets and directories). A held row's failure (a
    /// constraint) is the failure of that next statement or of the commit.
    func insertLater(_ insert: LaterInsert, _ arguments: [SQLValue]) throws

    /// A key a row of `table` (its generated `id`) may be inserted with, taken ahead from the
    /// table's generator where the engine can (PostgreSQL's identity columns): a row given to
    /// ``insertLater(_:_:)`` with its key is then known by that key before it is inserted. Nil
    /// where keys are made only by inserting (SQLite), and for a table's first row in a
    /// transaction, which then is inserted at once: one row alone gains nothing by waiting.
    func reservedKey(of table: String) throws -> Int64?
}

/// The shape of a row for ``StoreConnection/insertLater(_:_:)``: `INSERT INTO table (columns)
/// VALUES row`, or a statement of its own that inserts the rows.
///
/// ```swift
/// let member = LaterInsert(
///     table: "collection_asset", columns: "collectionId, assetId, position", row: "(?, ?, ?)",
///     dependsOn: ["collection", "asset"])
/// try db.insertLater(member, [.int(album), .int(asset), .int(0)])
/// ```
package struct LaterInsert: Hashable, Sendable {
    let table: String
    /// The columns, as the statement lists them (or, where ``statement`` inserts the rows, the
    /// names of a row's values).
    let columns: String
    /// One row's values: placeholders, or expressions of them.
    let row: String
    /// The tables whose rows held before a row of this shape it may refer to.
    let dependsOn: Set<String>
    /// Where the rows are not inserted as they are: the statement that inserts them, in which
    /// `{rows}` stands for a query of the rows, each with its position first (`VALUES (0, …), (1,
    /// …)`, or the same as columns), so that the statement can keep their order (`ORDER BY`). For
    /// rows whose values a statement works out from them (a resource's directory, found or made by
    /// its path).
    let statement: String?

    package init(
        table: String, columns: String, row: String, dependsOn: Set<String> = [], statement: String? = nil
    ) {
        self.table = table
        self.columns = columns
        self.row = row
        self.dependsOn = dependsOn
        self.statement = statement
    }

    /// The statement inserting `count` rows of this shape.
    func sql(rows count: Int) -> String {
        guard let statement else {
            return "INSERT INTO \(table) (\(columns)) VALUES "
                + repeatElement(row, count: count).joined(separator: ", ")
        }
        let numbered = (0..<count).map { "(\($0), " + row.dropFirst() }.joined(separator: ", ")
        return statement.replacingOccurrences(of: "{rows}", with: "VALUES " + numbered)
    }
}

extension StoreConnection {
    /// Inserts the row now: an engine whose statements are not round trips gains nothing by waiting.
    package func insertLater(_ insert: LaterInsert, _ arguments: [SQLValue]) throws {
        try execute(insert.sql(rows: 1), arguments)
    }

    package func reservedKey(of table: String) throws -> Int64? { nil }

    /// Runs an `INSERT` of one row into a table whose key is a generated `id`; returns that id.
    package func insert(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        try insert(sql, arguments, key: "id")
    }

    /// The first row of a query, made into a value; nil when there is none.
    package func firstRow<Value>(_ sql: String, _ arguments: [SQLValue], _ decode: (StoreRow) throws -> Value) throws
        -> Value?
    {
        try rows(sql + " LIMIT 1", arguments, decode).first
    }

    /// The first column of a query's first row as a whole number (a count, a maximum); nil when
    /// there is no row or it holds NULL.
    package func scalarInt64(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? {
        try rows(sql, arguments) { $0.optionalInt64(0) }.first ?? nil
    }

    /// The first column of a query's first row as text; nil when there is no row or it holds NULL.
    package func scalarText(_ sql: String, _ arguments: [SQLValue] = []) throws -> String? {
        try rows(sql, arguments) { $0.optionalText(0) }.first ?? nil
    }
}

/// The current row of a query, its columns by position (from 0), as the store's neutral values.
package struct StoreRow {
    /// The row's values, in the order the query selected them.
    package let values: [SQLValue]

    /// The column at `index` as a whole number; a row that holds something else there is a
    /// ``StoreError`` (`missingColumn`), never a trap.
    package func int64(_ index: Int) throws -> Int64 {
        guard let value = optionalInt64(index) else { throw mismatch(index, "a whole number") }
        return value
    }

    /// The column at `index` as a whole number, or nil for NULL.
    package func optionalInt64(_ index: Int) -> Int64? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .int(let value): return value
        case .double(let value): return Int64(exactly: value)
        case .null, .text, .blob: return nil
        }
    }

    /// The column at `index` as a number, or nil for NULL.
    package func optionalDouble(_ index: Int) -> Double? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .null, .text, .blob: return nil
        }
    }

    /// The column at `index` as text; a row that holds something else there is a ``StoreError``.
    package func text(_ index: Int) throws -> String {
        guard let value = optionalText(index) else { throw mismatch(index, "text") }
        return value
    }

    /// The column at `index` as text, or nil for NULL.
    package func optionalText(_ index: Int) -> String? {
        guard index < values.count, case .text(let value) = values[index] else { return nil }
        return value
    }

    /// The column at `index` as bytes, or nil for NULL.
    package func optionalBytes(_ index: Int) -> [UInt8]? {
        guard index < values.count, case .blob(let bytes) = values[index] else { return nil }
        return bytes
    }

    /// The column at `index` as a flag (stored 0 or 1).
    package func bool(_ index: Int) throws -> Bool { try int64(index) != 0 }

    /// Throws a ``StoreError`` (`missingColumn`) unless the row has at least `count` columns: a
    /// record read by position from a query that selected fewer (a stale column list) is an error,
    /// never a record of shifted or missing values.
    package func expectColumns(_ count: Int, of record: String) throws {
        guard values.count >= count else {
            throw StoreError(
                .missingColumn,
                "a row read as \(record) has \(values.count) columns where \(count) were selected for it")
        }
    }

    private func mismatch(_ index: Int, _ wanted: String) -> StoreError {
        let found = index < values.count ? "\(values[index])" : "no such column (the row has \(values.count))"
        return StoreError(
            .missingColumn, "a row of the library holds \(found) where \(wanted) was read (column \(index))")
    }
}

/// SQL text made from a record's column names, the same for every engine: what each record's
/// inserts and updates are written with.
enum SQLText {
    /// `?, ?, ?`: one placeholder per value.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `a, b, c`, or `t.a, t.b, t.c` with an alias.
    static func list(_ names: some Sequence<String>, alias: String? = nil) -> String {
        names.map { name in alias.map { "\($0).\(name)" } ?? name }.joined(separator: ", ")
    }

    /// `a = ?, b = ?`: an UPDATE's assignments.
    static func assignments(_ names: some Sequence<String>) -> String {
        names.map { "\($0) = ?" }.joined(separator: ", ")
    }

    /// `INSERT INTO table (a, b) VALUES (?, ?)`, or another `verb` in place of `INSERT INTO`
    /// (``SQLDialect/insertFailingTransaction``).
    static func insert(into table: String, _ names: some Collection<String>, verb: String = "INSERT INTO") -> String {
        "\(verb) \(table) (\(list(names))) VALUES (\(placeholders(names.count)))"
    }
}

extension SQLValue {
    /// Text, or NULL for nil.
    static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// A whole number, or NULL for nil.
    static func int(_ value: Int64?) -> SQLValue { value.map(SQLValue.int) ?? .null }

    /// A whole number, or NULL for nil.
    static func int(_ value: Int?) -> SQLValue { value.map { .int(Int64($0)) } ?? .null }

    /// A number, or NULL for nil.
    static func double(_ value: Double?) -> SQLValue { value.map(SQLValue.double) ?? .null }

    /// A flag as it is stored, 0 or 1.
    static func flag(_ value: Bool) -> SQLValue { .int(value ? 1 : 0) }
}
