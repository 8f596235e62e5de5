import Foundation
import GRDB

/// A new library file's schema made at once: the statements that make what every migration makes,
/// taken from a library the migrations made, rather than the migrations themselves.
///
/// SQLite reads a file's whole schema again after each change to a table, so the 37 migrations
/// cost about 45 ms of a new library's start (two thirds of `photos scan` of an empty folder into
/// a new library); the snapshot's statements, a few. It is used only where it stands for exactly
/// this build's migrations (``migrations``) and the file holds nothing yet; anything else is
/// migrated as before. `LibrarySchemaSnapshotTests` hold a library made from it equal to one the
/// migrations made (every object's definition, every row but the library's identifier, which is
/// made anew), and write ``LibrarySchemaSnapshot+Statements.swift`` again when run with
/// `PHOTOS_RECORD_SCHEMA=1`.
enum LibrarySchemaSnapshot {
    /// Whether the snapshot stands for `migrations`, in their order.
    static func standsFor(_ migrations: [String]) -> Bool {
        migrations == Self.migrations
    }

    /// Makes the snapshot's schema and rows in the empty database `db`, the migrations it stands
    /// for recorded as applied, and a new identifier for the library.
    static func make(_ db: Database) throws {
        for statement in statements { try db.execute(sql: statement) }
        try db.execute(sql: "INSERT INTO library (id, identifier) VALUES (1, ?)", arguments: [UUID().uuidString])
    }

    /// Whether `db` holds no table, index, view or trigger yet.
    static func isEmpty(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0
    }

    /// The statements that make `db`'s schema and rows (tables, then indexes, then views, then
    /// triggers, each in the order they were made; then each table's rows, `library`'s aside): what
    /// the snapshot is made of.
    static func statements(making db: Database) throws -> [String] {
        let objects = try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, rowid
                """)
        var statements = objects.map { $0["sql"] as String }
        var tables = objects.filter { $0["type"] == "table" }.map {
            (name: $0["name"] as String, hasRowID: !($0["sql"] as String).hasSuffix("WITHOUT ROWID"))
        }
        if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'") == 1 {
            tables.append(("sqlite_sequence", true))
        }
        for (table, hasRowID) in tables where table != "library" {
            // Rows inserted with their ids have moved the counters already: they are set as they were.
            if table == "sqlite_sequence" { statements.append("DELETE FROM sqlite_sequence") }
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
            // In the order they were inserted, where the table keeps it (the migrations' order is read so).
            let order = hasRowID ? "rowid" : (1...columns.count).map(String.init).joined(separator: ", ")
            let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            for row in try Row.fetchAll(db, sql: "SELECT \(quoted) FROM \"\(table)\" ORDER BY \(order)") {
                let values = row.databaseValues.map(literal).joined(separator: ", ")
                statements.append("INSERT INTO \"\(table)\" (\(quoted)) VALUES (\(values))")
            }
        }
        return statements
    }

    /// A value as an SQL literal.
    static func literal(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let number): return String(number)
        case .double(let number): return "\(number)"
        case .string(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
