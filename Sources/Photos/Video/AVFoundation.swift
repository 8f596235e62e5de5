import Foundation
import PhotosImaging

// Small stand-ins for the AVFoundation and Core Media types PhotoKit's video requests hand over,
// which Linux lacks: enough for PhotoKit code to read a video's file, duration and tracks, and to
// pass it on to a player or a copy. They read the file with FFmpeg's libraries, in process.

/// A time as a rational number of seconds: Core Media's `CMTime`.
public struct CMTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The count of `1 / timescale` seconds.
    public var value: Int64
    /// Steps a second; 0 for ``invalid``.
    public var timescale: Int32
    /// Whether the time is a number; ``invalid`` is not.
    public let isValid: Bool

    /// `value / timescale` seconds.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale
        isValid = timescale > 0
    }

    /// `seconds`, rounded to `preferredTimescale` steps a second.
    public init(seconds: Double, preferredTimescale: Int32) {
        guard seconds.isFinite, preferredTimescale > 0 else {
            self = .invalid
            return
        }
        self.init(value: Int64((seconds * Double(preferredTimescale)).rounded()), timescale: preferredTimescale)
    }

    private init(invalid: Void) {
        value = 0
        timescale = 0
        isValid = false
    }

    /// No time: what a video that cannot be read gives as its duration.
    public static let invalid = CMTime(invalid: ())
    /// No time at all.
    public static let zero = CMTime(value: 0, timescale: 1)

    /// The time in seconds; NaN for ``invalid``.
    public var seconds: Double { isValid ? Double(value) / Double(timescale) : .nan }

    /// Earlier than, by seconds.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { lhs.seconds < rhs.seconds }

    public var description: String { isValid ? "\(value)/\(timescale) s" : "invalid" }
}

/// Core Media's function form of ``CMTime/seconds``.
public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }

/// A track's identifier in its file.
public typealias CMPersistentTrackID = Int32

/// What a track carries.
public struct AVMediaType: RawRepresentable, Sendable, Hashable {
    /// QuickTime's four-letter media type.
    public let rawValue: String
    /// The type with that code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Moving pictures.
    public static let video = AVMediaType(rawValue: "vide")
    /// Sound.
    public static let audio = AVMediaType(rawValue: "soun")
    /// Timed metadata (and any other track FFmpeg names neither video nor audio).
    public static let metadata = AVMediaType(rawValue: "meta")
    /// Subtitles and other text.
    public static let text = AVMediaType(rawValue: "text")
}

/// A timed media file: AVFoundation's `AVAsset`, read at once by FFmpeg.
///
/// ```swift
/// let asset = AVAsset(url: URL(fileURLWithPath: "/photos/IMG_0001.MOV"))
/// print(asset.duration.seconds, asset.tracks(withMediaType: .video).first?.naturalSize ?? .zero)
/// ```
///
/// A file FFmpeg cannot read gives an ``isPlayable`` of false, an invalid ``duration`` and no
/// tracks, as AVFoundation's properties do when loading fails.
public class AVAsset: NSObject, @unchecked Sendable {  // Subclassed, so unchecked; immutable: `let`s.
    let fileURL: URL
    /// What FFmpeg read, or why it could not.
    let contents: Result<VideoInfo, ImagingError>

    /// The asset of the file at `url` (AVFoundation gives an ``AVURLAsset``; use that class to
    /// read the URL back).
    public init(url: URL) {
        fileURL = url
        contents = Result { () throws(ImagingError) in try VideoInfo(fileAt: url.path) }
        super.init()
    }

    /// The length of the longest track, or ``CMTime/invalid`` when the file cannot be read.
    public var duration: CMTime {
        guard case .success(let info) = contents else { return .invalid }
        let longest = info.duration ?? info.tracks.compactMap(\.duration).max()
        return longest.map { CMTime(seconds: $0, preferredTimescale: 600) } ?? .invalid
    }

    /// The tracks, in the file's order: video, audio, and others (cover art is not a track).
    public var tracks: [AVAssetTrack] {
        guard case .success(let info) = contents else { return [] }
        return info.tracks.filter { !$0.isAttachedPicture }.map { AVAssetTrack(track: $0, asset: self) }
    }

    /// The tracks of one media type.
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track with that identifier.
    public func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        tracks.first { $0.trackID == trackID }
    }

    /// Whether the file was read and has a video or audio track.
    public var isPlayable: Bool { tracks.contains { $0.mediaType == .video || $0.mediaType == .audio } }
    /// Whether the file can be read at all.
    public var isReadable: Bool { (try? contents.get()) != nil }
    /// Whether an ``AVAssetExportSession`` can copy it.
    public var isExportable: Bool { isReadable }

    /// Why the file could not be read (not in AVFoundation, whose loading reports it per property).
    public var loadError: (any Error)? {
        guard case .failure(let error) = contents else { return nil }
        return error
    }
}

/// An asset read from a file, whose URL it keeps.
public class AVURLAsset: AVAsset, @unchecked Sendable {  // No state of its own; AVAsset's is immutable.
    /// The file.
    public var url: URL { fileURL }

    /// The asset of the file at `url`; `options` are accepted and ignored.
    public init(url: URL, options: [String: Any]? = nil) {
        super.init(url: url)
    }
}

/// One track of an ``AVAsset``.
public final class AVAssetTrack: NSObject, @unchecked Sendable {  // Immutable after init (`asset`: weak, set once).
    /// The track's identifier in its file (MP4's `tkhd` track ID).
    public let trackID: CMPersistentTrackID
    /// What the track carries.
    public let mediaType: AVMediaType
    /// Video: the picture's size as stored (pixel aspect ratio applied), before
    /// ``preferredTransform``: a portrait iPhone video is 1920x1080 turned a quarter.
    public let naturalSize: CGSize
    /// Video: how to turn ``naturalSize`` upright, as AVFoundation's matrix (a rotation of 90°
    /// clockwise is `m11 0, m12 1, m21 -1, m22 0, tX height`). Foundation's `AffineTransform`:
    /// Linux has no `CGAffineTransform`.
    public let preferredTransform: AffineTransform
    /// Video: frames a second, 0 when unknown.
    public let nominalFrameRate: Float
    /// Bits a second, 0 when unknown.
    public let estimatedDataRate: Float
    /// The codec's short name (`h264`, `hevc`, `aac`; not in AVFoundation, whose format
    /// descriptions carry it).
    public let codecName: String
    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?

    init(track: VideoTrack, asset: AVAsset) {
        trackID = CMPersistentTrackID(clamping: track.identifier)
        mediaType =
            switch track.kind {
            case .video: .video
            case .audio: .audio
            case .other: .metadata
            }
        let size = track.naturalSize
        naturalSize = CGSize(width: size.width, height: size.height)
        let (width, height) = (CGFloat(size.width), CGFloat(size.height))
        preferredTransform =
            switch track.rotation {
            case 90: AffineTransform(m11: 0, m12: 1, m21: -1, m22: 0, tX: height, tY: 0)
            case 180: AffineTransform(m11: -1, m12: 0, m21: 0, m22: -1, tX: width, tY: height)
            case 270: AffineTransform(m11: 0, m12: -1, m21: 1, m22: 0, tX: 0, tY: width)
            default: AffineTransform()
            }
        nominalFrameRate = Float(track.frameRate)
        estimatedDataRate = Float(track.bitRate)
        codecName = track.codec
        self.asset = asset
    }
}

/// A mix of audio parameters; PhotoKit gives none for an unedited video, and neither does Linux.
public final class AVAudioMix: NSObject, Sendable {}

/// What a player plays: AVFoundation's `AVPlayerItem`, holding its ``asset``.
public final class AVPlayerItem: NSObject, Sendable {
    /// The asset played.
    public let asset: AVAsset

    /// An item playing `asset`.
    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// An item playing the file at `url`.
    public convenience init(url: URL) {
        self.init(asset: AVURLAsset(url: url))
    }

    /// The asset's duration.
    public var duration: CMTime { asset.duration }
}
