#ifndef CPHOTOS_XMP_H
#define CPHOTOS_XMP_H

// Exempi's types and constants (Debian's libexempi-dev); its functions are called through the
// photos_ ones below.
#include <exempi-2.0/exempi/xmp.h>
#include <stddef.h>

/// Exempi (libexempi, over Adobe's XMP Toolkit), opened on the first sidecar (CPhotosLoader), not
/// when the program starts: every `photos` command would otherwise load it and its C++ runtime.
/// Calls `xmp_init` once. 0 once loaded, or -1 with the reason in `error` ("Exempi cannot be loaded
/// (install libexempi8): ..."). Call it before any function below; it is cheap after the first time.
int photos_xmp_load(char *_Nonnull error, size_t error_size);

// Exempi's functions of the same names, as loaded.
int photos_xmp_get_error(void);
bool photos_xmp_register_namespace(const char *_Nonnull uri, const char *_Nonnull prefix,
    XmpStringPtr _Nullable registered_prefix);
XmpPtr _Nullable photos_xmp_new_empty(void);
bool photos_xmp_free(XmpPtr _Nonnull xmp);
bool photos_xmp_parse(XmpPtr _Nonnull xmp, const char *_Nonnull buffer, size_t length);
bool photos_xmp_get_property(XmpPtr _Nonnull xmp, const char *_Nonnull schema, const char *_Nonnull name,
    XmpStringPtr _Nonnull value, uint32_t *_Nullable options);
bool photos_xmp_has_property(XmpPtr _Nonnull xmp, const char *_Nonnull schema, const char *_Nonnull name);
XmpStringPtr _Nullable photos_xmp_string_new(void);
void photos_xmp_string_free(XmpStringPtr _Nonnull string);
const char *_Nullable photos_xmp_string_cstr(XmpStringPtr _Nonnull string);
size_t photos_xmp_string_len(XmpStringPtr _Nonnull string);
/// Every node of the tree, schemas included (`XMP_ITER_PROPERTIES`), in document order.
XmpIteratorPtr _Nullable photos_xmp_iterator_new(XmpPtr _Nonnull xmp);
bool photos_xmp_iterator_next(XmpIteratorPtr _Nonnull iterator, XmpStringPtr _Nonnull schema,
    XmpStringPtr _Nonnull path, XmpStringPtr _Nonnull value, uint32_t *_Nullable options);
bool photos_xmp_iterator_free(XmpIteratorPtr _Nonnull iterator);

#endif
