#ifndef PHOTOSD_CPHOTOSVIDEO_H
#define PHOTOSD_CPHOTOSVIDEO_H
/* Plain C functions over the few FFmpeg calls PhotosImaging makes: what a video file holds (its
   tracks, sizes, rotation, duration) and one decoded frame of it, for poster frames. No FFmpeg
   type appears here. Files are read through a descriptor the caller opened read-only, with no
   protocol (a playlist cannot make FFmpeg open another file or a URL) and only the demuxers of
   the video containers cameras and phones write. Every function that fails writes its reason
   into `error` (a buffer of `error_size` bytes). */
#include <stddef.h>
#include <stdint.h>

/// Track kinds.
enum { CPHOTOS_VIDEO_OTHER = 0, CPHOTOS_VIDEO_VIDEO = 1, CPHOTOS_VIDEO_AUDIO = 2 };

/// One stream of the file.
typedef struct {
    /// The container's track identifier (MP4 `tkhd`), or the stream's index + 1.
    int identifier;
    int kind;
    /// The decoder's short name (`h264`, `hevc`, `aac`).
    char codec[32];
    /// Video: the stored size, and the size with the pixel aspect ratio applied (before rotation).
    int width, height;
    int display_width, display_height;
    /// Video: degrees to turn the picture clockwise to show it upright (0, 90, 180, 270).
    int rotation;
    /// Video: average frames per second, 0 when unknown.
    double frame_rate;
    /// Audio.
    int sample_rate, channels;
    /// Bits per second, 0 when unknown.
    int64_t bit_rate;
    /// Seconds, negative when unknown.
    double duration;
    /// An attached picture (cover art), not a moving track.
    int is_attached_picture;
} cphotos_video_track;

enum { CPHOTOS_VIDEO_MAX_TRACKS = 16 };

/// What the file holds.
typedef struct {
    /// Seconds, negative when unknown.
    double duration;
    /// The demuxer's name (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `avi`).
    char container[48];
    int track_count;
    /// The index in `tracks` of the video track poster frames come from, or -1.
    int primary_video;
    cphotos_video_track tracks[CPHOTOS_VIDEO_MAX_TRACKS];
} cphotos_video_info;

/// A decoded frame: RGB, 8 bits a channel, rows of `width * 3` bytes, not yet turned by the
/// track's rotation. `pixels` is to free with cphotos_video_free.
typedef struct {
    uint8_t *_Nullable pixels;
    int width, height;
} cphotos_video_frame;

/// Opens the video read through `descriptor` (not duplicated: the caller keeps it open, and its
/// offset moves, until cphotos_video_close) and reads what it holds. NULL on failure.
void *_Nullable cphotos_video_open(
    int descriptor, cphotos_video_info *_Nonnull info, char *_Nonnull error, size_t error_size);

/// The first frame of the primary video track, converted to RGB and scaled to `width` x
/// `height` (0 x 0: its display size). A track that declares more than `max_pixels` is refused
/// before anything is decoded. 0, or -1.
int cphotos_video_decode_frame(
    void *_Nonnull video, int width, int height, double max_pixels, cphotos_video_frame *_Nonnull frame,
    char *_Nonnull error, size_t error_size);

/// Closes a video (not its descriptor).
void cphotos_video_close(void *_Nonnull video);

/// Frees a frame's pixels.
void cphotos_video_free(void *_Nullable pointer);
#endif
