import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A row that lacks a column its record reads is an error naming the column, never a trap: a query
/// with a stale column list (as `photos-bench` had before ratings) or a library written by another
/// build must not crash its reader.
struct RecordColumnTests {
    /// A library with one asset and its file.
    static func library(_ directory: TemporaryDirectory) throws -> LibraryDatabase {
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        try database.write { transaction in
            var asset = AssetRecord(localIdentifier: "A1/L0/001", mediaType: .image)
            asset.latitude = 59.3
            asset.rating = 4
            let resource = ResourceRecord(
                assetId: 0, type: PHAssetResourceType.photo.rawValue, path: "/p/2024/a.jpg",
                uniformTypeIdentifier: "public.jpeg", mimeType: "image/jpeg", fileSize: 10, originalFilename: "a.jpg")
            try transaction.insertAsset(asset, resources: [resource])
        }
        return database
    }

    /// The error reading `sql` as asset records throws, if any.
    static func assetError(_ database: LibraryDatabase, _ sql: String) -> StoreError? {
        do {
            _ = try database.sqliteRead { db in try db.rows(sql, [], AssetRecord.init(row:)) }
            return nil
        } catch {
            return error as? StoreError
        }
    }

    @Test func theStoresColumnListReadsEveryColumnBack() throws {
        let directory = try TemporaryDirectory(prefix: "record-columns")
        let database = try Self.library(directory)
        let assets = try database.sqliteRead { db in
            try db.rows("SELECT \(AssetRecord.selectionSQL) FROM asset", [], AssetRecord.init(row:))
        }
        #expect(assets.count == 1)
        #expect(assets.first?.rating == 4)
        #expect(assets.first?.latitude == 59.3)
        // The generated column is not the record's, and every column the record writes is read.
        #expect(!AssetRecord.columnNames.contains("isBurstVisible"))
        let tableColumns = try database.sqliteRead { db in try db.columns(in: "asset").map(\.name) }
        #expect(Set(AssetRecord.columnNames) == Set(tableColumns).subtracting(["isBurstVisible"]))
    }

    @Test func theColumnListOfBeforeRatingsIsAnErrorInsteadOfShiftedValues() throws {
        let directory = try TemporaryDirectory(prefix: "record-columns")
        let database = try Self.library(directory)
        // photos-bench's own copy of the list, as it stood when it crashed on `rating`.
        let stale = AssetRecord.columnNames.filter { !["rating", "isSelfie", "originalResourceChoice"].contains($0) }
        let error = try #require(Self.assetError(database, "SELECT \(stale.joined(separator: ", ")) FROM asset"))
        #expect(error.code == .missingColumn)
        #expect(error.message.contains("has 28 columns where 31 were selected"), "\(error.message)")
    }

    @Test(arguments: ["mediaType", "latitude", "burstIdentifier", "originalResourceChoice"])
    func aMissingColumnIsAnErrorWhetherOrNotItMayBeNull(column: String) throws {
        let directory = try TemporaryDirectory(prefix: "record-columns")
        let database = try Self.library(directory)
        let columns = AssetRecord.columnNames.filter { $0 != column }
        let error = try #require(Self.assetError(database, "SELECT \(columns.joined(separator: ", ")) FROM asset"))
        #expect(error.code == .missingColumn)
        #expect(error.message.contains("has 30 columns where 31 were selected"), "\(error.message)")
    }

    @Test func aResourceRowOfTheTablesOwnColumnsIsAnError() throws {
        let directory = try TemporaryDirectory(prefix: "record-columns")
        let database = try Self.library(directory)
        // The table's columns hold a directory's id and a name where the record reads a path.
        let error = #expect(throws: StoreError.self) {
            try database.sqliteRead { db in
                try db.rows(
                    "SELECT r.id, r.assetId, r.type, r.directoryId, r.name FROM resource r", [],
                    ResourceRecord.init(row:))
            }
        }
        #expect(error?.code == .missingColumn)
        let resources = try database.sqliteRead { db in
            try db.rows(
                "SELECT \(FileDirectories.columns(.sqlite)) FROM \(FileDirectories.join)", [], ResourceRecord.init(row:)
            )
        }
        #expect(resources.map(\.path) == ["/p/2024/a.jpg"])
    }
}
