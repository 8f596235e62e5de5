#ifndef CPHOTOS_LOADER_H
#define CPHOTOS_LOADER_H

#include <stddef.h>

/// Libraries opened on first use (dlopen), not when the program starts: FFmpeg, LibRaw, libvips
/// and OpenSSL would otherwise load, with everything they need, into every `photos` command. Each
/// wrapper lists its libraries and the functions it calls, and binds them once:
///
///     static photos_library libraries[] = {{"libraw_r.so.23", "libraw23"}};
///     static const photos_symbol symbols[] = {{0, "libraw_init", (void **)&lr.libraw_init}, ...};
///     photos_load("LibRaw", libraries, 1, symbols, count, error, sizeof error);
///
/// The headers a wrapper compiles against fix the ABI, so the sonames carry the major version.

/// One shared library: its soname, and the Debian package that installs it (for the error).
typedef struct {
    const char *soname;
    const char *package;
    /// Set by photos_load.
    void *handle;
} photos_library;

/// One function: the index of its library, its name, and where its address goes.
typedef struct {
    int library;
    const char *name;
    void **slot;
} photos_symbol;

/// Opens each library (RTLD_NOW | RTLD_LOCAL) and binds each symbol. 0, or -1 with the reason in
/// `error`: "`what` cannot be loaded (install PACKAGE): dlerror's words", or "SONAME has no NAME".
/// Not thread-safe by itself: call it from a pthread_once.
int photos_load(const char *what, photos_library *libraries, size_t library_count, const photos_symbol *symbols,
    size_t symbol_count, char *error, size_t error_size);

#endif
