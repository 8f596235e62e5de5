/// What a file holds, as far as a photo library cares.
///
/// The library maps these to PhotoKit's `PHAssetMediaType` (`other` is `unknown`).
public enum MediaKind: Sendable, Hashable {
    /// A still image: JPEG, HEIC, PNG, GIF, WebP, TIFF, camera RAW and the like.
    case image
    /// A movie: QuickTime, MPEG-4, 3GPP, AVI, WebM and the like.
    case video
    /// Sound only.
    case audio
    /// Anything else: text, PDF, sidecar files, unknown data.
    case other
}
