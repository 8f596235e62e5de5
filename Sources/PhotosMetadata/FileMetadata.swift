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
/// if let pairing = metadata.contentIdentifier {
///     print("half of a Live Photo: look for the movie with identifier \(pairing)")
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
    /// How fast the camera moved, in metres per second (EXIF GPSSpeed in its GPSSpeedRef unit), as
    /// `CLLocation.speed` holds it; only with a latitude and longitude from the same source.
    public var speed: Double?
    /// The direction the camera moved in, degrees clockwise from true north (EXIF GPSTrack, or a
    /// movie's `com.apple.quicktime.direction.motion`), as `CLLocation.course` holds it; only with a
    /// latitude and longitude from the same source. The direction the lens faced (GPSImgDirection)
    /// is not a course.
    public var course: Double?
    /// The camera maker (EXIF `Make`), trimmed.
    public var make: String?
    /// The camera model (EXIF `Model`), trimmed.
    public var model: String?
    /// A movie's duration in seconds, when known.
    public var duration: Double?
    /// The lens (EXIF LensModel, or for a RAW read through LibRaw the name its maker-note tables
    /// give), trimmed.
    public var lensModel: String?

    // The facts below let the ingest pipeline group files (Live Photo halves, bursts) and set
    // PhotoKit's media subtypes. They come from the content only, never from the file name. A
    // flag is `true` when the file says so and `nil` when it does not: files do not state the
    // negative, so `nil` reads as "no".

    /// The identifier that pairs a Live Photo's still and movie: the Apple maker note's
    /// ContentIdentifier in the still, QuickTime's `com.apple.quicktime.content.identifier` in
    /// the movie. Both halves carry the same UUID string.
    public var contentIdentifier: String?
    /// The identifier every frame of a burst shares (Apple maker note BurstUUID).
    public var burstIdentifier: String?
    /// An HDR capture (PhotoKit `photoHDR`): Apple's HDRImageType (3, the composite, or 4, the
    /// normal exposure kept beside it) or HDR CustomRendered value, or the HDR fields of Canon's,
    /// Sony's, Nikon's, Pentax's, Panasonic's, Olympus', Fujifilm's or Casio's maker note.
    public var isHDR: Bool?
    /// A screenshot (`photoScreenshot`): the UserComment "Screenshot" that iOS writes in EXIF and XMP.
    public var isScreenshot: Bool?
    /// A screen recording (`videoScreenRecording`): a movie that states no camera, under a name a
    /// system gives its screen recordings (``ScreenRecordingNames``).
    public var isScreenRecording: Bool?
    /// Taken with the front camera (the Selfies smart album): the EXIF LensModel phones write
    /// ("iPhone 12 front camera 2.71mm f/2.2", "Pixel 8 Pro front camera").
    public var isFrontCamera: Bool?
    /// A panorama (`photoPanorama`): Google photo-sphere XMP (GPano) or Apple's panorama
    /// CustomRendered value. A wide aspect ratio alone is not taken as proof.
    public var isPanorama: Bool?
    /// More than one frame (`photoAnimated`): a GIF with several images, an APNG, an animated WebP.
    public var isAnimated: Bool?
    /// A movie's video frames per second (sample count over track duration for QuickTime and
    /// MPEG-4, the main header for AVI).
    public var frameRate: Double?
    /// A slow-motion movie (`videoHighFrameRate`): recorded at 90 frames per second or more and not
    /// marked for full-speed playback (`com.apple.quicktime.full-frame-rate-playback-intent` 1).
    public var isHighFrameRate: Bool?
    /// A photo with depth (`photoDepthEffect`, the Portrait album): a HEIF auxiliary image of a
    /// depth or disparity map or Apple's portrait effects matte, a JPEG whose XMP carries Google's
    /// depth map (GDepth, Dynamic Depth) or whose MPF second image is Apple's depth data. An HDR
    /// gain map or an alpha plane is no depth (``AuxiliaryImageTypes``).
    public var isDepthEffect: Bool?
    /// Spatial media (`spatialMedia`): a stereo HEIF (a `ster` entity group pairing a left and a
    /// right image) or an MV-HEVC movie whose video states both eye views (Apple's `vexu`).
    public var isSpatial: Bool?
    /// A time-lapse movie (`videoTimelapse`): the video track's QuickTime key
    /// `com.apple.photos.captureMode` is "Time-lapse", as the iPhone's Camera writes it, or
    /// Android's `com.android.capture.fps` is below half the movie's frame rate.
    public var isTimelapse: Bool?
    /// A Cinematic mode movie (`videoCinematic`): a timed metadata track declares Apple's
    /// `cinematic-video.rendering` and `cinematic-video.cinematography` keys, and the movie does not
    /// opt out with `com.apple.quicktime.cinematic-video-intent` 0.
    public var isCinematic: Bool?
    /// The star rating the file states, 0 (none) to 5 (`PHAssetRating`): `xmp:Rating`, else the
    /// EXIF Rating tag; a rejected picture (-1) and values out of range count as 0. Nil when the
    /// file states none.
    public var rating: Int?
    /// Where the movie of a motion photo (Google or Samsung) starts in the still's file, in bytes.
    public var embeddedVideoOffset: Int?
    /// The length in bytes of a motion photo's movie; it runs to the end of its box or the file.
    public var embeddedVideoLength: Int?

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
        duration: Double? = nil,
        contentIdentifier: String? = nil,
        burstIdentifier: String? = nil,
        isHDR: Bool? = nil,
        isScreenshot: Bool? = nil,
        isPanorama: Bool? = nil,
        isAnimated: Bool? = nil,
        frameRate: Double? = nil,
        isHighFrameRate: Bool? = nil,
        embeddedVideoOffset: Int? = nil,
        embeddedVideoLength: Int? = nil
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
        self.contentIdentifier = contentIdentifier
        self.burstIdentifier = burstIdentifier
        self.isHDR = isHDR
        self.isScreenshot = isScreenshot
        self.isPanorama = isPanorama
        self.isAnimated = isAnimated
        self.frameRate = frameRate
        self.isHighFrameRate = isHighFrameRate
        self.embeddedVideoOffset = embeddedVideoOffset
        self.embeddedVideoLength = embeddedVideoLength
    }
}
