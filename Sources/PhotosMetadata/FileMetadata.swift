public import Foundation

/// What the library records about one photo or video file.
///
/// Sizes are as displayed: when the EXIF orientation (5–8) or a track or item rotation of 90° or
/// 270° turns the picture, `pixelWidth` and `pixelHeight` are already swapped, as PhotoKit's
/// `PHAsset` reports them. Every field the file does not state is `nil`.
///
/// ```swift
/// let metadata = try MetadataExtractor().extract(path: "DCIM/IMG_0001.JPG")
/// if let date = metadata.creationDate, metadata.creationDateIsFloating {
///     print("taken at \(date), local time of an unknown zone")
/// }
/// ```
public struct FileMetadata: Sendable, Hashable {
    /// Image, video or audio.
    public var kind: MediaKind
    /// The MIME type decided from the content (see ``MediaSniffer``).
    public var mimeType: String
    /// Apple's uniform type identifier, when known.
    public var uniformTypeIdentifier: String?
    /// The displayed width in pixels.
    public var pixelWidth: Int?
    /// The displayed height in pixels.
    public var pixelHeight: Int?
    /// The EXIF orientation, 1–8 (1 = upright); `nil` when absent or out of range.
    public var orientation: Int?
    /// When the picture was taken or the movie recorded.
    ///
    /// With a known offset this is the exact instant. Without one (most EXIF dates) the camera's
    /// wall-clock time was read in the extractor's time zone: see ``creationDateIsFloating``.
    public var creationDate: Date?
    /// The creation date's offset from UTC in seconds east (`3600` for `+01:00`), when the file
    /// states it.
    public var creationDateOffset: Int?
    /// `true` when the creation date is a wall-clock time without a known zone, interpreted in the
    /// extractor's time zone; `false` when it is an exact instant (with or without a known offset,
    /// QuickTime dates are UTC) or there is no date.
    public var creationDateIsFloating: Bool
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
    /// Altitude in metres above sea level (negative below).
    public var altitude: Double?
    /// The camera maker (EXIF `Make`), trimmed.
    public var make: String?
    /// The camera model (EXIF `Model`), trimmed.
    public var model: String?
    /// A movie's duration in seconds, when known.
    public var duration: Double?

    /// Creates a description; everything but the type is optional.
    public init(
        kind: MediaKind,
        mimeType: String,
        uniformTypeIdentifier: String? = nil,
        pixelWidth: Int? = nil,
        pixelHeight: Int? = nil,
        orientation: Int? = nil,
        creationDate: Date? = nil,
        creationDateOffset: Int? = nil,
        creationDateIsFloating: Bool = false,
        latitude: Double? = nil,
        longitude: Double? = nil,
        altitude: Double? = nil,
        make: String? = nil,
        model: String? = nil,
        duration: Double? = nil
    ) {
        self.kind = kind
        self.mimeType = mimeType
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.creationDate = creationDate
        self.creationDateOffset = creationDateOffset
        self.creationDateIsFloating = creationDateIsFloating
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.make = make
        self.model = model
        self.duration = duration
    }
}
