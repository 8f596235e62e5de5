// Preloaded (LD_PRELOAD) by scripts/close-guard: reports every close() that fails with EBADF, with
// the caller's stack, to the file named by CLOSE_GUARD_LOG. A descriptor closed twice is a bug even
// when the second close finds nothing: had another thread opened a file in between, it would have
// got the same number, and the second close would have closed that file instead (a library's SQLite
// file, whose next lock then failed with a disk I/O error).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int (*real_close)(int);

// Only the project's programs are judged (photos, photosd, the test bundle, the benchmarks): the
// shells and tools the tests start (bash closes descriptors it never opened, on purpose) are not.
static int is_ours(void) {
    static int ours = -1;
    if (ours >= 0) return ours;
    char program[4096];
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    ours = 0;
    if (length > 0) {
        program[length] = 0;
        const char *name = strrchr(program, '/');
        name = name ? name + 1 : program;
        size_t size = strlen(name);
        ours = strcmp(name, "photos") == 0 || strcmp(name, "photosd") == 0
            || (size > 7 && strcmp(name + size - 7, ".xctest") == 0) || strstr(program, "/.build") != NULL;
    }
    return ours;
}

int close(int fd) {
    if (real_close == NULL) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    int result = real_close(fd);
    // close(-1) is a harmless no-op some libraries do on purpose; a real number closed twice is not.
    if (result == -1 && errno == EBADF && fd >= 0 && is_ours()) {
        int saved = errno;
        const char *path = getenv("CLOSE_GUARD_LOG");
        int log = path != NULL ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : 2;
        if (log >= 0) {
            char line[128];
            char program[64] = "?";
            ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
            if (length > 0) program[length] = 0;
            int count = snprintf(line, sizeof line, "close(%d): EBADF in pid %d (%s)\n", fd, getpid(), program);
            if (count > 0) (void)!write(log, line, (size_t)count);
            void *frames[48];
            backtrace_symbols_fd(frames, backtrace(frames, 48), log);
            (void)!write(log, "\n", 1);
            if (log != 2) real_close(log);
        }
        errno = saved;
    }
    return result;
}
