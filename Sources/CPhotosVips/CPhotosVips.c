#include "CPhotosVips.h"

#include <CPhotosLoader.h>
#include <lcms2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

/// libvips, GObject and Little CMS, opened on the first image (CPhotosLoader), not when the program
/// starts, as FFmpeg and LibRaw are: linked, libvips and the ninety libraries it needs (cairo,
/// pango, X11, HDF5, OpenEXR, libcurl, Kerberos...) would load into every `photos` command and
/// photosd, for the commands and scans that never decode a pixel. The headers fix the ABI the code
/// was compiled against (libvips' soname is its CURRENT - AGE). GLib itself is linked: the vips
/// headers need its include paths, which only pkg-config knows, and pkg-config links what it
/// names; g_free and the like are called directly.
#define VIPS_FUNCTIONS(X)                                                                                     \
    X(vips_version) X(vips_init) X(vips_cache_set_max) X(vips_cache_set_max_mem) X(vips_cache_set_max_files)  \
    X(vips_block_untrusted_set) X(vips_operation_block_set) X(vips_error) X(vips_error_buffer_copy)           \
    X(vips_error_clear) X(vips_image_get_width) X(vips_image_get_height) X(vips_image_get_orientation)        \
    X(vips_image_get_n_pages) X(vips_image_get_bands) X(vips_image_get_format) X(vips_format_sizeof)          \
    X(vips_image_get_typeof) X(vips_image_get_int) X(vips_image_get_string) X(vips_image_get_blob)            \
    X(vips_image_get_interpretation) X(vips_image_set_int) X(vips_image_hasalpha) X(vips_source_new_from_descriptor) \
    X(vips_image_new_from_source) X(vips_image_new_from_buffer) X(vips_image_new_from_memory_copy)            \
    X(vips_image_copy_memory) X(vips_image_write_to_memory) X(vips_thumbnail_source) X(vips_copy)             \
    X(vips_autorot) X(vips_resize) X(vips_rot) X(vips_extract_area) X(vips_extract_band) X(vips_embed)        \
    X(vips_colourspace_issupported) X(vips_colourspace) X(vips_icc_transform) X(vips_cast_uchar)              \
    X(vips_flatten) X(vips_array_double_newv) X(vips_area_unref) X(vips_jpegsave_buffer)                     \
    X(vips_pngsave_buffer) X(vips_webpsave_buffer)
#define LCMS_FUNCTIONS(X)                                                                                     \
    X(cmsOpenProfileFromMem) X(cmsGetColorSpace) X(cmsCreate_sRGBProfile) X(cmsCreateTransform)               \
    X(cmsCloseProfile) X(cmsDeleteTransform) X(cmsDoTransform)

static struct {
#define DECLARE(name) __typeof__(&name) name;
    VIPS_FUNCTIONS(DECLARE)
    LCMS_FUNCTIONS(DECLARE)
#undef DECLARE
    __typeof__(&g_object_unref) g_object_unref;
    // GLib defines g_object_ref as a macro (a cast to the argument's type), hence another name.
    __typeof__(&(g_object_ref)) object_ref;
} lib;

static void drop_warning(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static int start(char *error, size_t error_size) {
    char vips_name[32];
    snprintf(vips_name, sizeof vips_name, "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    char vips_package[32];
    snprintf(vips_package, sizeof vips_package, "libvips%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    photos_library libraries[] = {
        {vips_name, vips_package, NULL},
        {"libgobject-2.0.so.0", "libglib2.0-0", NULL},
        {"liblcms2.so.2", "liblcms2-2", NULL},
    };
    static const photos_symbol symbols[] = {
#define VIPS_SYMBOL(name) {0, #name, (void **)&lib.name},
#define LCMS_SYMBOL(name) {2, #name, (void **)&lib.name},
        VIPS_FUNCTIONS(VIPS_SYMBOL) LCMS_FUNCTIONS(LCMS_SYMBOL)
#undef VIPS_SYMBOL
#undef LCMS_SYMBOL
        {1, "g_object_unref", (void **)&lib.g_object_unref}, {1, "g_object_ref", (void **)&lib.object_ref},
    };
    if (photos_load("libvips", libraries, sizeof libraries / sizeof *libraries, symbols,
            sizeof symbols / sizeof *symbols, error, error_size) != 0) {
        return -1;
    }
    // What VIPS_INIT checks (it calls libvips' functions by name, so cannot be used here).
    int abi = lib.vips_version(3) - lib.vips_version(5);
    if (abi != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(error, error_size, "%s has ABI version %d, photosd was built for %d", vips_name,
            abi, VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
        return -1;
    }
    if (lib.vips_init("photosd") != 0) {
        char *reason = lib.vips_error_buffer_copy();
        snprintf(error, error_size, "vips_init failed: %s",
            reason != NULL && reason[0] != '\0' ? reason : "no reason given");
        g_free(reason);
        return -1;
    }
    // Each request is a different file or size, and 8.14 keys a load by its file name alone.
    lib.vips_cache_set_max(0);
    lib.vips_cache_set_max_mem(0);
    lib.vips_cache_set_max_files(0);
    lib.vips_block_untrusted_set(TRUE);
    // libvips 8.14 counts its JPEG XL loader as untrusted only for being new; JPEG XL is a format
    // cameras and phones write.
    lib.vips_operation_block_set("VipsForeignLoadJxl", FALSE);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, drop_warning, NULL);
    return 0;
}

static photos_once starting = PHOTOS_ONCE_INIT;

int cphotos_vips_start(void) { return photos_once_run(&starting, start, NULL, 0); }

char *cphotos_vips_take_error(void) {
    if (cphotos_vips_start() != 0) { return g_strdup(starting.error); }
    char *text = lib.vips_error_buffer_copy();
    if (text != NULL && text[0] == '\0') {
        g_free(text);
        return NULL;
    }
    return text;
}

void cphotos_vips_free(void *pointer) { g_free(pointer); }

static void fill_header(VipsImage *image, cphotos_vips_header *header) {
    memset(header, 0, sizeof *header);
    header->width = lib.vips_image_get_width(image);
    header->height = lib.vips_image_get_height(image);
    header->orientation = lib.vips_image_get_orientation(image);
    header->pages = lib.vips_image_get_n_pages(image);
    header->bands = lib.vips_image_get_bands(image);
    header->bytes_per_sample = (int)lib.vips_format_sizeof(lib.vips_image_get_format(image));
    int flag = 0;
    // Set by libvips' PNG loader ("interlaced") and JPEG loader ("jpeg-multiscan") for these costly kinds.
    if (lib.vips_image_get_typeof(image, "interlaced") != 0 && lib.vips_image_get_int(image, "interlaced", &flag) == 0) {
        header->interlaced = flag != 0;
    }
    flag = 0;
    if (lib.vips_image_get_typeof(image, "jpeg-multiscan") != 0
        && lib.vips_image_get_int(image, "jpeg-multiscan", &flag) == 0) {
        header->progressive = flag != 0;
    }
    const char *loader = NULL;
    if (lib.vips_image_get_typeof(image, VIPS_META_LOADER) != 0
        && lib.vips_image_get_string(image, VIPS_META_LOADER, &loader) == 0 && loader != NULL) {
        g_strlcpy(header->loader, loader, sizeof header->loader);
    }
    const void *exif = NULL;
    size_t length = 0;
    if (lib.vips_image_get_typeof(image, VIPS_META_EXIF_NAME) != 0
        && lib.vips_image_get_blob(image, VIPS_META_EXIF_NAME, &exif, &length) == 0 && exif != NULL && length > 0) {
        header->exif = g_memdup2(exif, length);
        header->exif_length = length;
    }
}

void *cphotos_vips_source(int descriptor) { return lib.vips_source_new_from_descriptor(descriptor); }

int cphotos_vips_read_header(void *source, cphotos_vips_header *header) {
    VipsImage *image = lib.vips_image_new_from_source(
        (VipsSource *)source, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) { return -1; }
    fill_header(image, header);
    lib.g_object_unref(image);
    return 0;
}

int cphotos_vips_read_header_buffer(const void *data, size_t length, cphotos_vips_header *header) {
    VipsImage *image = lib.vips_image_new_from_buffer(
        data, length, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) { return -1; }
    fill_header(image, header);
    lib.g_object_unref(image);
    return 0;
}

void *cphotos_vips_thumbnail(void *source, int width, int height) {
    VipsImage *out = NULL;
    // The loader's own options go through option_string: 8.14 does not pass thumbnail's fail_on on
    // to a source's loader, and a truncated JPEG would come back grey at the bottom.
    if (lib.vips_thumbnail_source((VipsSource *)source, &out, width, "height", height, "size", VIPS_SIZE_FORCE,
            "option_string", "fail_on=error", NULL) != 0) {
        return NULL;
    }
    return out;
}

void *cphotos_vips_heif_thumbnail(void *source, int picture_width, int picture_height) {
    VipsImage *image = lib.vips_image_new_from_source((VipsSource *)source, "", "thumbnail", TRUE,
        "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) { return NULL; }
    if (lib.vips_image_get_width(image) == picture_width && lib.vips_image_get_height(image) == picture_height) {
        lib.g_object_unref(image);
        return NULL;
    }
    return image;
}

/// Makes `*image` the output of the operation that just ran (`status` its result), releasing the
/// input; on failure releases the input and leaves NULL. 0, or -1. The operation runs before the
/// call, never among its arguments: C leaves the order of evaluating those open, and `output`
/// must be read after the operation set it.
static int advance(VipsImage **image, VipsImage *output, int status) {
    lib.g_object_unref(*image);
    if (status != 0) {
        if (output != NULL) { lib.g_object_unref(output); }
        *image = NULL;
        return -1;
    }
    *image = output;
    return 0;
}

void *cphotos_vips_decode_buffer(
    const void *data, size_t length, int orientation, int width, int height, double max_pixels) {
    VipsImage *image = lib.vips_image_new_from_buffer(
        data, length, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) { return NULL; }
    int stored_width = lib.vips_image_get_width(image), stored_height = lib.vips_image_get_height(image);
    if ((double)stored_width * (double)stored_height > max_pixels) {
        lib.vips_error("photosd", "the image declares %dx%d pixels, above the limit of %.0f",
            stored_width, stored_height, max_pixels);
        lib.g_object_unref(image);
        return NULL;
    }
    VipsImage *next = NULL;
    int status;
    if (orientation >= 1 && orientation <= 8) {
        // Metadata is set on a copy: the loaded image may be shared.
        status = lib.vips_copy(image, &next, NULL);
        if (advance(&image, next, status) != 0) { return NULL; }
        lib.vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    }
    next = NULL;
    status = lib.vips_autorot(image, &next, NULL);
    if (advance(&image, next, status) != 0) { return NULL; }
    int upright_width = lib.vips_image_get_width(image), upright_height = lib.vips_image_get_height(image);
    if (width > 0 && height > 0 && (width != upright_width || height != upright_height)) {
        next = NULL;
        status = lib.vips_resize(image, &next, (double)width / upright_width,
            "vscale", (double)height / upright_height, NULL);
        if (advance(&image, next, status) != 0) { return NULL; }
    }
    void *done = cphotos_vips_finish(image);
    lib.g_object_unref(image);
    return done;
}

void *cphotos_vips_from_rgb(const void *pixels, int width, int height, int rotation) {
    VipsImage *image = lib.vips_image_new_from_memory_copy(pixels, (size_t)width * height * 3, width, height, 3,
        VIPS_FORMAT_UCHAR);
    if (image == NULL) { return NULL; }
    VipsAngle angle = rotation == 90 ? VIPS_ANGLE_D90 : rotation == 180 ? VIPS_ANGLE_D180
                      : rotation == 270                 ? VIPS_ANGLE_D270
                                                        : VIPS_ANGLE_D0;
    if (angle == VIPS_ANGLE_D0) { return image; }
    VipsImage *next = NULL;
    int status = lib.vips_rot(image, &next, angle, NULL);
    if (advance(&image, next, status) != 0) { return NULL; }
    return image;
}

void *cphotos_vips_crop(void *image, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    if (lib.vips_extract_area((VipsImage *)image, &out, left, top, width, height, NULL) != 0) { return NULL; }
    return out;
}

void *cphotos_vips_resize(void *pointer, int width, int height) {
    VipsImage *image = pointer, *out = NULL;
    int status = lib.vips_resize(image, &out, (double)width / lib.vips_image_get_width(image),
        "vscale", (double)height / lib.vips_image_get_height(image), NULL);
    if (status != 0) { return NULL; }
    // vips_resize rounds; a pixel short is cut or padded so the size is the one asked for.
    if (lib.vips_image_get_width(out) != width || lib.vips_image_get_height(out) != height) {
        VipsImage *exact = NULL;
        status = lib.vips_embed(out, &exact, 0, 0, width, height, "extend", VIPS_EXTEND_COPY, NULL);
        lib.g_object_unref(out);
        if (status != 0) { return NULL; }
        out = exact;
    }
    return out;
}

/// Transforms from embedded profiles to sRGB, made once per distinct profile. Making one costs lcms
/// 5 to 8 ms (it precalculates a table), more than the rest of a 256 px thumbnail of a 12 MP
/// HEIC; every iPhone photo carries the same Display P3 profile, every phone JPEG the same sRGB.
/// Slots are filled once and never emptied (a transform may be in use on another thread); past
/// them, a transform is made and freed per image.
enum { transform_slots = 16 };
typedef struct {
    void *profile;
    size_t length;
    int bands;
    cmsHTRANSFORM transform;
} cached_transform;
static cached_transform transforms[transform_slots];
static pthread_mutex_t transforms_lock = PTHREAD_MUTEX_INITIALIZER;

/// A transform of 8-bit RGB (`bands` 3) or RGBA (4, alpha copied) pixels from `profile` to sRGB,
/// relative colorimetric; `*cached` says whether the caller must free it. NULL when lcms cannot
/// use the profile or it is not an RGB one.
static cmsHTRANSFORM transform_to_srgb(const void *profile, size_t length, int bands, int *cached) {
    pthread_mutex_lock(&transforms_lock);
    int free_slot = -1;
    for (int index = 0; index < transform_slots; index++) {
        cached_transform *slot = &transforms[index];
        if (slot->transform == NULL) {
            if (free_slot < 0) { free_slot = index; }
            continue;
        }
        if (slot->bands == bands && slot->length == length && memcmp(slot->profile, profile, length) == 0) {
            pthread_mutex_unlock(&transforms_lock);
            *cached = 1;
            return slot->transform;
        }
    }
    cmsHTRANSFORM transform = NULL;
    cmsHPROFILE source = lib.cmsOpenProfileFromMem(profile, (cmsUInt32Number)length);
    if (source != NULL && lib.cmsGetColorSpace(source) == cmsSigRgbData) {
        cmsHPROFILE srgb = lib.cmsCreate_sRGBProfile();
        cmsUInt32Number format = bands == 4 ? TYPE_RGBA_8 : TYPE_RGB_8;
        // NOCACHE: one transform is used by several threads at once.
        cmsUInt32Number flags = cmsFLAGS_NOCACHE | (bands == 4 ? cmsFLAGS_COPY_ALPHA : 0);
        if (srgb != NULL) {
            transform = lib.cmsCreateTransform(source, format, srgb, format, INTENT_RELATIVE_COLORIMETRIC, flags);
            lib.cmsCloseProfile(srgb);
        }
    }
    if (source != NULL) { lib.cmsCloseProfile(source); }
    *cached = 0;
    if (transform != NULL && free_slot >= 0) {
        void *copy = g_memdup2(profile, length);
        transforms[free_slot] = (cached_transform){copy, length, bands, transform};
        *cached = 1;
    }
    pthread_mutex_unlock(&transforms_lock);
    return transform;
}

/// Applies `image`'s embedded profile (8-bit RGB or RGBA) through a kept transform: 1 with
/// `*result` in memory, without the profile; 0 when that path does not apply (`image` is as it
/// was); -1 when the pixels could not be decoded.
static int apply_profile(VipsImage *image, const void *profile, size_t length, VipsImage **result) {
    *result = NULL;
    int bands = lib.vips_image_get_bands(image);
    if (lib.vips_image_get_format(image) != VIPS_FORMAT_UCHAR || (bands != 3 && bands != 4)) { return 0; }
    int cached = 0;
    cmsHTRANSFORM transform = transform_to_srgb(profile, length, bands, &cached);
    if (transform == NULL) { return 0; }
    VipsImage *memory = lib.vips_image_copy_memory(image);
    if (memory != NULL) {
        int width = lib.vips_image_get_width(memory), height = lib.vips_image_get_height(memory);
        size_t size = (size_t)width * height * bands;
        unsigned char *pixels = g_try_malloc(size);
        if (pixels != NULL) {
            lib.cmsDoTransform(transform, memory->data, pixels, (cmsUInt32Number)(size / bands));
            *result = lib.vips_image_new_from_memory_copy(pixels, size, width, height, bands, VIPS_FORMAT_UCHAR);
            g_free(pixels);
        } else {
            lib.vips_error("photosd", "out of memory for %dx%d pixels", width, height);
        }
        lib.g_object_unref(memory);
    }
    if (!cached) { lib.cmsDeleteTransform(transform); }
    return *result != NULL ? 1 : -1;
}

void *cphotos_vips_finish(void *pointer) {
    VipsImage *image = pointer, *next = NULL;
    lib.object_ref(image);
    if (!lib.vips_colourspace_issupported(image)) {
        // An image libvips has no colour route for (MULTIBAND...): taken as RGB or grey.
        VipsInterpretation as = lib.vips_image_get_bands(image) >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
        int status = lib.vips_copy(image, &next, "interpretation", as, NULL);
        if (advance(&image, next, status) != 0) { return NULL; }
        next = NULL;
    }
    // An embedded profile (Display P3 in every iPhone HEIC, Adobe RGB from cameras) is applied:
    // the result is encoded without it, and its pixels must mean sRGB. CMYK was imported already.
    const void *profile = NULL;
    size_t profile_length = 0;
    if (lib.vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0
        && lib.vips_image_get_interpretation(image) != VIPS_INTERPRETATION_CMYK
        && lib.vips_image_get_blob(image, VIPS_META_ICC_NAME, &profile, &profile_length) == 0 && profile != NULL) {
        // 8-bit RGB, the usual case, through a transform made once per profile; anything else
        // (16 bits, grey) through libvips' own transform.
        VipsImage *applied = NULL;
        int applying = apply_profile(image, profile, profile_length, &applied);
        if (applying < 0) {
            // The decode failed: libvips' reason is in its error buffer.
            lib.g_object_unref(image);
            return NULL;
        }
        int status = 0;
        if (applying == 0) {
            status = lib.vips_icc_transform(image, &next, "srgb", "embedded", TRUE,
                "intent", VIPS_INTENT_RELATIVE, "depth", 8, NULL);
            applied = next;
        }
        if (status != 0 || applied == NULL) {
            // A profile lcms cannot use is ignored, as a browser would: the pixels are taken as sRGB.
            lib.vips_error_clear();
            if (applied != NULL) { lib.g_object_unref(applied); }
        } else {
            lib.g_object_unref(image);
            image = applied;
        }
        next = NULL;
    }
    if (lib.vips_image_get_interpretation(image) != VIPS_INTERPRETATION_sRGB
        || lib.vips_image_get_format(image) != VIPS_FORMAT_UCHAR) {
        int status = lib.vips_colourspace(image, &next, VIPS_INTERPRETATION_sRGB, NULL);
        if (advance(&image, next, status) != 0) { return NULL; }
        next = NULL;
    }
    if (lib.vips_image_get_format(image) != VIPS_FORMAT_UCHAR) {
        int status = lib.vips_cast_uchar(image, &next, NULL);
        if (advance(&image, next, status) != 0) { return NULL; }
        next = NULL;
    }
    if (lib.vips_image_get_bands(image) > 4) {
        int status = lib.vips_extract_band(image, &next, 0, "n", 4, NULL);
        if (advance(&image, next, status) != 0) { return NULL; }
        next = NULL;
    }
    VipsImage *memory = lib.vips_image_copy_memory(image);
    lib.g_object_unref(image);
    return memory;
}

int cphotos_vips_width(void *image) { return lib.vips_image_get_width((VipsImage *)image); }
int cphotos_vips_height(void *image) { return lib.vips_image_get_height((VipsImage *)image); }
int cphotos_vips_bands(void *image) { return lib.vips_image_get_bands((VipsImage *)image); }

int cphotos_vips_encode(void *pointer, int format, int quality, void **data, size_t *length) {
    VipsImage *image = pointer;
    *data = NULL;
    *length = 0;
    switch (format) {
    case CPHOTOS_VIPS_JPEG: {
        if (!lib.vips_image_hasalpha(image)) {
            return lib.vips_jpegsave_buffer(image, data, length, "Q", quality, "strip", TRUE, NULL);
        }
        VipsArrayDouble *white = lib.vips_array_double_newv(1, 255.0);
        VipsImage *flat = NULL;
        int status = lib.vips_flatten(image, &flat, "background", white, NULL);
        lib.vips_area_unref(VIPS_AREA(white));
        if (status != 0) { return -1; }
        status = lib.vips_jpegsave_buffer(flat, data, length, "Q", quality, "strip", TRUE, NULL);
        lib.g_object_unref(flat);
        return status;
    }
    case CPHOTOS_VIPS_PNG:
        return lib.vips_pngsave_buffer(image, data, length, "strip", TRUE, NULL);
    case CPHOTOS_VIPS_WEBP:
        return lib.vips_webpsave_buffer(image, data, length, "Q", quality, "strip", TRUE, NULL);
    default:
        lib.vips_error("photosd", "unknown output format %d", format);
        return -1;
    }
}

void *cphotos_vips_pixels(void *image, size_t *length) {
    return lib.vips_image_write_to_memory((VipsImage *)image, length);
}

void cphotos_vips_release(void *image) { lib.g_object_unref(image); }
