import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// PHImageManager's video requests (`requestAVAsset`, `requestPlayerItem`, `requestExportSession`)
/// and video poster frames, on the corpus' movies.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct VideoRequestTests {
    static let portrait = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!  // 568x320 stored, turned 90°, 4.0 s
    static let hevc = Corpus.file("Phone/DCIM/101APPLE/IMG_1500.MOV")!  // 1280x720 stored, turned 90°
    static let avi = Corpus.file("Videos/misc/earth.avi")!  // 480x270
    static let still = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!

    let library: FileAssetLibrary
    let manager = PHImageManager()

    init() throws {
        library = try FileAssetLibrary(files: [Self.still], videos: [Self.portrait, Self.hevc, Self.avi])
    }

    /// One delivery's values (the info dictionary is not Sendable).
    struct Delivery<Value: Sendable>: Sendable {
        let value: Value?
        let error: PHPhotosError?
        let cancelled: Bool
        let requestID: PHImageRequestID?

        init(_ value: Value?, _ info: [AnyHashable: Any]?) {
            self.value = value
            error = info?[PHImageErrorKey] as? PHPhotosError
            cancelled = info?[PHImageCancelledKey] as? Bool ?? false
            requestID = info?[PHImageResultRequestIDKey] as? PHImageRequestID
        }
    }

    /// Collects deliveries; `wait` returns them once one has come and a moment has passed for any
    /// second one (there must be none).
    final class Deliveries<Value: Sendable>: Sendable {
        private let all = Mutex<[Delivery<Value>]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func add(_ value: Value?, _ info: [AnyHashable: Any]?) {
            all.withLock { $0.append(Delivery(value, info)) }
            arrived.signal()
        }

        func wait() throws -> [Delivery<Value>] {
            try #require(arrived.wait(timeout: .now() + 60) == .success, "no result within a minute")
            // Quiet period: a second delivery would be a bug; nothing to wait on but time.
            Thread.sleep(forTimeInterval: 0.1)
            return all.withLock { $0 }
        }
    }

    /// An `AVAsset`'s values, read on the delivering thread.
    struct Movie: Sendable {
        let url: URL?
        let seconds: Double
        let videoSizes: [CGSize]
        let transforms: [AffineTransform]
        let frameRates: [Float]
        let audioTracks: Int

        init(_ asset: AVAsset) {
            url = (asset as? AVURLAsset)?.url
            seconds = asset.duration.seconds
            let video = asset.tracks(withMediaType: .video)
            videoSizes = video.map(\.naturalSize)
            transforms = video.map(\.preferredTransform)
            frameRates = video.map(\.nominalFrameRate)
            audioTracks = asset.tracks(withMediaType: .audio).count
        }
    }

    func avAsset(_ file: URL, options: PHVideoRequestOptions? = nil) throws -> Delivery<Movie> {
        let deliveries = Deliveries<Movie>()
        manager.requestAVAsset(forVideo: library.asset(file), options: options) { asset, mix, info in
            #expect(mix == nil)
            deliveries.add(asset.map(Movie.init), info)
        }
        let all = try deliveries.wait()
        #expect(all.count == 1, "one delivery")
        return try #require(all.first)
    }

    @Test func avAssetGivesTheFileItsDurationAndTracks() throws {
        let movie = try #require(try avAsset(Self.portrait).value)
        #expect(movie.url == Self.portrait)
        #expect(abs(movie.seconds - 4.002) < 0.01, "\(movie.seconds)")
        // AVFoundation's shape: the stored size, and the quarter turn as the preferred transform.
        #expect(movie.videoSizes == [CGSize(width: 568, height: 320)])
        #expect(movie.transforms == [AffineTransform(m11: 0, m12: 1, m21: -1, m22: 0, tX: 320, tY: 0)])
        #expect(abs((movie.frameRates.first ?? 0) - 29.99) < 0.01)
        #expect(movie.audioTracks == 1)
        // The transform turns the stored frame into the displayed one (320x568 at the origin).
        let transform = try #require(movie.transforms.first)
        let corner = transform.transform(NSPoint(x: 568, y: 320))
        #expect(corner == NSPoint(x: 0, y: 568))

        let avi = try #require(try avAsset(Self.avi).value)
        #expect(avi.videoSizes == [CGSize(width: 480, height: 270)])
        #expect(avi.transforms == [AffineTransform()])
    }

    @Test func playerItemHoldsTheMovie() throws {
        let deliveries = Deliveries<URL>()
        manager.requestPlayerItem(forVideo: library.asset(Self.hevc), options: nil) { item, info in
            #expect(abs((item?.duration.seconds ?? 0) - 1.167) < 0.01)
            deliveries.add((item?.asset as? AVURLAsset)?.url, info)
        }
        let delivery = try #require(try deliveries.wait().first)
        #expect(delivery.value == Self.hevc)
        #expect(delivery.error == nil && delivery.requestID != nil)
    }

    @Test func passthroughExportCopiesTheMovieAndNeverOverwrites() throws {
        let directory = try TemporaryDirectory(prefix: "photos-export-session")
        let output = directory.path("clip.mov")
        let sessions = Deliveries<AVAssetExportSession>()
        manager.requestExportSession(
            forVideo: library.asset(Self.portrait), options: nil, exportPreset: AVAssetExportPresetPassthrough,
            resultHandler: sessions.add)
        let session = try #require(try sessions.wait().first?.value)
        #expect(session.supportedFileTypes == [.mov])

        func export() -> AVAssetExportSession.Status {
            let done = DispatchSemaphore(value: 0)
            session.outputURL = output
            session.outputFileType = .mov
            session.exportAsynchronously { done.signal() }
            _ = done.wait(timeout: .now() + 60)
            return session.status
        }
        #expect(export() == .completed)
        #expect(try Data(contentsOf: output) == Data(contentsOf: Self.portrait), "byte for byte")

        // A file at the name is never written over: the export fails and leaves it.
        try Data("mine".utf8).write(to: output)
        #expect(export() == .failed)
        #expect(session.error != nil)
        #expect(try Data(contentsOf: output) == Data("mine".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["clip.mov"], "no temporary left"
        )
    }

    @Test func reEncodingPresetsAreRefused() throws {
        let sessions = Deliveries<AVAssetExportSession>()
        manager.requestExportSession(
            forVideo: library.asset(Self.portrait), options: nil, exportPreset: AVAssetExportPresetHighestQuality,
            resultHandler: sessions.add)
        let delivery = try #require(try sessions.wait().first)
        #expect(delivery.value == nil)
        #expect(delivery.error?.code == .requestNotSupportedForAsset)
        #expect(delivery.error?.message.contains("AVAssetExportPresetPassthrough") == true)
    }

    @Test func aPhotoIsNoVideo() throws {
        let delivery = try avAsset(Self.still)
        #expect(delivery.value == nil)
        #expect(delivery.error?.code == .requestNotSupportedForAsset)
    }

    @Test func missingAndDamagedMoviesGiveTheFileAndTheReason() throws {
        let directory = try TemporaryDirectory(prefix: "photos-video-requests")
        let damaged = directory.path("damaged.mov")
        try Data(try Data(contentsOf: Self.portrait).prefix(2048)).write(to: damaged)
        let gone = directory.path("gone.mov")
        let files = try FileAssetLibrary(files: [], videos: [damaged, gone])
        for (file, code) in [(damaged, PHPhotosError.Code.invalidResource), (gone, .missingResource)] {
            let deliveries = Deliveries<Movie>()
            manager.requestAVAsset(forVideo: files.asset(file), options: nil) { asset, _, info in
                deliveries.add(asset.map(Movie.init), info)
            }
            let delivery = try #require(try deliveries.wait().first)
            #expect(delivery.value == nil)
            #expect(delivery.error?.code == code)
            #expect(delivery.error?.message.contains(file.path) == true, "\(String(describing: delivery.error))")
        }
    }

    @Test func cancelledBeforeItRunsGivesNilAndTheCancelledKey() throws {
        manager.queue.suspend()
        let deliveries = Deliveries<Movie>()
        let id = manager.requestAVAsset(forVideo: library.asset(Self.portrait), options: nil) { asset, _, info in
            deliveries.add(asset.map(Movie.init), info)
        }
        manager.cancelImageRequest(id)
        manager.queue.resume()
        let all = try deliveries.wait()
        #expect(all.count == 1)
        #expect(all.first?.value == nil && all.first?.cancelled == true && all.first?.requestID == id)
    }

    @Test func progressIsReportedAndItsStopFlagCancels() throws {
        let stages = Mutex<[Double]>([])
        let options = PHVideoRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.progressHandler = { progress, _, stop, _ in
            stages.withLock { $0.append(progress) }
            stop.pointee = true
        }
        let delivery = try avAsset(Self.portrait, options: options)
        #expect(stages.withLock { $0 } == [0])
        #expect(delivery.value == nil && delivery.cancelled)

        options.progressHandler = { progress, _, _, _ in stages.withLock { $0.append(progress) } }
        #expect(try avAsset(Self.portrait, options: options).value != nil)
        #expect(stages.withLock { $0 } == [0, 0, 1])
    }

    /// requestImage of a video gives its poster frame, upright, once, in every delivery mode.
    @Test(arguments: [PHImageRequestOptionsDeliveryMode.opportunistic, .highQualityFormat, .fastFormat])
    func posterFrameIsTheVideosImage(mode: PHImageRequestOptionsDeliveryMode) throws {
        let options = PHImageRequestOptions()
        options.deliveryMode = mode
        let deliveries = Deliveries<CGSize>()
        manager.requestImage(
            for: library.asset(Self.hevc), targetSize: CGSize(width: 128, height: 128), contentMode: .aspectFit,
            options: options
        ) { image, info in
            #expect(info?[PHImageResultIsDegradedKey] as? Bool == false)
            deliveries.add(image?.size, info)
        }
        let all = try deliveries.wait()
        #expect(all.count == 1)
        #expect(all.first?.value == CGSize(width: 72, height: 128), "720x1280 upright")
        #expect(all.first?.error == nil)
    }
}
