import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `value(forKey:)` on resources, assets and collections of the scanned corpus: the keys programs
/// read, answered with the types Apple's runtime gives, so their casts work unchanged.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and truth.json"))
struct KeyValueTests {
    struct Truth: Decodable {
        let path: String
        let expect: String
        let size: Int64
    }

    /// The casts programs apply to a resource's `fileSize`, each giving the size back as Int64.
    static let fileSizeCasts: [(name: String, cast: @Sendable (Any?) -> Int64?)] = [
        ("Int64", { $0 as? Int64 }),
        ("Int", { ($0 as? Int).map(Int64.init) }),
        ("CLong", { ($0 as? CLong).map(Int64.init) }),
        ("UInt64", { ($0 as? UInt64).map { Int64(bitPattern: $0) } }),
        ("Double", { ($0 as? Double).map { Int64($0) } }),
        ("NSNumber", { ($0 as? NSNumber)?.int64Value }),
    ]

    @Test func everyCorpusResourceAnswersItsFileSizeToEveryCastProgramsUse() throws {
        let truthURL = Corpus.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/truth.json")
        let truth = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: truthURL))
        let files = try ScannedCorpus().files
        var problems: [String] = []
        var checked = 0
        for file in truth where file.expect == "ingest" {
            guard let (resource, _) = files[file.path] else { continue }
            checked += 1
            let value = resource.value(forKey: "fileSize")
            for (name, cast) in Self.fileSizeCasts where cast(value) != file.size {
                problems.append("\(file.path): as? \(name) gives \(String(describing: cast(value))), not \(file.size)")
            }
        }
        #expect(checked > 80, "the corpus' ingested files were found")
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(12).joined(separator: "\n"))")
    }

    @Test func resourceKeysAnswerWithTheResourcesValues() throws {
        let corpus = try ScannedCorpus()
        let (photo, asset) = try #require(corpus.files["Phone/DCIM/100APPLE/IMG_5195.HEIC"])
        let (movie, pairedAsset) = try #require(corpus.files["Phone/DCIM/100APPLE/IMG_5195.MOV"])
        #expect(asset == pairedAsset, "the Live Photo's two files are one asset")

        #expect(photo.value(forKey: "fileSize") as? Int64 == 833_284)
        #expect(movie.value(forKey: "fileSize") as? Int == 95_771)
        #expect(photo.value(forKey: "originalFilename") as? String == "IMG_5195.HEIC")
        #expect(photo.value(forKey: "filename") as? String == "IMG_5195.HEIC")
        #expect(photo.value(forKey: "uniformTypeIdentifier") as? String == "public.heic")
        #expect(photo.value(forKey: "type") as? Int == PHAssetResourceType.photo.rawValue)
        #expect(movie.value(forKey: "type") as? Int == PHAssetResourceType.pairedVideo.rawValue)
        #expect(photo.value(forKey: "assetLocalIdentifier") as? String == asset.localIdentifier)
        #expect(photo.value(forKey: "pixelWidth") as? Int == 2566)
        #expect(photo.value(forKey: "pixelHeight") as? Int == 3313)
        #expect(photo.value(forKey: "locallyAvailable") as? Bool == true)
        #expect(photo.value(forKey: "fileURL") as? URL == photo.fileURL)
        #expect(photo.value(forKey: "privateFileURL") as? URL == photo.fileURL)
        #expect(photo.value(forKey: "noSuchKey") == nil)
    }

    /// An asset's keys, compared with its properties and with the oracle.
    @Test func assetKeysAnswerWithTheAssetsValuesAndNilForWhatItLacks() throws {
        let corpus = try ScannedCorpus()
        let (_, photo) = try #require(corpus.files["Phone/DCIM/100APPLE/IMG_0005.JPG"])
        #expect(photo.value(forKey: "localIdentifier") as? String == photo.localIdentifier)
        #expect(photo.value(forKey: "filename") as? String == "IMG_0005.JPG")
        #expect(photo.value(forKey: "uniformTypeIdentifier") as? String == "public.jpeg")
        #expect(photo.value(forKey: "mediaType") as? Int == PHAssetMediaType.image.rawValue)
        #expect(photo.value(forKey: "mediaSubtypes") as? UInt == photo.mediaSubtypes.rawValue)
        #expect(photo.value(forKey: "sourceType") as? UInt == PHAssetSourceType.typeUserLibrary.rawValue)
        // Orientation 3 (upside down) keeps the stored width and height.
        #expect(photo.value(forKey: "pixelWidth") as? Int == 3264)
        #expect(photo.value(forKey: "pixelHeight") as? Int == 2448)
        #expect(photo.value(forKey: "duration") as? Double == 0)
        #expect(photo.value(forKey: "creationDate") as? Date == photo.creationDate)
        #expect(photo.value(forKey: "creationDate") != nil)
        #expect(photo.value(forKey: "modificationDate") as? Date == photo.modificationDate)
        let location = try #require(photo.value(forKey: "location") as? CLLocation)
        #expect(abs(location.coordinate.latitude - 47.6271667) < 1e-6)
        #expect(abs(location.coordinate.longitude - -122.3373333) < 1e-6)
        for key in ["favorite", "isFavorite", "hidden", "isHidden", "representsBurst", "hasAdjustments"] {
            #expect(photo.value(forKey: key) as? Bool == false, "\(key)")
        }
        #expect(photo.value(forKey: "playbackStyle") as? Int == PHAsset.PlaybackStyle.image.rawValue)
        // Properties with no value answer nil, not a boxed nil.
        #expect(photo.value(forKey: "burstIdentifier") == nil)
        #expect(photo.value(forKey: "adjustmentFormatIdentifier") == nil)
        #expect(photo.value(forKey: "fileSize") == nil, "a resource's key, not an asset's")

        let (_, video) = try #require(corpus.files["Videos/misc/earth.avi"])
        #expect(video.value(forKey: "mediaType") as? Int == PHAssetMediaType.video.rawValue)
        #expect(abs((video.value(forKey: "duration") as? Double ?? 0) - 30.033) < 0.05)
        #expect(video.value(forKey: "location") == nil)
        #expect(video.value(forKey: "filename") as? String == "earth.avi")
    }

    @Test func collectionKeysAnswerWithTheCollectionsValues() throws {
        let corpus = try ScannedCorpus()
        let options = PHFetchOptions()
        options.photoLibrary = corpus.library
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
        let album = try #require(albums.firstObject)
        #expect(album.value(forKey: "localIdentifier") as? String == album.localIdentifier)
        #expect(album.value(forKey: "localizedTitle") as? String == album.localizedTitle)
        #expect(album.value(forKey: "assetCollectionType") as? Int == PHAssetCollectionType.album.rawValue)
        #expect(album.value(forKey: "estimatedAssetCount") as? Int == album.estimatedAssetCount)
        #expect(album.value(forKey: "canContainAssets") as? Bool == true)
        #expect(album.value(forKey: "mediaType") == nil)
    }
}
