import Foundation
import PhotosCore
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// The asset JSON and the predicate language speak one vocabulary: every key the JSON writes is a
/// predicate key, and every name it writes for a media type or a subtype selects, in a predicate,
/// the assets the JSON gave that name.
@Suite struct PredicateVocabularyTests {
    /// Keys of the JSON that are no predicate key, and why: lists of objects, and a state of the
    /// roots at the time of reading rather than a value of the asset.
    static let notKeys: Set<String> = ["resources", "albums", "isAvailable"]

    @Test func everyKeyAndNameTheAssetJSONWritesIsUnderstoodByPredicates() throws {
        let directory = try TemporaryDirectory(prefix: "predicate-vocabulary")
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        var ids: [Int64] = []
        _ = try database.write { transaction in
            for (index, type) in PHAssetMediaType.allCases.enumerated() {
                var asset = AssetRecord(localIdentifier: "A\(index)/L0/001", mediaType: type)
                // Each subtype bit on one asset or another, all of them on the first.
                asset.mediaSubtypes =
                    index == 0 ? Int64(PHAssetMediaSubtype.named.reduce(0) { $0 | $1.subtype.rawValue }) : 0
                asset.creationDate = 1_700_000_000
                asset.latitude = index == 0 ? 48.85 : nil
                asset.longitude = index == 0 ? 2.35 : nil
                let file = ResourceRecord(
                    assetId: 0, type: 1, path: "/pictures/IMG_\(index).JPG", uniformTypeIdentifier: "public.jpeg",
                    mimeType: "image/jpeg", fileSize: 1, originalFilename: "IMG_\(index).JPG")
                ids.append(try transaction.insertAsset(asset, resources: [file]))
            }
        }
        let descriptions = try DescriptionReader(database: database, timeZone: .gmt).assets(.rowIDs(ids))
        let objects = try descriptions.map {
            try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) as? [String: Any])
        }

        /// The identifiers of the assets a predicate selects, through the store's SQL.
        func selected(_ format: String) throws -> Set<String> {
            var query = AssetQuery()
            query.filter = try PhotoKitPredicate(format: format, arguments: []).sql(
                for: .asset, column: AssetQuery.column(for:))
            query.includeHidden = true
            query.includeAllBursts = true
            let rows = try database.assetIDs(matching: query)
            return Set(try DescriptionReader(database: database).assets(.rowIDs(rows)).map(\.localIdentifier))
        }

        let keys = Set(objects.flatMap(\.keys))
        #expect(keys.isSuperset(of: Self.notKeys), "a key left out that the JSON no longer writes")
        for key in keys.subtracting(Self.notKeys).sorted() {
            #expect(PredicateSchema.asset.key(named: key) != nil, "the JSON writes \(key); predicates do not know it")
            #expect(throws: Never.self, "\(key)") { _ = try selected("\(key) != nil") }
        }
        for object in objects {
            let identifier = try #require(object["localIdentifier"] as? String)
            let type = try #require(object["mediaType"] as? String)
            #expect(try selected("mediaType == \"\(type)\"") == [identifier], "mediaType \(type)")
            #expect(try selected("mediaType == \(type)") == [identifier], "bare \(type)")
            for subtype in try #require(object["mediaSubtypes"] as? [String]) {
                #expect(try selected("mediaSubtypes CONTAINS \"\(subtype)\"") == [identifier], "subtype \(subtype)")
            }
            let name = try #require((object["resources"] as? [[String: Any]])?.first?["path"] as? String)
            #expect(try selected("filename == \"\((name as NSString).lastPathComponent)\"") == [identifier])
        }
        // Every subtype name was written (by the first asset), so every one was tried.
        #expect((objects[0]["mediaSubtypes"] as? [String])?.count == PHAssetMediaSubtype.named.count)
        #expect(Set(objects.compactMap { $0["mediaType"] as? String }).count == PHAssetMediaType.allCases.count)
        // The place: within 5 km of Notre-Dame is the first asset, the one with a location.
        #expect(try selected("distanceToLocation(location, 48.853, 2.3499) < 5") == ["A0/L0/001"])
        #expect(try selected("location == nil").count == PHAssetMediaType.allCases.count - 1)
    }
}
