#ifndef PHOTOSD_CEXIF_SHIM_H
#define PHOTOSD_CEXIF_SHIM_H
#include <stddef.h>   /* exif_data_get_entry's macro uses NULL */
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-tag.h>

/// `exif_data_get_entry` is a macro, which Swift cannot import.
static inline ExifEntry *_Nullable cexif_data_get_entry(ExifData *_Nonnull data, ExifTag tag) {
    return exif_data_get_entry(data, tag);
}
#endif
