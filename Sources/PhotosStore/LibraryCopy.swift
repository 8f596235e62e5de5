import Foundation
import GRDB
import PhotosCore

/// Copies a library between engines, a SQLite file and a PostgreSQL database either way (or file
/// to file), with everything in it: every row of every table under its own id, the change log and
/// its tokens (persistent change tokens and hook cursors go on working), the library's identity,
/// access tokens, the file journal, and the counters that keep ids from being handed out again.
///
/// The source is read in one snapshot (a photosd may go on writing it meanwhile: what it commits
/// after the snapshot is not copied); the destination is written in one transaction, into a
/// PostgreSQL database that holds no library yet or a SQLite file that does not exist yet (made
/// under a temporary name beside it and renamed into place at the end), so that a copy that fails
/// halfway leaves no library behind. Both sides must have this build's schema
/// (``PostgreSQLSchema/migrations``).
///
/// ```swift
/// let report = try LibraryCopy.copy(from: "/home/me/photos.sqlite", to: "postgresql://me@nas/photos")
/// report.rows["asset"]  // 48_211
/// ```
public enum LibraryCopy {
    /// What a copy did.
    public struct Report: Sendable, Encodable, Equatable {
        /// Where the library was copied from (a URL without its password).
        public var source: String
        /// Where the copy went (a URL without its password).
        public var destination: String
        /// Rows copied, by table.
        public var rows: [String: Int]
    }

    /// A table copied, its key (the order rows are read in, in pages), and whether triggers keep it.
    struct Table {
        var name: String
        var key: [String]
        /// Whether triggers fill it as the other tables' rows arrive: what they made is replaced.
        var keptByTriggers = false
    }

    /// Every table of a library, parents before the rows that refer to them. The last two are kept by
    /// triggers as the others' rows arrive: they are copied last, over what the triggers made.
    static let tables: [Table] = [
        Table(name: "library", key: ["id"]), Table(name: "asset", key: ["id"]),
        Table(name: "collection", key: ["id"]), Table(name: "collection_asset", key: ["collectionId", "assetId"]),
        Table(name: "change", key: ["token"]), Table(name: "tombstone", key: ["isAsset", "rowId"]),
        Table(name: "rejected", key: ["path", "host"]), Table(name: "root", key: ["path", "host"]),
        Table(name: "unreadable_directory", key: ["path", "host"]), Table(name: "hook", key: ["name"]),
        Table(name: "accessToken", key: ["id"]), Table(name: "directory", key: ["id"]),
        Table(name: "resource", key: ["id"]), Table(name: "trashedAsset", key: ["assetId"]),
        Table(name: "trashedFile", key: ["id"]), Table(name: "sidecarBase", key: ["assetId"]),
        Table(name: "importedContent", key: ["contentHash", "fileSize"]), Table(name: "fileJournal", key: ["id"]),
        Table(name: "collection_stats", key: ["collectionId"], keptByTriggers: true),
        Table(name: "smart_album_count", key: ["id"], keptByTriggers: true),
    ]

    /// The tables whose ids a counter hands out (never again, once used), and their key.
    static let counted: [(table: String, key: String)] = [
        ("asset", "id"), ("collection", "id"), ("change", "token"), ("directory", "id"), ("resource", "id"),
        ("trashedFile", "id"), ("fileJournal", "id"),
    ]

    /// Rows read and written at a time.
    static let pageRows = 500

    /// Copies the library at `source` to `destination`, each a SQLite file's path or a
    /// `postgresql://` URL; `progress` hears each table as it is done, with its rows.
    public static func copy(
        from source: String, to destination: String, progress: (@Sendable (String, Int) -> Void)? = nil
    ) throws -> Report {
        guard source != destination else {
            throw StoreError(.other, "the source and the destination are the same library: \(source)")
        }
        return try withSource(source) { reader, sourceName, sequences in
            if !PostgreSQLAddress.isPostgreSQL(destination) { try checkOneMachines(reader, destination) }
            return try withDestination(destination) { writer, destinationName in
                var rows: [String: Int] = [:]
                var largest: [String: Int64] = [:]
                for table in tables {
                    let columns = try columnNames(of: table.name, in: reader)
                    let kinds = try columnKinds(of: table.name, in: writer)
                    // The column of the id a counter hands out, if the table has one.
                    let countedColumn = counted.first { $0.table == table.name }.flatMap { counted in
                        columns.firstIndex { $0.lowercased() == counted.key.lowercased() }
                    }
                    var count = 0
                    if table.keptByTriggers { try writer.execute("DELETE FROM \(table.name)", []) }
                    try readPages(of: table, columns: columns, from: reader) { page in
                        try write(page, into: table.name, columns: columns, kinds: kinds, writer)
                        count += page.count
                        if let countedColumn {
                            let top = page.compactMap { $0[countedColumn].int64 }.max() ?? 0
                            largest[table.name] = max(largest[table.name] ?? 0, top)
                        }
                    }
                    rows[table.name] = count
                    progress?(table.name, count)
                }
                if writer.dialect == .sqlite { try makeOneMachines(writer) }
                var next: [String: Int64] = [:]
                for (table, _) in counted {
                    next[table] = max(sequences[table] ?? 0, largest[table] ?? 0)
                }
                try setSequences(next, in: writer)
                return Report(source: sourceName, destination: destinationName, rows: rows)
            }
        }
    }

    // MARK: The source

    /// Opens the source, checks its schema, and runs `body` in one read snapshot of it, with the
    /// last value each id counter handed out.
    private static func withSource<Value>(
        _ location: String, _ body: (any StoreConnection, String, [String: Int64]) throws -> Value
    ) throws -> Value {
        if PostgreSQLAddress.isPostgreSQL(location) {
            let address = try PostgreSQLAddress(location)
            let connection = try PostgreSQLConnection.connect(to: address)
            defer { connection.close() }
            try checkSchema(of: connection, at: address.description)
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", [])
            defer { _ = try? connection.execute("ROLLBACK", []) }
            var sequences: [String: Int64] = [:]
            for (table, key) in counted {
                sequences[table] = try connection.scalarInt64(
                    "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, ?)::regclass)",
                    [.text(table.lowercased()), .text(key.lowercased())])
            }
            return try body(connection, address.description, sequences)
        }
        let database = try LibraryDatabase(existingAt: location)
        return try database.read { db in
            let sequences = try db.rows("SELECT name, seq FROM sqlite_sequence", []) {
                (try $0.text(0), try $0.int64(1))
            }
            return try body(db, location, Dictionary(sequences, uniquingKeysWith: max))
        }
    }

    /// Refuses a PostgreSQL library whose schema is not this build's.
    private static func checkSchema(of connection: PostgreSQLConnection, at name: String) throws {
        guard try connection.scalarText("SELECT to_regclass('schema_migration')::text") != nil else {
            throw StoreError(.notFound, "there is no library at \(name)")
        }
        let applied = try connection.rows("SELECT identifier FROM schema_migration", []) { try $0.text(0) }
        guard Set(applied) == Set(PostgreSQLSchema.migrations) else {
            let unknown = Set(applied).subtracting(PostgreSQLSchema.migrations).sorted()
            throw StoreError(
                unknown.isEmpty ? .other : .newerSchema,
                "the library at \(name) has another schema than this build's"
                    + (unknown.isEmpty ? "" : " (migrations \(unknown.joined(separator: ", ")))"))
        }
    }

    // MARK: The destination

    /// Makes an empty library at `location` (refusing one that exists) and runs `body` in one write
    /// transaction of it; the library is there only once `body` has returned.
    private static func withDestination<Value>(
        _ location: String, _ body: (any StoreConnection, String) throws -> Value
    )
        throws -> Value
    {
        if PostgreSQLAddress.isPostgreSQL(location) {
            let address = try PostgreSQLAddress(location)
            let connection = try PostgreSQLConnection.connect(to: address)
            defer { connection.close() }
            let value = try connection.write(address.commits) { db in
                // A schema named in the URL is made when missing: it is only a name space.
                if let schema = address.schema { try db.execute("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"", []) }
                if try db.scalarText("SELECT to_regclass('schema_migration')::text") != nil {
                    throw StoreError(
                        .other, "\(address) already holds a library: a copy goes into a database without one")
                }
                try PostgreSQLSchema.make(in: db, withFirstRows: false)
                return try body(db, address.description)
            }
            // The planner's statistics of the tables just filled, which autovacuum would gather only
            // later: until then it takes them for empty and plans a sorted fetch as if so.
            try connection.execute("ANALYZE " + tables.map(\.name).joined(separator: ", "), [])
            return value
        }
        guard !FileManager.default.fileExists(atPath: location) else {
            throw StoreError(
                .other, "\(location) already exists: a copy goes into a file that does not exist yet", path: location)
        }
        let url = URL(fileURLWithPath: location)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).copying-\(UUID().uuidString)").path
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: temporary + suffix)
            }
        }
        let value: Value = try {
            let database = try LibraryDatabase(path: temporary)
            let value = try database.writer.write { db in
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                // A new library's first rows (its identity, the smart albums) are the source's.
                for table in tables.reversed() { try db.execute("DELETE FROM \(table.name)", []) }
                return try body(db, location)
            }
            _ = try database.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            return value
        }()
        // The pool is closed and its log checkpointed: the file holds everything. Linked into place,
        // never over a file (link fails on one that exists); the temporary name goes with the defer.
        guard link(temporary, location) == 0 else {
            throw StoreError(posix: errno, "cannot put the copy at \(location)", path: location)
        }
        return value
    }

    /// Refuses a source that two hosts hold one path of: a library file is one machine's, its paths
    /// named by path alone (``RootHosts``), so no file holds both. (One host holds a folder and an
    /// album at one path, a directory with photos beside its subdirectories: one machine's.)
    private static func checkOneMachines(_ reader: any StoreConnection, _ destination: String) throws {
        for table in RootHosts.hostedTables + ["root"] {
            if let path = try reader.scalarText(
                """
                SELECT path FROM \(table) WHERE path IS NOT NULL GROUP BY path HAVING COUNT(DISTINCT host) > 1
                ORDER BY path LIMIT 1
                """,
                [])
            {
                throw StoreError(
                    .other,
                    "two hosts of the library hold \(path): a library file holds one machine's paths, so \(destination) "
                        + "cannot hold both (copy the library into PostgreSQL instead)", path: destination)
            }
        }
    }

    /// Makes the rows a file was given this machine's (``RootHosts``): in PostgreSQL again, the
    /// first host to scan each root takes it.
    private static func makeOneMachines(_ writer: any StoreConnection) throws {
        for table in RootHosts.tablesGivenAHost + ["root"] {
            try writer.execute("UPDATE \(table) SET host = '' WHERE host <> ''", [])
        }
    }

    /// Sets each table's id counter to the last value handed out (`values`: by table), so that no
    /// id the source used is handed out again.
    private static func setSequences(_ values: [String: Int64], in db: any StoreConnection) throws {
        switch db.dialect {
        case .sqlite:
            // AUTOINCREMENT tables keep theirs in sqlite_sequence; the others use their largest id.
            for (table, value) in values.sorted(by: { $0.key < $1.key }) where value > 0 {
                let kept = try db.execute(
                    "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", [.int(value), .text(table)])
                if kept == 0,
                    try db.scalarInt64(
                        "SELECT 1 FROM sqlite_master WHERE name = ? AND sql LIKE '%AUTOINCREMENT%'", [.text(table)])
                        != nil
                {
                    try db.execute(
                        "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [.text(table), .int(value)])
                }
            }
        case .postgreSQL:
            for (table, key) in counted {
                let value = values[table] ?? 0
                // setval(…, false) for a counter never used: its next value is 1.
                try db.execute(
                    "SELECT setval(pg_get_serial_sequence(?, ?), ?, ? <> 0)",
                    [.text(table.lowercased()), .text(key.lowercased()), .int(max(1, value)), .int(value > 0 ? 1 : 0)])
            }
        }
    }

    // MARK: Rows

    /// The columns a table's rows are copied with, in order: the stored ones, not the generated
    /// (`asset.isBurstVisible`), which each engine computes.
    private static func columnNames(of table: String, in db: any StoreConnection) throws -> [String] {
        switch db.dialect {
        case .sqlite:
            return try db.rows("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid", [.text(table)]) {
                try $0.text(0)
            }
        case .postgreSQL:
            return try db.rows(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position",
                [.text(table.lowercased())]
            ) { try $0.text(0) }
        }
    }

    /// What kind of value each column of a PostgreSQL table takes (SQLite's take any), by name.
    private static func columnKinds(of table: String, in db: any StoreConnection) throws -> [String: String] {
        guard db.dialect == .postgreSQL else { return [:] }
        let kinds = try db.rows(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() "
                + "AND table_name = ?", [.text(table.lowercased())]
        ) { (try $0.text(0), try $0.text(1)) }
        return Dictionary(kinds, uniquingKeysWith: { first, _ in first })
    }

    /// Reads a table's rows a page at a time in its key's order (collections: parents first).
    private static func readPages(
        of table: Table, columns: [String], from connection: any StoreConnection, _ page: ([[SQLValue]]) throws -> Void
    ) throws {
        let list = columns.joined(separator: ", ")
        let order = table.key.joined(separator: ", ")
        let keyIndexes = table.key.map { key in columns.firstIndex { $0.lowercased() == key.lowercased() }! }
        if table.name == "collection" {
            // Few rows, and a parent may have a larger id than its child: all at once, parents first.
            let rows = try connection.rows("SELECT \(list) FROM collection ORDER BY id", []) { $0.values }
            let parent = columns.firstIndex { $0.lowercased() == "parentid" }!
            try page(parentsFirst(rows, id: keyIndexes[0], parent: parent))
            return
        }
        var after: [SQLValue]?
        while true {
            var sql = "SELECT \(list) FROM \(table.name)"
            if let after {
                let placeholders = SQLText.placeholders(after.count)
                sql += table.key.count == 1 ? " WHERE \(order) > ?" : " WHERE (\(order)) > (\(placeholders))"
            }
            sql += " ORDER BY \(order) LIMIT \(pageRows)"
            let rows = try connection.rows(sql, after ?? []) { $0.values }
            if rows.isEmpty { return }
            try page(rows)
            if rows.count < pageRows { return }
            after = keyIndexes.map { rows[rows.count - 1][$0] }
        }
    }

    /// Collections ordered so that each comes after its parent.
    static func parentsFirst(_ rows: [[SQLValue]], id: Int, parent: Int) -> [[SQLValue]] {
        var placed: Set<Int64> = []
        var ordered: [[SQLValue]] = []
        var waiting = rows
        while !waiting.isEmpty {
            let before = ordered.count
            waiting.removeAll { row in
                if let parentID = row[parent].int64, !placed.contains(parentID) { return false }
                ordered.append(row)
                if let own = row[id].int64 { placed.insert(own) }
                return true
            }
            // A parent that is not there (a damaged library): the rest as they are; the
            // destination's foreign key says which.
            if ordered.count == before {
                ordered += waiting
                break
            }
        }
        return ordered
    }

    /// Writes a page of rows, several to a statement.
    private static func write(
        _ rows: [[SQLValue]], into table: String, columns: [String], kinds: [String: String],
        _ connection: any StoreConnection
    ) throws {
        guard !rows.isEmpty else { return }
        let kinds = columns.map { kinds[$0.lowercased()] }
        let perStatement = max(1, min(rows.count, 30_000 / max(1, columns.count)))
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + perStatement)]
            let tuple = "(\(SQLText.placeholders(columns.count)))"
            let sql =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: chunk.count).joined(separator: ", ")
            var arguments: [SQLValue] = []
            arguments.reserveCapacity(chunk.count * columns.count)
            for row in chunk {
                for (index, value) in row.enumerated() { arguments.append(value.converted(to: kinds[index])) }
            }
            do {
                try connection.execute(sql, arguments)
            } catch {
                // Either engine's error as the store's, named by the table it stopped in.
                let failure = StoreError.wrap(error, path: nil) as? StoreError ?? StoreError(.other, "\(error)")
                throw StoreError(failure.code, "copying \(table): \(failure.message)", path: failure.path)
            }
            start += chunk.count
        }
    }
}

extension SQLValue {
    /// The value as a whole number, if it is one.
    var int64: Int64? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The value in the kind a PostgreSQL column takes (`kind`: its `data_type`); SQLite keeps
    /// whatever it is given, so a column may hold a kind other than its declared one.
    func converted(to kind: String?) -> SQLValue {
        switch (self, kind) {
        case (.int(let number), "double precision"): return .double(Double(number))
        case (.double(let number), "bigint"):
            if let whole = Int64(exactly: number) { return .int(whole) }
            return self
        case (.int(let number), "text"): return .text(String(number))
        case (.double(let number), "text"): return .text(String(number))
        default: return self
        }
    }
}

extension LibraryDatabase {
    /// Whether `location` names a library kept in PostgreSQL (a `postgresql://` or `postgres://`
    /// URL) rather than a file.
    public static func isPostgreSQL(_ location: String) -> Bool { PostgreSQLAddress.isPostgreSQL(location) }

    /// `location` as messages name it: a file's path as it is, a PostgreSQL URL without its password.
    public static func shown(_ location: String) -> String {
        guard isPostgreSQL(location) else { return location }
        return (try? PostgreSQLAddress(location).description) ?? PostgreSQLAddress.redacted(location)
    }

    /// Where this host keeps its own files of the library at `location`, as if it were the library's
    /// file: photosd's lock, status and startup progress are named after it (`<path>.status.json`)
    /// and the import folder is `Imports/` beside it.
    ///
    /// A library file's is its own path. A library kept in PostgreSQL, which several hosts share,
    /// gets one per host and library: `$XDG_DATA_HOME/photosd/postgresql/<address>/library`, the
    /// address without its password, its `/` and other signs written `_`.
    public static func localPath(
        forLibrary location: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        guard isPostgreSQL(location) else { return location }
        let address = shown(location)
        let name = String(
            address.drop(while: { $0 != "/" }).drop(while: { $0 == "/" }).map { character -> Character in
                character.isASCII && (character.isLetter || character.isNumber || "@.:-".contains(character))
                    ? character : "_"
            })
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return "\(dataHome)/photosd/postgresql/\(name)/library"
    }
}
