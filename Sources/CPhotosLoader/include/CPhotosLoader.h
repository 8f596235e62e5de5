#ifndef CPHOTOS_LOADER_H
#define CPHOTOS_LOADER_H

#include <pthread.h>
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
/// Not thread-safe by itself: call it from a wrapper's load function, which photos_once runs.
int photos_load(const char *what, photos_library *libraries, size_t library_count, const photos_symbol *symbols,
    size_t symbol_count, char *error, size_t error_size);

/// A wrapper's loading, done once by its first caller and remembered, success or failure:
///
///     static photos_once loading = PHOTOS_ONCE_INIT;
///     static int load(char *error, size_t error_size) { return photos_load("LibRaw", ...); }
///     ... if (photos_once_run(&loading, load, error, sizeof error) != 0) { return -1; }
typedef struct {
    pthread_mutex_t lock;
    /// 0 before the first call, 1 once loaded, -1 when loading failed.
    int state;
    /// Why loading failed.
    char error[512];
} photos_once;

#define PHOTOS_ONCE_INIT {PTHREAD_MUTEX_INITIALIZER, 0, ""}

/// Runs `load` once, whichever thread comes first (the others wait for it). 0, or -1 with the reason
/// `load` gave copied into `error` (when `error` is not NULL), on this call and every later one.
int photos_once_run(photos_once *once, int (*load)(char *error, size_t error_size), char *error, size_t error_size);

#endif
