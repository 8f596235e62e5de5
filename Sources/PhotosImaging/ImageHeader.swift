import PhotosMetadata

/// What an image file's header says, read without decoding its pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The size as stored, before orientation.
    public let storedSize: PixelSize
    /// EXIF orientation, 1 (upright) to 8.
    public let orientation: Int
    /// Pages or frames (an animated GIF or WebP has several; the first is shown).
    public let pages: Int
    /// The libvips loader that reads it (`jpegload_source`, `heifload_source`...).
    public let loader: String
    /// The EXIF block, if any.
    let exif: [UInt8]?
    /// Samples a pixel (1 grey, 3 RGB, 4 CMYK or RGB with alpha).
    let bands: Int
    /// Bytes a sample as decoded (2 for a 16-bit PNG).
    var bytesPerSample = 1
    /// An interlaced PNG, which libvips decodes whole into memory.
    var interlaced = false
    /// A progressive JPEG, whose coefficients libjpeg keeps for the whole picture.
    var progressive = false

    /// The size as displayed: orientations 5 to 8 turn the picture a quarter.
    public var size: PixelSize { orientation >= 5 && orientation <= 8 ? storedSize.transposed : storedSize }

    /// The camera's embedded JPEG thumbnail, if the EXIF block has one.
    public var embeddedThumbnail: [UInt8]? {
        guard let exif, exif.count <= 0xFFFF else { return nil }
        return ExifThumbnail.jpeg(inExifBlock: exif)
    }
}
