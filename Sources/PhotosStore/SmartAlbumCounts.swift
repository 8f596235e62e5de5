import Foundation
import GRDB
import PhotosCore

/// How many assets each smart album holds, kept in `smart_album_count` so that listing albums
/// costs a row per smart album, not a pass over every asset (issue 15: 685 ms of `photos albums`
/// at a million assets).
///
/// Only albums whose default fetch is a condition on the asset's own columns are kept (all but
/// Recently Added, whose members change with the clock: it is counted through its date index).
/// Triggers on `asset` count an asset in or out as it is inserted, deleted or updated, evaluating
/// each album's condition on the row's old and new values: no read of other rows.
///
/// The triggers are made from the conditions of this build (``SmartAlbum/all`` through
/// ``AssetQuery``). A library whose triggers were made from other conditions (an older or newer
/// build) is counted the slow way, and opening it writable makes its triggers and counts again.
enum SmartAlbumCounts {
    /// The kept albums: subtype raw value and the condition an asset meets to be counted.
    static let kept: [(subtype: Int, condition: String)] = keptConditions.map {
        ($0.subtype, conjunction($0.conditions))
    }

    /// The kept albums' conditions as the asset query makes them, each a condition on the row.
    static let keptConditions: [(subtype: Int, conditions: [String])] = SmartAlbum.all.compactMap { album in
        let clauses = AssetQuery(scope: .smartAlbum(album.subtype)).clauses()
        guard clauses.from == "asset", clauses.arguments.isEmpty, !clauses.conditions.isEmpty,
            !clauses.conditions.contains(where: { $0.contains("'now'") })
        else { return nil }
        return (album.subtype.rawValue, clauses.conditions)
    }

    /// Conditions met together: `(a) AND (b)`.
    static func conjunction(_ conditions: [String]) -> String {
        conditions.map { "(\($0))" }.joined(separator: " AND ")
    }

    /// The column of a kept album's count in the table's one row.
    static func column(_ subtype: Int) -> String { "s\(subtype)" }

    /// This build's trigger statements, as `sqlite_master` keeps them.
    static let triggers = triggers(for: kept)

    /// The trigger statements that keep the counts of `kept`. Each firing is one update of the
    /// table's one row, each album's condition evaluated once on the row's values.
    static func triggers(for kept: [(subtype: Int, condition: String)]) -> [(name: String, sql: String)] {
        // 1 when the row (`NEW` or `OLD`) meets the album's condition, else 0.
        func member(_ condition: String, _ row: String) -> String {
            "(CASE WHEN \(reading(condition, from: row)) THEN 1 ELSE 0 END)"
        }
        func assignments(_ change: (String) -> String) -> String {
            kept.map { "\(column($0.subtype)) = \(column($0.subtype)) + \(change($0.condition))" }
                .joined(separator: ", ")
        }
        let inserted = assignments { member($0, "NEW") }
        let deleted = assignments { "-" + member($0, "OLD") }
        let updated = assignments { member($0, "NEW") + " - " + member($0, "OLD") }
        return [
            (
                "smart_album_count_inserted",
                """
                CREATE TRIGGER smart_album_count_inserted AFTER INSERT ON asset BEGIN
                    UPDATE smart_album_count SET \(inserted) WHERE id = 1;
                END
                """
            ),
            (
                "smart_album_count_deleted",
                """
                CREATE TRIGGER smart_album_count_deleted AFTER DELETE ON asset BEGIN
                    UPDATE smart_album_count SET \(deleted) WHERE id = 1;
                END
                """
            ),
            (
                "smart_album_count_updated",
                """
                CREATE TRIGGER smart_album_count_updated AFTER UPDATE ON asset BEGIN
                    UPDATE smart_album_count SET \(updated) WHERE id = 1;
                END
                """
            ),
        ]
    }

    /// `condition` with each `asset.` column read from `row` instead (`NEW.`, `OLD.`): the regular
    /// expression `\basset\.` replaced, by hand, since every library open compares the triggers it
    /// makes with the stored ones, and ICU's regular expressions cost a `photos` command 3 ms to start.
    static func reading(_ condition: String, from row: String) -> String {
        let bytes = Array(condition.utf8)
        let table = Array("asset.".utf8)
        // What `\b` takes for a word: letters, digits, `_`, and any byte of a non-ASCII character.
        func inWord(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_")
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: table), index == 0 || !inWord(bytes[index - 1]) {
                output += row.utf8
                output.append(UInt8(ascii: "."))
                index += table.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Makes (or makes again) the table, its counts and its triggers: a column and a condition for
    /// each of `kept` (this build's albums; a test passes another build's). The table is made anew,
    /// so albums a later build added get their columns.
    static func create(_ db: Database) throws {
        try create(db, kept: kept)
    }

    static func create(_ db: Database, kept: [(subtype: Int, condition: String)]) throws {
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.name)") }
        let columns = kept.map { ", \(column($0.subtype)) INTEGER NOT NULL" }.joined()
        try db.execute(
            sql: """
                DROP TABLE IF EXISTS smart_album_count;
                CREATE TABLE smart_album_count (id INTEGER PRIMARY KEY CHECK (id = 1)\(columns));
                """)
        let counts = try countedAgain(db, kept: kept)
        let names = kept.map { ", " + column($0.subtype) }.joined()
        try db.execute(
            "INSERT INTO smart_album_count (id\(names)) VALUES (1\(String(repeating: ", ?", count: kept.count)))",
            kept.map { .int(counts[$0.subtype] ?? 0) })
        for trigger in triggers(for: kept) { try db.execute(sql: trigger.sql) }
    }

    /// Whether the library's triggers are this build's. A library in PostgreSQL gets its triggers
    /// from its schema's baseline and migrations (``PostgreSQLSchema``), never from another build's
    /// list: they are this build's.
    static func areCurrent(_ db: some StoreConnection) throws -> Bool {
        guard db.dialect == .sqlite else { return true }
        let stored = try db.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'smart_album_count_%'", []
        ) { (try $0.text(0), $0.optionalText(1)) }
        let found = Dictionary(stored, uniquingKeysWith: { first, _ in first })
        return triggers.allSatisfy { found[$0.name] == $0.sql } && found.count == triggers.count
    }

    /// The kept counts, by subtype raw value; nil when the library's triggers are not this build's.
    static func read(_ db: some StoreConnection) throws -> [Int: Int]? {
        guard try areCurrent(db) else { return nil }
        let columns = kept.map { column($0.subtype) }.joined(separator: ", ")
        guard let row = try db.firstRow("SELECT \(columns) FROM smart_album_count", [], \.values) else { return nil }
        var counts: [Int: Int] = [:]
        for (index, entry) in kept.enumerated() {
            counts[entry.subtype] = StoreRow(values: row).optionalInt64(index).map(Int.init)
        }
        return counts
    }

    /// Every kept album counted from the assets, in one pass.
    static func countedAgain(_ db: some StoreConnection) throws -> [Int: Int] {
        try countedAgain(db, kept: kept)
    }

    private static func countedAgain(_ db: some StoreConnection, kept: [(subtype: Int, condition: String)]) throws
        -> [Int: Int]
    {
        guard !kept.isEmpty else { return [:] }
        let columns = kept.map { "COALESCE(SUM(CASE WHEN \(db.dialect.condition($0.condition)) THEN 1 ELSE 0 END), 0)" }
        let row = try db.firstRow("SELECT \(columns.joined(separator: ", ")) FROM asset", [], \.values)
        var counts: [Int: Int] = [:]
        for (index, entry) in kept.enumerated() {
            counts[entry.subtype] = row.flatMap { StoreRow(values: $0).optionalInt64(index) }.map(Int.init) ?? 0
        }
        return counts
    }
}
