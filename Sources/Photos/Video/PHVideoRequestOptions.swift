import Foundation

/// Which quality of a video to give; every mode gives the file itself on Linux (there is no
/// smaller copy in a cloud to give first).
public enum PHVideoRequestOptionsDeliveryMode: Int, Sendable, Hashable {
    /// PhotoKit picks the quality; here, the file.
    case automatic = 0
    /// The best quality; here, the file.
    case highQualityFormat = 1
    /// A medium quality; here, the file.
    case mediumQualityFormat = 2
    /// Whatever comes fastest; here, the file.
    case fastFormat = 3
}

/// Which version of an edited video.
public enum PHVideoRequestOptionsVersion: Int, Sendable, Hashable {
    /// With the edits: the edit's render (`fullSizeVideo`) when the asset has one, else the original.
    case current = 0
    /// The original file.
    case original = 1
}

/// Progress of a video request: PhotoKit calls it while downloading from iCloud; here it is called
/// with 0 before the file is read and 1 after, from the request's thread. Setting the `stop` flag
/// cancels the request. Not `@Sendable`, as in PhotoKit.
public typealias PHAssetVideoProgressHandler =
    (Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void

/// Options of a video request (`requestAVAsset`, `requestPlayerItem`, `requestExportSession`).
///
/// ```swift
/// let options = PHVideoRequestOptions()
/// options.deliveryMode = .automatic
/// options.version = .current
/// ```
public class PHVideoRequestOptions: NSObject {
    /// ``PHVideoRequestOptionsDeliveryMode/automatic`` by default; every mode gives the file.
    public var deliveryMode: PHVideoRequestOptionsDeliveryMode = .automatic
    /// ``PHVideoRequestOptionsVersion/current`` by default.
    public var version: PHVideoRequestOptionsVersion = .current
    /// Accepted for PhotoKit's sake; there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with 0 and 1 around reading the file; its `stop` flag cancels the request.
    public var progressHandler: PHAssetVideoProgressHandler?

    /// Options with PhotoKit's defaults.
    public override init() {}
}
