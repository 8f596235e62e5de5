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

    /// Writes `text` over a file of the folder, in place (same name): what a broken copy or another
    /// program's mistake leaves.
    func overwrite(_ name: String, with text: String) throws {
        try Data(text.utf8).write(to: pictures.appendingPathComponent(name))
    }

    @Test func aPairWhoseMainFileIsNoLongerAPhotoKeepsItsOtherFileAsTheSameAsset() throws {
        // In a folder of the root: its album.
        try FileManager.default.createDirectory(
            at: pictures.appendingPathComponent("A"), withIntermediateDirectories: true)
        try add("Phone/DCIM/100APPLE/IMG_5195.HEIC", as: "A/IMG_5195.HEIC")
        try add("Phone/DCIM/100APPLE/IMG_5195.MOV", as: "A/IMG_5195.MOV")
        try add("Camera/RAW/IMG_0350.CR2", as: "A/IMG_0350.CR2")
        try add("Camera/2008/Misc/Canon_40D.jpg", as: "A/IMG_0350.JPG")
        try scan()
        let before = assets()
        #expect(before.count == 2)
        let live = try #require(before.first { $0.mediaSubtypes.contains(.photoLive) })
        let pair = try #require(before.first { types($0) == [.photo, .alternatePhoto] })
        let options = PHFetchOptions()
        options.photoLibrary = library
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options).first {
                $0.localizedTitle == "A"
            })
        #expect(PHAsset.fetchAssets(in: album, options: options).count == 2)
        let token = try library.database.currentToken()

        try overwrite("A/IMG_5195.HEIC", with: "not a photo any more")
        try overwrite("A/IMG_0350.JPG", with: "x")
        let report = try scan()
        #expect(report.rejected == 2, "\(report)")
        let left = assets()
        #expect(left.count == 2)
        let movie = try #require(left.first { $0.localIdentifier == live.localIdentifier }, "the same asset")
        #expect(movie.mediaType == .video && !movie.mediaSubtypes.contains(.photoLive) && types(movie) == [.video])
        let raw = try #require(left.first { $0.localIdentifier == pair.localIdentifier }, "the same asset")
        #expect(
            types(raw) == [.photo] && PHAssetResource.assetResources(for: raw).first?.originalFilename == "IMG_0350.CR2"
        )
        #expect(try updated(after: token)[live.localIdentifier]?.contains("resources") == true)
        // Both stay in their folder's album.
        let members = PHAsset.fetchAssets(in: album, options: options).map(\.localIdentifier)
        #expect(Set(members) == Set(left.map(\.localIdentifier)), "\(members)")
    }

    @Test func aBurstFrameReplacedByAnotherPhotoHandsOnItsRepresentation() throws {
        for frame in 1...4 { try add("Phone/DCIM/100APPLE/IMG_300\(frame).JPG") }
        try scan()
        #expect(assets().first?.representsBurst == true)

        // The representative's name now holds a photo of no burst.
        try remove("IMG_3001.JPG")
        try add("Camera/2008/Misc/Canon_40D.jpg", as: "IMG_3001.JPG")
        try scan()
        let all = assets()
        #expect(all.count == 4)
        let replaced = try #require(
            all.first { PHAssetResource.assetResources(for: $0).first?.originalFilename == "IMG_3001.JPG" })
        #expect(replaced.burstIdentifier == nil && !replaced.representsBurst)
        let frames = all.filter { $0.burstIdentifier != nil }
        #expect(frames.count == 3 && frames.filter(\.representsBurst).count == 1, "\(frames.map(\.representsBurst))")
        let options = PHFetchOptions()
        options.photoLibrary = library
        #expect(PHAsset.fetchAssets(with: options).count == 2, "the burst, and the photo now at its name")
    }
}
