/*
 * hook-probe: the hook scripts/bench-hooks runs under photosd and under watchman's trigger.
 *
 *     hook-probe LOG PAYLOAD-DIR [FILE...]
 *
 * Takes CLOCK_REALTIME before anything else (the moment the process runs), reads standard input
 * to its end, takes the time again, and appends one tab-separated line to LOG:
 *
 *     start  read-done  bytes  PHOTOS_SINCE  PHOTOS_UNTIL  FILE...
 *
 * (times in seconds since the epoch with nanoseconds; "-" for a missing variable; the FILE
 * arguments are the names watchman appends). The line goes out in one write() on an O_APPEND
 * descriptor, so runs that overlap do not interleave. When PHOTOS_UNTIL is set and PAYLOAD-DIR is
 * not "-", the payload is saved as PAYLOAD-DIR/UNTIL.json for the script to check afterwards.
 * Exits 0 unless it could not write its line.
 *
 * Built by scripts/bench-hooks with `cc -O2`; plain C so that the process start measured is the
 * exec and the dynamic loader, not a runtime's start-up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *payload;
static size_t length, capacity;

static int read_all(int fd) {
    for (;;) {
        if (capacity - length < 65536) {
            size_t grown = capacity ? capacity * 2 : 1 << 20;
            char *bigger = realloc(payload, grown);
            if (!bigger) return -1;
            payload = bigger;
            capacity = grown;
        }
        ssize_t got = read(fd, payload + length, capacity - length);
        if (got == 0) return 0;
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        length += (size_t)got;
    }
}

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t wrote = write(fd, bytes, count);
        if (wrote < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += wrote;
        count -= (size_t)wrote;
    }
    return 0;
}

int main(int argc, char **argv) {
    struct timespec start, done;
    clock_gettime(CLOCK_REALTIME, &start);
    if (read_all(STDIN_FILENO) != 0) length = 0; /* A closed or unreadable stdin counts as empty. */
    clock_gettime(CLOCK_REALTIME, &done);

    if (argc < 3) {
        fprintf(stderr, "usage: hook-probe LOG PAYLOAD-DIR [FILE...]\n");
        return 2;
    }
    const char *since = getenv("PHOTOS_SINCE");
    const char *until = getenv("PHOTOS_UNTIL");

    if (until && *until && strcmp(argv[2], "-") != 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.json", argv[2], until);
        int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out >= 0) {
            write_all(out, payload ? payload : "", length);
            close(out);
        }
    }

    size_t size = 256;
    for (int i = 3; i < argc; i++) size += strlen(argv[i]) + 1;
    char *line = malloc(size);
    if (!line) return 1;
    int used = snprintf(line, size, "%lld.%09ld\t%lld.%09ld\t%zu\t%s\t%s", (long long)start.tv_sec, start.tv_nsec,
                        (long long)done.tv_sec, done.tv_nsec, length, since && *since ? since : "-",
                        until && *until ? until : "-");
    for (int i = 3; i < argc; i++) used += snprintf(line + used, size - (size_t)used, "\t%s", argv[i]);
    line[used++] = '\n';

    int log = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0 || write_all(log, line, (size_t)used) != 0) {
        perror(argv[1]);
        return 1;
    }
    close(log);
    return 0;
}
