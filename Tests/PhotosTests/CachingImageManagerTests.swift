import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// PHCachingImageManager on corpus photos: images made ahead answer requests at once, in full.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CachingImageManagerTests {
    typealias Collector = ImageManagerTests.Collector
    static let camera = ImageManagerTests.camera  // 640x480, with a 160x120 EXIF thumbnail
    static let size = CGSize(width: 600, height: 600)

    /// Waits (bounded) until the manager holds `count` images.
    func until(_ manager: PHCachingImageManager, holds count: Int) throws {
        try blockUntil("the cache to hold \(count) images (holds \(manager.cachedImageCount))") {
            manager.cachedImageCount == count
        }
    }

    func request(_ manager: PHImageManager, _ asset: PHAsset) throws -> [ImageManagerTests.Delivery] {
        let collector = Collector()
        manager.requestImage(
            for: asset, targetSize: Self.size, contentMode: .aspectFit, options: nil, resultHandler: collector.handler)
        return try collector.wait()
    }

    @Test func aCachedImageAnswersAnOpportunisticRequestAtOnceInFull() throws {
        let library = try FileAssetLibrary(files: [Self.camera])
        let asset = library.asset(Self.camera)
        let manager = PHCachingImageManager()
        // Uncached, opportunistic delivery is a degraded preview, then the final image.
        #expect(try request(manager, asset).map(\.degraded) == [true, false])

        manager.startCachingImages(for: [asset], targetSize: Self.size, contentMode: .aspectFit, options: nil)
        try until(manager, holds: 1)
        let cached = try request(manager, asset)
        #expect(cached.map(\.degraded) == [false], "one final image, no preview first")
        #expect(cached.first?.size == CGSize(width: 600, height: 450))
        // Another size or mode is another image.
        let collector = Collector()
        manager.requestImage(
            for: asset, targetSize: Self.size, contentMode: .aspectFill, options: nil, resultHandler: collector.handler)
        #expect(try collector.wait().map(\.degraded) == [true, false])

        manager.stopCachingImages(for: [asset], targetSize: Self.size, contentMode: .aspectFit, options: nil)
        #expect(manager.cachedImageCount == 0)
        #expect(try request(manager, asset).map(\.degraded) == [true, false])
    }

    @Test func aChangedFileIsNotServedFromTheCache() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.path("photo.jpg")
        try FileManager.default.copyItem(at: Self.camera, to: copy)
        let library = try FileAssetLibrary(files: [copy])
        let asset = library.asset(copy)
        let manager = PHCachingImageManager()
        manager.startCachingImages(for: [asset], targetSize: Self.size, contentMode: .aspectFit, options: nil)
        try until(manager, holds: 1)
        // The file is replaced by a portrait picture (the test's own copy, not a user's file).
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: ImageManagerTests.portrait, to: copy)
        let deliveries = try request(manager, asset)
        #expect(manager.cachedImageCount == 0, "the stale image was dropped")
        #expect(deliveries.last?.size == CGSize(width: 450, height: 600), "the new picture, not the cached one")
    }

    @Test func theLeastRecentlyUsedGoFirstAndStopForAllEmptiesIt() throws {
        let charts = (1...3).map(ImageManagerTests.chart)
        let library = try FileAssetLibrary(files: charts)
        let assets = charts.map(library.asset)
        let small = CGSize(width: 64, height: 64)
        // Room for about one image: learn its size from an unbounded cache first.
        let probe = PHCachingImageManager()
        probe.startCachingImages(for: [assets[0]], targetSize: small, contentMode: .aspectFit, options: nil)
        try until(probe, holds: 1)
        let bytes = try #require(
            probe.cachedImage(
                of: assets[0],
                ImagePlan(
                    targetSize: small, contentMode: .aspectFit, options: PHImageRequestOptions()
                ).request)
        ).data.count
        let manager = PHCachingImageManager(maximumBytes: bytes + bytes / 2)
        let request = ImagePlan(targetSize: small, contentMode: .aspectFit, options: PHImageRequestOptions()).request
        for asset in assets {
            manager.startCachingImages(for: [asset], targetSize: small, contentMode: .aspectFit, options: nil)
            try blockUntil("\(asset.localIdentifier) to be cached") { manager.cachedImage(of: asset, request) != nil }
            #expect(manager.cachedImageCount == 1, "room for one: the one before went")
        }
        #expect(manager.cachedImage(of: assets[2], request) != nil, "the newest is kept")
        #expect(manager.cachedImage(of: assets[0], request) == nil, "the oldest went first")
        manager.stopCachingImagesForAllAssets()
        #expect(manager.cachedImageCount == 0)
    }
}
