/// The small JPEG a camera stores beside the picture, in the EXIF block's second directory (IFD1).
///
/// Typically 160 x 120. It is stored as the sensor saw the scene: the picture's orientation
/// applies to it too. Some cameras pad it to 4:3 with black bars whatever the picture's shape,
/// so a caller compares its proportions with the picture's before showing it in its place.
///
/// ```swift
/// if let jpeg = ExifThumbnail.jpeg(inExifBlock: block) { ... }
/// ```
public enum ExifThumbnail {
    /// The thumbnail of an EXIF block (starting `Exif\0\0`, at most 64 KiB as in a JPEG's APP1),
    /// when it has one that is a JPEG; nil otherwise.
    public static func jpeg(inExifBlock block: [UInt8]) -> [UInt8]? {
        guard let reader = ExifReader(block: block), let thumbnail = reader.thumbnail,
            thumbnail.count > 4, thumbnail[0] == 0xFF, thumbnail[1] == 0xD8
        else { return nil }
        return thumbnail
    }
}
