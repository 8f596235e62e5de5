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
    /// An EXIF-style orientation (1-8) the container states outside EXIF (LibRaw's flip); EXIF's
    /// own Orientation wins over it.
    var orientation: Int?
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
    /// A location from the container's own metadata (ISO 6709 or 3GPP `loci`: ``ISO6709Location``).
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    /// The direction of travel, degrees from true north (QuickTime `com.apple.quicktime.direction.motion`).
    var course: Double?
    /// The camera from the container's own metadata.
    var make: String?
    var model: String?
    /// The lens from the container's own metadata.
    var lensModel: String?
    /// A movie's Live Photo identifier (QuickTime key `com.apple.quicktime.content.identifier`).
    var contentIdentifier: String?
    /// Frames per second of a movie's video track: its sample count over its duration.
    var frameRate: Double?
    /// QuickTime key `com.apple.quicktime.full-frame-rate-playback-intent`: 1 when a high frame
    /// rate movie is meant to play at full speed, 0 when it is slow motion.
    var fullFrameRatePlaybackIntent: Int?
    /// Whether the picture carries a depth map or a portrait matte beside it: a HEIF auxiliary
    /// image of a depth type, or a JPEG's MPF image whose XMP is depth data.
    var hasDepth = false
    /// Whether the file holds a stereo pair: a HEIF `ster` entity group, or a video track whose
    /// sample entry is multi-layer HEVC (`lhvC`) stating a left and a right eye view (`vexu`).
    var isStereo = false
    /// The first video track's QuickTime key `com.apple.photos.captureMode` ("Time-lapse", ...).
    var captureMode: String?
    /// Android's `com.android.capture.fps`: the rate frames were captured at, when the recorder was
    /// asked for one other than the playback rate.
    var captureFrameRate: Double?
    /// Whether a timed metadata track (`mebx`) declares both Cinematic mode keys.
    var hasCinematicMetadata = false
    /// QuickTime key `com.apple.quicktime.cinematic-video-intent`: 0 when a movie recorded with
    /// Cinematic metadata is not to be treated as Cinematic.
    var cinematicVideoIntent: Int?
    /// Whether the image holds more than one frame (GIF, APNG, WebP animation).
    var isAnimated = false
    /// The byte range of a movie embedded in a still image (a motion photo).
    var embeddedVideo: Range<Int>?

    /// Sets the stored size when both sides are positive.
    mutating func setSize(_ width: Int, _ height: Int) {
        guard width > 0, height > 0 else { return }
        self.width = width
        self.height = height
    }
}
