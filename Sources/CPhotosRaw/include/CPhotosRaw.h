#ifndef PHOTOSD_CPHOTOSRAW_H
#define PHOTOSD_CPHOTOSRAW_H
/* Plain C functions over the few LibRaw calls PhotosImaging makes: what a camera RAW file holds, its
   largest embedded preview, and its sensor data developed to 8-bit sRGB. No LibRaw type appears
   here. Every function that fails writes its reason into `error` (a buffer of `error_size` bytes). */
#include <stddef.h>

/// What LibRaw makes of a file.
typedef struct {
    /// The developed picture's size, as stored (before orientation).
    int width, height;
    /// EXIF orientation, 1 to 8, from the RAW's own tag.
    int orientation;
    /// The embedded preview: its size as LibRaw reports it (0 when unknown), and whether there is one.
    int has_preview;
    int preview_width, preview_height;
    char make[64];
    char model[64];
} cphotos_raw_info;

/// Opens the RAW file at `path` (read only) and identifies it; NULL when LibRaw does not take it for a
/// camera RAW (a plain TIFF, a JPEG) or cannot read it.
void *_Nullable cphotos_raw_open(
    const char *_Nonnull path, cphotos_raw_info *_Nonnull info, char *_Nonnull error, size_t error_size);

/// The embedded preview: JPEG data (`*is_jpeg` 1) or 8-bit RGB pixels of `*width` x `*height`
/// (`*is_jpeg` 0), to free with cphotos_raw_free. 0, or -1.
int cphotos_raw_preview(
    void *_Nonnull raw, void *_Nullable *_Nonnull data, size_t *_Nonnull length, int *_Nonnull is_jpeg,
    int *_Nonnull width, int *_Nonnull height, char *_Nonnull error, size_t error_size);

/// The sensor data developed (camera white balance, sRGB, 8 bits), upright, at half size when `half`:
/// RGB pixels of `*width` x `*height`, to free with cphotos_raw_free. A picture of more than
/// `max_pixels` is refused before anything is decoded. 0, or -1. Call once per opened file.
int cphotos_raw_develop(
    void *_Nonnull raw, int half, double max_pixels, void *_Nullable *_Nonnull pixels, int *_Nonnull width,
    int *_Nonnull height, char *_Nonnull error, size_t error_size);

void cphotos_raw_close(void *_Nonnull raw);
void cphotos_raw_free(void *_Nullable pointer);
#endif
