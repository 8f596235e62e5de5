import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Smart albums added by a later build join a library made by an earlier one, at their places.
struct SmartAlbumMigrationTests {
    @Test func aLibraryOfTheEarlierSchemaGetsTheNewSmartAlbums() throws {
        let directory = try TemporaryDirectory(prefix: "smart-albums")
        let path = directory.path("library.sqlite").path
        let before = try LibraryDatabase(path: path)
        let added = [PHAssetCollectionSubtype.smartAlbumSelfPortraits, .smartAlbumScreenRecordings]
        // As a library of schema 16: no selfie column, no such albums, the others one place up, no
        // kept smart album counts (schema 18).
        try before.writer.write { db in
            for trigger in SmartAlbumCounts.triggers { try db.execute(sql: "DROP TRIGGER \(trigger.name)") }
            try db.execute(sql: "DROP TABLE smart_album_count")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v18: smart album counts kept'")
            for subtype in added {
                try db.execute(
                    sql: "DELETE FROM collection WHERE subtype = ? AND type = 2 AND isList = 0",
                    arguments: [subtype.rawValue])
            }
            try db.execute(
                sql: "UPDATE collection SET position = position - 1 WHERE type = 2 AND isList = 0 AND position > 3")
            try db.execute(sql: "ALTER TABLE asset DROP COLUMN isSelfie")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v17: selfies and screen recordings'")
            try db.execute(sql: "PRAGMA user_version = 16")
        }
        let after = try LibraryDatabase(path: path)
        let smart = try after.sqliteRead { db in
            try Row.fetchAll(
                db,
                sql: "SELECT subtype, title, position FROM collection WHERE type = 2 AND isList = 0 ORDER BY position")
        }
        #expect(smart.map { $0["subtype"] as Int } == SmartAlbum.all.map(\.subtype.rawValue))
        #expect(smart.map { $0["position"] as Int } == Array(0..<SmartAlbum.all.count))
        #expect(smart.map { $0["title"] as String }.contains("Selfies"))
        let columns = try after.sqliteRead { db in try db.columns(in: "asset").map(\.name) }
        #expect(columns.contains("isSelfie"))
        let kept = try after.sqliteRead { db in try SmartAlbumCounts.read(db) }
        #expect(kept != nil, "the counts are kept again")
    }

    /// A library of schema 19 (before Portrait, Cinematic and Spatial were derived) gets the three
    /// albums at their places and kept counts for them.
    @Test func aLibraryOfSchema19GetsPortraitCinematicAndSpatial() throws {
        let directory = try TemporaryDirectory(prefix: "smart-albums")
        let path = directory.path("library.sqlite").path
        let added = [PHAssetCollectionSubtype.smartAlbumDepthEffect, .smartAlbumCinematic, .smartAlbumSpatial]
        do {
            let before = try LibraryDatabase(path: path)
            try before.write { transaction in
                var record = AssetRecord(localIdentifier: "A/L0/001", mediaType: .image)
                record.mediaSubtypes = Int64(PHAssetMediaSubtype.photoDepthEffect.rawValue)
                try transaction.insertAsset(record)
            }
            try before.writer.write { db in
                for subtype in added {
                    try db.execute(
                        sql: "DELETE FROM collection WHERE subtype = ? AND type = 2 AND isList = 0",
                        arguments: [subtype.rawValue])
                }
                let older = SmartAlbumCounts.kept.filter { !added.map(\.rawValue).contains($0.subtype) }
                try SmartAlbumCounts.create(db, kept: older)
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v20:%'")
                try db.execute(sql: "PRAGMA user_version = 19")
            }
        }
        let after = try LibraryDatabase(path: path)
        let smart = try after.sqliteRead { db in
            try Row.fetchAll(
                db,
                sql: "SELECT subtype, title, position FROM collection WHERE type = 2 AND isList = 0 ORDER BY position")
        }
        #expect(smart.map { $0["subtype"] as Int } == SmartAlbum.all.map(\.subtype.rawValue))
        #expect(smart.map { $0["position"] as Int } == Array(0..<SmartAlbum.all.count))
        let titles = smart.map { $0["title"] as String }
        #expect(titles.contains("Portrait") && titles.contains("Cinematic") && titles.contains("Spatial"))
        let kept = try after.sqliteRead { db in try SmartAlbumCounts.read(db) }
        #expect(kept?[PHAssetCollectionSubtype.smartAlbumDepthEffect.rawValue] == 1)
        #expect(kept?[PHAssetCollectionSubtype.smartAlbumSpatial.rawValue] == 0)
        let version = try after.sqliteRead { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == LibraryDatabase.schemaVersion)
    }
}
