/// Why an image could not be read, decoded or encoded: a code, a reason, and the file.
///
/// ```swift
/// do { _ = try renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 256, height: 256))) }
/// catch let error as ImagingError where error.code == .tooLarge { print(error) }
/// // /photos/bomb.png: the image is 60000x60000 (3600.0 megapixels), above the limit of 200.0
/// ```
public struct ImagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The file does not exist.
        case missing
        /// The file exists but cannot be opened or is not a regular file.
        case unreadable
        /// The data is not an image libvips reads, or it is corrupt or truncated.
        case undecodable
        /// The image declares more pixels than the renderer's limit (a decompression bomb).
        case tooLarge
        /// libvips could not start, or could not encode the result.
        case failed
    }

    /// What went wrong.
    public let code: Code
    /// The reason, for a person.
    public let message: String
    /// The file concerned, if any.
    public let path: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
