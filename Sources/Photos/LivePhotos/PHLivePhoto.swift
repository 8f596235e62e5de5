import Foundation
import PhotosImaging
import PhotosMetadata
import Synchronization

/// The info key of a ``PHLivePhoto/request(withResourceFileURLs:placeholderImage:targetSize:contentMode:resultHandler:)``
/// result that failed: the error.
public let PHLivePhotoInfoErrorKey = "PHLivePhotoInfoErrorKey"
/// The info key telling that the result is the placeholder, the final one still to come.
public let PHLivePhotoInfoIsDegradedKey = "PHLivePhotoInfoIsDegradedKey"
/// The info key telling that the request was cancelled.
public let PHLivePhotoInfoCancelledKey = "PHLivePhotoInfoCancelledKey"

/// A Live Photo request's identifier.
public typealias PHLivePhotoRequestID = Int32
/// No request.
public let PHLivePhotoRequestIDInvalid: PHLivePhotoRequestID = 0

/// A Live Photo: a still and the movie taken around it, PhotoKit's `PHLivePhoto`.
///
/// PhotoKit's is opaque, for `PHLivePhotoView` to play; Linux has no such view, so this one also
/// gives the still at the size asked for (``image``) and both files (``photoURL``, ``videoURL``;
/// ``PHAssetResource/assetResources(for:)-(PHLivePhoto)`` gives them as PhotoKit does).
///
/// ```swift
/// PHImageManager.default().requestLivePhoto(
///     for: asset, targetSize: CGSize(width: 512, height: 512), contentMode: .aspectFit, options: nil
/// ) { livePhoto, info in
///     guard let livePhoto else { return }
///     print(livePhoto.size, livePhoto.videoURL.path)
/// }
/// ```
public final class PHLivePhoto: NSObject, Sendable {
    /// The still's size, in pixels, as rendered for the request.
    public let size: CGSize
    /// The still, upright and at the size asked for (not in PhotoKit).
    public let image: UIImage
    let photoResource: PHAssetResource
    let videoResource: PHAssetResource

    /// The still's file (not in PhotoKit).
    public var photoURL: URL { photoResource.fileURL }
    /// The movie's file (not in PhotoKit).
    public var videoURL: URL { videoResource.fileURL }

    init(image: UIImage, photo: PHAssetResource, video: PHAssetResource) {
        size = image.size
        self.image = image
        photoResource = photo
        videoResource = video
        super.init()
    }

    private static let renderer = ImageRenderer()
    private static let work = ImageWorkQueue()
    private static let requests = Mutex((next: PHLivePhotoRequestID(1), cancelled: Set<PHLivePhotoRequestID>()))

    /// Makes a Live Photo of files in no library: `fileURLs` must hold exactly one still and one
    /// movie (their types read from their content). The handler gets the placeholder first, when
    /// one is given (``PHLivePhotoInfoIsDegradedKey`` true), then the Live Photo with its still
    /// rendered to fit `targetSize` by `contentMode`; or nil and ``PHLivePhotoInfoErrorKey``.
    /// It runs on a worker thread.
    @discardableResult
    public class func request(
        withResourceFileURLs fileURLs: [URL], placeholderImage: UIImage?, targetSize: CGSize,
        contentMode: PHImageContentMode, resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]) -> Void
    ) -> PHLivePhotoRequestID {
        let resultHandler = callerHandler(resultHandler)
        let id = requests.withLock { state in
            let id = state.next
            state.next = state.next == .max ? 1 : state.next + 1
            return id
        }
        work.async {
            let cancelled = { requests.withLock { $0.cancelled.remove(id) != nil } }
            do {
                let (photo, video) = try resources(of: fileURLs)
                if let placeholderImage {
                    guard !cancelled() else { return resultHandler(nil, [PHLivePhotoInfoCancelledKey: true]) }
                    resultHandler(
                        PHLivePhoto(image: placeholderImage, photo: photo, video: video),
                        [PHLivePhotoInfoIsDegradedKey: true])
                }
                let plan = ImagePlan(
                    targetSize: targetSize, contentMode: contentMode, options: PHImageRequestOptions())
                let still: RenderedImage
                do {
                    still = try renderer.render(fileAt: photo.fileURL.path, plan.request)
                } catch {
                    throw PHPhotosError(.invalidResource, String(describing: error))
                }
                guard !cancelled() else { return resultHandler(nil, [PHLivePhotoInfoCancelledKey: true]) }
                resultHandler(
                    PHLivePhoto(image: UIImage(rendered: still), photo: photo, video: video),
                    [PHLivePhotoInfoIsDegradedKey: false])
            } catch {
                resultHandler(nil, [PHLivePhotoInfoErrorKey: error])
            }
        }
        return id
    }

    /// Cancels a request of ``request(withResourceFileURLs:placeholderImage:targetSize:contentMode:resultHandler:)``
    /// that has not delivered its final result: it delivers nil with ``PHLivePhotoInfoCancelledKey``.
    public class func cancelRequest(withRequestID requestID: PHLivePhotoRequestID) {
        _ = requests.withLock { $0.cancelled.insert(requestID) }
    }

    /// The still and the movie among `fileURLs`, or `invalidResource` saying what is wrong.
    private static func resources(of fileURLs: [URL]) throws -> (PHAssetResource, PHAssetResource) {
        guard fileURLs.count == 2 else {
            throw PHPhotosError(
                .invalidResource, "a Live Photo is one still and one movie; \(fileURLs.count) files were given")
        }
        var photo: PHAssetResource?
        var video: PHAssetResource?
        let sniffer = try MediaSniffer()
        for url in fileURLs {
            var status = stat()
            guard stat(url.path, &status) == 0 else {
                throw PHPhotosError(.missingResource, "\(url.path): \(String(cString: strerror(errno)))")
            }
            let sniffed = sniffer.sniff(path: url.path)
            switch sniffed.kind {
            case .image where photo == nil:
                photo = PHAssetResource(type: .photo, fileURL: url, sniffed: sniffed, fileSize: Int64(status.st_size))
            case .video where video == nil:
                video = PHAssetResource(
                    type: .pairedVideo, fileURL: url, sniffed: sniffed, fileSize: Int64(status.st_size))
            default:
                throw PHPhotosError(
                    .invalidResource, "\(url.path): \(sniffed.mimeType), where a still and a movie are needed")
            }
        }
        guard let photo, let video else { throw PHPhotosError(.invalidResource, "no still and movie pair") }
        return (photo, video)
    }
}

/// Options of a Live Photo request.
public class PHLivePhotoRequestOptions: NSObject {
    /// ``PHImageRequestOptionsDeliveryMode/opportunistic`` by default: a degraded Live Photo (a
    /// fast still) first, then the final one.
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    /// ``PHImageRequestOptionsVersion/current`` by default; no edits are rendered yet.
    public var version: PHImageRequestOptionsVersion = .current
    /// Accepted for PhotoKit's sake; there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with 0 and 1 around the still's final decode; its `stop` flag cancels the request.
    public var progressHandler: PHAssetImageProgressHandler?

    /// Options with PhotoKit's defaults.
    public override init() {}

    /// The image request behind a Live Photo request.
    var imageOptions: PHImageRequestOptions {
        let options = PHImageRequestOptions()
        options.deliveryMode = deliveryMode
        options.version = version
        options.isNetworkAccessAllowed = isNetworkAccessAllowed
        options.progressHandler = progressHandler
        return options
    }
}

extension PHImageManager {
    /// Requests the Live Photo of `asset`: its still rendered as ``requestImage(for:targetSize:contentMode:options:resultHandler:)``
    /// would (degraded first when opportunistic), with its paired movie. An asset that is not a
    /// Live Photo, or whose movie is gone, gives nil and ``PHImageErrorKey``
    /// (`requestNotSupportedForAsset`, `missingResource`).
    @discardableResult
    public func requestLivePhoto(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHLivePhotoRequestOptions?,
        resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = callerHandler(resultHandler)
        let resources = PHAssetResource.assetResources(for: asset)
        guard let video = resources.first(where: { $0.type == .pairedVideo }),
            let photo = PHAssetResourceType.pictureSources.lazy.compactMap({ type in
                resources.first { $0.type == type }
            }).first
        else {
            let error =
                asset.library?.unavailabilityReason
                ?? PHPhotosError(
                    .requestNotSupportedForAsset, "the asset is not a Live Photo (it has no paired video)",
                    localIdentifiers: [asset.localIdentifier])
            return fail(error, resultHandler)
        }
        let imageOptions = (options ?? PHLivePhotoRequestOptions()).imageOptions
        return requestImage(for: asset, targetSize: targetSize, contentMode: contentMode, options: imageOptions) {
            image, info in
            guard let image else { return resultHandler(nil, info) }
            guard FileManager.default.fileExists(atPath: video.fileURL.path) else {
                var info = info ?? [:]
                info[PHImageErrorKey] = PHPhotosError(
                    .missingResource, "\(video.fileURL.path): the paired video is gone",
                    localIdentifiers: [asset.localIdentifier])
                return resultHandler(nil, info)
            }
            resultHandler(PHLivePhoto(image: image, photo: photo, video: video), info)
        }
    }

    /// A request that fails at once: delivered once, asynchronously, with the error.
    private func fail(
        _ error: any Error, _ resultHandler: @escaping @Sendable (PHLivePhoto?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let id = register()
        queue.async { [self] in
            finish(id)
            resultHandler(
                nil, [PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false, PHImageErrorKey: error])
        }
        return id
    }
}
