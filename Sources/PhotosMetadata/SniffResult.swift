/// A file's type, decided from its content.
///
/// ```swift
/// let type = try MediaSniffer().sniff(path: "IMG_0001.HEIC")
/// // SniffResult(mimeType: "image/heic", kind: .image, uniformTypeIdentifier: "public.heic")
/// ```
public struct SniffResult: Sendable, Hashable {
    /// The MIME type (`image/jpeg`, `image/x-nikon-nef`, `video/quicktime`, `text/plain`, ...).
    public var mimeType: String
    /// Image, video, audio or other.
    public var kind: MediaKind
    /// Apple's uniform type identifier (`public.jpeg`, `com.apple.quicktime-movie`), when known.
    public var uniformTypeIdentifier: String?

    /// Creates a result.
    public init(mimeType: String, kind: MediaKind, uniformTypeIdentifier: String?) {
        self.mimeType = mimeType
        self.kind = kind
        self.uniformTypeIdentifier = uniformTypeIdentifier
    }
}
