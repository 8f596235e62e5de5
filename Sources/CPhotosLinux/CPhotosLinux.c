// Shims that need _GNU_SOURCE, which must come before any system header.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "CPhotosLinux.h"

int cphotos_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}

int cphotos_lower_thread_priority(int increment) {
    id_t thread = (id_t)gettid();
    errno = 0;
    int niceness = getpriority(PRIO_PROCESS, thread);
    if (niceness == -1 && errno != 0) { return errno; }
    niceness += increment;
    return setpriority(PRIO_PROCESS, thread, niceness > 19 ? 19 : niceness) == 0 ? 0 : errno;
}

int cphotos_child_has_exited(int pid) {
    siginfo_t info = {0};
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
        // ECHILD: no such child any more, it was reaped.
        return errno == ECHILD ? 1 : -1;
    }
    return info.si_pid == pid ? 1 : 0;
}

int cphotos_release_free_memory(void) {
    return malloc_trim(0);
}

int cphotos_event_counter(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

int cphotos_name_this_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    return pthread_setname_np(pthread_self(), shortened);
}

int cphotos_idle_this_thread(void) {
    struct sched_param parameters = {0};
    return pthread_setschedparam(pthread_self(), SCHED_IDLE, &parameters);
}

int cphotos_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0 ? 0 : errno;
}

int cphotos_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
}

int cphotos_sync_file_system(int fd) {
    return syncfs(fd) == 0 ? 0 : errno;
}

const void *cphotos_find_bytes(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
