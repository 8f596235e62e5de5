internal import CPhotosVideo
internal import CPhotosVips
import Glibc
import PhotosCore

/// What a video file holds, as FFmpeg reads it: its tracks, their sizes and rotation, its duration.
///
/// ```swift
/// let info = try VideoInfo(fileAt: "/photos/IMG_0001.MOV")
/// print(info.duration ?? 0, info.primaryVideo?.displaySize ?? PixelSize(width: 0, height: 0))
/// ```
public struct VideoInfo: Sendable, Hashable {
    /// Seconds, when the container says.
    public let duration: Double?
    /// The demuxer that read it (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `avi`...).
    public let container: String
    /// Every track, in the file's order.
    public let tracks: [VideoTrack]
    /// The index in ``tracks`` of the track poster frames come from.
    public let primaryVideoIndex: Int?

    /// The track poster frames come from: the container's best video track, not cover art.
    public var primaryVideo: VideoTrack? { primaryVideoIndex.map { tracks[$0] } }
}

/// One track of a video file.
public struct VideoTrack: Sendable, Hashable {
    /// What a track carries.
    public enum Kind: Sendable, Hashable {
        /// Moving pictures, sound, or anything else (subtitles, data, cover art).
        case video, audio, other
    }

    /// The container's track identifier (MP4's `tkhd` track ID), or the stream's position + 1.
    public let identifier: Int
    /// What it carries.
    public let kind: Kind
    /// The codec's short name (`h264`, `hevc`, `aac`, `pcm_s16le`).
    public let codec: String
    /// Video: the size as stored, before the pixel aspect ratio and rotation.
    public let storedSize: PixelSize
    /// Video: the stored size with the pixel aspect ratio applied, before rotation.
    public let naturalSize: PixelSize
    /// Video: degrees to turn the picture clockwise to show it upright (0, 90, 180 or 270).
    public let rotation: Int
    /// Video: frames per second, 0 when unknown.
    public let frameRate: Double
    /// Audio: samples per second.
    public let sampleRate: Int
    /// Audio: channels.
    public let channels: Int
    /// Bits per second, 0 when unknown.
    public let bitRate: Int
    /// Seconds, when the container says.
    public let duration: Double?
    /// Cover art attached to the file, not a moving picture.
    public let isAttachedPicture: Bool

    /// Video: the size as displayed, rotation applied.
    public var displaySize: PixelSize { rotation % 180 == 90 ? naturalSize.transposed : naturalSize }
}

/// A video file open for reading: the descriptor, and FFmpeg's demuxer over it.
///
/// The file is opened read-only; FFmpeg reads it through the descriptor with no protocol of its
/// own (a playlist or a reference in the file cannot make it open anything else) and only the
/// demuxers of the containers cameras and phones write.
final class VideoFile {
    let path: String
    let info: VideoInfo
    private let descriptor: Int32
    private let video: UnsafeMutableRawPointer

    init(path: String) throws(ImagingError) {
        self.path = path
        let descriptor = try OpenFile.descriptor(path)
        self.descriptor = descriptor
        var info = cphotos_video_info()
        var error = ErrorText()
        guard let video = error.withBuffer({ cphotos_video_open(descriptor, &info, $0, $1) }) else {
            close(descriptor)
            throw ImagingError(.undecodable, error.text ?? "FFmpeg cannot read it", path: path)
        }
        self.video = video
        self.info = VideoInfo(info)
    }

    deinit {
        cphotos_video_close(video)
        close(descriptor)
    }

    /// The first frame of the primary video track, scaled to `size` (as stored: before rotation),
    /// then turned upright, as a libvips image.
    func firstFrame(scaledTo size: PixelSize, maximumPixelCount: Int) throws(ImagingError) -> VipsObject {
        var frame = cphotos_video_frame()
        var error = ErrorText()
        let status = error.withBuffer {
            cphotos_video_decode_frame(
                video, Int32(size.width), Int32(size.height), Double(maximumPixelCount), &frame, $0, $1)
        }
        guard status == 0, let pixels = frame.pixels else {
            throw ImagingError(.undecodable, error.text ?? "no frame could be decoded", path: path)
        }
        defer { cphotos_video_free(pixels) }
        try Vips.start()
        guard
            let image = cphotos_vips_from_rgb(
                pixels, frame.width, frame.height, Int32(info.primaryVideo?.rotation ?? 0))
        else { throw ImagingError(.failed, Vips.reason("the frame could not be copied"), path: path) }
        return VipsObject(image)
    }
}

extension VideoInfo {
    fileprivate init(_ info: cphotos_video_info) {
        var info = info
        let count = Int(max(0, min(info.track_count, Int32(CPHOTOS_VIDEO_MAX_TRACKS))))
        let tracks = withUnsafeBytes(of: &info.tracks) { raw in
            Array(raw.bindMemory(to: cphotos_video_track.self).prefix(count)).map(VideoTrack.init)
        }
        self.init(
            duration: info.duration >= 0 ? info.duration : nil, container: cString(&info.container), tracks: tracks,
            primaryVideoIndex: info.primary_video >= 0 && Int(info.primary_video) < count
                ? Int(info.primary_video) : nil)
    }
}

extension VideoTrack {
    fileprivate init(_ track: cphotos_video_track) {
        var track = track
        self.init(
            identifier: Int(track.identifier),
            kind: track.kind == CPHOTOS_VIDEO_VIDEO ? .video : track.kind == CPHOTOS_VIDEO_AUDIO ? .audio : .other,
            codec: cString(&track.codec),
            storedSize: PixelSize(width: Int(track.width), height: Int(track.height)),
            naturalSize: PixelSize(width: Int(track.display_width), height: Int(track.display_height)),
            rotation: Int(track.rotation), frameRate: track.frame_rate, sampleRate: Int(track.sample_rate),
            channels: Int(track.channels), bitRate: Int(track.bit_rate),
            duration: track.duration >= 0 ? track.duration : nil, isAttachedPicture: track.is_attached_picture != 0)
    }
}

/// A fixed C character array (a tuple to Swift) as a string.
private func cString<T>(_ tuple: inout T) -> String {
    withUnsafeBytes(of: &tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

extension VideoInfo {
    /// What the video file at `path` holds, read by FFmpeg; the file is only read.
    public init(fileAt path: String) throws(ImagingError) {
        self = try VideoFile(path: path).info
    }
}
