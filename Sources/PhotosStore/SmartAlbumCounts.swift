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
    static let kept: [(subtype: Int, condition: String)] = SmartAlbum.all.compactMap { album in
        let clauses = AssetQuery(scope: .smartAlbum(album.subtype)).clauses()
        let condition = clauses.conditions.map { "(\($0))" }.joined(separator: " AND ")
        guard clauses.from == "asset", clauses.arguments.isEmpty, !clauses.conditions.isEmpty,
            !condition.contains("'now'")
        else { return nil }
        return (album.subtype.rawValue, condition)
    }

    /// The trigger statements, as `sqlite_master` keeps them.
    static let triggers: [(name: String, sql: String)] = {
        // 1 when the row (`NEW` or `OLD`) is a member of the album of the row's `subtype`, else 0.
        func membership(_ row: String) -> String {
            let cases = kept.map { entry in
                let condition = entry.condition.replacingOccurrences(
                    of: #"\basset\."#, with: row + ".", options: .regularExpression)
                return "WHEN \(entry.subtype) THEN CASE WHEN \(condition) THEN 1 ELSE 0 END"
            }
            return "(CASE subtype \(cases.joined(separator: " ")) ELSE 0 END)"
        }
        let new = membership("NEW")
        let old = membership("OLD")
        return [
            (
                "smart_album_count_inserted",
                """
                CREATE TRIGGER smart_album_count_inserted AFTER INSERT ON asset BEGIN
                    UPDATE smart_album_count SET assetCount = assetCount + 1 WHERE \(new) = 1;
                END
                """
            ),
            (
                "smart_album_count_deleted",
                """
                CREATE TRIGGER smart_album_count_deleted AFTER DELETE ON asset BEGIN
                    UPDATE smart_album_count SET assetCount = assetCount - 1 WHERE \(old) = 1;
                END
                """
            ),
            (
                "smart_album_count_updated",
                """
                CREATE TRIGGER smart_album_count_updated AFTER UPDATE ON asset BEGIN
                    UPDATE smart_album_count SET assetCount = assetCount + \(new) - \(old) WHERE \(new) != \(old);
                END
                """
            ),
        ]
    }()

    /// Makes (or makes again) the table, its counts and its triggers.
    static func create(_ db: Database) throws {
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.name)") }
        try db.execute(sql: """
            DROP TABLE IF EXISTS smart_album_count;
            CREATE TABLE smart_album_count (subtype INTEGER PRIMARY KEY, assetCount INTEGER NOT NULL);
            """)
        let counts = try countedAgain(db)
        for (subtype, _) in kept {
            try db.execute(
                sql: "INSERT INTO smart_album_count (subtype, assetCount) VALUES (?, ?)",
                arguments: [subtype, counts[subtype] ?? 0])
        }
        for trigger in triggers { try db.execute(sql: trigger.sql) }
    }

    /// Whether the library's triggers are this build's.
    static func areCurrent(_ db: Database) throws -> Bool {
        let stored = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'smart_album_count_%'")
        let found = Dictionary(stored.map { ($0[0] as String, $0[1] as String?) }, uniquingKeysWith: { first, _ in first })
        return triggers.allSatisfy { found[$0.name] == $0.sql } && found.count == triggers.count
    }

    /// The kept counts, by subtype raw value; nil when the library's triggers are not this build's.
    static func read(_ db: Database) throws -> [Int: Int]? {
        guard try areCurrent(db) else { return nil }
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT subtype, assetCount FROM smart_album_count"))
        return Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every kept album counted from the assets, in one pass.
    static func countedAgain(_ db: Database) throws -> [Int: Int] {
        guard !kept.isEmpty else { return [:] }
        let columns = kept.map { "COALESCE(SUM(CASE WHEN \($0.condition) THEN 1 ELSE 0 END), 0)" }
        let row = try Row.fetchOne(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM asset")
        var counts: [Int: Int] = [:]
        for (index, entry) in kept.enumerated() { counts[entry.subtype] = row?[index] ?? 0 }
        return counts
    }
}
