import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The smart albums' counts in a listing, taken in one pass over the assets, against each album's
/// own query, on random libraries.
struct SmartAlbumCountTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func onePassCountsWhatEachAlbumsQueryCounts(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let database = try LibraryDatabase()
        let subtypes: [PHAssetMediaSubtype] = [
            .photoScreenshot, .photoPanorama, .photoLive, .photoAnimation, .videoHighFrameRate, .videoTimelapse,
            .videoScreenRecording, .photoHDR,
        ]
        try database.write { transaction in
            for index in 0..<400 {
                var record = AssetRecord(
                    localIdentifier: "A\(index)/L0/001", mediaType: random.next() % 3 == 0 ? .video : .image,
                    addedDate: Date(timeIntervalSinceNow: -Double(random.next() % 60) * 86_400))
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
        let all = Set(SmartAlbum.all.map(\.subtype.rawValue) + [9_999])
        try database.read { db in
            let together = try LibraryDatabase.smartAlbumCounts(subtypes: all, db)
            for subtype in all {
                #expect(together[subtype] == (try LibraryDatabase.smartAlbumCount(subtype: subtype, db)), "subtype \(subtype)")
            }
            #expect(together[PHAssetCollectionSubtype.smartAlbumUserLibrary.rawValue]! > 0)
        }
    }
}
