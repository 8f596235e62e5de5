import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// PHImageManager on real files from the corpus (`../shared/corpus`), read where they are.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ImageManagerTests {
    /// One delivery, reduced to what the tests check (the info dictionary is not Sendable).
    struct Delivery: Sendable {
        let size: CGSize?
        let pixels: UIImage.Pixels?
        let degraded: Bool
        let cancelled: Bool
        let error: PHPhotosError?
        let requestID: PHImageRequestID?
        let thread: pthread_t

        init(_ image: UIImage?, _ info: [AnyHashable: Any]?, decode: Bool) {
            size = image?.size
            pixels = decode ? try? image?.pixels() : nil
            degraded = info?[PHImageResultIsDegradedKey] as? Bool ?? false
            cancelled = info?[PHImageCancelledKey] as? Bool ?? false
            error = info?[PHImageErrorKey] as? PHPhotosError
            requestID = info?[PHImageResultRequestIDKey] as? PHImageRequestID
            thread = pthread_self()
        }
    }

    /// Collects a request's deliveries and waits for its last one.
    final class Collector: Sendable {
        private let deliveries = Mutex<[Delivery]>([])
        private let done = DispatchSemaphore(value: 0)
        let decode: Bool
        /// Run on each delivery, on the delivering thread, before it is recorded.
        let onDelivery: @Sendable (Delivery) -> Void

        init(decode: Bool = false, onDelivery: @escaping @Sendable (Delivery) -> Void = { _ in }) {
            self.decode = decode
            self.onDelivery = onDelivery
        }

        var handler: @Sendable (UIImage?, [AnyHashable: Any]?) -> Void {
            { image, info in
                let delivery = Delivery(image, info, decode: self.decode)
                self.onDelivery(delivery)
                self.deliveries.withLock { $0.append(delivery) }
                if !delivery.degraded { self.done.signal() }
            }
        }

        /// The deliveries once a final one has come (a bounded wait, not a timing test).
        func wait() throws -> [Delivery] {
            try #require(done.wait(timeout: .now() + 60) == .success, "no final result within a minute")
            // A final delivery is the last: anything after it would be a bug, given a moment to show.
            // This quiet period is the check (nothing arrives), so it stays a sleep.
            Thread.sleep(forTimeInterval: 0.1)
            return deliveries.withLock { $0 }
        }
    }

    static func chart(_ orientation: Int) -> URL {
        Corpus.file("Test charts/Orientation/landscape_\(orientation).jpg")!
    }
    static let portrait = Corpus.file("Phone/DCIM/100APPLE/IMG_0815.HEIC")!  // 3024x4032
    static let camera = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!  // 640x480, 160x120 EXIF thumbnail
    static let truncated = Corpus.file("Bad/truncated.jpg")!
    static let corrupt = Corpus.file("Bad/corrupt.png")!

    let library: FileAssetLibrary
    let manager = PHImageManager()

    init() throws {
        library = try FileAssetLibrary(
            files: (1...8).map(Self.chart) + [Self.portrait, Self.camera, Self.truncated, Self.corrupt])
    }

    func options(_ configure: (PHImageRequestOptions) -> Void) -> PHImageRequestOptions {
        let options = PHImageRequestOptions()
        configure(options)
        return options
    }

    func request(
        _ file: URL, _ size: CGSize, _ mode: PHImageContentMode = .aspectFit, _ options: PHImageRequestOptions? = nil,
        collector: Collector = Collector()
    ) throws -> [Delivery] {
        manager.requestImage(
            for: library.asset(file), targetSize: size, contentMode: mode, options: options,
            resultHandler: collector.handler)
        return try collector.wait()
    }

    @Test(arguments: 1...8)
    func orientationChartArrivesUpright(orientation: Int) throws {
        let options = options { $0.deliveryMode = .highQualityFormat }
        let size = CGSize(width: 96, height: 96)
        let upright = try #require(
            try request(Self.chart(1), size, .aspectFit, options, collector: Collector(decode: true)).last?.pixels)
        let result = try #require(
            try request(Self.chart(orientation), size, .aspectFit, options, collector: Collector(decode: true)).last)
        #expect(result.size == CGSize(width: 96, height: 72))
        let pixels = try #require(result.pixels)
        let difference = PixelComparison.difference(pixels, upright, excluding: PixelComparison.isDigit(upright.size))
        #expect(difference < 12, "chart \(orientation) is \(difference) from upright")
    }

    @Test func opportunisticDeliversADegradedImageThenTheFinalOne() throws {
        let caller = pthread_self()
        let deliveries = try request(Self.camera, CGSize(width: 600, height: 600), .aspectFit, nil)
        #expect(deliveries.map(\.degraded) == [true, false])
        #expect(deliveries.allSatisfy { $0.error == nil && !$0.cancelled })
        #expect(Set(deliveries.compactMap(\.requestID)).count == 1)
        // The degraded one is the preview (at most 256 px: here the camera's 160 px thumbnail as it
        // is); the final one the size asked for.
        #expect(deliveries.first?.size == CGSize(width: 160, height: 120))
        #expect(deliveries.last?.size == CGSize(width: 600, height: 450))
        #expect(deliveries.allSatisfy { pthread_equal($0.thread, caller) == 0 }, "delivered off the caller's thread")
    }

    @Test func aSecondaryDegradedImageComesBetweenThePreviewAndTheFinalOne() throws {
        let secondary = options { $0.allowSecondaryDegradedImage = true }
        // Half the final 600 px: 300 px, after the 160 px thumbnail, before the final image.
        let camera = try request(Self.camera, CGSize(width: 600, height: 600), .aspectFit, secondary)
        #expect(camera.map(\.degraded) == [true, true, false])
        #expect(
            camera.map(\.size) == [
                CGSize(width: 160, height: 120), CGSize(width: 300, height: 225), CGSize(width: 600, height: 450),
            ])
        #expect(Set(camera.compactMap(\.requestID)).count == 1 && camera.allSatisfy { $0.error == nil })
        // The whole 3024x4032 HEIC: at most 1,024 px.
        let whole = try request(Self.portrait, PHImageManagerMaximumSize, .aspectFit, secondary)
        #expect(whole.map(\.degraded) == [true, true, false])
        #expect(
            whole.map(\.size) == [
                CGSize(width: 192, height: 256), CGSize(width: 768, height: 1024), CGSize(width: 3024, height: 4032),
            ])
        // Half of a 200 px image is no larger than the first preview: none.
        let small = try request(Self.camera, CGSize(width: 200, height: 200), .aspectFit, secondary)
        #expect(small.map(\.degraded) == [true, false])
        // Only opportunistic delivery gives degraded images.
        for mode in [PHImageRequestOptionsDeliveryMode.highQualityFormat, .fastFormat] {
            let one = try request(
                Self.camera, CGSize(width: 600, height: 600), .aspectFit,
                options {
                    $0.allowSecondaryDegradedImage = true
                    $0.deliveryMode = mode
                })
            #expect(one.map(\.degraded) == [false], "\(mode)")
        }
        #expect(!PHImageRequestOptions().allowSecondaryDegradedImage, "off by default")
    }

    @Test func highQualityDeliversExactlyOneFinalImage() throws {
        let deliveries = try request(
            Self.camera, CGSize(width: 320, height: 320), .aspectFit, options { $0.deliveryMode = .highQualityFormat })
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.degraded == false)
        #expect(deliveries.first?.size == CGSize(width: 320, height: 240))
    }

    @Test func fastFormatDeliversOneQuickImage() throws {
        let deliveries = try request(
            Self.camera, CGSize(width: 200, height: 200), .aspectFit, options { $0.deliveryMode = .fastFormat })
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.degraded == false)
        // The camera's 160x120 thumbnail as it is: a fast result may be smaller than asked, as PhotoKit's are.
        #expect(deliveries.first?.size == CGSize(width: 160, height: 120))
    }

    @Test func synchronousDeliversOnceBeforeReturningOnTheCallingThread() throws {
        let caller = pthread_self()
        let delivered = Mutex<[Delivery]>([])
        let options = options { $0.isSynchronous = true }  // opportunistic, which synchronous requests ignore
        manager.requestImage(
            for: library.asset(Self.chart(6)), targetSize: CGSize(width: 60, height: 60), contentMode: .aspectFit,
            options: options
        ) { image, info in
            let delivery = Delivery(image, info, decode: false)
            delivered.withLock { $0.append(delivery) }
        }
        let deliveries = delivered.withLock { $0 }
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.degraded == false)
        #expect(deliveries.first?.size == CGSize(width: 60, height: 45))
        #expect(deliveries.first.map { pthread_equal($0.thread, caller) != 0 } == true)
    }

    @Test func aspectFitAndFillForALandscapeAndAPortrait() throws {
        let box = CGSize(width: 200, height: 200)
        let exact = options { $0.deliveryMode = .highQualityFormat }
        #expect(try request(Self.chart(6), box, .aspectFit, exact).last?.size == CGSize(width: 200, height: 150))
        #expect(try request(Self.chart(6), box, .aspectFill, exact).last?.size == CGSize(width: 267, height: 200))
        #expect(try request(Self.portrait, box, .aspectFit, exact).last?.size == CGSize(width: 150, height: 200))
        #expect(try request(Self.portrait, box, .aspectFill, exact).last?.size == CGSize(width: 200, height: 267))
        #expect(try request(Self.chart(6), box, .default, exact).last?.size == CGSize(width: 200, height: 150))
        // The whole image: PHImageManagerMaximumSize, or resizeMode none whatever the target.
        #expect(
            try request(Self.chart(6), PHImageManagerMaximumSize, .aspectFit, exact).last?.size
                == CGSize(width: 600, height: 450))
        let none = options {
            $0.deliveryMode = .highQualityFormat
            $0.resizeMode = .none
        }
        #expect(try request(Self.chart(6), box, .aspectFit, none).last?.size == CGSize(width: 600, height: 450))
    }

    @Test func normalizedCropRectNeedsExact() throws {
        let crop = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let exact = options {
            $0.deliveryMode = .highQualityFormat
            $0.resizeMode = .exact
            $0.normalizedCropRect = crop
        }
        let decoding = Collector(decode: true)
        let cropped = try #require(
            try request(Self.chart(3), CGSize(width: 150, height: 225), .aspectFit, exact, collector: decoding).last)
        #expect(cropped.size == CGSize(width: 150, height: 225))
        // The right half: compare with the right half of the whole chart at the same scale.
        let whole = try #require(
            try request(
                Self.chart(3), CGSize(width: 300, height: 225), .aspectFit,
                options { $0.deliveryMode = .highQualityFormat },
                collector: Collector(decode: true)
            ).last?.pixels)
        var right: [UInt8] = []
        var left: [UInt8] = []
        for y in 0..<225 {
            for x in 150..<300 { right += whole.pixel(x: x, y: y) }
            for x in 0..<150 { left += whole.pixel(x: x, y: y) }
        }
        let pixels = try #require(cropped.pixels)
        #expect(PixelComparison.difference(pixels, UIImage.Pixels(size: pixels.size, channels: 3, bytes: right)) < 8)
        #expect(PixelComparison.difference(pixels, UIImage.Pixels(size: pixels.size, channels: 3, bytes: left)) > 20)
        // With resizeMode fast the crop is not applied (PhotoKit: it needs exact).
        let fast = options {
            $0.deliveryMode = .highQualityFormat
            $0.normalizedCropRect = crop
        }
        #expect(
            try request(Self.chart(3), CGSize(width: 150, height: 225), .aspectFit, fast).last?.size
                == CGSize(width: 150, height: 113))
    }

    @Test func cancelledBeforeDeliveryGivesTheCancelledKey() throws {
        manager.queue.suspend()
        let collector = Collector()
        let id = manager.requestImage(
            for: library.asset(Self.camera), targetSize: CGSize(width: 100, height: 100), contentMode: .aspectFit,
            options: nil,
            resultHandler: collector.handler)
        manager.cancelImageRequest(id)
        manager.queue.resume()
        let deliveries = try collector.wait()
        #expect(deliveries.count == 1)
        #expect(deliveries.first?.cancelled == true)
        #expect(deliveries.first?.size == nil)
        #expect(deliveries.first?.requestID == id)
    }

    @Test func cancelledDuringDeliveryGetsNoFinalImage() throws {
        let manager = self.manager
        let collector = Collector { delivery in
            if delivery.degraded, let id = delivery.requestID { manager.cancelImageRequest(id) }
        }
        let deliveries = try request(
            Self.camera, CGSize(width: 400, height: 400), .aspectFit, nil, collector: collector)
        #expect(deliveries.map(\.degraded) == [true, false])
        #expect(deliveries.last?.cancelled == true)
        #expect(deliveries.last?.size == nil)
    }

    @Test func progressHandlerIsCalledAndItsStopCancels() throws {
        let progress = Mutex<[Double]>([])
        let options = options {
            $0.deliveryMode = .highQualityFormat
            $0.progressHandler = { value, _, stop, _ in
                progress.withLock { $0.append(value) }
                stop.pointee = true
            }
        }
        let deliveries = try request(Self.camera, CGSize(width: 100, height: 100), .aspectFit, options)
        #expect(progress.withLock { $0 } == [0])
        #expect(deliveries.count == 1 && deliveries.first?.cancelled == true)
    }

    @Test(arguments: ["Bad/truncated.jpg", "Bad/corrupt.png"])
    func aDamagedFileGivesTheErrorKeyWithTheFile(name: String) throws {
        let file = try #require(Corpus.file(name))
        for mode in [PHImageRequestOptionsDeliveryMode.highQualityFormat, .opportunistic] {
            let deliveries = try request(
                file, CGSize(width: 128, height: 128), .aspectFit, options { $0.deliveryMode = mode })
            let last = try #require(deliveries.last)
            #expect(last.size == nil && !last.degraded)
            let error = try #require(last.error, "\(name) \(mode)")
            #expect(error.code == .invalidResource)
            #expect(error.filePath == file.path)
            #expect(error.message.contains(file.path) && error.message.count > file.path.count + 2, "\(error.message)")
            #expect(error.localIdentifiers == [library.identifiers[file.path]!])
        }
    }

    /// Metadata stubs: files that are assets by their headers but hold no image data (docs/metadata.md, "Files
    /// without their image data"). The corpus' RAW samples and Sigma JPEG, and stubs cut from corpus files exactly
    /// where their image data begins. Each request ends with the error naming the file, never an image or a crash.
    @Test func aMetadataStubGivesTheErrorKeyWithTheFile() throws {
        let directory = try TemporaryDirectory()
        var files = try [
            "Bad/sigma_bad_format.jpg", "Camera/RAW/DSC_0070.NEF", "Camera/RAW/IMG_0350.CR2",
            "Camera/RAW/DSCF5000.RAF", "Camera/RAW/CRW_0040.CRW",
        ].map { try #require(Corpus.file($0)) }
        /// The start of `pattern` in `bytes`.
        func find(_ pattern: String, in bytes: [UInt8]) throws -> Int {
            let ascii = Array(pattern.utf8)
            return try #require(
                (0..<(bytes.count - ascii.count)).first { bytes[$0..<($0 + ascii.count)].elementsEqual(ascii) })
        }
        let stubs: [(source: String, name: String, end: ([UInt8]) throws -> Int)] = [
            // Right after the first IDAT chunk's header.
            ("Downloads/ReaganSmallPng.png", "stub.png", { try find("IDAT", in: $0) + 4 }),
            // Right after the 64-bit header of the mdat box.
            ("Downloads/Stonehenge.heic", "stub.heic", { try find("mdat", in: $0) + 12 }),
            // Right after the VP8L bitstream header (5 bytes after the chunk header).
            ("Downloads/webp.webp", "stub.webp", { try find("VP8L", in: $0) + 13 }),
            // Exactly at the first strip (IFD0 lists its strip offsets from 31300).
            ("Scans/example.tif", "stub.tif", { _ in 31300 }),
            // Right after the first image descriptor and its LZW code size: a global colour table of 256 entries
            // and a 21-byte comment extension come first (13 + 768 + 21 + 10 + 1).
            ("Downloads/gif.gif", "stub.gif", { _ in 813 }),
        ]
        for stub in stubs {
            let bytes = try [UInt8](Data(contentsOf: try #require(Corpus.file(stub.source))))
            let url = directory.path(stub.name)
            try Data(bytes.prefix(try stub.end(bytes))).write(to: url)
            files.append(url)
        }
        let library = try FileAssetLibrary(files: files, directory: directory)
        for file in files {
            for mode in [PHImageRequestOptionsDeliveryMode.highQualityFormat, .opportunistic] {
                let collector = Collector()
                manager.requestImage(
                    for: library.asset(file), targetSize: CGSize(width: 128, height: 128), contentMode: .aspectFit,
                    options: options { $0.deliveryMode = mode }, resultHandler: collector.handler)
                let deliveries = try collector.wait()
                let last = try #require(deliveries.last)
                #expect(last.size == nil && !last.degraded, "\(file.lastPathComponent) \(mode)")
                let error = try #require(last.error, "\(file.lastPathComponent) \(mode)")
                #expect(error.code == .invalidResource, "\(file.lastPathComponent): \(error)")
                #expect(error.filePath == file.path)
                #expect(error.message.contains(file.path), "\(error.message)")
                print("stub \(file.lastPathComponent): \(error.message)")
            }
        }
    }

    @Test func aDecompressionBombIsRefused() throws {
        let directory = try TemporaryDirectory()
        let bomb = directory.path("bomb.png")
        try TestImages.bombPNG(width: 60_000, height: 60_000).write(to: bomb)
        let library = try FileAssetLibrary(files: [bomb], directory: directory)
        let collector = Collector()
        manager.requestImage(
            for: library.asset(bomb), targetSize: CGSize(width: 256, height: 256), contentMode: .aspectFill,
            options: nil,
            resultHandler: collector.handler)
        let deliveries = try collector.wait()
        #expect(deliveries.count == 1, "no degraded image either")
        let error = try #require(deliveries.last?.error)
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("60000x60000"), "\(error.message)")
    }

    @Test func aMissingPhotoOrMovieIsMissingResource() throws {
        let directory = try TemporaryDirectory()
        let gone = directory.path("gone.jpg")
        let movie = directory.path("movie.mov")
        let library = try FileAssetLibrary(files: [gone], videos: [movie], directory: directory)
        let highQuality = options { $0.deliveryMode = .highQualityFormat }
        for (file, code) in [(gone, PHPhotosError.Code.missingResource), (movie, .missingResource)] {
            let collector = Collector()
            manager.requestImage(
                for: library.asset(file), targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFit,
                options: highQuality, resultHandler: collector.handler)
            #expect(try collector.wait().last?.error?.code == code)
        }
    }

    @Test func imageDataComesWithItsOrientation() throws {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(Data?, String?, CGImagePropertyOrientation)?>(nil)
        manager.requestImageDataAndOrientation(for: library.asset(Self.chart(6)), options: nil) {
            data, uti, orientation, _ in
            result.withLock { $0 = (data, uti, orientation) }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
        let (data, uti, orientation) = try #require(result.withLock { $0 })
        #expect(data == (try Data(contentsOf: Self.chart(6))), "the file's bytes, not turned")
        #expect(uti == "public.jpeg")
        #expect(orientation == .right)
    }

    /// The deprecated `requestImageData` for each EXIF orientation: the same bytes and UTI, and
    /// UIKit's name for the orientation by Apple's mapping.
    @Test(
        arguments: zip(
            1...8,
            [
                UIImage.Orientation.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left,
            ]))
    func deprecatedImageDataGivesUIKitsOrientation(exif: Int, expected: UIImage.Orientation) throws {
        let (data, uti, orientation) = try imageData(Self.chart(exif))
        #expect(data == (try Data(contentsOf: Self.chart(exif))), "the file's bytes, not turned")
        #expect(uti == "public.jpeg")
        #expect(orientation == expected)
    }

    /// A camera's portrait JPEG, stored on its side (EXIF 6): `.right`, as UIKit would show it.
    @Test func deprecatedImageDataOfARotatedCameraPhotoIsRight() throws {
        let photo = try #require(Corpus.file("Camera/2008/Garden/IMG_0127.JPG"))
        let (data, uti, orientation) = try imageData(photo, in: try FileAssetLibrary(files: [photo]))
        #expect(data == (try Data(contentsOf: photo)) && uti == "public.jpeg")
        #expect(orientation == .right)
    }

    func imageData(_ file: URL, in library: FileAssetLibrary? = nil) throws
        -> (Data?, String?, UIImage.Orientation)
    {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(Data?, String?, UIImage.Orientation)?>(nil)
        let asset = (library ?? self.library).asset(file)
        (manager as any DeprecatedImageData).requestImageData(for: asset, options: nil) {
            data, uti, orientation, _ in
            result.withLock { $0 = (data, uti, orientation) }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
        return try #require(result.withLock { $0 })
    }

    @Test func aRequestedImageEncodesAndDecodes() throws {
        let image = Mutex<UIImage?>(nil)
        let options = options { $0.isSynchronous = true }
        manager.requestImage(
            for: library.asset(Self.portrait), targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFit,
            options: options
        ) { result, _ in
            image.withLock { $0 = result }
        }
        let result = try #require(image.withLock { $0 })
        #expect(result.scale == 1 && result.imageOrientation == .up)
        #expect(result.uniformTypeIdentifier == "public.jpeg")
        let png = try #require(result.pngData())
        #expect(UIImage(data: png)?.size == CGSize(width: 48, height: 64))
        #expect(UIImage(data: Data("not an image".utf8)) == nil)
    }
}

/// PhotoKit's deprecated `requestImageData`, called through a protocol so that testing it is not
/// a deprecation warning on every build.
protocol DeprecatedImageData {
    @discardableResult
    func requestImageData(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping @Sendable (Data?, String?, UIImage.Orientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID
}

extension PHImageManager: DeprecatedImageData {}
