import Foundation
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// One file of an asset of several (a Live Photo's still, a RAW+JPEG pair's JPEG or RAW, a burst's
/// representative) leaves the disk: what is left is grouped anew, keeping the asset and its
/// identifier, and the change log says the asset changed.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct GroupMemberRemovalTests {
    let directory: TemporaryDirectory
    let pictures: URL
    let library: PHPhotoLibrary

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-group-removal")
        pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
    }

    func add(_ corpusPath: String, as name: String? = nil) throws {
        let source = try #require(Corpus.file(corpusPath))
        try FileManager.default.copyItem(
            at: source, to: pictures.appendingPathComponent(name ?? source.lastPathComponent))
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: pictures.appendingPathComponent(name))
    }

    @discardableResult
    func scan() throws -> ScanReport {
        try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
    }

    /// Every asset, hidden and burst frames included.
    func assets() -> [PHAsset] {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let result = PHAsset.fetchAssets(with: options)
        return result.objects(at: IndexSet(integersIn: 0..<result.count))
    }

    func types(_ asset: PHAsset) -> [PHAssetResourceType] {
        PHAssetResource.assetResources(for: asset).map(\.type)
    }

    /// The assets the change log says were updated after `token`, by identifier, with their properties.
    func updated(after token: Int64) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        for entry in try library.database.changes(after: token) {
            for id in entry.asset.updated { found[id, default: []] += entry.asset.changedProperties[id] ?? [] }
        }
        return found
    }

    @Test func aLivePhotosMovieWithoutItsStillIsTheSameAssetAsAVideo() throws {
        try add("Phone/DCIM/100APPLE/IMG_5195.HEIC")
        try add("Phone/DCIM/100APPLE/IMG_5195.MOV")
        try scan()
        let live = try #require(assets().first)
        #expect(assets().count == 1 && live.mediaSubtypes.contains(.photoLive))
        #expect(types(live) == [.photo, .pairedVideo])
        let token = try library.database.currentToken()

        try remove("IMG_5195.HEIC")
        try scan()
        let left = try #require(assets().first)
        #expect(assets().count == 1)
        #expect(left.localIdentifier == live.localIdentifier, "the asset, its identifier and state, stay")
        #expect(left.mediaType == .video && !left.mediaSubtypes.contains(.photoLive))
        #expect(types(left) == [.video])
        #expect(left.duration > 0, "the movie was read again: \(left.duration)")
        #expect(try updated(after: token)[live.localIdentifier]?.contains("resources") == true)
    }

    @Test func eachHalfOfARAWAndJPEGPairLeftAloneIsAPhoto() throws {
        try add("Camera/RAW/IMG_0350.CR2")
        try add("Camera/2008/Misc/Canon_40D.jpg", as: "IMG_0350.JPG")
        try scan()
        let pair = try #require(assets().first)
        #expect(assets().count == 1 && types(pair) == [.photo, .alternatePhoto])
        var token = try library.database.currentToken()

        try remove("IMG_0350.CR2")
        try scan()
        var left = try #require(assets().first)
        #expect(left.localIdentifier == pair.localIdentifier && types(left) == [.photo])
        #expect(try updated(after: token)[pair.localIdentifier]?.contains("resources") == true)

        // Back, then the JPEG goes: the RAW is the photo.
        try add("Camera/RAW/IMG_0350.CR2")
        try scan()
        #expect(types(try #require(assets().first)) == [.photo, .alternatePhoto])
        token = try library.database.currentToken()
        try remove("IMG_0350.JPG")
        try scan()
        left = try #require(assets().first)
        #expect(assets().count == 1 && left.localIdentifier == pair.localIdentifier)
        let resources = PHAssetResource.assetResources(for: left)
        #expect(resources.map(\.type) == [.photo] && resources.first?.originalFilename == "IMG_0350.CR2")
        #expect(try updated(after: token)[pair.localIdentifier]?.contains("resources") == true)
    }

    @Test func aBurstWhoseRepresentativeWentIsRepresentedByItsEarliestFrameLeft() throws {
        for frame in 1...4 { try add("Phone/DCIM/100APPLE/IMG_300\(frame).JPG") }
        try scan()
        let frames = assets()
        #expect(frames.count == 4 && frames.filter(\.representsBurst).count == 1)
        #expect(frames[0].representsBurst, "the earliest")

        try remove("IMG_3001.JPG")
        try scan()
        let left = assets()
        #expect(left.count == 3)
        #expect(left.map(\.representsBurst) == [true, false, false], "\(left.map(\.representsBurst))")
        let options = PHFetchOptions()
        options.photoLibrary = library
        #expect(PHAsset.fetchAssets(with: options).count == 1, "a default fetch shows the burst")
    }
}
