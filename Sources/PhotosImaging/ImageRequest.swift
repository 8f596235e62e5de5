/// Encoded formats a rendered image can be written in.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, webp

    /// The format's uniform type identifier.
    public var uniformTypeIdentifier: String {
        switch self {
        case .jpeg: "public.jpeg"
        case .png: "public.png"
        case .webp: "org.webmproject.webp"
        }
    }
}

/// What to make of an image: its size, crop and encoding.
///
/// ```swift
/// var request = ImageRequest(target: PixelSize(width: 256, height: 256), fill: true)
/// request.crop = NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
/// ```
public struct ImageRequest: Sendable, Hashable {
    /// The box to fit or fill; nil for the image's own size.
    public var target: PixelSize?
    /// Fill the box (one side may be longer than it) rather than fit inside it.
    public var fill: Bool
    /// The part of the upright image to keep; nil for all of it.
    public var crop: NormalizedRect?
    /// The encoding; nil for JPEG, or PNG when the image has transparency.
    public var format: ImageFormat?
    /// JPEG and WebP quality, 1 to 100.
    public var quality: Int

    /// Creates a request.
    public init(
        target: PixelSize? = nil, fill: Bool = false, crop: NormalizedRect? = nil, format: ImageFormat? = nil,
        quality: Int = 85
    ) {
        self.target = target
        self.fill = fill
        self.crop = crop
        self.format = format
        self.quality = quality
    }
}

/// A rendered image: upright, sRGB, 8 bits a channel, encoded.
public struct RenderedImage: Sendable, Hashable {
    /// Its size in pixels.
    public let size: PixelSize
    /// The encoded image, without metadata (nothing left to rotate it twice).
    public let data: [UInt8]
    /// The encoding.
    public let format: ImageFormat
    /// Whether it has an alpha channel.
    public let hasAlpha: Bool
    /// Whether it was made from the camera's embedded thumbnail rather than the picture.
    public let isFromEmbeddedThumbnail: Bool
}

/// Decoded pixels: rows top to bottom, `channels` bytes a pixel (3: RGB, 4: RGBA), sRGB.
public struct ImagePixels: Sendable, Hashable {
    /// The size in pixels.
    public let size: PixelSize
    /// Bytes a pixel: 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// The samples, `size.width * channels` bytes a row.
    public let bytes: [UInt8]

    /// Pixels from samples: `bytes.count` must be `size.width * size.height * channels`.
    public init(size: PixelSize, channels: Int, bytes: [UInt8]) {
        precondition(bytes.count == size.width * size.height * channels, "samples do not match the size")
        self.size = size
        self.channels = channels
        self.bytes = bytes
    }

    /// The samples of the pixel at `x`, `y`.
    public func pixel(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = (y * size.width + x) * channels
        return bytes[start..<start + channels]
    }
}
