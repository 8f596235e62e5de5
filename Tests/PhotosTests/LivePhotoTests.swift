import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// `requestLivePhoto`, `PHLivePhoto` and its resources, on the corpus' Live Photo pair.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct LivePhotoTests {
    static let still = Corpus.file("Phone/DCIM/100APPLE/IMG_5195.HEIC")!  // 2566x3313 displayed
    static let movie = Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV")!
    static let photo = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!

    let library: FileAssetLibrary
    let manager = PHImageManager()

    init() throws {
        library = try FileAssetLibrary(files: [Self.photo], livePhotos: [(Self.still, Self.movie)])
    }

    /// One delivery's values.
    struct Delivery: Sendable {
        let size: CGSize?
        let imageSize: CGSize?
        let photoURL: URL?
        let videoURL: URL?
        let resourceTypes: [PHAssetResourceType]
        let degraded: Bool
        let cancelled: Bool
        let error: PHPhotosError?

        init(_ livePhoto: PHLivePhoto?, _ info: [AnyHashable: Any]?, degradedKey: String, errorKey: String) {
            size = livePhoto?.size
            imageSize = livePhoto?.image.size
            photoURL = livePhoto?.photoURL
            videoURL = livePhoto?.videoURL
            resourceTypes = livePhoto.map { PHAssetResource.assetResources(for: $0).map(\.type) } ?? []
            degraded = info?[degradedKey] as? Bool ?? false
            cancelled = info?[PHImageCancelledKey] as? Bool ?? info?[PHLivePhotoInfoCancelledKey] as? Bool ?? false
            error = info?[errorKey] as? PHPhotosError
        }
    }

    final class Collector: Sendable {
        private let all = Mutex<[Delivery]>([])
        private let final = DispatchSemaphore(value: 0)

        func add(_ delivery: Delivery) {
            all.withLock { $0.append(delivery) }
            if !delivery.degraded { final.signal() }
        }

        func wait() throws -> [Delivery] {
            try #require(final.wait(timeout: .now() + 60) == .success, "no final result within a minute")
            // Quiet period: a delivery after the final one would be a bug; nothing to wait on but time.
            Thread.sleep(forTimeInterval: 0.1)
            return all.withLock { $0 }
        }
    }

    func request(_ file: URL, _ options: PHLivePhotoRequestOptions? = nil) throws -> [Delivery] {
        let collector = Collector()
        manager.requestLivePhoto(
            for: library.asset(file), targetSize: CGSize(width: 512, height: 512), contentMode: .aspectFit,
            options: options
        ) { livePhoto, info in
            collector.add(
                Delivery(livePhoto, info, degradedKey: PHImageResultIsDegradedKey, errorKey: PHImageErrorKey))
        }
        return try collector.wait()
    }

    @Test func manyAssetsResourcesReadAtOnceAreEachAssetsOwn() {
        let assets = [library.asset(Self.still), library.asset(Self.photo)]
        let together = PHAssetResource.assetResources(for: assets)
        #expect(together.count == 2)
        for asset in assets {
            let alone = PHAssetResource.assetResources(for: asset)
            let read = together[asset.localIdentifier] ?? []
            #expect(read.map(\.type) == alone.map(\.type))
            #expect(read.map(\.fileURL) == alone.map(\.fileURL))
        }
        #expect(together[assets[0].localIdentifier]?.map(\.type) == [.photo, .pairedVideo])
        #expect(together[assets[0].localIdentifier]?.first?.fileURL.path == Self.still.path)
        #expect(PHAssetResource.assetResources(for: []).isEmpty)
    }

    @Test func opportunisticGivesADegradedLivePhotoThenTheFinalOne() throws {
        let deliveries = try request(Self.still)
        #expect(deliveries.map(\.degraded) == [true, false])
        let final = try #require(deliveries.last)
        #expect(final.size == CGSize(width: 397, height: 512), "2566x3313 fitted into 512")
        #expect(final.imageSize == final.size)
        #expect(final.photoURL == Self.still && final.videoURL == Self.movie)
        #expect(final.resourceTypes == [.photo, .pairedVideo])
        #expect(deliveries.allSatisfy { $0.error == nil && !$0.cancelled })
    }

    @Test func highQualityGivesOneLivePhoto() throws {
        let options = PHLivePhotoRequestOptions()
        options.deliveryMode = .highQualityFormat
        let deliveries = try request(Self.still, options)
        #expect(deliveries.map(\.degraded) == [false])
        #expect(deliveries.first?.size == CGSize(width: 397, height: 512))
    }

    @Test func aStillIsNoLivePhoto() throws {
        let deliveries = try request(Self.photo)
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.size == nil)
        #expect(deliveries.first?.error?.code == .requestNotSupportedForAsset)
    }

    @Test func aMissingMovieIsMissingResource() throws {
        let directory = try TemporaryDirectory(prefix: "photos-live")
        let gone = directory.path("IMG_5195.MOV")
        let library = try FileAssetLibrary(files: [], livePhotos: [(Self.still, gone)])
        let collector = Collector()
        let options = PHLivePhotoRequestOptions()
        options.deliveryMode = .highQualityFormat
        manager.requestLivePhoto(
            for: library.asset(Self.still), targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFit,
            options: options
        ) { livePhoto, info in
            collector.add(Delivery(livePhoto, info, degradedKey: PHImageResultIsDegradedKey, errorKey: PHImageErrorKey))
        }
        let delivery = try #require(try collector.wait().first)
        #expect(delivery.size == nil)
        #expect(delivery.error?.code == .missingResource)
        #expect(delivery.error?.message.contains(gone.path) == true)
    }

    func requestFromFiles(_ urls: [URL], placeholder: UIImage? = nil) throws -> [Delivery] {
        let collector = Collector()
        PHLivePhoto.request(
            withResourceFileURLs: urls, placeholderImage: placeholder, targetSize: CGSize(width: 256, height: 256),
            contentMode: .aspectFill
        ) { livePhoto, info in
            collector.add(
                Delivery(livePhoto, info, degradedKey: PHLivePhotoInfoIsDegradedKey, errorKey: PHLivePhotoInfoErrorKey))
        }
        return try collector.wait()
    }

    @Test func filesMakeALivePhotoInEitherOrder() throws {
        let placeholder = try #require(UIImage(contentsOfFile: Self.photo.path))
        let deliveries = try requestFromFiles([Self.movie, Self.still], placeholder: placeholder)
        #expect(deliveries.map(\.degraded) == [true, false])
        #expect(deliveries.first?.imageSize == placeholder.size)
        let final = try #require(deliveries.last)
        #expect(final.size == CGSize(width: 256, height: 331), "2566x3313 filling 256x256")
        #expect(final.photoURL == Self.still && final.videoURL == Self.movie)
        #expect(final.resourceTypes == [.photo, .pairedVideo])
    }

    @Test func filesThatAreNotOneStillAndOneMovieAreRefused() throws {
        for urls in [
            [Self.still], [Self.still, Self.photo], [Self.movie, Self.movie], [Self.still, Self.movie, Self.photo],
        ] {
            let deliveries = try requestFromFiles(urls)
            #expect(deliveries.count == 1)
            #expect(deliveries.first?.size == nil)
            #expect(deliveries.first?.error?.code == .invalidResource, "\(urls.map(\.lastPathComponent))")
        }
    }
}
