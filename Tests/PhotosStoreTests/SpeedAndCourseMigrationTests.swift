import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Schema v32 gives assets the speed and course of their location. A library made before it opens
/// with neither known, and keeps what it held.
struct SpeedAndCourseMigrationTests {
    @Test func aLibraryOfSchema31OpensWithSpeedAndCourseUnknown() throws {
        let directory = try TemporaryDirectory(prefix: "speed-course")
        let path = directory.path("library.sqlite").path
        do {
            let before = try LibraryDatabase(path: path)
            try before.write { transaction in
                var record = AssetRecord(localIdentifier: "OLD/L0/001", mediaType: .image)
                (record.latitude, record.longitude, record.altitude) = (51.78, 8.37, 93.3)
                _ = try transaction.insertAsset(record)
            }
            try before.writer.write { db in
                try db.execute(sql: "ALTER TABLE asset DROP COLUMN speed")
                try db.execute(sql: "ALTER TABLE asset DROP COLUMN course")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v32:%'")
                try db.execute(sql: "PRAGMA user_version = 31")
            }
        }
        let after = try LibraryDatabase(path: path)
        let record = try #require(
            try after.sqliteRead { db in
                try db.firstRow("SELECT \(AssetRecord.selectionSQL) FROM asset", [], AssetRecord.init(row:))
            })
        #expect(record.latitude == 51.78 && record.longitude == 8.37 && record.altitude == 93.3)
        #expect(record.speed == nil && record.course == nil)
        let version = try after.sqliteRead { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == LibraryDatabase.schemaVersion)
    }

    /// The row keeps both, and a tombstone kept before they existed decodes with neither.
    @Test func speedAndCourseRoundTripThroughTheRowAndOldTombstonesHaveNone() throws {
        let directory = try TemporaryDirectory(prefix: "speed-course")
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        var record = AssetRecord(localIdentifier: "NEW/L0/001", mediaType: .image)
        (record.latitude, record.longitude, record.speed, record.course) = (51.78, 8.37, 0.3056, 89.31)
        try database.write { transaction in _ = try transaction.insertAsset(record) }
        let read = try #require(
            try database.sqliteRead { db in
                try db.firstRow("SELECT \(AssetRecord.selectionSQL) FROM asset", [], AssetRecord.init(row:))
            })
        #expect(read.speed == 0.3056 && read.course == 89.31)

        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as! [String: Any]
        (json["speed"], json["course"]) = (nil, nil)
        let old = try JSONDecoder().decode(AssetRecord.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.speed == nil && old.course == nil && old.latitude == 51.78)
    }
}
