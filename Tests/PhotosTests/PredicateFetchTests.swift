import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The predicate language run for real: each format selects exactly these fixture assets
/// (default options: hidden and collapsed burst members left out; sorted by file name here).
@Suite struct PredicateFetchTests {
    static let d2021 = ISO8601DateFormatter().date(from: "2021-01-01T00:00:00Z")!
    static let d2022 = ISO8601DateFormatter().date(from: "2022-06-01T00:00:00Z")!

    nonisolated(unsafe) static let accepted: [(String, [Any], [String])] = [
        ("favorite == YES", [], ["beach.jpg", "pano.jpg", "slomo.mov"]),
        ("isFavorite == true", [], ["beach.jpg", "pano.jpg", "slomo.mov"]),
        ("mediaType == %d", [PHAssetMediaType.video.rawValue], ["movie.mov", "slomo.mov"]),
        ("mediaType = %ld AND favorite = NO", [2], ["movie.mov"]),
        ("(mediaSubtypes & %d) != 0", [PHAssetMediaSubtype.photoScreenshot.rawValue], ["screen.png"]),
        (
            "(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0",
            [PHAssetMediaSubtype.photoPanorama, PHAssetMediaSubtype.videoHighFrameRate], ["pano.jpg", "slomo.mov"]
        ),
        (
            "creationDate >= %@ AND creationDate < %@", [d2021, d2022],
            ["burst1.jpg", "burst3.jpg", "live.heic", "movie.mov", "screen.png"]
        ),
        (
            "creationDate BETWEEN %@", [[d2021, d2022]],
            ["burst1.jpg", "burst3.jpg", "live.heic", "movie.mov", "screen.png"]
        ),
        ("creationDate == nil", [], ["anim.gif"]),
        ("NOT creationDate == nil AND pixelWidth > 4000", [], ["live.heic", "pano.jpg"]),
        ("pixelWidth < pixelHeight", [], ["screen.png", "sunset.heic"]),
        ("duration > 5.5", [], ["movie.mov"]),
        ("duration BETWEEN {1, 20}", [], ["movie.mov", "slomo.mov"]),
        ("mediaType IN %@", [[2, 3]], ["movie.mov", "slomo.mov"]),
        ("pixelWidth IN {500, 1170}", [], ["anim.gif", "screen.png"]),
        ("burstIdentifier == 'B1'", [], ["burst1.jpg", "burst3.jpg"]),
        ("burstIdentifier != nil", [], ["burst1.jpg", "burst3.jpg"]),
        ("burstIdentifier BEGINSWITH[c] 'b'", [], ["burst1.jpg", "burst3.jpg"]),
        ("burstIdentifier LIKE 'B?'", [], ["burst1.jpg", "burst3.jpg"]),
        ("%K == YES", ["hidden"], []),
        (
            "!(favorite == YES) && mediaType == 1 && (mediaSubtypes & 64) == 0 && pixelWidth >= 4000",
            [], ["burst1.jpg", "burst3.jpg", "live.heic"]
        ),
        (
            "TRUEPREDICATE", [],
            [
                "anim.gif", "beach.jpg", "burst1.jpg", "burst3.jpg", "live.heic", "movie.mov", "pano.jpg", "screen.png",
                "slomo.mov", "sunset.heic",
            ]
        ),
        ("FALSEPREDICATE", [], []),
    ]

    @Test(arguments: 0..<accepted.count)
    func acceptedFormatSelectsTheseAssets(index: Int) throws {
        let (format, arguments, expected) = Self.accepted[index]
        let fixture = try LibraryFixture()
        let options = fixture.options { $0.predicate = NSPredicate(format: format, argumentArray: arguments) }
        try options.validate(for: .asset)
        #expect(fixture.names(PHAsset.fetchAssets(with: options)).sorted() == expected, "\(format)")
    }

    @Test func selfComparesObjects() throws {
        let fixture = try LibraryFixture()
        let pick = [fixture.asset("beach.jpg"), fixture.asset("movie.mov")]
        let options = fixture.options { $0.predicate = NSPredicate(format: "SELF IN %@", pick) }
        #expect(fixture.names(PHAsset.fetchAssets(with: options)).sorted() == ["beach.jpg", "movie.mov"])
        let one = fixture.options { $0.predicate = NSPredicate(format: "SELF == %@", fixture.asset("pano.jpg")) }
        #expect(fixture.names(PHAsset.fetchAssets(with: one)) == ["pano.jpg"])
        let byID = fixture.options {
            $0.predicate = NSPredicate(format: "localIdentifier == %@", fixture.assets["live.heic"]!)
        }
        #expect(fixture.names(PHAsset.fetchAssets(with: byID)) == ["live.heic"])
    }

    /// SQLite takes at most 32,766 placeholders in a statement: a list past that (a limited
    /// client's assets, a program's selection) is bound as one JSON array and still selects.
    @Test func anInListLongerThanSQLitesPlaceholderLimitSelects() throws {
        let fixture = try LibraryFixture()
        let wanted = [fixture.assets["beach.jpg"]!, fixture.assets["movie.mov"]!]
        let identifiers = (0..<40_000).map { "NOT-AN-ASSET-\($0)/L0/001" } + wanted
        let options = fixture.options { $0.predicate = NSPredicate(format: "localIdentifier IN %@", identifiers) }
        #expect(fixture.names(PHAsset.fetchAssets(with: options)).sorted() == ["beach.jpg", "movie.mov"])
        let numbers = fixture.options {
            $0.predicate = NSPredicate(format: "pixelWidth IN %@", [500, 1170] + Array(100_000..<140_000))
        }
        #expect(fixture.names(PHAsset.fetchAssets(with: numbers)).sorted() == ["anim.gif", "screen.png"])
    }

    nonisolated(unsafe) static let rejected: [(String, [Any], String)] = [
        ("foo == 1", [], "unsupported key 'foo'"),
        ("localizedTitle == 'x'", [], "unsupported key 'localizedTitle'"),
        ("mediaType == ", [], "offset"),
        ("mediaType == %d", [], "argument"),
        ("title MATCHES 'a.*'", [], "MATCHES"),
        ("ANY burstIdentifier == 'x'", [], "ANY"),
        ("creationDate > 5", [], "creationDate"),
        ("(favorite == YES", [], "offset"),
        ("location.latitude > 3", [], "location"),
    ]

    @Test(arguments: 0..<rejected.count)
    func rejectedFormatNamesTheProblem(index: Int) throws {
        let (format, arguments, message) = Self.rejected[index]
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: format, argumentArray: arguments)
        let error = #expect(throws: (any Error).self) { try options.validate(for: .asset) }
        #expect(String(describing: error!).contains(message), "\(format): \(String(describing: error!))")
    }

    /// SQLite refuses expressions deeper than 1000; 5 000 terms must still select the right rows.
    @Test(arguments: ["OR", "AND"])
    func fiveThousandTermChainsFetchTheRightAssets(keyword: String) throws {
        let fixture = try LibraryFixture()
        let format: String
        let expected: [String]
        if keyword == "OR" {
            // 4 998 widths no fixture has (all are below 10 000), then the two that match.
            format =
                ((1..<4_999).map { "pixelWidth == \(10_000 + $0)" } + ["pixelWidth == 1170", "pixelWidth == 8000"])
                .joined(separator: " OR ")
            expected = ["pano.jpg", "screen.png"]
        } else {
            // Every term up to pixelWidth > 1199 must hold: out go screen.png (1170) and anim.gif (500).
            format = (0..<5_000).map { "pixelWidth > \($0 % 1200)" }.joined(separator: " AND ")
            expected = [
                "beach.jpg", "burst1.jpg", "burst3.jpg", "live.heic", "movie.mov", "pano.jpg", "slomo.mov",
                "sunset.heic",
            ]
        }
        let options = fixture.options { $0.predicate = NSPredicate(format: format) }
        try options.validate(for: .asset)
        #expect(fixture.names(PHAsset.fetchAssets(with: options)).sorted() == expected)
    }

    @Test func predicateNestedThousandsDeepIsAnErrorNotACrash() throws {
        let options = PHFetchOptions()
        let format = String(repeating: "(", count: 2_000) + "favorite == YES" + String(repeating: ")", count: 2_000)
        options.predicate = NSPredicate(format: format)
        let error = #expect(throws: (any Error).self) { try options.validate(for: .asset) }
        #expect(String(describing: error!).contains("offset 64"), "\(String(describing: error!))")
    }

    @Test func sortKeysAreCheckedPerClass() {
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "localizedTitle", ascending: true)]
        #expect(throws: (any Error).self) { try options.validate(for: .asset) }
        #expect(throws: Never.self) { try options.validate(for: .assetCollection) }
    }

    @Test func invalidPredicateStopsAFetchAsPhotoKitRaises() async {
        await #expect(processExitsWith: .failure) {
            let options = PHFetchOptions()
            options.photoLibrary = try! PHPhotoLibrary(inMemoryWith: .init())
            options.predicate = NSPredicate(format: "nonsense == 1")
            _ = PHAsset.fetchAssets(with: options)
        }
    }
}
