import Foundation
import PhotosCore
import PhotosImaging
import Synchronization

/// Images of assets, at the size asked for: PhotoKit's `PHImageManager`, decoding with libvips.
///
/// ```swift
/// let options = PHImageRequestOptions()
/// options.deliveryMode = .opportunistic
/// PHImageManager.default().requestImage(
///     for: asset, targetSize: CGSize(width: 256, height: 256), contentMode: .aspectFill, options: options
/// ) { image, info in
///     let degraded = info?[PHImageResultIsDegradedKey] as? Bool ?? false
///     if let error = info?[PHImageErrorKey] as? PHPhotosError { print(error.message); return }
///     print(image!.size, degraded ? "(a first, fast image)" : "(final)")
/// }
/// ```
///
/// Results are upright (EXIF orientation applied), sRGB, JPEG-encoded (PNG with transparency)
/// ``UIImage``s of scale 1. Asynchronous requests deliver on the manager's worker threads, never
/// on the caller's, in order for each request; synchronous ones deliver before returning, on the
/// calling thread. A file that is missing, damaged, or declares more than 200 megapixels gives a
/// nil image and ``PHImageErrorKey``; the file is only ever read.
public class PHImageManager: NSObject, @unchecked Sendable {  // Subclassed; its state is in `requests`, a Mutex.
    private struct Requests {
        var next: PHImageRequestID = 1
        /// Requests not yet finished, and whether each was cancelled.
        var active: [PHImageRequestID: Bool] = [:]
    }

    private let requests = Mutex(Requests())
    let queue = ImageWorkQueue()
    private let renderer: ImageRenderer

    private static let shared = PHImageManager()

    /// The shared manager.
    public class func `default`() -> PHImageManager { shared }

    /// A manager of its own (PhotoKit allows one; the shared ``default()`` is the usual choice).
    public override init() {
        renderer = ImageRenderer()
        super.init()
    }

    /// Requests an image of `asset` scaled to `targetSize` (pixels; ``PHImageManagerMaximumSize``
    /// for the whole image) by `contentMode`, delivered to `resultHandler` once, or twice for an
    /// asynchronous opportunistic request (degraded first; three times with
    /// ``PHImageRequestOptions/allowSecondaryDegradedImage``, two degraded, growing).
    @discardableResult
    public func requestImage(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?,
        resultHandler: @escaping (UIImage?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = callerHandler(resultHandler)
        let plan = ImagePlan(
            targetSize: targetSize, contentMode: contentMode, options: options ?? PHImageRequestOptions())
        let id = register()
        let job: @Sendable () -> Void = { [self] in
            run(plan, for: asset, id: id, resultHandler)
            finish(id)
        }
        if plan.isSynchronous { job() } else { queue.async(job) }
        return id
    }

    /// Requests the asset's original file data, its uniform type identifier, and the orientation it
    /// is to be shown in (the data is not turned).
    @discardableResult
    public func requestImageDataAndOrientation(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = callerHandler(resultHandler)
        let isSynchronous = options?.isSynchronous ?? false
        let edited = (options?.version ?? .current) == .current
        let id = register()
        let job: @Sendable () -> Void = { [self] in
            defer { finish(id) }
            var info: [AnyHashable: Any] = [PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false]
            if isCancelled(id) {
                info[PHImageCancelledKey] = true
                return resultHandler(nil, nil, .up, info)
            }
            do {
                let resource = try Self.photoResource(of: asset, edited: edited)
                let path = resource.fileURL.path
                let header = try? Self.headers.header(ofFileAt: path)
                let data: Data
                do {
                    data = try Data(contentsOf: resource.fileURL)
                } catch {
                    throw Self.error(
                        ImagingError(.unreadable, "\(error.localizedDescription)", path: path), asset: asset)
                }
                let orientation = header.flatMap { CGImagePropertyOrientation(rawValue: UInt32($0.orientation)) } ?? .up
                resultHandler(data, resource.uniformTypeIdentifier, orientation, info)
            } catch {
                info[PHImageErrorKey] = error
                resultHandler(nil, nil, .up, info)
            }
        }
        if isSynchronous { job() } else { queue.async(job) }
        return id
    }

    /// Requests the asset's original file data, its uniform type identifier, and the orientation it
    /// is to be shown in as UIKit's ``UIImage/Orientation``: PhotoKit's older form of
    /// ``requestImageDataAndOrientation(for:options:resultHandler:)``, deprecated since iOS 13, which
    /// it calls. The data is not turned.
    @available(*, deprecated, message: "use requestImageDataAndOrientation(for:options:resultHandler:)")
    @discardableResult
    public func requestImageData(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, UIImage.Orientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        requestImageDataAndOrientation(for: asset, options: options) { data, type, orientation, info in
            resultHandler(data, type, UIImage.Orientation(orientation), info)
        }
    }

    /// Cancels a request: if its final result has not been delivered, the handler gets a nil image
    /// and ``PHImageCancelledKey`` instead, once. Unknown or finished requests are ignored.
    public func cancelImageRequest(_ requestID: PHImageRequestID) {
        requests.withLock { requests in
            if requests.active[requestID] != nil { requests.active[requestID] = true }
        }
    }

    func register() -> PHImageRequestID {
        requests.withLock { requests in
            let id = requests.next
            requests.next = requests.next == .max ? 1 : requests.next + 1
            requests.active[id] = false
            return id
        }
    }

    func finish(_ id: PHImageRequestID) {
        _ = requests.withLock { $0.active.removeValue(forKey: id) }
    }

    func isCancelled(_ id: PHImageRequestID) -> Bool {
        requests.withLock { $0.active[id] ?? false }
    }

    private func run(
        _ plan: ImagePlan, for asset: PHAsset, id: PHImageRequestID,
        _ resultHandler: @Sendable (UIImage?, [AnyHashable: Any]?) -> Void
    ) {
        /// Delivers unless cancelled; false when the request was cancelled (and told so).
        func deliver(_ image: UIImage?, degraded: Bool, error: (any Error)? = nil) -> Bool {
            var info: [AnyHashable: Any] = [
                PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false, PHImageResultIsDegradedKey: degraded,
            ]
            if isCancelled(id) {
                info[PHImageCancelledKey] = true
                info[PHImageResultIsDegradedKey] = false
                resultHandler(nil, info)
                return false
            }
            if let error { info[PHImageErrorKey] = error }
            resultHandler(image, info)
            return true
        }

        // The caching manager renders the asset as it looks now.
        if plan.isCurrentVersion, let cached = cachedImage(of: asset, plan.request) {
            _ = deliver(UIImage(rendered: cached), degraded: false)
            return
        }
        let path: String
        let isVideo = asset.mediaType == .video
        do {
            path = try
                (isVideo
                ? Self.videoResource(of: asset, edited: plan.isCurrentVersion)
                : Self.photoResource(of: asset, edited: plan.isCurrentVersion)).fileURL.path
        } catch {
            _ = deliver(nil, degraded: false, error: error)
            return
        }

        // Kept on disk by this or another process (a small image of the file as it is now): as a
        // memory-cached image, the final result at once, without a preview first (a fast request
        // too: nothing is faster). Fast previews are not kept.
        let kept = Self.diskEntry(of: asset, fileAt: path, plan.request)
        if let kept, let image = kept.cache.image(for: kept.key) {
            _ = deliver(UIImage(rendered: image), degraded: false)
            return
        }

        // A video's poster frame costs one decode whatever its size: every mode gives the final image alone.
        switch isVideo ? .highQualityFormat : plan.delivery {
        case .fastFormat:
            do {
                _ = deliver(UIImage(rendered: try renderer.renderPreview(fileAt: path, plan.request)), degraded: false)
            } catch {
                _ = deliver(nil, degraded: false, error: Self.error(error, asset: asset))
            }
            return
        case .opportunistic:
            // A failed preview is no result: the final rendering reports the error.
            var degradedEdge = 0
            if let preview = try? renderer.renderPreview(fileAt: path, plan.request) {
                guard deliver(UIImage(rendered: preview), degraded: true) else { return }
                degradedEdge = max(preview.size.width, preview.size.height)
            }
            // The second is decoded from the picture (shrunk on load), not the camera's thumbnail:
            // the final image's framing at half its size, at most 1,024 px.
            if plan.allowsSecondaryDegradedImage, let final = try? renderer.outputSize(ofFileAt: path, plan.request) {
                let edge = min(Self.secondaryDegradedEdge, max(final.width, final.height) / 2)
                var request = plan.request
                request.target = ImageGeometry.scaled(final, into: PixelSize(width: edge, height: edge), fill: false)
                request.fill = false
                if edge > degradedEdge, let secondary = try? renderer.render(fileAt: path, request) {
                    guard deliver(UIImage(rendered: secondary), degraded: true) else { return }
                }
            }
        case .highQualityFormat:
            break
        }
        if let progress = plan.progressHandler {
            var stop: ObjCBool = false
            progress(0, nil, &stop, [PHImageResultRequestIDKey: id])
            if stop.boolValue { cancelImageRequest(id) }
        }
        guard !isCancelled(id) else {
            _ = deliver(nil, degraded: false)
            return
        }
        let result = Result { () throws(ImagingError) -> RenderedImage in
            try isVideo ? renderer.render(videoAt: path, plan.request) : renderer.render(fileAt: path, plan.request)
        }
        if let progress = plan.progressHandler {
            var stop: ObjCBool = false
            progress(1, nil, &stop, [PHImageResultRequestIDKey: id])
            if stop.boolValue { cancelImageRequest(id) }
        }
        switch result {
        case .success(let image):
            _ = deliver(UIImage(rendered: image), degraded: false)
            if let kept, plan.delivery != .fastFormat || isVideo { kept.cache.store(image, for: kept.key) }
        case .failure(let error): _ = deliver(nil, degraded: false, error: Self.error(error, asset: asset))
        }
    }

    /// Where the library's disk cache keeps (or would keep) this request's image of the file at
    /// `path`; nil when the library keeps no disk cache or the request is not a small image.
    static func diskEntry(of asset: PHAsset, fileAt path: String, _ request: ImageRequest)
        -> (cache: ThumbnailDiskCache, key: ThumbnailDiskCache.Key)?
    {
        guard let cache = asset.library?.thumbnailCache, let key = ThumbnailDiskCache.Key(fileAt: path, request) else {
            return nil
        }
        return (cache, key)
    }

    /// An image made ahead of the request (``PHCachingImageManager``); none here.
    func cachedImage(of asset: PHAsset, _ request: ImageRequest) -> RenderedImage? { nil }

    /// The renderer, for a subclass that renders ahead.
    var imageRenderer: ImageRenderer { renderer }

    /// The file holding the asset's picture: as edited, its edit's render (`fullSizePhoto`), else
    /// its original; unedited, its original. The original is its photo, else its alternate; for a
    /// RAW+JPEG pair whose ``PHAsset/originalResourceChoice`` is `.raw`, its RAW (the alternate) first.
    static func photoResource(of asset: PHAsset, edited: Bool = true) throws -> PHAssetResource {
        let resources = PHAssetResource.assetResources(for: asset)
        for type in asset.pictureSources(edited: edited) {
            if let resource = resources.first(where: { $0.type == type }) { return resource }
        }
        if let reason = asset.library?.unavailabilityReason { throw reason }
        throw PHPhotosError(
            .missingResource, "the asset has no photo resource", localIdentifiers: [asset.localIdentifier])
    }

    /// The file holding a video asset's movie; `requestNotSupportedForAsset` for an asset that is
    /// not a video (a Live Photo's movie is its `.pairedVideo` resource, or ``requestLivePhoto``).
    /// As edited, its edit's render (`fullSizeVideo`) if it has one; unedited, its video.
    static func videoResource(of asset: PHAsset, edited: Bool = true) throws -> PHAssetResource {
        guard asset.mediaType == .video else {
            throw PHPhotosError(
                .requestNotSupportedForAsset, "the asset is not a video (it is \(asset.mediaType))",
                localIdentifiers: [asset.localIdentifier])
        }
        let resources = PHAssetResource.assetResources(for: asset)
        for type in edited ? PHAssetResourceType.movieSources : PHAssetResourceType.originalMovieSources {
            if let resource = resources.first(where: { $0.type == type }) { return resource }
        }
        if let reason = asset.library?.unavailabilityReason { throw reason }
        throw PHPhotosError(
            .missingResource, "the asset has no video resource", localIdentifiers: [asset.localIdentifier])
    }

    /// PhotoKit's error for a rendering failure, with the file and the reason.
    static func error(_ error: any Error, asset: PHAsset) -> any Error {
        guard let error = error as? ImagingError else { return error }
        let code: PHPhotosError.Code =
            switch error.code {
            case .missing: .missingResource
            case .unreadable, .undecodable: .invalidResource
            case .tooLarge: .limitExceeded
            case .failed: .internalError
            }
        var userInfo: [String: Any] = [NSUnderlyingErrorKey: error]
        if let path = error.path { userInfo[NSFilePathErrorKey] = path }
        return PHPhotosError(code, error.description, localIdentifiers: [asset.localIdentifier], userInfo: userInfo)
    }

    /// The longest side of a secondary degraded image (``PHImageRequestOptions/allowSecondaryDegradedImage``).
    static let secondaryDegradedEdge = 1024

    /// Headers only, for the orientation of data requests: no size limit applies to reading data.
    private static let headers = ImageRenderer(limits: .init(maximumPixelCount: .max))
}

/// What one request asks for, taken from its options when it is made (they may change after).
struct ImagePlan: Sendable {
    let request: ImageRequest
    let delivery: PHImageRequestOptionsDeliveryMode
    let isSynchronous: Bool
    let progressHandler:
        (@Sendable (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void)?
    /// Whether the image is of the asset as edited (``PHImageRequestOptionsVersion/current``).
    let isCurrentVersion: Bool
    /// Whether an opportunistic request may deliver a second, larger degraded image.
    let allowsSecondaryDegradedImage: Bool

    init(targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions) {
        var request = ImageRequest()
        if options.resizeMode != .none, targetSize.width > 0, targetSize.height > 0,
            targetSize.width.isFinite, targetSize.height.isFinite
        {
            request.target = PixelSize(
                width: Int(min(targetSize.width, 1_000_000).rounded()).clamped(to: 1...),
                height: Int(min(targetSize.height, 1_000_000).rounded()).clamped(to: 1...))
            request.fill = contentMode == .aspectFill
        }
        let crop = options.normalizedCropRect.standardized
        if options.resizeMode == .exact, !crop.isEmpty, crop != CGRect(x: 0, y: 0, width: 1, height: 1) {
            request.crop = NormalizedRect(
                x: Double(crop.minX), y: Double(crop.minY), width: Double(crop.width), height: Double(crop.height))
        }
        request.format = options.encoding
        self.request = request
        isSynchronous = options.isSynchronous
        isCurrentVersion = options.version == .current
        // PhotoKit: a synchronous request delivers one result, the final one.
        delivery =
            options.isSynchronous && options.deliveryMode == .opportunistic ? .highQualityFormat : options.deliveryMode
        progressHandler = options.progressHandler.map(callerHandler)
        allowsSecondaryDegradedImage = options.allowSecondaryDegradedImage
    }
}

extension Int {
    fileprivate func clamped(to range: PartialRangeFrom<Int>) -> Int { Swift.max(self, range.lowerBound) }
}
