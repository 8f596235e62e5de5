import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Snapshots (the row ids behind a fetch result) and how commits bring them up to date.
@Suite struct SnapshotTests {
    private func asset(_ name: String, day: Int, favorite: Bool = false) -> AssetRecord {
        var record = AssetRecord(localIdentifier: name + "/L0/001", mediaType: .image)
        record.creationDate = Double(day) * 86_400
        record.isFavorite = favorite
        return record
    }

    @Test func aDeletedRowsIdIsNeverGivenToANewRow() throws {
        let database = try LibraryDatabase()
        let (ids, _) = try database.write { transaction in
            try ["a", "b"].map { try transaction.insertAsset(asset($0, day: 1)) }
        }
        try database.write { try $0.deleteAssets([ids[1]]) }
        let (newID, _) = try database.write { try $0.insertAsset(asset("c", day: 2)) }
        #expect(newID > ids[1], "the newest row was deleted; its id stays retired")
    }

    @Test func anOlderLibraryKeepsItsRowsAndRetiresDeletedIDsWhenMigrated() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path("old.sqlite").path)
        try LibraryDatabase.migrator.migrate(queue, upTo: "v6: tombstones by identifier")
        try queue.write { db in
            for id in [1, 2, 3] {
                try db.execute(
                    sql:
                        "INSERT INTO asset (id, localIdentifier, mediaType, addedDate, burstIdentifier, representsBurst) VALUES (?, ?, 1, 0, ?, ?)",
                    arguments: [id, "A\(id)/L0/001", id == 2 ? "B" : nil, id == 2])
            }
            // Asset 4 was deleted: only its tombstone remains.
            try db.execute(
                sql:
                    "INSERT INTO tombstone (rowId, isAsset, localIdentifier, record, token) VALUES (4, 1, 'A4/L0/001', '{}', 1)"
            )
            try db.execute(
                sql: "INSERT INTO resource (assetId, type, path, originalFilename) VALUES (3, 1, '/p/3.jpg', '3.jpg')")
        }
        try LibraryDatabase.migrator.migrate(queue)
        try queue.write { db in
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM asset ORDER BY id") == [1, 2, 3])
            #expect(try Bool.fetchOne(db, sql: "SELECT isBurstVisible FROM asset WHERE id = 2") == true)
            #expect(try Int.fetchOne(db, sql: "SELECT assetId FROM resource") == 3, "references survive the rebuild")
            #expect(try db.indexes(on: "asset").contains { $0.name == "asset_by_mediaType_creationDate" })
            try db.execute(sql: "INSERT INTO asset (localIdentifier, mediaType, addedDate) VALUES ('A5/L0/001', 1, 0)")
            #expect(db.lastInsertedRowID == 5, "id 4 belonged to a deleted asset")
            try db.execute(sql: "DELETE FROM asset WHERE id = 3")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM resource") == 0, "cascades still work")
        }
    }

    @Test func aFewReordersAreSplicedIntoTheSnapshot() throws {
        let database = try LibraryDatabase()
        let (ids, _) = try database.write { transaction in
            try (0..<200).map { try transaction.insertAsset(asset("a\($0)", day: $0)) }
        }
        let query = AssetQuery()
        let snapshot = try database.assetSnapshot(matching: query)
        #expect(snapshot.ids == ids)
        // The asset of day 10 moves to day 150.5; day 20's is deleted; a new one lands on day 0.5.
        try database.write { transaction in
            var moved = try transaction.assets(ids: [ids[10]])[ids[10]]!
            moved.creationDate = 150.5 * 86_400
            try transaction.updateAsset(moved, properties: ["creationDate"])
            try transaction.deleteAssets([ids[20]])
            _ = try transaction.insertAsset(asset("new", day: 0).with { $0.creationDate = 0.5 * 86_400 })
        }
        let (update, token) = try database.update(snapshot, query: query)
        let fresh = try database.assetSnapshot(matching: query)
        #expect(token == fresh.token)
        guard case .spliced(let spliced, let before, let after, let changed) = update else {
            Issue.record("expected a splice, got \(update)")
            return
        }
        #expect(spliced == fresh.ids)
        #expect(before.map(\.index) == [10, 20])
        #expect(after.map(\.index) == [1, 150])
        #expect(changed == [ids[10]])
        let (again, _) = try database.update(AssetSnapshot(ids: spliced, token: token), query: query)
        guard case .unchanged = again else {
            Issue.record("a current snapshot is unchanged, got \(again)")
            return
        }
    }

    @Test func anEditThatCannotReorderKeepsTheSnapshot() throws {
        let database = try LibraryDatabase()
        let (ids, _) = try database.write { transaction in
            try (0..<50).map { try transaction.insertAsset(asset("a\($0)", day: $0)) }
        }
        let query = AssetQuery()
        let snapshot = try database.assetSnapshot(matching: query)
        try database.write { transaction in
            var asset = try transaction.assets(ids: [ids[3]])[ids[3]]!
            asset.isFavorite = true
            try transaction.updateAsset(asset, properties: ["isFavorite"])
        }
        let (update, _) = try database.update(snapshot, query: query)
        guard case .edited(let indexes) = update else {
            Issue.record("expected an edit in place, got \(update)")
            return
        }
        #expect(indexes == IndexSet([3]))
    }

    /// Each edit of a property sets `modificationDate` too: a query sorted or filtered on it may
    /// see the edited row move, arrive or leave, whatever the property; one on neither may not.
    @Test(arguments: ["isFavorite", "isHidden", "location", "creationDate"])
    func everyEditCanMoveARowOfAQueryOnModificationDate(property: String) {
        var sorted = AssetQuery()
        sorted.sort = [SortKey(key: "modificationDate", ascending: false)]
        var filtered = AssetQuery()
        filtered.filter = SQLFragment(sql: "asset.modificationDate > ?", arguments: [.double(1_750_000_000)])
        filtered.sort = [SortKey(key: "pixelWidth", ascending: true)]
        var neither = AssetQuery()
        neither.sort = [SortKey(key: "pixelWidth", ascending: true)]
        #expect(sorted.depends(onProperties: [property]))
        #expect(filtered.depends(onProperties: [property]))
        #expect(neither.depends(onProperties: [property]) == (property == "isHidden"), "hidden assets are left out")
    }

    @Test func sortKeysCompareAsSQLiteOrdersThem() throws {
        // NULL < numbers (integers and reals together) < text (by bytes) < blobs.
        let values: [SQLValue] = [
            .null, .int(-1), .double(0.5), .int(1), .text("B"), .text("a"), .text("é"), .blob([0]),
        ]
        let database = try LibraryDatabase()
        let sqliteOrder = try database.read { db in
            try db.rows(
                "SELECT v FROM (" + values.map { _ in "SELECT ? AS v" }.joined(separator: " UNION ALL ")
                    + ") ORDER BY v",
                values
            ) { $0.values[0] }
        }
        let ours = values.shuffled().sorted { SortKeyReader.compare($0, $1) < 0 }
        #expect(ours == sqliteOrder)
    }
}

extension AssetRecord {
    fileprivate func with(_ change: (inout AssetRecord) -> Void) -> AssetRecord {
        var copy = self
        change(&copy)
        return copy
    }
}

/// The plans SQLite picks for the fetches clients make most: read in order from an index, with no
/// row looked up to be skipped and nothing sorted afterwards.
@Suite struct FetchPlanTests {
    /// The plan of `query`'s SELECT, one line per step.
    private func plan(_ query: AssetQuery, in database: LibraryDatabase) throws -> [String] {
        let (sql, arguments) = query.sql()
        return try database.read { db in
            try db.rows("EXPLAIN QUERY PLAN " + sql, arguments) { try $0.text(3) }
        }
    }

    @Test(arguments: [true, false]) func favoritesNewestFirstAreOneRunOfAnIndex(favorite: Bool) throws {
        let database = try LibraryDatabase()
        var query = AssetQuery()
        query.filter = try PhotoKitPredicate(format: "favorite == %@", arguments: [.bool(favorite)])
            .sql(for: .asset, column: AssetQuery.column(for:))
        query.sort = [SortKey(key: "creationDate", ascending: false)]
        query.limit = 50
        let steps = try plan(query, in: database)
        #expect(steps == ["SEARCH asset USING INDEX asset_visible_by_favorite_creationDate (isFavorite=?)"], "\(steps)")
    }

    @Test func theFavoritesSmartAlbumReadsTheSameIndex() throws {
        let database = try LibraryDatabase()
        let steps = try plan(AssetQuery(scope: .smartAlbum(.smartAlbumFavorites)), in: database)
        #expect(steps == ["SEARCH asset USING INDEX asset_visible_by_favorite_creationDate (isFavorite=?)"], "\(steps)")
    }
}
