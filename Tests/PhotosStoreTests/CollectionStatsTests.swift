import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The kept album figures (count, first and last dates) against the members they stand for, after
/// random writes of every kind: members added, moved and removed, dates changed (to and from
/// none), assets and albums deleted, folders holding albums.
@Suite struct CollectionStatsTests {
    let database: LibraryDatabase

    init() throws {
        database = try LibraryDatabase()
    }

    /// What the members say, read the slow way.
    func truth(_ id: Int64) throws -> (count: Int, start: Double?, end: Double?) {
        try database.sqliteRead { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), MIN(a.creationDate), MAX(a.creationDate)
                    FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                    WHERE ca.collectionId = ?1 OR ca.collectionId IN (SELECT id FROM collection WHERE parentId = ?1)
                    """, arguments: [id])!
            return (row[0], row[1], row[2])
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func keptFiguresAreTheMembersFigures(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func date() -> Double? {
            Int.random(in: 0..<5, using: &random) == 0 ? nil : Double(Int.random(in: 0..<1000, using: &random))
        }

        var assets: [Int64] = []
        var albums: [CollectionRecord] = []
        let folder = try database.write { transaction in
            var folder = CollectionRecord(
                localIdentifier: "F/L0/040", isList: true, type: PHCollectionListType.folder.rawValue,
                subtype: PHCollectionListSubtype.regularFolder.rawValue, title: "folder", createdDate: 0)
            folder.id = try transaction.insertCollection(folder)
            return folder
        }.value
        for round in 0..<60 {
            try database.write { transaction in
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0, 1:
                        var record = AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image)
                        record.creationDate = date()
                        assets.append(try transaction.insertAsset(record))
                    case 2 where albums.count < 6:
                        var album = CollectionRecord(
                            localIdentifier: UUID().uuidString + "/L0/040", isList: false,
                            type: PHAssetCollectionType.album.rawValue,
                            subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "a",
                            parentId: Bool.random(using: &random) ? folder.id : nil, createdDate: 0)
                        album.id = try transaction.insertCollection(album)
                        albums.append(album)
                    case 3...5 where !albums.isEmpty && !assets.isEmpty:
                        // New members: some of the old kept (maybe moved), some added.
                        let album = albums.randomElement(using: &random)!
                        var members = try transaction.members(ofCollection: album.id!).filter { _ in
                            Int.random(in: 0..<4, using: &random) > 0
                        }
                        members.shuffle(using: &random)
                        for asset in assets.shuffled(using: &random).prefix(Int.random(in: 0...8, using: &random))
                        where !members.contains(asset) {
                            members.append(asset)
                        }
                        try transaction.setMembers(ofCollection: album, to: members)
                    case 6...7 where !assets.isEmpty:
                        let id = assets.randomElement(using: &random)!
                        var record = try transaction.asset(id: id)!
                        record.creationDate = date()
                        try transaction.updateAsset(record, properties: ["creationDate"])
                    case 8 where !assets.isEmpty:
                        let id = assets.remove(at: Int.random(in: 0..<assets.count, using: &random))
                        try transaction.deleteAssets([id])
                    case 9 where albums.count > 2:
                        let album = albums.remove(at: Int.random(in: 0..<albums.count, using: &random))
                        _ = try transaction.deleteCollection(album)
                    default:
                        break
                    }
                }
            }
            for collection in albums + [folder] {
                let expected = try truth(collection.id!)
                let kept = try #require(try database.collections(ids: [collection.id!])[collection.id!])
                if !collection.isList {
                    #expect(kept.estimatedAssetCount == expected.count, "seed \(seed) round \(round)")
                }
                #expect(kept.startDate == expected.start && kept.endDate == expected.end, "seed \(seed) round \(round)")
            }
            // Every write leaves no album dirty: readers never fall back to the members.
            let dirty = try database.sqliteRead { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM collection_stats WHERE dirty = 1")
            }
            #expect(dirty == 0)
        }
    }

    /// A library made before the figures were kept gets them from its members when it opens.
    @Test func theMigrationCountsTheAlbumsThereAre() throws {
        let directory = try TemporaryDirectory(prefix: "collection-stats")
        let path = directory.path("library.sqlite").path
        let before = try LibraryDatabase(path: path)
        let album = try before.write { transaction in
            var album = CollectionRecord(
                localIdentifier: "A/L0/040", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "a", createdDate: 0)
            album.id = try transaction.insertCollection(album)
            var ids: [Int64] = []
            for date in [30.0, 10, 20] {
                var record = AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image)
                record.creationDate = date
                ids.append(try transaction.insertAsset(record))
            }
            try transaction.setMembers(ofCollection: album, to: ids)
            return album
        }.value
        // As a library of the previous schema: no figures kept.
        try before.writer.write { db in
            try db.execute(sql: "DROP TABLE collection_stats")
            for trigger in [
                "collection_stats_member_added", "collection_stats_member_removed", "collection_stats_date_changed",
            ] {
                try db.execute(sql: "DROP TRIGGER \(trigger)")
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v15: album counts and dates kept'")
            try db.execute(sql: "PRAGMA user_version = 14")
        }
        let after = try LibraryDatabase(path: path)
        let info = try #require(try after.collections(ids: [album.id!])[album.id!])
        #expect(info.estimatedAssetCount == 3 && info.startDate == 10 && info.endDate == 30)
    }
}
