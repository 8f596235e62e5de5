import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite struct FetchResultChangeDetailsTests {
    @Test func detailsBetweenTwoFetchesOfTheLibrary() throws {
        let fixture = try LibraryFixture()
        let options = fixture.options { $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)] }
        let before = PHAsset.fetchAssets(with: options)
        let beach = fixture.asset("beach.jpg")
        let movie = fixture.asset("movie.mov")
        let pano = fixture.asset("pano.jpg")
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([movie] as NSArray)
            PHAssetChangeRequest(for: beach).isFavorite = false
            // Now the newest.
            PHAssetChangeRequest(for: pano).creationDate = Date(timeIntervalSince1970: 2_000_000_000)
            PHAssetChangeRequest(for: fixture.asset("secret.jpg")).isHidden = false  // Now visible.
        }
        let after = PHAsset.fetchAssets(with: options)
        let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [beach, pano])
        #expect(details.hasIncrementalChanges)
        #expect(details.removedObjects.map(\.localIdentifier) == [movie.localIdentifier])
        #expect(details.removedIndexes == IndexSet([before.index(of: movie)]))
        #expect(details.insertedObjects.map(\.localIdentifier) == [fixture.assets["secret.jpg"]!])
        #expect(Set(details.changedObjects.map(\.localIdentifier)) == [beach.localIdentifier, pano.localIdentifier])
        #expect(details.changedIndexes!.allSatisfy { after[$0] == beach || after[$0] == pano })
        var moves: [(Int, Int)] = []
        details.enumerateMoves { moves.append(($0, $1)) }
        #expect(details.hasMoves && moves.count == 1)
        #expect(before[moves[0].0] == pano && after[moves[0].1] == pano)
        #expect(details.removedObjects.first?.duration == 12.5, "the deleted asset as it last was")
    }

    @Test func arrayResultsAreComparedByIdentifier() throws {
        let fixture = try LibraryFixture()
        let a = fixture.asset("beach.jpg")
        let b = fixture.asset("pano.jpg")
        let c = fixture.asset("live.heic")
        let details = PHFetchResultChangeDetails(
            from: PHFetchResult(objects: [a, b]), to: PHFetchResult(objects: [b, c, a]), changedObjects: [])
        #expect(details.removedIndexes!.isEmpty)
        #expect(details.insertedIndexes == IndexSet([1]))
        #expect(details.hasMoves)
    }
}
