#include "CPhotosVideo.h"

#include <CPhotosLoader.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

/// FFmpeg's libraries, opened on the first video (CPhotosLoader), not when the program starts:
/// linked, they and the seventy libraries they need (every codec Debian builds them with) would
/// load into every `photos` command and photosd, for a scan that never decodes a frame. The
/// headers fix the major versions (the ABI) the code was compiled against. Each function is listed
/// with its library: 0 libavutil, 1 libavcodec, 2 libavformat, 3 libswscale.
#define FFMPEG_FUNCTIONS(X)                                                                              \
    X(0, av_log_set_level) X(0, av_strerror) X(0, av_malloc) X(0, av_mallocz) X(0, av_free) X(0, av_freep) \
    X(0, av_dict_set) X(0, av_dict_free) X(0, av_display_rotation_get) X(0, av_frame_alloc)              \
    X(0, av_frame_free) X(1, avcodec_get_name) X(1, avcodec_find_decoder) X(1, avcodec_alloc_context3)   \
    X(1, avcodec_parameters_to_context) X(1, avcodec_open2) X(1, avcodec_receive_frame)                  \
    X(1, avcodec_send_packet) X(1, avcodec_free_context) X(1, av_packet_alloc) X(1, av_packet_free)      \
    X(1, av_packet_unref) X(2, avio_alloc_context) X(2, avio_context_free) X(2, avformat_alloc_context)  \
    X(2, avformat_open_input) X(2, avformat_find_stream_info) X(2, avformat_close_input)                 \
    X(2, av_find_best_stream) X(2, av_read_frame) X(2, av_stream_get_side_data) X(3, sws_getContext)     \
    X(3, sws_freeContext) X(3, sws_getCoefficients) X(3, sws_getColorspaceDetails)                      \
    X(3, sws_setColorspaceDetails) X(3, sws_scale)

static struct {
#define DECLARE(library, name) __typeof__(&name) name;
    FFMPEG_FUNCTIONS(DECLARE)
#undef DECLARE
} ff;

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
#define FFMPEG_LIBRARY(name, major) {#name ".so." STRINGIFY(major), #name STRINGIFY(major), NULL}

static int load(char *error, size_t error_size) {
    static photos_library libraries[] = {
        FFMPEG_LIBRARY(libavutil, LIBAVUTIL_VERSION_MAJOR), FFMPEG_LIBRARY(libavcodec, LIBAVCODEC_VERSION_MAJOR),
        FFMPEG_LIBRARY(libavformat, LIBAVFORMAT_VERSION_MAJOR), FFMPEG_LIBRARY(libswscale, LIBSWSCALE_VERSION_MAJOR),
    };
    static const photos_symbol symbols[] = {
#define SYMBOL(library, name) {library, #name, (void **)&ff.name},
        FFMPEG_FUNCTIONS(SYMBOL)
#undef SYMBOL
    };
    if (photos_load("FFmpeg", libraries, sizeof libraries / sizeof *libraries, symbols,
            sizeof symbols / sizeof *symbols, error, error_size) != 0) {
        return -1;
    }
    ff.av_log_set_level(AV_LOG_QUIET);
    return 0;
}

static photos_once loading = PHOTOS_ONCE_INIT;

/// Loads FFmpeg once; 0, or -1 with the reason in `error`.
static int loaded(char *error, size_t error_size) { return photos_once_run(&loading, load, error, error_size); }

/// The demuxers of the containers cameras, phones and screen recorders write. Every other one
/// (playlists, which open further files; image sequences; the long tail of old formats) is refused.
static const char *const allowed_formats = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,mpeg,flv,asf,ogg";

/// Packets read for one frame at most: a stream that gives no picture in that many is damaged.
static const int max_packets = 2000;

/// The descriptor FFmpeg reads through, and the file's size for AVSEEK_SIZE.
typedef struct {
    int descriptor;
    int64_t size;
} reader;

typedef struct {
    AVFormatContext *format;
    AVIOContext *io;
    reader file;
    int video_stream;
} video;

static int read_packet(void *opaque, uint8_t *buffer, int size) {
    reader *file = opaque;
    ssize_t count;
    do {
        count = read(file->descriptor, buffer, (size_t)size);
    } while (count < 0 && errno == EINTR);
    if (count < 0) { return AVERROR(errno); }
    if (count == 0) { return AVERROR_EOF; }
    return (int)count;
}

static int64_t seek(void *opaque, int64_t offset, int whence) {
    reader *file = opaque;
    if (whence & AVSEEK_SIZE) { return file->size; }
    off_t position = lseek(file->descriptor, (off_t)offset, whence & ~AVSEEK_FORCE);
    return position < 0 ? AVERROR(errno) : (int64_t)position;
}

static void say(char *error, size_t error_size, const char *what, int code) {
    char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
    if (code != 0) {
        ff.av_strerror(code, reason, sizeof reason);
        snprintf(error, error_size, "%s: %s", what, reason);
    } else {
        snprintf(error, error_size, "%s", what);
    }
}

static void release(video *opened) {
    if (opened->format != NULL) { ff.avformat_close_input(&opened->format); }
    if (opened->io != NULL) {
        ff.av_freep(&opened->io->buffer);
        ff.avio_context_free(&opened->io);
    }
    ff.av_free(opened);
}

/// Degrees to turn the stream clockwise to show it upright, from its display matrix.
static int rotation_of(AVStream *stream) {
    size_t size = 0;
    const int32_t *matrix = (const int32_t *)ff.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix == NULL || size < 9 * sizeof(int32_t)) { return 0; }
    double degrees = ff.av_display_rotation_get(matrix);  // counterclockwise
    if (isnan(degrees)) { return 0; }
    int clockwise = (int)lround(-degrees / 90.0) * 90;
    clockwise %= 360;
    if (clockwise < 0) { clockwise += 360; }
    return clockwise;
}

static double seconds(int64_t value, AVRational base) {
    if (value == AV_NOPTS_VALUE || base.den == 0) { return -1; }
    return (double)value * av_q2d(base);
}

static void describe(AVStream *stream, cphotos_video_track *track) {
    AVCodecParameters *parameters = stream->codecpar;
    memset(track, 0, sizeof *track);
    track->identifier = stream->id > 0 ? stream->id : stream->index + 1;
    track->kind = parameters->codec_type == AVMEDIA_TYPE_VIDEO   ? CPHOTOS_VIDEO_VIDEO
                  : parameters->codec_type == AVMEDIA_TYPE_AUDIO ? CPHOTOS_VIDEO_AUDIO
                                                                 : CPHOTOS_VIDEO_OTHER;
    snprintf(track->codec, sizeof track->codec, "%s", ff.avcodec_get_name(parameters->codec_id));
    track->bit_rate = parameters->bit_rate;
    track->duration = seconds(stream->duration, stream->time_base);
    track->is_attached_picture = (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0;
    if (track->kind == CPHOTOS_VIDEO_VIDEO) {
        track->width = parameters->width;
        track->height = parameters->height;
        track->display_width = parameters->width;
        track->display_height = parameters->height;
        AVRational aspect = stream->sample_aspect_ratio.num > 0 ? stream->sample_aspect_ratio
                                                                : parameters->sample_aspect_ratio;
        if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den) {
            double width = (double)parameters->width * aspect.num / aspect.den;
            if (width >= 1 && width <= 1e6) { track->display_width = (int)lround(width); }
        }
        track->rotation = rotation_of(stream);
        AVRational rate = stream->avg_frame_rate.num > 0 ? stream->avg_frame_rate : stream->r_frame_rate;
        track->frame_rate = rate.den > 0 && rate.num > 0 ? av_q2d(rate) : 0;
    } else if (track->kind == CPHOTOS_VIDEO_AUDIO) {
        track->sample_rate = parameters->sample_rate;
        track->channels = parameters->ch_layout.nb_channels;
    }
}

void *cphotos_video_open(int descriptor, cphotos_video_info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    info->primary_video = -1;
    if (loaded(error, error_size) != 0) { return NULL; }
    struct stat status;
    if (fstat(descriptor, &status) != 0) {
        say(error, error_size, strerror(errno), 0);
        return NULL;
    }
    video *opened = ff.av_mallocz(sizeof *opened);
    if (opened == NULL) {
        say(error, error_size, "out of memory", 0);
        return NULL;
    }
    opened->file = (reader){.descriptor = descriptor, .size = (int64_t)status.st_size};
    opened->video_stream = -1;
    const int buffer_size = 1 << 16;
    uint8_t *buffer = ff.av_malloc(buffer_size);
    if (buffer != NULL) {
        opened->io = ff.avio_alloc_context(buffer, buffer_size, 0, &opened->file, read_packet, NULL, seek);
        if (opened->io == NULL) { ff.av_free(buffer); }
    }
    opened->format = ff.avformat_alloc_context();
    if (opened->io == NULL || opened->format == NULL) {
        say(error, error_size, "out of memory", 0);
        release(opened);
        return NULL;
    }
    opened->format->pb = opened->io;
    opened->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    AVDictionary *options = NULL;
    ff.av_dict_set(&options, "format_whitelist", allowed_formats, 0);
    // No protocol at all: the one input is the descriptor, and nothing in a file opens another.
    ff.av_dict_set(&options, "protocol_whitelist", "none", 0);
    int code = ff.avformat_open_input(&opened->format, NULL, NULL, &options);
    ff.av_dict_free(&options);
    if (code < 0) {
        // avformat_open_input frees the context on failure.
        opened->format = NULL;
        say(error, error_size, "not a video container FFmpeg reads", code);
        release(opened);
        return NULL;
    }
    code = ff.avformat_find_stream_info(opened->format, NULL);
    if (code < 0) {
        say(error, error_size, "the streams cannot be read", code);
        release(opened);
        return NULL;
    }
    AVFormatContext *format = opened->format;
    info->duration = format->duration == AV_NOPTS_VALUE ? -1 : (double)format->duration / AV_TIME_BASE;
    snprintf(info->container, sizeof info->container, "%s", format->iformat->name);
    int best = ff.av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    for (unsigned index = 0; index < format->nb_streams && info->track_count < CPHOTOS_VIDEO_MAX_TRACKS; index++) {
        cphotos_video_track *track = &info->tracks[info->track_count];
        describe(format->streams[index], track);
        if ((int)index == best && track->kind == CPHOTOS_VIDEO_VIDEO && !track->is_attached_picture) {
            info->primary_video = info->track_count;
            opened->video_stream = (int)index;
        }
        info->track_count++;
    }
    // Containers without track identifiers (AVI) give every stream the same id: positions then.
    for (int first = 0; first < info->track_count; first++) {
        for (int second = first + 1; second < info->track_count; second++) {
            if (info->tracks[first].identifier != info->tracks[second].identifier) { continue; }
            for (int index = 0; index < info->track_count; index++) { info->tracks[index].identifier = index + 1; }
            return opened;
        }
    }
    return opened;
}

static int convert(AVFrame *picture, int width, int height, cphotos_video_frame *frame, char *error,
    size_t error_size) {
    struct SwsContext *scaler = ff.sws_getContext(picture->width, picture->height, picture->format, width, height,
        AV_PIX_FMT_RGB24, width < picture->width ? SWS_AREA : SWS_BICUBIC, NULL, NULL, NULL);
    if (scaler == NULL) {
        say(error, error_size, "the frame's pixel format cannot be converted", 0);
        return -1;
    }
    // The YUV matrix the stream declares (BT.709 for HD video; swscale would assume BT.601).
    int space = picture->colorspace;
    if (space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RESERVED) {
        space = picture->height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_BT470BG;
    }
    int *source_table, *destination_table, source_range, destination_range, brightness, contrast, saturation;
    if (ff.sws_getColorspaceDetails(scaler, &source_table, &source_range, &destination_table, &destination_range,
            &brightness, &contrast, &saturation) >= 0) {
        if (picture->color_range == AVCOL_RANGE_JPEG) { source_range = 1; }
        ff.sws_setColorspaceDetails(scaler, ff.sws_getCoefficients(space), source_range, destination_table, 1,
            brightness, contrast, saturation);
    }
    // swscale's vector code writes past the end of a row: rows are converted into aligned,
    // padded strides, then packed tight for libvips.
    size_t tight = (size_t)width * 3, stride = FFALIGN(tight, 64);
    uint8_t *pixels = ff.av_malloc(stride * (size_t)height + 64);
    if (pixels == NULL) {
        ff.sws_freeContext(scaler);
        say(error, error_size, "out of memory", 0);
        return -1;
    }
    uint8_t *planes[4] = {pixels, NULL, NULL, NULL};
    int strides[4] = {(int)stride, 0, 0, 0};
    ff.sws_scale(scaler, (const uint8_t *const *)picture->data, picture->linesize, 0, picture->height, planes, strides);
    ff.sws_freeContext(scaler);
    for (int row = 1; row < height; row++) { memmove(pixels + row * tight, pixels + row * stride, tight); }
    frame->pixels = pixels;
    frame->width = width;
    frame->height = height;
    return 0;
}

int cphotos_video_decode_frame(void *pointer, int width, int height, double max_pixels, cphotos_video_frame *frame,
    char *error, size_t error_size) {
    video *opened = pointer;
    memset(frame, 0, sizeof *frame);
    if (opened->video_stream < 0) {
        say(error, error_size, "the file has no video track", 0);
        return -1;
    }
    AVStream *stream = opened->format->streams[opened->video_stream];
    AVCodecParameters *parameters = stream->codecpar;
    if (parameters->width <= 0 || parameters->height <= 0
        || (double)parameters->width * (double)parameters->height > max_pixels) {
        char what[128];
        snprintf(what, sizeof what, "the video declares %dx%d pixels, outside the limit of %.0f",
            parameters->width, parameters->height, max_pixels);
        say(error, error_size, what, 0);
        return -1;
    }
    const AVCodec *codec = ff.avcodec_find_decoder(parameters->codec_id);
    if (codec == NULL) {
        char what[96];
        snprintf(what, sizeof what, "no decoder for %s video", ff.avcodec_get_name(parameters->codec_id));
        say(error, error_size, what, 0);
        return -1;
    }
    AVCodecContext *decoder = ff.avcodec_alloc_context3(codec);
    AVPacket *packet = ff.av_packet_alloc();
    AVFrame *picture = ff.av_frame_alloc();
    int result = -1;
    if (decoder == NULL || packet == NULL || picture == NULL) {
        say(error, error_size, "out of memory", 0);
        goto done;
    }
    int code = ff.avcodec_parameters_to_context(decoder, parameters);
    if (code >= 0) {
        // One frame: threads would only add their start-up and delay.
        decoder->thread_count = 1;
        code = ff.avcodec_open2(decoder, codec, NULL);
    }
    if (code < 0) {
        say(error, error_size, "the decoder cannot start", code);
        goto done;
    }
    int packets = 0, draining = 0;
    for (;;) {
        code = ff.avcodec_receive_frame(decoder, picture);
        if (code >= 0) { break; }
        if (code != AVERROR(EAGAIN) || draining) {
            say(error, error_size, draining ? "the video track has no decodable frame" : "the frame cannot be decoded",
                code == AVERROR_EOF ? 0 : code);
            goto done;
        }
        if (++packets > max_packets) {
            say(error, error_size, "no frame in the first packets of the video track", 0);
            goto done;
        }
        code = ff.av_read_frame(opened->format, packet);
        if (code < 0) {
            // The end of the file: what the decoder holds comes out now.
            draining = 1;
            ff.avcodec_send_packet(decoder, NULL);
            continue;
        }
        if (packet->stream_index == opened->video_stream) {
            code = ff.avcodec_send_packet(decoder, packet);
            // A damaged packet is skipped; the next key frame may decode.
            (void)code;
        }
        ff.av_packet_unref(packet);
    }
    if (picture->width <= 0 || picture->height <= 0
        || (double)picture->width * (double)picture->height > max_pixels) {
        say(error, error_size, "the decoded frame's size is outside the limit", 0);
        goto done;
    }
    if (width <= 0 || height <= 0) {
        width = picture->width;
        height = picture->height;
        AVRational aspect = picture->sample_aspect_ratio;
        if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den) {
            double wide = (double)picture->width * aspect.num / aspect.den;
            if (wide >= 1 && wide <= 1e6) { width = (int)lround(wide); }
        }
    }
    result = convert(picture, width, height, frame, error, error_size);
done:
    ff.av_frame_free(&picture);
    ff.av_packet_free(&packet);
    ff.avcodec_free_context(&decoder);
    return result;
}

void cphotos_video_close(void *pointer) { release(pointer); }

void cphotos_video_free(void *pointer) { ff.av_free(pointer); }
