#include "CPhotosXMP.h"

#include <CPhotosLoader.h>
#include <pthread.h>
#include <stdio.h>

/// Exempi's functions as loaded. Its C API and ABI are stable within a soname (libexempi.so.8 since
/// Exempi 2.5), which the headers of libexempi-dev fix.
#define XMP_FUNCTIONS(X)                                                                                    \
    X(xmp_init) X(xmp_get_error) X(xmp_register_namespace) X(xmp_new_empty) X(xmp_free) X(xmp_parse)       \
    X(xmp_get_property) X(xmp_has_property) X(xmp_string_new) X(xmp_string_free) X(xmp_string_cstr)        \
    X(xmp_string_len) X(xmp_iterator_new) X(xmp_iterator_next) X(xmp_iterator_free)

static struct {
#define DECLARE(name) __typeof__(&name) name;
    XMP_FUNCTIONS(DECLARE)
#undef DECLARE
} exempi;

static int load(char *error, size_t error_size) {
    static photos_library libraries[] = {{"libexempi.so.8", "libexempi8", NULL}};
    static const photos_symbol symbols[] = {
#define SYMBOL(name) {0, #name, (void **)&exempi.name},
        XMP_FUNCTIONS(SYMBOL)
#undef SYMBOL
    };
    if (photos_load("Exempi", libraries, 1, symbols, sizeof symbols / sizeof *symbols, error, error_size) != 0) {
        return -1;
    }
    if (!exempi.xmp_init()) {
        snprintf(error, error_size, "Exempi cannot start: xmp_init failed (error %d)", exempi.xmp_get_error());
        return -1;
    }
    return 0;
}

static photos_once loading = PHOTOS_ONCE_INIT;

int photos_xmp_load(char *error, size_t error_size) { return photos_once_run(&loading, load, error, error_size); }

int photos_xmp_get_error(void) { return exempi.xmp_get_error(); }

bool photos_xmp_register_namespace(const char *uri, const char *prefix, XmpStringPtr registered_prefix) {
    return exempi.xmp_register_namespace(uri, prefix, registered_prefix);
}

XmpPtr photos_xmp_new_empty(void) { return exempi.xmp_new_empty(); }
bool photos_xmp_free(XmpPtr xmp) { return exempi.xmp_free(xmp); }
bool photos_xmp_parse(XmpPtr xmp, const char *buffer, size_t length) { return exempi.xmp_parse(xmp, buffer, length); }

bool photos_xmp_get_property(XmpPtr xmp, const char *schema, const char *name, XmpStringPtr value, uint32_t *options) {
    return exempi.xmp_get_property(xmp, schema, name, value, options);
}

bool photos_xmp_has_property(XmpPtr xmp, const char *schema, const char *name) {
    return exempi.xmp_has_property(xmp, schema, name);
}

XmpStringPtr photos_xmp_string_new(void) { return exempi.xmp_string_new(); }
void photos_xmp_string_free(XmpStringPtr string) { exempi.xmp_string_free(string); }
const char *photos_xmp_string_cstr(XmpStringPtr string) { return exempi.xmp_string_cstr(string); }
size_t photos_xmp_string_len(XmpStringPtr string) { return exempi.xmp_string_len(string); }
XmpIteratorPtr photos_xmp_iterator_new(XmpPtr xmp) { return exempi.xmp_iterator_new(xmp, NULL, NULL, XMP_ITER_PROPERTIES); }

bool photos_xmp_iterator_next(XmpIteratorPtr iterator, XmpStringPtr schema, XmpStringPtr path, XmpStringPtr value,
    uint32_t *options) {
    return exempi.xmp_iterator_next(iterator, schema, path, value, options);
}

bool photos_xmp_iterator_free(XmpIteratorPtr iterator) { return exempi.xmp_iterator_free(iterator); }
