import Foundation
import PhotosIngest
import PhotosTestSupport
import Testing

@testable import Photos

/// The Selfies and Screen Recordings smart albums on corpus files a scan reads: a selfie is a
/// phone's front-camera picture (EXIF LensModel), a screen recording a movie that states no camera
/// under a name a system gives its recordings.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct SmartAlbumScanTests {
    // "iPhone 6 back camera 4.15mm f/2.2", no burst
    static let iPhone = Corpus.file("Phone/DCIM/100APPLE/IMG_6100.JPG")!
    static let noCamera = Corpus.file("Videos/misc/small_video.mp4")!
    static let phoneMovie = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!  // Apple iPhone 6

    @Test func selfiesAndScreenRecordingsAreTheirFiles() throws {
        let directory = try TemporaryDirectory(prefix: "photos-smart")
        let pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        // The same photo as a front camera writes it: only the lens's name differs, byte for byte
        // as long ("iPhone 6 back" and "iPhone6 front").
        var selfie = try Data(contentsOf: Self.iPhone)
        let back = Data("iPhone 6 back camera".utf8)
        let front = Data("iPhone6 front camera".utf8)
        var replaced = 0
        while let range = selfie.range(of: back) {
            selfie.replaceSubrange(range, with: front)
            replaced += 1
        }
        try #require(replaced > 0)
        try selfie.write(to: pictures.appendingPathComponent("IMG_6110.JPG"))
        try FileManager.default.copyItem(at: Self.iPhone, to: pictures.appendingPathComponent("IMG_6100.JPG"))
        try FileManager.default.copyItem(
            at: Self.noCamera, to: pictures.appendingPathComponent("Screen Recording 2024-01-05 at 10.11.12.mp4"))
        // A camera's movie under a recording's name stays a movie.
        try FileManager.default.copyItem(
            at: Self.phoneMovie, to: pictures.appendingPathComponent("RPReplay_Final1609459200.MOV"))
        try FileManager.default.copyItem(at: Self.noCamera, to: pictures.appendingPathComponent("holiday.mp4"))

        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        let options = PHFetchOptions()
        options.photoLibrary = library

        func members(_ subtype: PHAssetCollectionSubtype) throws -> [String] {
            let album = try #require(
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: subtype, options: options)
                    .firstObject)
            return PHAsset.fetchAssets(in: album, options: options)
                .map { PHAssetResource.assetResources(for: $0)[0].originalFilename }.sorted()
        }
        #expect(try members(.smartAlbumSelfPortraits) == ["IMG_6110.JPG"])
        #expect(try members(.smartAlbumScreenRecordings) == ["Screen Recording 2024-01-05 at 10.11.12.mp4"])
        #expect(try members(.smartAlbumVideos).count == 3)
        let recording = try #require(
            PHAsset.fetchAssets(with: .video, options: options).first {
                $0.mediaSubtypes.contains(.videoScreenRecording)
            })
        #expect(PHAssetResource.assetResources(for: recording)[0].originalFilename.hasPrefix("Screen Recording"))
        let titles = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options)
            .map(\.localizedTitle)
        #expect(titles.contains("Selfies") && titles.contains("Screen Recordings"))
    }
}
