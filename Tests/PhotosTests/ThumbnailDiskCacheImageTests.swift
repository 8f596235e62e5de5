import Foundation
import PhotosImaging
import PhotosTestSupport
import Testing

@testable import Photos

/// Image requests through the library's disk cache (`Configuration.thumbnailCacheDirectory`): an
/// image made by one manager and library is served to another, as after a restart, at once and
/// in full; a changed file is rendered again; without a directory nothing is written.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ThumbnailDiskCacheImageTests {
    typealias Collector = ImageManagerTests.Collector
    let directory: TemporaryDirectory
    let photo: URL
    var cache: String { directory.path("thumbnails").path }
    static let size = CGSize(width: 256, height: 256)

    init() throws {
        directory = try TemporaryDirectory(prefix: "disk-cache-images")
        // The test's own copy: it is rewritten below, and its stamp is new each run.
        photo = directory.path("photo.jpg")
        try FileManager.default.copyItem(at: ImageManagerTests.camera, to: photo)
    }

    func request(
        _ manager: PHImageManager, _ asset: PHAsset, _ mode: PHImageRequestOptionsDeliveryMode = .opportunistic
    )
        throws -> [ImageManagerTests.Delivery]
    {
        let options = PHImageRequestOptions()
        options.deliveryMode = mode
        let collector = Collector(decode: true)
        manager.requestImage(
            for: asset, targetSize: Self.size, contentMode: .aspectFill, options: options,
            resultHandler: collector.handler)
        return try collector.wait()
    }

    func entries() -> [String] {
        (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".thumb") }
    }

    @Test func anImageMadeInOneRunIsServedInTheNextAtOnce() throws {
        let counts = ThumbnailDiskCache.shared(directory: cache, maximumBytes: 512 << 20)
        let first = try FileAssetLibrary(files: [photo], directory: directory, thumbnailCache: cache)
        let made = try request(PHImageManager(), first.asset(photo))
        #expect(made.map(\.degraded) == [true, false], "rendered: a preview, then the final image")
        #expect(entries().count == 1 && counts.counts.writes == 1)

        // Another library object and manager over the same files: what a restart sees.
        let second = try FileAssetLibrary(
            files: [photo], directory: try TemporaryDirectory(prefix: "disk-cache-again"), thumbnailCache: cache)
        let served = try request(PHImageManager(), second.asset(photo))
        #expect(served.map(\.degraded) == [false], "served from disk: one final image, no preview")
        #expect(counts.counts.hits == 1)
        #expect(served.first?.size == made.last?.size && served.first?.size == CGSize(width: 341, height: 256))
        #expect(served.first?.pixels == made.last?.pixels, "the same picture")
        // A fast request is served the kept image too (nothing is faster), but a fast preview is not kept.
        let fast = try request(PHImageManager(), second.asset(photo), .fastFormat)
        #expect(fast.count == 1 && fast.first?.size == served.first?.size && counts.counts.hits == 2)
        let other = try FileAssetLibrary(
            files: [photo], directory: try TemporaryDirectory(prefix: "disk-cache-fast"), thumbnailCache: cache)
        let options = PHImageRequestOptions()
        options.deliveryMode = .fastFormat
        let collector = Collector(decode: false)
        PHImageManager().requestImage(
            for: other.asset(photo), targetSize: CGSize(width: 100, height: 100), contentMode: .aspectFit,
            options: options, resultHandler: collector.handler)
        #expect(try collector.wait().first?.size == CGSize(width: 100, height: 75))
        #expect(entries().count == 1)
    }

    @Test func aRewrittenFileIsRenderedAgain() throws {
        let library = try FileAssetLibrary(files: [photo], directory: directory, thumbnailCache: cache)
        let before = try request(PHImageManager(), library.asset(photo), .highQualityFormat)
        #expect(before.last?.size == CGSize(width: 341, height: 256))
        // The test's copy becomes a portrait picture: the landscape thumbnail must not come back.
        try FileManager.default.removeItem(at: photo)
        try FileManager.default.copyItem(at: ImageManagerTests.portrait, to: photo)
        let after = try request(PHImageManager(), library.asset(photo), .highQualityFormat)
        #expect(after.last?.size == CGSize(width: 256, height: 341))
        #expect(entries().count == 2)
    }

    @Test func withoutADirectoryNothingIsWritten() throws {
        let library = try FileAssetLibrary(files: [photo], directory: directory, thumbnailCache: nil)
        #expect(library.library.thumbnailCache == nil)
        _ = try request(PHImageManager(), library.asset(photo), .highQualityFormat)
        #expect(!FileManager.default.fileExists(atPath: cache))
    }

    /// The caching manager's background images come from the disk when another run made them.
    @Test func theCachingManagerReadsTheDiskCacheFirst() throws {
        let counts = ThumbnailDiskCache.shared(directory: cache, maximumBytes: 512 << 20)
        let library = try FileAssetLibrary(files: [photo], directory: directory, thumbnailCache: cache)
        _ = try request(PHImageManager(), library.asset(photo), .highQualityFormat)
        let hits = counts.counts.hits
        let manager = PHCachingImageManager()
        manager.startCachingImages(
            for: [library.asset(photo)], targetSize: Self.size, contentMode: .aspectFill, options: nil)
        try blockUntil("the caching manager to hold the image") { manager.cachedImageCount == 1 }
        #expect(counts.counts.hits == hits + 1)
    }
}
