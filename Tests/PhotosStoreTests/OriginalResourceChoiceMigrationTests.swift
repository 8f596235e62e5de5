import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Schema v21 keeps each asset's original resource choice (PhotoKit SDK 27); a library made before
/// it gets the column with PhotoKit's default, compressed, for every asset it holds.
struct OriginalResourceChoiceMigrationTests {
    @Test func aLibraryOfSchema20GetsTheCompressedChoiceForEveryAsset() throws {
        let directory = try TemporaryDirectory(prefix: "original-choice")
        let path = directory.path("library.sqlite").path
        do {
            let before = try LibraryDatabase(path: path)
            try before.write { transaction in
                var raw = AssetRecord(localIdentifier: "A/L0/001", mediaType: .image)
                raw.originalResourceChoice = 1
                try transaction.insertAsset(raw)
            }
            try before.writer.write { db in
                try db.execute(sql: "ALTER TABLE asset DROP COLUMN originalResourceChoice")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v21:%'")
                try db.execute(sql: "PRAGMA user_version = 20")
            }
        }
        let after = try LibraryDatabase(path: path)
        let stored = try after.sqliteRead { db in
            try db.rows("SELECT \(AssetRecord.selectionSQL) FROM asset", [], AssetRecord.init(row:))
        }
        #expect(stored.map(\.originalResourceChoice) == [0])
        try after.write { transaction in
            var raw = AssetRecord(localIdentifier: "B/L0/001", mediaType: .image)
            raw.originalResourceChoice = 1
            try transaction.insertAsset(raw)
        }
        let choices = try after.sqliteRead { db in
            try Int.fetchAll(db, sql: "SELECT originalResourceChoice FROM asset ORDER BY localIdentifier")
        }
        #expect(choices == [0, 1])
        let version = try after.sqliteRead { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == LibraryDatabase.schemaVersion)
    }

    /// A tombstone kept before the column existed reads as compressed.
    @Test func aRecordFromBeforeTheChoiceDecodesAsCompressed() throws {
        var json =
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(AssetRecord(localIdentifier: "C/L0/001", mediaType: .image)))
            as! [String: Any]
        json["originalResourceChoice"] = nil
        let record = try JSONDecoder().decode(AssetRecord.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(record.originalResourceChoice == 0)
    }
}
