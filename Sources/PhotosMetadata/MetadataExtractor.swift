public import Foundation
import PhotosCore
import Synchronization

/// Describes a photo or video file: type, displayed size, orientation, creation date, location,
/// camera, duration; and the facts that group and classify it (Live Photo and burst identifiers,
/// HDR, screenshot, panorama, animation, frame rate, a motion photo's movie).
///
/// The type comes from the content (``MediaSniffer``). Sizes come from the format's own headers
/// (JPEG SOF, PNG IHDR, GIF screen, WebP VP8/VP8L/VP8X, BMP, TIFF and RAW IFDs, HEIF `ispe`, JPEG
/// XL, CRW and RAF headers, the Photoshop header, movie track headers, Matroska tracks), never from EXIF's
/// PixelXDimension, which editors often leave stale. Camera RAW families no parser reads (RW2, MRW,
/// X3F, IIQ, 3FR, ...) are read through LibRaw (see ``RAWReading``). Dates, location and camera come from EXIF
/// (through libexif: JPEG, TIFF, DNG, NEF, CR2, CR3, PNG `eXIf` and raw profiles, WebP, HEIF, RAF, PSD), XMP,
/// a movie's QuickTime keys and user data, a PNG's `Creation Time` and an AVI's `IDIT`. Only headers are read: typically the first 64 KiB, plus a few
/// small reads for TIFF directories, movie boxes, and the check that the image data is complete.
///
/// Bad input throws a ``MetadataError`` with the reason, never traps: an empty file, text named
/// `.jpg`, a JPEG cut off inside its image data, a PNG whose chunks run past the end. A file whose
/// pixels are intact but whose EXIF is corrupt is described without the unreadable fields.
///
/// EXIF dates usually carry no UTC offset. Such floating wall-clock times are read in the
/// extractor's `timeZone` and flagged with ``FileMetadata/creationDateIsFloating``.
///
/// ```swift
/// let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "Europe/Paris")!)
/// let metadata = try extractor.extract(path: "/photos/DSCN0010.jpg")
/// print(metadata.pixelWidth!, metadata.pixelHeight!, metadata.latitude!, metadata.longitude!)
/// // 640 480 43.46744833333334 11.885126666663888
/// ```
///
/// The extractor is a value that can be shared across tasks; it keeps a small pool of libmagic
/// cookies so that concurrent extractions do not wait on each other.
public struct MetadataExtractor: Sendable {
    /// The largest pictures the extractor believes: a file whose headers declare more is rejected as
    /// ``MetadataError/Code/tooLarge`` rather than stored with a size that thumbnailers and viewers would then try
    /// to allocate.
    ///
    /// The defaults sit far above any camera (a 100-megapixel sensor, a stitched 30 000-pixel panorama) and below
    /// the values hostile files use (4294967295 on a side, 16777216 squared).
    public struct Limits: Sendable, Hashable {
        /// The most pixels (width × height) a file may declare; a gigapixel by default.
        public var maximumPixelCount: Int
        /// The longest side a file may declare, in pixels; a million by default.
        public var maximumDimension: Int

        /// Creates limits; the defaults are one gigapixel and a million pixels on a side.
        public init(maximumPixelCount: Int = 1_000_000_000, maximumDimension: Int = 1_000_000) {
            self.maximumPixelCount = maximumPixelCount
            self.maximumDimension = maximumDimension
        }
    }

    /// The zone in which EXIF dates without an offset are read.
    public let timeZone: TimeZone
    /// The largest declared size accepted.
    public let limits: Limits
    /// Which reader describes camera RAW files.
    public let rawReading: RAWReading
    private let sniffers = SnifferPool()

    /// Creates an extractor that reads floating EXIF times in `timeZone`, rejects sizes beyond `limits`, and reads
    /// camera RAW files as `rawReading` says.
    public init(timeZone: TimeZone = .current, limits: Limits = Limits(), rawReading: RAWReading = .parsersFirst) {
        self.timeZone = timeZone
        self.limits = limits
        self.rawReading = rawReading
    }

    /// Describes the file at `path`.
    ///
    /// - Throws: ``MetadataError`` with code `unreadable`, `empty`, `notMedia`, `truncated`,
    ///   `corrupt`, `tooLarge` or `libraryUnavailable`.
    public func extract(path: String) throws(MetadataError) -> FileMetadata {
        let (reader, type) = try open(path: path)
        return try extract(reader, type: type)
    }

    /// Opens the file at `path` and decides its type from the content: what every reading of one
    /// file starts with.
    func open(path: String) throws(MetadataError) -> (FileReader, FileType) {
        let reader = try FileReader(path: path)
        guard reader.size > 0 else { throw MetadataError(code: .empty, message: "the file is empty", path: path) }
        let type = try sniffers.withSniffer { $0.fileType(head: reader.head[...], path: path) }
        guard type.kind != .other else {
            var message = "the content is \(type.mimeType), not an image or a video"
            let fileExtension = MediaSniffer.fileExtension(of: path)
            if let claimed = FileType.withExtension(fileExtension) {
                message += ", although the name ends in .\(fileExtension) (\(claimed.mimeType))"
            }
            throw MetadataError(code: .notMedia, message: message, path: path)
        }
        return (reader, type)
    }

    /// Describes an open file whose type is known: the container parser for `type`, the checks, then EXIF and
    /// XMP. The fuzz targets call this with the type fixed, so that every input reaches a parser.
    func extract(_ reader: FileReader, type: FileType) throws(MetadataError) -> FileMetadata {
        let info = try containerInfo(reader, type: type)
        return describe(type: type, info: info, name: PathName.name(of: reader.path))
    }

    /// What the container parser for `type` reads from the file's headers, checked.
    func containerInfo(_ reader: FileReader, type: FileType) throws(MetadataError) -> ContainerInfo {
        let info: ContainerInfo
        let container = rawReading == .libRaw && type.isRAW ? FileType.Container.libRaw : type.container
        switch container {
        case .jpeg: info = try JPEGParser.parse(reader)
        case .png: info = try PNGParser.parse(reader)
        case .gif: info = try GIFParser.parse(reader)
        case .webp: info = try WebPParser.parse(reader)
        case .bmp: info = try BMPParser.parse(reader)
        case .tiff: info = try TIFFParser.parse(reader, type: type)
        case .isoMedia: info = try ISOMediaParser.parse(reader)
        case .avi: info = try AVIParser.parse(reader)
        case .matroska: info = try MatroskaParser.parse(reader)
        case .crw: info = try CRWParser.parse(reader)
        case .raf: info = try RAFParser.parse(reader)
        case .jpegXL: info = try JPEGXLParser.parse(reader)
        case .psd: info = try PSDParser.parse(reader)
        case .libRaw: info = try LibRawReader.read(reader)
        case .none: info = ContainerInfo()
        }
        if type.container != FileType.Container.none {
            try check(info, kind: type.kind, container: reader)
        }
        return info
    }

    /// Rejects what a parser read but cannot vouch for: no size where the format always states one, or a size
    /// beyond ``limits``. Storing either would invent an asset the file does not describe.
    private func check(_ info: ContainerInfo, kind: MediaKind, container reader: FileReader) throws(MetadataError) {
        guard let width = info.width, let height = info.height else {
            switch kind {
            case .image:
                throw reader.corrupt("no image header states the picture's size")
            case .video where info.duration == nil:
                throw reader.corrupt("no movie header states a size or a duration")
            default:
                return
            }
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= limits.maximumDimension, height <= limits.maximumDimension else {
            throw MetadataError(
                code: .tooLarge,
                message: "the headers declare \(width)×\(height) pixels, a side longer than the limit of "
                    + "\(limits.maximumDimension)",
                path: reader.path)
        }
        guard !overflow, pixels <= limits.maximumPixelCount else {
            throw MetadataError(
                code: .tooLarge,
                message: "the headers declare \(width)×\(height) pixels, more than the limit of "
                    + "\(limits.maximumPixelCount)",
                path: reader.path)
        }
    }

    /// Combines the container's facts with the interpreted EXIF and XMP.
    private func describe(type: FileType, info: ContainerInfo, name: String) -> FileMetadata {
        var summary = ExifSummary()
        if let block = info.exifBlock, let exif = ExifReader(block: block) {
            summary = ExifSummary(exif, block: block)
        }
        var hints: XMPHints?
        if let xmp = info.xmpPacket {
            summary.dates += XMPDates.dates(in: xmp)
            hints = XMPHints(xmp)
        }

        var metadata = FileMetadata(
            kind: type.kind, mimeType: type.mimeType, uniformTypeIdentifier: type.uniformTypeIdentifier)
        if let width = info.width, let height = info.height {
            // A rotation stated by the container (movie track matrix, HEIF `irot`, CRW) is what
            // players apply; elsewhere the EXIF orientation is.
            let swapped: Bool
            if let rotation = info.rotation {
                swapped = rotation == 90 || rotation == 270
            } else {
                swapped = (5...8).contains(summary.orientation ?? info.orientation ?? 1)
            }
            metadata.pixelWidth = swapped ? height : width
            metadata.pixelHeight = swapped ? width : height
        }
        metadata.orientation = summary.orientation ?? info.orientation
        // EXIF wins over the container's own metadata; the movie header's UTC time comes last.
        if let captured = summary.bestDate ?? info.statedDate, let date = captured.date(in: timeZone) {
            metadata.creationDate = date
            metadata.creationDateOffset = captured.offset
            metadata.creationDateIsFloating = captured.offset == nil
        } else if let date = info.creationDate {
            metadata.creationDate = date
        }
        if let latitude = summary.latitude, let longitude = summary.longitude {
            metadata.latitude = latitude
            metadata.longitude = longitude
            metadata.altitude = summary.altitude
            (metadata.speed, metadata.course) = (summary.speed, summary.course)
        } else if let latitude = info.latitude, let longitude = info.longitude {
            metadata.latitude = latitude
            metadata.longitude = longitude
            metadata.altitude = info.altitude
            metadata.course = info.course
        } else {
            metadata.altitude = summary.altitude ?? info.altitude
        }
        metadata.make = summary.make ?? info.make
        metadata.model = summary.model ?? info.model
        metadata.lensModel = summary.lensModel ?? info.lensModel
        metadata.duration = info.duration

        metadata.contentIdentifier = summary.contentIdentifier ?? info.contentIdentifier
        metadata.burstIdentifier = summary.burstIdentifier
        metadata.isHDR = Self.flag(summary.isHDR)
        // A screenshot says so in its EXIF or XMP (iOS), else only by its name (macOS, Android...).
        let namedScreenshot =
            type.kind == .image && metadata.make == nil && metadata.model == nil && ScreenshotNames.matches(name)
        metadata.isScreenshot = Self.flag(summary.isScreenshot || hints?.isScreenshot == true || namedScreenshot)
        metadata.isScreenRecording = Self.flag(
            type.kind == .video && metadata.make == nil && metadata.model == nil && ScreenRecordingNames.matches(name))
        metadata.isFrontCamera = Self.flag(metadata.lensModel?.lowercased().contains("front camera") == true)
        metadata.isPanorama = Self.flag(summary.isPanorama || hints?.isPanorama == true)
        metadata.isAnimated = Self.flag(info.isAnimated)
        metadata.isDepthEffect = Self.flag(type.kind == .image && (info.hasDepth || hints?.hasDepthMap == true))
        metadata.isSpatial = Self.flag(info.isStereo)
        metadata.isTimelapse = Self.flag(type.kind == .video && Self.isTimelapse(info))
        // Apple's Photos: a Cinematic metadata track makes a Cinematic video unless the movie says
        // it is not one (`cinematic-video-intent` 0, iOS 26).
        metadata.isCinematic = Self.flag(
            type.kind == .video && info.hasCinematicMetadata && info.cinematicVideoIntent != 0)
        metadata.rating = (hints?.rating ?? summary.rating).map { (0...5).contains($0) ? $0 : 0 }
        metadata.frameRate = info.frameRate
        if let rate = info.frameRate {
            metadata.isHighFrameRate = Self.flag(
                Self.highFrameRates.contains(rate) && info.fullFrameRatePlaybackIntent != 1)
        }
        metadata.embeddedVideoOffset = info.embeddedVideo?.lowerBound
        metadata.embeddedVideoLength = info.embeddedVideo?.count
        return metadata
    }

    /// Slow motion is recorded at 120 or 240 frames per second (960 at most), ordinary video at 60
    /// or less. 1,000 and more is a muxer's clock, not a camera's: WebM writers give every frame
    /// the default 1 ms, which ExifTool reports as 1,000 frames a second.
    static let highFrameRates = 90.0..<1000.0

    /// A time-lapse: the iPhone's Camera names its capture mode "Time-lapse" (what Apple's Photos
    /// reads); Android's recorder states a capture rate below half the playback rate, the ratio at
    /// which its own encoder input (AOSP `GraphicBufferSource`) switches to time-lapse timing.
    static func isTimelapse(_ info: ContainerInfo) -> Bool {
        if info.captureMode == "Time-lapse" { return true }
        guard let capture = info.captureFrameRate, capture > 0, let playback = info.frameRate else { return false }
        return playback > 2 * capture
    }

    /// `true`, or `nil` for no: files state what they are, not what they are not.
    private static func flag(_ value: Bool) -> Bool? {
        value ? true : nil
    }
}

/// Idle libmagic sniffers, lent to one extraction at a time.
final class SnifferPool: Sendable {
    private static let maximumIdle = 4
    private let idle = Mutex<[MediaSniffer]>([])

    /// Runs `body` with a sniffer nobody else is using, creating one when all are busy.
    func withSniffer<Result>(_ body: (MediaSniffer) -> Result) throws(MetadataError) -> Result {
        let sniffer: MediaSniffer
        if let pooled = idle.withLock({ $0.popLast() }) {
            sniffer = pooled
        } else {
            sniffer = try MediaSniffer()
        }
        defer {
            idle.withLock { sniffers in
                if sniffers.count < Self.maximumIdle { sniffers.append(sniffer) }
            }
        }
        return body(sniffer)
    }
}
