#include "CPhotosRaw.h"

#include "exif_tags.h"

#include <CPhotosLoader.h>
#include <libraw/libraw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// LibRaw, opened on the first RAW (CPhotosLoader), not when the program starts: linked, it and
/// what it needs (OpenMP, JasPer...) would load into every `photos` command and photosd. The header
/// fixes the library version (the ABI) the code was compiled against.
#define LIBRAW_FUNCTIONS(X)                                                                              \
    X(libraw_init) X(libraw_open_file) X(libraw_close) X(libraw_strerror) X(libraw_unpack_thumb)          \
    X(libraw_dcraw_make_mem_thumb) X(libraw_dcraw_clear_mem) X(libraw_unpack) X(libraw_dcraw_process)     \
    X(libraw_dcraw_make_mem_image) X(libraw_set_exifparser_handler) X(libraw_adjust_sizes_info_only)

static struct {
#define DECLARE(name) __typeof__(&name) name;
    LIBRAW_FUNCTIONS(DECLARE)
#undef DECLARE
} lr;

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static int load(char *error, size_t error_size) {
    static photos_library libraries[] = {
        {"libraw_r.so." STRINGIFY(LIBRAW_SHLIB_CURRENT), "libraw" STRINGIFY(LIBRAW_SHLIB_CURRENT), NULL},
    };
    static const photos_symbol symbols[] = {
#define SYMBOL(name) {0, #name, (void **)&lr.name},
        LIBRAW_FUNCTIONS(SYMBOL)
#undef SYMBOL
    };
    return photos_load("LibRaw", libraries, 1, symbols, sizeof symbols / sizeof *symbols, error, error_size);
}

static photos_once loading = PHOTOS_ONCE_INIT;

/// Loads LibRaw once; 0, or -1 with the reason in `error`.
static int loaded(char *error, size_t error_size) { return photos_once_run(&loading, load, error, error_size); }

static void say(char *error, size_t error_size, const char *what, int code) {
    if (code != 0) {
        snprintf(error, error_size, "%s: %s", what, lr.libraw_strerror(code));
    } else {
        snprintf(error, error_size, "%s", what);
    }
}

/// LibRaw's flip as an EXIF orientation: LibRaw reads orientation 1-8 as flip 0, 1, 3, 2, 4, 6, 7, 5
/// (bit 0 mirrors left to right, bit 1 top to bottom, bit 2 transposes).
static int orientation_of(int flip) {
    switch (flip) {
    case 1: return 2;
    case 2: return 4;
    case 3: return 3;
    case 4: return 5;
    case 5: return 8;
    case 6: return 6;
    case 7: return 7;
    default: return 1;
    }
}

void *cphotos_raw_open(const char *path, cphotos_raw_info *info, char *error, size_t error_size) {
    memset(info, 0, sizeof *info);
    if (loaded(error, error_size) != 0) { return NULL; }
    libraw_data_t *raw = lr.libraw_init(0);
    if (raw == NULL) {
        say(error, error_size, "LibRaw could not start", 0);
        return NULL;
    }
    int code = lr.libraw_open_file(raw, path);
    if (code != LIBRAW_SUCCESS) {
        say(error, error_size, "not a camera RAW LibRaw reads", code);
        lr.libraw_close(raw);
        return NULL;
    }
    info->width = raw->sizes.width;
    info->height = raw->sizes.height;
    info->orientation = orientation_of(raw->sizes.flip);
    info->has_preview = raw->thumbnail.tlength > 0;
    info->preview_width = raw->thumbnail.twidth;
    info->preview_height = raw->thumbnail.theight;
    snprintf(info->make, sizeof info->make, "%s", raw->idata.make);
    snprintf(info->model, sizeof info->model, "%s", raw->idata.model);
    return raw;
}

int cphotos_raw_preview(void *pointer, void **data, size_t *length, int *is_jpeg, int *width, int *height,
    char *error, size_t error_size) {
    libraw_data_t *raw = pointer;
    *data = NULL;
    *length = 0;
    int code = lr.libraw_unpack_thumb(raw);
    if (code != LIBRAW_SUCCESS) {
        say(error, error_size, "the embedded preview cannot be read", code);
        return -1;
    }
    libraw_processed_image_t *image = lr.libraw_dcraw_make_mem_thumb(raw, &code);
    if (image == NULL) {
        say(error, error_size, "the embedded preview cannot be read", code);
        return -1;
    }
    int usable = image->type == LIBRAW_IMAGE_JPEG
                 || (image->type == LIBRAW_IMAGE_BITMAP && image->bits == 8 && image->colors == 3
                     && image->data_size == (unsigned)image->width * image->height * 3);
    if (!usable || image->data_size == 0) {
        say(error, error_size, "the embedded preview is in a form not read here", 0);
        lr.libraw_dcraw_clear_mem(image);
        return -1;
    }
    *data = malloc(image->data_size);
    if (*data == NULL) {
        say(error, error_size, "out of memory", 0);
        lr.libraw_dcraw_clear_mem(image);
        return -1;
    }
    memcpy(*data, image->data, image->data_size);
    *length = image->data_size;
    *is_jpeg = image->type == LIBRAW_IMAGE_JPEG;
    *width = image->width;
    *height = image->height;
    lr.libraw_dcraw_clear_mem(image);
    return 0;
}

int cphotos_raw_develop(void *pointer, int half, double max_pixels, void **pixels, int *width, int *height,
    char *error, size_t error_size) {
    libraw_data_t *raw = pointer;
    *pixels = NULL;
    if ((double)raw->sizes.raw_width * (double)raw->sizes.raw_height > max_pixels) {
        char what[128];
        snprintf(what, sizeof what, "the sensor declares %dx%d pixels, above the limit of %.0f",
            raw->sizes.raw_width, raw->sizes.raw_height, max_pixels);
        say(error, error_size, what, 0);
        return -1;
    }
    raw->params.half_size = half != 0;
    raw->params.use_camera_wb = 1;
    raw->params.output_bps = 8;
    raw->params.output_color = 1;  // sRGB
    int code = lr.libraw_unpack(raw);
    if (code == LIBRAW_SUCCESS) { code = lr.libraw_dcraw_process(raw); }
    if (code != LIBRAW_SUCCESS) {
        say(error, error_size, "the sensor data cannot be developed", code);
        return -1;
    }
    libraw_processed_image_t *image = lr.libraw_dcraw_make_mem_image(raw, &code);
    if (image == NULL) {
        say(error, error_size, "the developed picture cannot be made", code);
        return -1;
    }
    if (image->type != LIBRAW_IMAGE_BITMAP || image->bits != 8 || image->colors != 3
        || image->data_size != (unsigned)image->width * image->height * 3) {
        say(error, error_size, "the developed picture is not 8-bit RGB", 0);
        lr.libraw_dcraw_clear_mem(image);
        return -1;
    }
    *pixels = malloc(image->data_size);
    if (*pixels == NULL) {
        say(error, error_size, "out of memory", 0);
        lr.libraw_dcraw_clear_mem(image);
        return -1;
    }
    memcpy(*pixels, image->data, image->data_size);
    *width = image->width;
    *height = image->height;
    lr.libraw_dcraw_clear_mem(image);
    return 0;
}

int cphotos_raw_metadata_read(const char *path, cphotos_raw_metadata *metadata, char *error, size_t error_size) {
    memset(metadata, 0, sizeof *metadata);
    if (loaded(error, error_size) != 0) { return -2; }
    // No data-error callback: LibRaw's default one prints to standard error, and a scan reports a
    // file it cannot read as a rejection instead.
    libraw_data_t *raw = lr.libraw_init(LIBRAW_OPIONS_NO_DATAERR_CALLBACK);
    if (raw == NULL) {
        say(error, error_size, "LibRaw could not start", 0);
        return -1;
    }
    lr.libraw_set_exifparser_handler(raw, cphotos_raw_exif_tag, metadata);
    int code = lr.libraw_open_file(raw, path);
    if (code != LIBRAW_SUCCESS) {
        say(error, error_size, "not a camera RAW LibRaw reads", code);
        lr.libraw_close(raw);
        return -1;
    }
    metadata->raw_width = raw->sizes.raw_width;
    metadata->raw_height = raw->sizes.raw_height;
    metadata->crop_width = raw->sizes.raw_inset_crop.cwidth;
    metadata->crop_height = raw->sizes.raw_inset_crop.cheight;
    metadata->declared_width = raw->makernotes.sony.prd_ImageWidth;
    metadata->declared_height = raw->makernotes.sony.prd_ImageHeight;
    metadata->orientation = orientation_of(raw->sizes.flip);
    metadata->timestamp = (long long)raw->other.timestamp;
    snprintf(metadata->make, sizeof metadata->make, "%s", raw->idata.make);
    snprintf(metadata->model, sizeof metadata->model, "%s", raw->idata.model);
    const char *lens = raw->lens.Lens[0] != '\0' ? raw->lens.Lens : raw->lens.makernotes.Lens;
    snprintf(metadata->lens, sizeof metadata->lens, "%s", lens);
    // After the fields above: it rewrites the sizes it adjusts.
    lr.libraw_adjust_sizes_info_only(raw);
    metadata->developed_width = raw->sizes.iwidth;
    metadata->developed_height = raw->sizes.iheight;
    lr.libraw_close(raw);
    return 0;
}

void cphotos_raw_close(void *raw) { lr.libraw_close(raw); }

void cphotos_raw_free(void *pointer) { free(pointer); }
