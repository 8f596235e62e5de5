import Foundation
import Synchronization

/// A library kept in PostgreSQL, as a ``LibraryDatabase`` holds it: its address, the lock and
/// channel its commits share with every host (``PostgreSQLCommits``), and connections kept for
/// the next transaction.
///
/// Reads are transactions of a consistent snapshot (`REPEATABLE READ`, read-only); a write holds the
/// library's advisory lock to its COMMIT, so that change tokens commit in order from every host;
/// bookkeeping writes (no change-log entry) take row locks only.
final class PostgreSQLLibrary: Sendable {
    /// Where the library is.
    let address: PostgreSQLAddress
    /// The schema the library is in, as the server resolved the address's (``resolvedSchema(_:_:)``):
    /// "" for the database's own (`public`).
    let schema: String
    /// Its commits' lock and channel.
    let commits: PostgreSQLCommits
    private let idle = Mutex<[PostgreSQLConnection]>([])
    /// Whether every table a scan fills has statistics, gathered or found.
    private let everyTableHasStatistics = Mutex(false)

    private init(address: PostgreSQLAddress, schema: String, connection: PostgreSQLConnection) {
        self.address = address
        self.schema = schema
        commits = schema.isEmpty ? .library : PostgreSQLCommits(schema: schema)
        idle.withLock { $0 = [connection] }
    }

    /// Opens the library at `address`, making it where its schema holds none (in one transaction,
    /// under the library's lock, so that hosts opening a new library at once make it once). A
    /// library made by a newer build is refused (`newerSchema`); the predicate functions are made
    /// again, so that a build's fix reaches a library made before it.
    ///
    /// `presence` names this program's connections (`application_name`) after the schema the
    /// address resolved to ("" for `public`), so that every spelling of one library's address
    /// names a host's photosd alike.
    ///
    /// Where the schema holds no library and `creating` is false, throws `notFound`. Returns the
    /// library and whether this opening made it.
    static func open(
        _ address: PostgreSQLAddress, creating: Bool = true, presence: ((String) -> String)? = nil
    ) throws -> (library: PostgreSQLLibrary, made: Bool) {
        var address = address
        let connection = try PostgreSQLConnection.connect(to: address)
        let schema: String
        do {
            schema = try resolvedSchema(connection, address)
            if let presence, presence(schema) != address.applicationName {
                address.applicationName = presence(schema)
                try connection.execute(
                    "SELECT set_config('application_name', ?, false)", [.text(address.applicationName)])
            }
        } catch {
            connection.close()
            throw error
        }
        let library = PostgreSQLLibrary(address: address, schema: schema, connection: connection)
        let made = try library.withConnection { db in
            try db.transaction { db in
                try db.execute("SELECT pg_advisory_xact_lock(?)", [.int(library.commits.lockKey)])
                // A schema named in the URL is made when missing, as a copy makes it: only a name space
                // (asked first: CREATE SCHEMA needs a right on the database even where the schema is there).
                if creating, let schema = address.schema,
                    try db.scalarInt64("SELECT 1 FROM pg_namespace WHERE nspname = ?", [.text(schema)]) == nil
                {
                    try db.execute("CREATE SCHEMA \"\(schema)\"", [])
                }
                return try PostgreSQLSchema.open(in: db, address: address, creating: creating)
            }
        }
        return (library, made)
    }

    /// The schema `address` leads to, asked of the server through `db`, "" for `public`: an
    /// address without a schema lands in the first of the search path's that exists (`public`,
    /// usually), so that `?schema=public` and no schema are one library with one lock
    /// (``PostgreSQLCommits``), as are the spellings of one server (`localhost`, `127.0.0.1`). A
    /// schema not made yet is the one named.
    static func resolvedSchema(_ db: PostgreSQLConnection, _ address: PostgreSQLAddress) throws -> String {
        let current = try db.rows("SELECT current_schema()", []) { $0.optionalText(0) }.first ?? nil
        let schema = current ?? address.schema ?? ""
        return schema == "public" ? "" : schema
    }

    /// Runs `body` in a read-only transaction of one snapshot.
    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withConnection { db in try db.transaction(readOnly: true) { try body($0) } }
    }

    /// Runs `body` in a write transaction holding the library's lock, and tells every host's
    /// followers of the newest token when it commits.
    func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withConnection { db in
            let value = try db.write(commits) { try body($0) }
            // Only a help to the planner, after the commit: a failure is not the write's.
            if db.rowsHeldByLastCommit >= Self.manyRows, !everyTableHasStatistics.withLock({ $0 }) {
                try? gatherMissingStatistics(db)
            }
            return value
        }
    }

    /// The rows a write holds and sends many to a statement past which the tables' statistics are
    /// looked for: a scan's batch, not a photo arriving.
    static let manyRows = 100

    /// The tables a scan fills.
    static let scannedTables = ["asset", "resource", "directory", "collection", "collection_asset", "rejected"]

    /// Gathers the planner's statistics of the tables a scan fills that have none yet (a new
    /// library's) once they hold a few pages, after the commit, in a few milliseconds: until
    /// autovacuum comes by (a minute or more later) the server takes such a table for a few rows
    /// and plans a join of two as a loop over both, a first scan's reads slower with each batch.
    /// Never sooner: statistics of a table of a few rows have the server check each reference to
    /// its rows (a foreign key) by reading all of them, the plan kept as the table grows.
    private func gatherMissingStatistics(_ db: PostgreSQLConnection) throws {
        let names = Self.scannedTables.map { "'\($0)'" }.joined(separator: ", ")
        let tables = try db.rows(
            """
            SELECT c.relname, pg_relation_size(c.oid) >= ? FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN (\(names)) AND c.reltuples < 0
            """, [.int(Self.pagesForStatistics * 8192)]
        ) { (name: try $0.text(0), large: try $0.bool(1)) }
        let large = tables.filter(\.large).map(\.name)
        if !large.isEmpty { try db.execute("ANALYZE " + large.joined(separator: ", "), []) }
        if large.count == tables.count { everyTableHasStatistics.withLock { $0 = true } }
    }

    /// The pages a table holds before its first statistics are gathered: past this, the server
    /// finds a row by its key from the key's index, whatever the table's size then.
    static let pagesForStatistics: Int64 = 16

    /// Runs `body` in a write transaction that takes no lock of the library's.
    func bookkeeping<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withConnection { db in try db.transaction { try body($0) } }
    }

    /// Closes the connections kept.
    func close() {
        let connections = idle.withLock { kept in
            defer { kept = [] }
            return kept
        }
        for connection in connections { connection.close() }
    }

    deinit { close() }

    /// A kept connection, or a new one, for `body`; kept again afterwards unless it closed. A kept
    /// one the server closed meanwhile (restarted, or the backend terminated) is let go, not used.
    private func withConnection<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let kept = idle.withLock { idle -> PostgreSQLConnection? in
            while let connection = idle.popLast() {
                if !connection.connection.isClosed { return connection }
            }
            return nil
        }
        let connection = try kept ?? PostgreSQLConnection.connect(to: address)
        defer { if !connection.connection.isClosed { idle.withLock { $0.append(connection) } } }
        return try body(connection)
    }
}

extension PostgreSQLSchema {
    /// Makes the library in the transaction `db` is in where its schema holds none; else checks
    /// that this build knows every migration it had (a newer build's library is refused) and has
    /// them all, and makes the functions again. Returns whether it made the library; where there is
    /// none and `creating` is false, throws `notFound`.
    static func open(in db: PostgreSQLConnection, address: PostgreSQLAddress, creating: Bool) throws -> Bool {
        let made =
            try db.scalarInt64(
                """
                SELECT 1 FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_name = 'schema_migration'
                """) != nil
        guard made else {
            guard creating else { throw StoreError(.notFound, "no library at \(address)") }
            try make(in: db)
            return true
        }
        let applied = try db.rows("SELECT identifier FROM schema_migration", []) { try $0.text(0) }
        if let unknown = applied.first(where: { !migrations.contains($0) }) {
            throw StoreError(
                .newerSchema,
                "the library at \(address) was made by a newer build (its migration \"\(unknown)\" is unknown "
                    + "here): it is refused, not opened")
        }
        guard Set(baselineMigrations).isSubset(of: applied) else {
            throw StoreError(
                .corrupt,
                "the library at \(address) lacks migrations this build's schema begins with: "
                    + baselineMigrations.filter { !applied.contains($0) }.joined(separator: ", "))
        }
        // What later migrations it lacks, it is given now, in order (under the library's lock).
        for migration in later where !applied.contains(migration.identifier) {
            for statement in migration.statements { try db.execute(statement, []) }
            try db.execute("INSERT INTO schema_migration (identifier) VALUES (?)", [.text(migration.identifier)])
        }
        for statement in functions { try db.execute(statement, []) }
        return false
    }
}
