#ifndef PHOTOSD_CPHOTOSVIPS_H
#define PHOTOSD_CPHOTOSVIPS_H
/* Plain, non-variadic C functions over the few libvips calls PhotosImaging makes. libvips' own
   entry points take their options as NULL-terminated varargs (`vips_thumbnail(path, &out, width,
   "height", h, NULL)`), which Swift cannot call. No libvips or GLib type appears here: an image
   is an opaque pointer that PhotosImaging's `VipsImage` owns and hands back to
   cphotos_vips_release. Every function that fails leaves libvips' reason for
   cphotos_vips_take_error. */
#include <stddef.h>

/// Starts libvips once per process (VIPS_INIT) and sets its limits for hostile input: no
/// operation cache (libvips 8.14 would serve a changed file's old pixels), untrusted loaders
/// (ImageMagick, MATLAB, FITS...) blocked, its GLib warnings kept off stderr. 0, or -1.
int cphotos_vips_start(void);

/// libvips' error text since the last call, to free with cphotos_vips_free; NULL when empty.
char *_Nullable cphotos_vips_take_error(void);

/// Frees a buffer libvips allocated (g_free).
void cphotos_vips_free(void *_Nullable pointer);

/// What a file's header says, read without decoding its pixels.
typedef struct {
    /// The stored size, before orientation.
    int width;
    int height;
    /// EXIF orientation, 1 to 8 (1 when the file has none).
    int orientation;
    /// The number of pages or frames.
    int pages;
    /// Samples a pixel (1 grey, 3 RGB, 4 CMYK or RGBA...).
    int bands;
    /// Bytes a sample as the loader decodes it (1 for 8 bits, 2 for 16, 4 for float...).
    int bytes_per_sample;
    /// An interlaced (Adam7) PNG: libvips decodes it whole into memory, never a strip at a time.
    int interlaced;
    /// A progressive (multi-scan) JPEG: libjpeg keeps every coefficient of the picture, at full
    /// size whatever the shrink-on-load.
    int progressive;
    /// The name of the libvips loader (`jpegload`, `pngload`, `heifload`...).
    char loader[48];
    /// A copy of the EXIF block (`Exif\0\0...`) or NULL, to free with cphotos_vips_free.
    void *_Nullable exif;
    size_t exif_length;
} cphotos_vips_header;

/// A libvips source reading the open file `descriptor` (which it duplicates: the caller still
/// closes its own). Files are read through descriptors rather than names because libvips parses
/// a name ending in `]` as options (`photo[2].jpg]`), and so that the header checked is the
/// file decoded.
void *_Nullable cphotos_vips_source(int descriptor);

/// Reads the header of `source` without decoding its pixels. 0, or -1.
int cphotos_vips_read_header(void *_Nonnull source, cphotos_vips_header *_Nonnull header);

/// Reads the header of encoded image data. 0, or -1.
int cphotos_vips_read_header_buffer(
    const void *_Nonnull data, size_t length, cphotos_vips_header *_Nonnull header);

/// The image of `source`, upright (orientation applied), scaled to exactly `width` x `height` as
/// displayed, with shrink-on-load where the format has it (vips_thumbnail). Lazy: pixels are
/// decoded by cphotos_vips_finish. Fails on truncated or damaged data rather than guessing.
void *_Nullable cphotos_vips_thumbnail(void *_Nonnull source, int width, int height);

/// The thumbnail a HEIF or AVIF file carries beside its picture (an iPhone's is 320x240), upright
/// and lazy; NULL when the file has none (libvips then gives the picture itself, which is
/// released and not returned: `picture_width` x `picture_height` tells it apart).
void *_Nullable cphotos_vips_heif_thumbnail(void *_Nonnull source, int picture_width, int picture_height);

/// Encoded image data, decoded, oriented by `orientation` (1-8; 0 = the data's own EXIF
/// orientation), scaled to `width` x `height` (0 x 0 = as it is). Refuses data whose header
/// declares more than `max_pixels` before decoding any. The data must outlive the call only:
/// the result is in memory.
void *_Nullable cphotos_vips_decode_buffer(
    const void *_Nonnull data, size_t length, int orientation, int width, int height, double max_pixels);

/// An image of `width` x `height` RGB pixels (8 bits a channel, rows of `width * 3` bytes), copied,
/// then turned `rotation` degrees clockwise (0, 90, 180 or 270): a video's frame, upright.
void *_Nullable cphotos_vips_from_rgb(const void *_Nonnull pixels, int width, int height, int rotation);

/// The area of `image` at `left`, `top` of `width` x `height` (lazy).
void *_Nullable cphotos_vips_crop(void *_Nonnull image, int left, int top, int width, int height);

/// `image` scaled to exactly `width` x `height` (lazy).
void *_Nullable cphotos_vips_resize(void *_Nonnull image, int width, int height);

/// `image` converted to 8-bit sRGB (an embedded colour profile applied, grey and CMYK to RGB, alpha kept)
/// and decoded into memory: the step where damaged data fails.
void *_Nullable cphotos_vips_finish(void *_Nonnull image);

int cphotos_vips_width(void *_Nonnull image);
int cphotos_vips_height(void *_Nonnull image);
int cphotos_vips_bands(void *_Nonnull image);

/// Output formats for cphotos_vips_encode.
enum { CPHOTOS_VIPS_JPEG = 0, CPHOTOS_VIPS_PNG = 1, CPHOTOS_VIPS_WEBP = 2 };

/// Encodes `image` without metadata (it is upright and sRGB already); JPEG flattens alpha onto
/// white. 0 with `*data` to free with cphotos_vips_free, or -1.
int cphotos_vips_encode(
    void *_Nonnull image, int format, int quality, void *_Nullable *_Nonnull data, size_t *_Nonnull length);

/// The pixels of `image`, row by row, `bands` bytes each; to free with cphotos_vips_free.
void *_Nullable cphotos_vips_pixels(void *_Nonnull image, size_t *_Nonnull length);

/// Releases an image or a source (g_object_unref).
void cphotos_vips_release(void *_Nonnull image);
#endif
