import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Schema v31 records which assets are dated by their file's modification time. A library made
/// before it has them found as the scanner left them: no offset, not floating, and the date of one
/// of the asset's files; a date the file or the user gave stays a date taken.
struct FileTimeDateMigrationTests {
    @Test func aLibraryOfSchema30FlagsTheAssetsDatedByTheirFilesAlone() throws {
        let directory = try TemporaryDirectory(prefix: "file-time")
        let path = directory.path("library.sqlite").path
        let fileTime = 1_600_000_000.25
        // (identifier, creation date, offset, floating): how each asset was dated before v31.
        let assets: [(String, Double, Int?, Bool)] = [
            ("FILE/L0/001", fileTime, nil, false),  // no date in the file: the scanner took its time
            ("OFFSET/L0/001", fileTime, 3600, false),  // the file's date, with its offset
            ("FLOATING/L0/001", fileTime, 7200, true),  // the file's local time, read in a zone
            ("USER/L0/001", fileTime - 86_400, nil, false),  // a date the user set (no offset either)
        ]
        do {
            let before = try LibraryDatabase(path: path)
            try before.write { transaction in
                for (identifier, date, offset, floating) in assets {
                    var record = AssetRecord(
                        localIdentifier: identifier, mediaType: .image,
                        creationDate: Date(timeIntervalSince1970: date))
                    record.creationDateOffset = offset
                    record.creationDateIsFloating = floating
                    var file = ResourceRecord(
                        assetId: 0, type: 1, path: "/photos/\(identifier.prefix(4)).jpg",
                        uniformTypeIdentifier: "public.jpeg", mimeType: "image/jpeg", fileSize: 1,
                        originalFilename: "\(identifier.prefix(4)).jpg")
                    file.modificationTime = fileTime
                    let id = try transaction.insertAsset(record)
                    file.assetId = id
                    try transaction.insertResource(file)
                }
            }
            try before.writer.write { db in
                try db.execute(sql: "ALTER TABLE asset DROP COLUMN creationDateIsFileTime")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v31:%'")
                try db.execute(sql: "PRAGMA user_version = 30")
            }
        }
        let after = try LibraryDatabase(path: path)
        let flagged = try after.sqliteRead { db in
            try String.fetchAll(
                db, sql: "SELECT localIdentifier FROM asset WHERE creationDateIsFileTime ORDER BY localIdentifier")
        }
        #expect(flagged == ["FILE/L0/001"])
        let version = try after.sqliteRead { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == LibraryDatabase.schemaVersion)
    }

    /// A tombstone kept before the flag existed reads as a date taken.
    @Test func aRecordFromBeforeTheFlagDecodesAsADateTaken() throws {
        var json =
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(AssetRecord(localIdentifier: "C/L0/001", mediaType: .image)))
            as! [String: Any]
        json["creationDateIsFileTime"] = nil
        let record = try JSONDecoder().decode(AssetRecord.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(!record.creationDateIsFileTime)
    }
}
