import Foundation
import PhotosCore
import PhotosStore
import PhotosTestSupport
import Testing

@Suite struct LibraryDatabaseTests {
    @Test func aNewLibraryHasItsSmartAlbumsAndAnEmptyLog() throws {
        let directory = try TemporaryDirectory()
        let database = try LibraryDatabase(path: directory.path("nested/dir/library.sqlite").path)
        #expect(try database.currentToken() == 0)
        let smart = try database.collectionIDs(
            matching: CollectionQuery(scope: .assetCollections(type: .smartAlbum, subtype: .any)))
        // Every one but Recently Deleted, which is fetched by its subtype or identifier only.
        let listed = SmartAlbum.all.filter(\.isListed)
        #expect(listed.count == SmartAlbum.all.count - 1)
        #expect(smart.count == listed.count)
        let infos = try database.collections(ids: smart)
        #expect(Set(infos.values.map(\.record.localIdentifier)) == Set(listed.map(\.localIdentifier)))
        let deleted = try database.collectionIDs(
            matching: CollectionQuery(scope: .assetCollections(type: .smartAlbum, subtype: .smartAlbumRecentlyDeleted)))
        #expect(try database.collections(ids: deleted).values.map(\.record.title) == ["Recently Deleted"])
    }

    @Test func reopeningKeepsDataAndMigratesOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite").path
        do {
            let database = try LibraryDatabase(path: path)
            try database.write { try $0.insertAsset(AssetRecord(localIdentifier: "A/L0/001", mediaType: .image)) }
        }
        let reopened = try LibraryDatabase(path: path)
        #expect(try reopened.assetIDs(matching: AssetQuery()).count == 1)
        #expect(try reopened.currentToken() == 1)
        #expect(throws: StoreError.self) { try LibraryDatabase(existingAt: directory.path("missing.sqlite").path) }
    }

    @Test func aWriteThatThrowsLeavesNoTrace() throws {
        let database = try LibraryDatabase()
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try database.write { transaction in
                try transaction.insertAsset(AssetRecord(localIdentifier: "A/L0/001", mediaType: .image))
                throw Boom()
            }
        }
        #expect(try database.assetIDs(matching: AssetQuery()).isEmpty)
        #expect(try database.currentToken() == 0)
    }

    /// An asset's insert that fails fails its whole block: SQLite undoes the transaction itself
    /// (`INSERT OR ROLLBACK`, which spares the statement journal), the error that comes out is the
    /// insert's, nothing of the block stays (the smart albums' counts included), and the next
    /// block writes as before.
    @Test func aFailedAssetInsertTakesBackItsWholeBlock() throws {
        let database = try LibraryDatabase()
        let photo = AssetRecord(localIdentifier: "A/L0/001", mediaType: .image)
        let error = #expect(throws: StoreError.self) {
            try database.write { transaction in
                let file = ResourceRecord(
                    assetId: 0, type: 1, path: "/p/a.jpg", uniformTypeIdentifier: "public.jpeg", mimeType: "image/jpeg",
                    fileSize: 1, originalFilename: "a.jpg")
                try transaction.insertAsset(photo, resources: [file])
                try transaction.insertAsset(AssetRecord(localIdentifier: "B/L0/001", mediaType: .image))
                try transaction.insertAsset(photo)
            }
        }
        // SQLITE_CONSTRAINT_UNIQUE, not a failed ROLLBACK of a transaction SQLite had already undone.
        #expect(error?.sqliteCode == 2067, "\(String(describing: error))")
        #expect(try database.assetIDs(matching: AssetQuery()).isEmpty)
        #expect(try database.currentToken() == 0)
        let allPhotos = "SELECT s209 FROM smart_album_count"
        #expect(try database.sqliteRead { try Int.fetchOne($0, sql: allPhotos) } == 0)

        let written = try database.write { try $0.insertAsset(photo) }
        #expect(written.token == 1)
        #expect(try database.assetIDs(matching: AssetQuery()).count == 1)
        #expect(try database.sqliteRead { try Int.fetchOne($0, sql: allPhotos) } == 1)
    }

    @Test func everyCommittedWriteAppendsOneEntryWithGrowingTokens() throws {
        let database = try LibraryDatabase()
        let first = try database.write {
            try $0.insertAsset(AssetRecord(localIdentifier: "A/L0/001", mediaType: .image))
        }
        let second = try database.write { transaction in
            var record = try transaction.asset(withLocalIdentifier: "A/L0/001")!
            record.isFavorite = true
            try transaction.updateAsset(record, properties: ["isFavorite"])
        }
        let nothing = try database.write { _ in }
        #expect(first.token == 1 && second.token == 2 && nothing.token == nil)
        let entries = try database.changes(after: 0)
        #expect(entries.map(\.token) == [1, 2])
        #expect(entries[0].asset.inserted == ["A/L0/001"])
        #expect(entries[1].asset.changedProperties == ["A/L0/001": ["isFavorite"]])
        #expect(try database.changes(after: 1).map(\.token) == [2])
        #expect(try database.oldestToken() == 1)
    }

    @Test func anotherConnectionSeesCommittedWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite").path
        let writer = try LibraryDatabase(path: path)
        let reader = try LibraryDatabase(path: path)
        try writer.write { try $0.insertAsset(AssetRecord(localIdentifier: "A/L0/001", mediaType: .video)) }
        #expect(try reader.assetIDs(matching: AssetQuery()).count == 1)
        #expect(try reader.currentToken() == 1)
    }

    @Test func predicateSQLRunsOnRealSQLite() throws {
        let database = try LibraryDatabase()
        try database.write { transaction in
            for (index, name) in ["Été", "ete", "Eagle", "summer"].enumerated() {
                var record = AssetRecord(localIdentifier: "\(index)/L0/001", mediaType: .image)
                record.burstIdentifier = name
                record.representsBurst = true
                try transaction.insertAsset(record)
            }
        }
        func matching(_ format: String, _ arguments: [PredicateValue] = []) throws -> Int {
            var query = AssetQuery()
            query.filter = try PhotoKitPredicate(format: format, arguments: arguments)
                .sql(for: .asset, column: AssetQuery.column(for:))
            return try database.assetIDs(matching: query).count
        }
        #expect(try matching("burstIdentifier == 'ete'") == 1)
        #expect(try matching("burstIdentifier ==[cd] 'ete'") == 2)
        #expect(try matching("burstIdentifier BEGINSWITH[c] 'e'") == 2, "é is not e without [d]")
        #expect(try matching("burstIdentifier BEGINSWITH[cd] 'e'") == 3)
        #expect(try matching("burstIdentifier LIKE[cd] 'e?e'") == 2)
        #expect(try matching("burstIdentifier CONTAINS 'mm'") == 1)
        #expect(try matching("burstIdentifier ENDSWITH[d] 'te'") == 2)
        #expect(try matching("NOT burstIdentifier IN %@", [.array([.string("summer"), .string("Eagle")])]) == 2)
    }
}
