import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The smart albums' counts in a listing, taken in one pass over the assets, against each album's
/// own query, on random libraries.
struct SmartAlbumCountTests {
    /// The hand-made replacement of `\basset\.` writes what the regular expression it replaced
    /// wrote: a library's stored triggers, made by either, still count as this build's.
    @Test func conditionsAreReadFromTheRowAsTheRegularExpressionDid() throws {
        let conditions =
            SmartAlbumCounts.kept.map(\.condition) + [
                "asset.a = 1", "(asset.a)", "my_asset.a = asset.b", "xasset.a", "asset_x.asset.b", "9asset.a",
                "éasset.a", "asset.", "asset", "'asset.a' || asset.b", "",
            ]
        for condition in conditions {
            let expected = condition.replacingOccurrences(
                of: #"\basset\."#, with: "NEW.", options: .regularExpression)
            #expect(SmartAlbumCounts.reading(condition, from: "NEW") == expected, "\(condition)")
        }
        #expect(SmartAlbumCounts.kept.contains { $0.condition.contains("asset.") })
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func onePassCountsWhatEachAlbumsQueryCounts(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let database = try LibraryDatabase()
        let subtypes: [PHAssetMediaSubtype] = [
            .photoScreenshot, .photoPanorama, .photoLive, .photoAnimation, .videoHighFrameRate, .videoTimelapse,
            .videoScreenRecording, .photoHDR, .photoDepthEffect, .spatialMedia, .videoCinematic,
        ]
        try database.write { transaction in
            for index in 0..<400 {
                var record = AssetRecord(
                    localIdentifier: "A\(index)/L0/001", mediaType: random.next() % 3 == 0 ? .video : .image,
                    // Half a day off the 30-day mark: Recently Added's cutoff moves by the second.
                    addedDate: Date(timeIntervalSinceNow: -Double(random.next() % 60) * 86_400 - 43_200))
                record.creationDate = Double(random.next() % 1_000_000)
                record.isFavorite = random.next() % 4 == 0
                record.isHidden = random.next() % 7 == 0
                record.isRAW = random.next() % 9 == 0
                record.isSelfie = random.next() % 8 == 0
                record.rating = Int64(random.next() % 6)
                for subtype in subtypes where random.next() % 6 == 0 {
                    record.mediaSubtypes |= Int64(subtype.rawValue)
                }
                if random.next() % 10 == 0 {
                    record.burstIdentifier = "burst-\(random.next() % 5)"
                    record.representsBurst = random.next() % 3 == 0
                }
                try transaction.insertAsset(record)
            }
        }
        try Self.expectCountsAgree(database)

        // The kept counts follow updates and deletions, in transactions of several changes each.
        for _ in 0..<6 {
            let ids = try database.sqliteRead { try Int64.fetchAll($0, sql: "SELECT id FROM asset") }
            try database.write { transaction in
                for id in ids where random.next() % 5 == 0 {
                    var record = try #require(try transaction.asset(id: id))
                    record.isFavorite.toggle()
                    if random.next() % 2 == 0 { record.isHidden.toggle() }
                    if random.next() % 3 == 0 {
                        record.mediaSubtypes ^= Int64(subtypes.randomElement(using: &random)!.rawValue)
                    }
                    if random.next() % 4 == 0 { record.representsBurst.toggle() }
                    if random.next() % 6 == 0 {
                        record.burstIdentifier = record.burstIdentifier == nil ? "burst-9" : nil
                    }
                    if random.next() % 4 == 0 { record.mediaType = record.mediaType == 2 ? 1 : 2 }
                    if random.next() % 5 == 0 { record.isSelfie.toggle() }
                    if random.next() % 5 == 0 { record.isRAW.toggle() }
                    try transaction.updateAsset(record, properties: ["isFavorite"])
                }
                try transaction.deleteAssets(ids.filter { _ in random.next() % 15 == 0 })
            }
            try Self.expectCountsAgree(database)
        }
    }

    /// Every smart album's listed count against its own query, the kept counts in use.
    static func expectCountsAgree(_ database: LibraryDatabase) throws {
        let all = Set(SmartAlbum.all.map(\.subtype.rawValue) + [9_999])
        try database.sqliteRead { db in
            let kept = try SmartAlbumCounts.read(db)
            #expect(kept != nil, "the triggers are this build's")
            let together = try LibraryDatabase.smartAlbumCounts(subtypes: all, db)
            for subtype in all {
                #expect(
                    together[subtype] == (try LibraryDatabase.smartAlbumCount(subtype: subtype, db)),
                    "subtype \(subtype)")
            }
            #expect(together[PHAssetCollectionSubtype.smartAlbumUserLibrary.rawValue]! > 0)
        }
    }

    /// A library whose triggers another build made (here: one dropped, one changed, counts wrong)
    /// is counted from its assets, and opened writable gets this build's triggers and true counts.
    @Test func countsKeptByOtherTriggersAreNotTrustedAndAreMadeAgainOnOpening() throws {
        let directory = try TemporaryDirectory(prefix: "smart-counts")
        let path = directory.path("library.sqlite").path
        do {
            let database = try LibraryDatabase(path: path)
            try database.write { transaction in
                for index in 0..<30 {
                    var record = AssetRecord(localIdentifier: "A\(index)/L0/001", mediaType: .image)
                    record.isFavorite = index % 3 == 0
                    try transaction.insertAsset(record)
                }
            }
            let favorites = PHAssetCollectionSubtype.smartAlbumFavorites.rawValue
            let kept = try database.sqliteRead { db in try SmartAlbumCounts.read(db) }
            #expect(kept?[favorites] == 10)
            // Another build's: a trigger missing, and a count that is not what the assets say.
            try database.writer.write { db in
                try db.execute(sql: "DROP TRIGGER smart_album_count_deleted")
                try db.execute(sql: "UPDATE smart_album_count SET s\(favorites) = 99")
            }
            let (stale, counted) = try database.sqliteRead { db in
                (try SmartAlbumCounts.read(db), try LibraryDatabase.smartAlbumCounts(subtypes: [favorites], db))
            }
            #expect(stale == nil, "another build's triggers are not trusted")
            #expect(counted[favorites] == 10)
        }
        let reopened = try LibraryDatabase(path: path)
        let remade = try reopened.sqliteRead { db in try SmartAlbumCounts.read(db) }
        #expect(remade?[PHAssetCollectionSubtype.smartAlbumFavorites.rawValue] == 10)
        try Self.expectCountsAgree(reopened)
    }

    /// Counts kept by a build that had fewer smart albums (no column for Portrait, Cinematic and
    /// Spatial, triggers that do not count them) are not trusted, and opening the library writable
    /// makes the table again with a column for every album of this build, counted from the assets.
    @Test func countsKeptByABuildWithFewerAlbumsGainTheNewAlbumsColumnsOnOpening() throws {
        let directory = try TemporaryDirectory(prefix: "smart-counts")
        let path = directory.path("library.sqlite").path
        let added: [PHAssetCollectionSubtype] = [.smartAlbumDepthEffect, .smartAlbumCinematic, .smartAlbumSpatial]
        let flags: [PHAssetMediaSubtype] = [.photoDepthEffect, .videoCinematic, .spatialMedia]
        do {
            let database = try LibraryDatabase(path: path)
            try database.write { transaction in
                for index in 0..<12 {
                    var record = AssetRecord(localIdentifier: "A\(index)/L0/001", mediaType: .image)
                    record.mediaSubtypes = Int64(flags[index % 3].rawValue)
                    record.isFavorite = index < 4
                    try transaction.insertAsset(record)
                }
            }
            // As the build before them kept its counts.
            try database.writer.write { db in
                let older = SmartAlbumCounts.kept.filter { !added.map(\.rawValue).contains($0.subtype) }
                try SmartAlbumCounts.create(db, kept: older)
                let columns = try db.columns(in: "smart_album_count").map(\.name)
                #expect(!columns.contains(SmartAlbumCounts.column(PHAssetCollectionSubtype.smartAlbumSpatial.rawValue)))
            }
            let (stale, counted) = try database.sqliteRead { db in
                let subtypes = Set(added.map(\.rawValue))
                return (try SmartAlbumCounts.read(db), try LibraryDatabase.smartAlbumCounts(subtypes: subtypes, db))
            }
            #expect(stale == nil, "another build's triggers are not trusted")
            #expect(added.allSatisfy { counted[$0.rawValue] == 4 })
        }
        let reopened = try LibraryDatabase(path: path)
        let kept = try #require(try reopened.sqliteRead { db in try SmartAlbumCounts.read(db) })
        #expect(added.allSatisfy { kept[$0.rawValue] == 4 }, "\(kept)")
        #expect(kept[PHAssetCollectionSubtype.smartAlbumFavorites.rawValue] == 4)
        // The new columns follow writes from now on.
        try reopened.write { transaction in
            var record = AssetRecord(localIdentifier: "B/L0/001", mediaType: .video)
            record.mediaSubtypes = Int64(PHAssetMediaSubtype.videoCinematic.rawValue)
            try transaction.insertAsset(record)
        }
        let after = try reopened.sqliteRead { db in try SmartAlbumCounts.read(db) }
        #expect(after?[PHAssetCollectionSubtype.smartAlbumCinematic.rawValue] == 5)
        try Self.expectCountsAgree(reopened)
    }
}
