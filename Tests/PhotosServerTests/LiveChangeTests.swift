import Foundation
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// A live query of several fetch results (albums without `type`: regular albums, then smart ones)
/// sends one record per change for the whole list. Random changes of each section, with the
/// records a client applies, against the lists after them.
@Suite struct LiveChangeTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aClientApplyingTheJoinedDetailsHoldsTheSectionsAfterTheChange(seed: UInt64) throws {
        let fixture = try LibraryFixture()
        try fixture.library.performChangesAndWait {
            for title in ["A", "B", "C", "D", "E", "F"] {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            }
        }
        // Two pools of albums no section shares, as regular and smart albums are.
        let regular = Array(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: fixture.options()))
        let smart = Array(
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: fixture.options()))
        try #require(regular.count >= 6 && smart.count >= 4)
        var random = SplitMix64(seed: seed)
        func subset(_ pool: [PHAssetCollection]) -> [PHAssetCollection] {
            var shuffled = pool
            for index in shuffled.indices.reversed() where index > 0 {
                shuffled.swapAt(index, Int(random.next() % UInt64(index + 1)))
            }
            return Array(shuffled.prefix(Int(random.next() % UInt64(pool.count + 1))))
        }
        var sawMoves = false
        for _ in 0..<200 {
            var sections:
                [(before: PHFetchResult<PHAssetCollection>, details: PHFetchResultChangeDetails<PHAssetCollection>?)] =
                    []
            var after: [PHFetchResult<PHAssetCollection>] = []
            var changed: Set<String> = []
            for pool in [regular, smart] {
                let before = PHFetchResult(objects: subset(pool))
                // A section the change leaves alone has no details.
                guard random.next() % 4 != 0 else {
                    sections.append((before, nil))
                    after.append(before)
                    continue
                }
                let now = PHFetchResult(objects: subset(pool))
                let stayed = now.filter(before.contains).filter { _ in random.next() % 3 == 0 }
                changed.formUnion(stayed.map(\.localIdentifier))
                let details = PHFetchResultChangeDetails(from: before, to: now, changedObjects: stayed)
                sawMoves = sawMoves || details.hasMoves
                sections.append((before, details))
                after.append(now)
            }
            let change = LiveChange(sections)
            let bytes = try LiveQueryRoutes.diff(change, after: after, .albums, token: 7)
            let record = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            var held = sections.flatMap { $0.before.map(\.localIdentifier) }
            try LiveQueryTests.apply(record, to: &held, listing: "albums", object: "album")
            #expect(held == after.flatMap { $0.map(\.localIdentifier) }, "\(String(decoding: bytes, as: UTF8.self))")
            let sentChanged = try #require(record["changed"] as? [[String: Any]]).compactMap {
                ($0["album"] as? [String: Any])?["localIdentifier"] as? String
            }
            #expect(Set(sentChanged) == changed && sentChanged.count == changed.count)
            #expect(record["count"] as? Int == held.count && record["token"] as? Int == 7)
        }
        #expect(sawMoves, "the changes moved some albums")
    }
}
