import Foundation
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import Photos

/// Star ratings (`PHAsset.rating`, SDK 27): read from the files a scan finds, set through change
/// requests, kept across rescans, fetched by predicate and sort, and in the asset JSON.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RatingTests {
    /// digiKam wrote 4 stars into it (`xmp:Rating` and EXIF's Rating tag).
    static let rated = Corpus.file("Phone/DCIM/Camera/IMG_20201017_174824.jpg")!
    /// `xmp:Rating` 0.
    static let unrated = Corpus.file("Camera/2008/Nikon D3/DSC_0815.JPG")!
    /// No rating at all.
    static let plain = Corpus.file("Test charts/Orientation/landscape_1.jpg")!

    @Test func starsComeFromTheFileAndTheUserAndSurviveARescan() throws {
        let directory = try TemporaryDirectory(prefix: "photos-rating")
        let pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        for file in [Self.rated, Self.unrated, Self.plain] {
            try FileManager.default.copyItem(at: file, to: pictures.appendingPathComponent(file.lastPathComponent))
        }
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        let scanner = FolderScanner(database: library.database, quietTime: 0)
        _ = try scanner.scan(roots: [pictures.path])

        func assets(_ format: String? = nil, sortedByRating: Bool = false) -> [String: PHAssetRating] {
            let options = PHFetchOptions()
            options.photoLibrary = library
            if let format { options.predicate = NSPredicate(format: format) }
            let result = PHAsset.fetchAssets(with: options)
            return Dictionary(
                uniqueKeysWithValues: result.map {
                    (PHAssetResource.assetResources(for: $0)[0].originalFilename, $0.rating)
                })
        }
        #expect(assets() == ["IMG_20201017_174824.jpg": .four, "DSC_0815.JPG": .unset, "landscape_1.jpg": .unset])

        let plain = try #require(
            PHAsset.fetchAssets(
                with: {
                    let options = PHFetchOptions()
                    options.photoLibrary = library
                    options.predicate = NSPredicate(format: "rating == 0")
                    options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
                    return options
                }()
            ).first { PHAssetResource.assetResources(for: $0)[0].originalFilename == "landscape_1.jpg" })
        try library.performChangesAndWait { PHAssetChangeRequest(for: plain).rating = .two }
        #expect(assets("rating >= 2") == ["IMG_20201017_174824.jpg": .four, "landscape_1.jpg": .two])

        // Sorted by stars, most first.
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.sortDescriptors = [NSSortDescriptor(key: "rating", ascending: false)]
        #expect(PHAsset.fetchAssets(with: options).map(\.rating) == [.four, .two, .unset])

        // A rescan (one file touched, so it is read again) keeps the user's stars on a file that
        // states none, and takes the stars a file states.
        let touched = pictures.appendingPathComponent("landscape_1.jpg")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -30)], ofItemAtPath: touched.path)
        _ = try scanner.scan(roots: [pictures.path])
        #expect(assets() == ["IMG_20201017_174824.jpg": .four, "DSC_0815.JPG": .unset, "landscape_1.jpg": .two])

        // The asset JSON says so.
        let described = try DescriptionReader(database: library.database).assets(
            .localIdentifiers([
                plain.localIdentifier
            ]))
        #expect(described.first?.rating == 2)
    }
}
