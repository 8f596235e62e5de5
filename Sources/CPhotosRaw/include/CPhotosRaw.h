#ifndef PHOTOSD_CPHOTOSRAW_H
#define PHOTOSD_CPHOTOSRAW_H
/* Plain C functions over the few LibRaw calls PhotosImaging and PhotosMetadata make: what a camera RAW
   file holds, its largest embedded preview, its sensor data developed to 8-bit sRGB, and its metadata.
   No LibRaw type appears here. Every function that fails writes its reason into `error` (a buffer of
   `error_size` bytes). */
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

/// What LibRaw reads of a camera RAW file's metadata while identifying it (nothing is decoded).
typedef struct {
    /// The picture LibRaw develops, as displayed: its size after LibRaw's own adjustments (Fujifilm's
    /// 45-degree sensors, non-square pixels) and after `flip` (libraw_adjust_sizes_info_only).
    int developed_width, developed_height;
    /// The visible area the camera declares inside the sensor (LibRaw's raw_inset_crop), as stored
    /// (before `flip`); 0 when the file declares none.
    int crop_width, crop_height;
    /// The sensor's size, as stored.
    int raw_width, raw_height;
    /// The picture size the file states beside the sensor's, as stored (before `flip`): Minolta's PRD
    /// block (MRW) gives both, and LibRaw develops the whole sensor; 0 when the file states none.
    int declared_width, declared_height;
    /// EXIF orientation, 1 to 8, from LibRaw's flip.
    int orientation;
    /// The Orientation tag as the file's TIFF IFD0 states it, 1 to 8; 0 when LibRaw met none. LibRaw does
    /// not always apply it (MRW's TIFF block), so it can differ from `orientation`.
    int exif_orientation;
    /// LibRaw's `other.timestamp`; 0 when the file states no date. Families differ in what it
    /// counts: see cphotos_raw_metadata_read.
    long long timestamp;
    /// EXIF OffsetTimeOriginal as written (`+02:00`), empty when absent.
    char offset_time[16];
    /// The camera as the file's TIFF IFD0 tags Make and Model state it; empty when LibRaw met no such
    /// tag (CIFF, X3F).
    char exif_make[64];
    char exif_model[64];
    /// The camera as LibRaw names it (`Nikon`, `D70`): its normalised spelling.
    char make[64];
    char model[64];
    /// The lens (EXIF LensModel, else LibRaw's name from the maker notes); empty when unknown.
    char lens[128];
} cphotos_raw_metadata;

/// Opens the RAW file at `path` (read only), reads its metadata as LibRaw identifies it, and closes
/// it: 0; -1 when LibRaw does not take the file for a camera RAW; -2 when LibRaw cannot be loaded.
///
/// `timestamp` is LibRaw's: for dates read from EXIF or TIFF text (every TIFF-based family, MRW,
/// CR3, RAF, IIQ) it is mktime() of that wall-clock text, so local time of this process; for Canon
/// CRW and Sigma X3F it is the file's own count of seconds, the camera's wall clock as if it were UTC.
int cphotos_raw_metadata_read(
    const char *_Nonnull path, cphotos_raw_metadata *_Nonnull metadata, char *_Nonnull error, size_t error_size);

void cphotos_raw_close(void *_Nonnull raw);
void cphotos_raw_free(void *_Nullable pointer);
#endif
