import Foundation
import PhotosImaging

/// A small stand-in for UIKit's `UIImage`, which Linux lacks: encoded image data (JPEG, PNG,
/// HEIC...) with its size, and decoded pixels on request.
///
/// The images ``PHImageManager`` delivers are upright (orientation applied), sRGB, and encoded
/// as JPEG (PNG when they have transparency); their `scale` is 1, so `size` is in pixels.
/// ```swift
/// PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 256, height: 256),
///                                       contentMode: .aspectFill, options: nil) { image, info in
///     guard let image else { return }
///     try? image.jpegData(compressionQuality: 0.9)?.write(to: URL(fileURLWithPath: "/tmp/thumb.jpg"))
/// }
/// ```
/// Or from a file, for `PHAssetChangeRequest.creationRequestForAsset(from:)`:
/// ```swift
/// guard let image = UIImage(contentsOfFile: "/tmp/photo.jpg") else { return }
/// PHAssetChangeRequest.creationRequestForAsset(from: image)
/// ```
public final class UIImage: Sendable {
    /// UIKit's orientations; images made here are always ``up``.
    public enum Orientation: Int, Sendable, Hashable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// Decoded samples: rows top to bottom, RGB or RGBA, 8 bits each, sRGB.
    public typealias Pixels = ImagePixels

    /// Encodings of images made here: `.jpeg`, `.png`, `.webp`.
    public typealias Format = ImageFormat

    /// The encoded image.
    public let data: Data
    /// The size in points: pixels divided by ``scale``.
    public let size: CGSize
    /// Pixels a point; 1 for images from ``PHImageManager``.
    public let scale: CGFloat
    /// How the encoded pixels are turned: ``Orientation/up`` once they are upright.
    public let imageOrientation: Orientation
    /// The uniform type identifier of ``data`` (`public.jpeg`), when known.
    public let uniformTypeIdentifier: String?

    /// An image from encoded data; nil when libvips cannot read its header (as UIKit's is nil
    /// for data that is not an image). Its pixels are not decoded until asked for.
    public init?(data: Data) {
        guard !data.isEmpty, let header = try? Self.headers.header(of: [UInt8](data)) else { return nil }
        self.data = data
        size = CGSize(width: header.size.width, height: header.size.height)
        scale = 1
        imageOrientation = .up
        uniformTypeIdentifier = nil
    }

    /// An image from a file; nil when it cannot be read or is not an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    /// An image rendered by PhotosImaging.
    init(rendered: RenderedImage) {
        data = Data(rendered.data)
        size = CGSize(width: rendered.size.width, height: rendered.size.height)
        scale = 1
        imageOrientation = .up
        uniformTypeIdentifier = rendered.format.uniformTypeIdentifier
    }

    /// The decoded pixels (not in UIKit's API, where `cgImage` gives them).
    public func pixels() throws -> Pixels {
        try Self.renderer.pixels(of: [UInt8](data))
    }

    /// The image as JPEG at `compressionQuality` (0 to 1); nil when it cannot be decoded.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        let quality = Int((min(max(compressionQuality, 0), 1) * 100).rounded())
        return (try? Self.renderer.transcode([UInt8](data), to: .jpeg, quality: max(quality, 1))).map { Data($0) }
    }

    /// The image as PNG; nil when it cannot be decoded.
    public func pngData() -> Data? {
        if uniformTypeIdentifier == ImageFormat.png.uniformTypeIdentifier { return data }
        return (try? Self.renderer.transcode([UInt8](data), to: .png, quality: 100)).map { Data($0) }
    }

    private static let renderer = ImageRenderer()
    /// Headers only: a file's header is read whatever size it declares; decoding keeps the limit.
    private static let headers = ImageRenderer(limits: .init(maximumPixelCount: .max))
}
