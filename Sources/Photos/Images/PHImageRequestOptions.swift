import Foundation

/// The size that asks for the whole image at its own size: `CGSize(width: -1, height: -1)`.
public let PHImageManagerMaximumSize = CGSize(width: -1, height: -1)

/// Identifies one image request, for ``PHImageManager/cancelImageRequest(_:)``.
public typealias PHImageRequestID = Int32

/// A request identifier no request has.
public let PHInvalidImageRequestID: PHImageRequestID = 0

/// Info key: whether this result is a fast, lower-quality one that a better one will follow (`Bool`).
public let PHImageResultIsDegradedKey = "PHImageResultIsDegradedKey"
/// Info key: the ``PHImageRequestID`` of the request the result answers.
public let PHImageResultRequestIDKey = "PHImageResultRequestIDKey"
/// Info key: true when the request was cancelled (`Bool`); the image is nil.
public let PHImageCancelledKey = "PHImageCancelledKey"
/// Info key: why the image is nil (a `PHPhotosError` with the file and the reason).
public let PHImageErrorKey = "PHImageErrorKey"
/// Info key: whether the image would need a download (`Bool`): always false, there is no iCloud.
public let PHImageResultIsInCloudKey = "PHImageResultIsInCloudKey"

/// How an image is fitted to the target size.
public enum PHImageContentMode: Int, Sendable, Hashable {
    /// The whole image inside the target size, proportions kept.
    case aspectFit = 0
    /// The target size covered, proportions kept: one side may be longer than asked (the caller crops).
    case aspectFill = 1

    /// ``aspectFit``.
    public static let `default`: PHImageContentMode = .aspectFit
}

/// How many results a request delivers, and how good.
public enum PHImageRequestOptionsDeliveryMode: Int, Sendable, Hashable {
    /// A fast degraded result first (``PHImageResultIsDegradedKey`` true), then the final one.
    /// Synchronous requests deliver the final one only.
    case opportunistic = 0
    /// The final result only.
    case highQualityFormat = 1
    /// One fast result only: the camera's embedded thumbnail when large enough, else a small decode.
    case fastFormat = 2
}

/// How the image is resized to the target size.
public enum PHImageRequestOptionsResizeMode: Int, Sendable, Hashable {
    /// Not resized: the image at its own size, whatever the target.
    case none = 0
    /// Resized to the target size by the content mode (libvips' shrink-on-load makes this as fast
    /// as a rougher size would be).
    case fast = 1
    /// Resized to the target size by the content mode; the only mode that applies
    /// ``PHImageRequestOptions/normalizedCropRect``.
    case exact = 2
}

/// Which version of an edited image.
public enum PHImageRequestOptionsVersion: Int, Sendable, Hashable {
    /// With the edits: the edit's render (`fullSizePhoto`) when the asset has one, else the original.
    case current = 0
    /// Without the edits: the original file (for a RAW+JPEG pair, the one its
    /// ``PHAsset/originalResourceChoice`` names: its photo, or its RAW).
    case unadjusted = 1
    /// The original file (for a RAW+JPEG pair, as for `unadjusted`, the one its original resource
    /// choice names).
    case original = 2
}

/// Progress of a request: PhotoKit calls it while downloading from iCloud; here it is called with
/// 0 before the final image is decoded and 1 after, from the request's thread. Setting the `stop`
/// flag cancels the request. Not `@Sendable`, as in PhotoKit.
public typealias PHAssetImageProgressHandler =
    (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void

/// Options of an image request.
///
/// ```swift
/// let options = PHImageRequestOptions()
/// options.deliveryMode = .highQualityFormat
/// options.resizeMode = .exact
/// options.normalizedCropRect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
/// ```
public class PHImageRequestOptions: NSObject {
    /// One result or two, fast or good; ``PHImageRequestOptionsDeliveryMode/opportunistic`` by default.
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    /// How the image is resized; ``PHImageRequestOptionsResizeMode/fast`` by default.
    public var resizeMode: PHImageRequestOptionsResizeMode = .fast
    /// The part of the upright image to keep, in the unit square ((0, 0) is the top left corner);
    /// `.zero` (the default) for all of it. Applied only with ``PHImageRequestOptionsResizeMode/exact``.
    public var normalizedCropRect: CGRect = .zero
    /// Which version of an edited image; ``PHImageRequestOptionsVersion/current`` by default.
    public var version: PHImageRequestOptionsVersion = .current
    /// Whether the result is delivered before the request returns, on the calling thread.
    public var isSynchronous = false
    /// Accepted for PhotoKit's sake; there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with 0 and 1 around the final decode; its `stop` flag cancels the request.
    public var progressHandler: PHAssetImageProgressHandler?
    /// With ``PHImageRequestOptionsDeliveryMode/opportunistic`` delivery (iOS 17), a second, larger
    /// degraded image between the fast one and the final one (``PHImageResultIsDegradedKey`` true
    /// for both), decoded from the picture rather than the camera's thumbnail: the final image's
    /// framing at half its size, at most 1,024 pixels on its longer side, given only when that is
    /// larger than the first. False by default: one degraded image, then the final one.
    public var allowSecondaryDegradedImage = false
    /// How the delivered ``UIImage`` is encoded (not in PhotoKit, whose images are decoded
    /// bitmaps): nil (the default) for JPEG, or PNG when the image has transparency.
    public var encoding: UIImage.Format?

    /// Options with PhotoKit's defaults.
    public override init() {}
}
