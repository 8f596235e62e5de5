import Foundation

/// What a container parser found in a file's headers, before EXIF is interpreted.
struct ContainerInfo: Sendable {
    /// The stored pixel size (before orientation or rotation).
    var width: Int?
    var height: Int?
    /// Clockwise rotation in degrees that players and decoders apply (a movie's track matrix, the
    /// HEIF `irot` property, a CRW's ImageInfo). When set, it decides the displayed size instead of
    /// EXIF orientation.
    var rotation: Int?
    /// An EXIF block starting with `Exif\0\0`, ready for ``ExifReader``.
    var exifBlock: [UInt8]?
    /// An XMP packet.
    var xmpPacket: ArraySlice<UInt8>?
    /// A movie's duration in seconds.
    var duration: Double?
    /// A creation instant the container states in UTC (QuickTime `mvhd`).
    var creationDate: Date?
    /// A creation date from the container's own metadata (QuickTime keys or user data), which
    /// usually carries the local offset; preferred over ``creationDate``.
    var statedDate: CapturedDate?
    /// A location from the container's own metadata (ISO 6709 or 3GPP `loci`).
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    /// The camera from the container's own metadata.
    var make: String?
    var model: String?

    /// Sets the stored size when both sides are positive.
    mutating func setSize(_ width: Int, _ height: Int) {
        guard width > 0, height > 0 else { return }
        self.width = width
        self.height = height
    }
}
