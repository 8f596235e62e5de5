// Shims that need _GNU_SOURCE, which must come before any system header.
#define _GNU_SOURCE
#include <sys/mman.h>
#include "CPhotosLinux.h"

int cphotos_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}
