#include "CPhotosLoader.h"

#include <dlfcn.h>
#include <stdio.h>

int photos_load(const char *what, photos_library *libraries, size_t library_count, const photos_symbol *symbols,
    size_t symbol_count, char *error, size_t error_size) {
    for (size_t index = 0; index < library_count; index++) {
        libraries[index].handle = dlopen(libraries[index].soname, RTLD_NOW | RTLD_LOCAL);
        if (libraries[index].handle == NULL) {
            const char *reason = dlerror();
            snprintf(error, error_size, "%s cannot be loaded (install %s): %s", what, libraries[index].package,
                reason != NULL ? reason : libraries[index].soname);
            return -1;
        }
    }
    for (size_t index = 0; index < symbol_count; index++) {
        const photos_symbol *symbol = &symbols[index];
        *symbol->slot = dlsym(libraries[symbol->library].handle, symbol->name);
        if (*symbol->slot == NULL) {
            snprintf(error, error_size, "%s has no %s", libraries[symbol->library].soname, symbol->name);
            return -1;
        }
    }
    return 0;
}

int photos_once_run(photos_once *once, int (*load)(char *error, size_t error_size), char *error, size_t error_size) {
    int state = __atomic_load_n(&once->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&once->lock);
        state = once->state;
        if (state == 0) {
            state = load(once->error, sizeof once->error) == 0 ? 1 : -1;
            if (state < 0 && once->error[0] == '\0') { snprintf(once->error, sizeof once->error, "loading failed"); }
            __atomic_store_n(&once->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&once->lock);
    }
    if (state > 0) { return 0; }
    if (error != NULL && error_size > 0) { snprintf(error, error_size, "%s", once->error); }
    return -1;
}
