// Shims that need _GNU_SOURCE, which must come before any system header.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
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

int cphotos_pipe(int ends[2]) {
    if (pipe2(ends, O_CLOEXEC) != 0) { return -1; }
    // Only the reading end: the writing end's flags are the writer's (a hook's standard output),
    // and the file status flags belong to each end's own open file description.
    int flags = fcntl(ends[0], F_GETFL);
    if (flags < 0 || fcntl(ends[0], F_SETFL, flags | O_NONBLOCK) != 0) {
        int error = errno;
        close(ends[0]);
        close(ends[1]);
        errno = error;
        return -1;
    }
    return 0;
}

int cphotos_readable_bytes(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

int cphotos_process_descriptor(int pid) {
#ifdef SYS_pidfd_open
    // pidfds are always close-on-exec.
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
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

int cphotos_file_status(int directory, const char *name, struct stat *info, long long *birth) {
    *birth = 0;
    struct statx x;
    int flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT;
    if (statx(directory, name, flags, STATX_BASIC_STATS | STATX_BTIME, &x) != 0) {
        if (errno != ENOSYS) { return errno; }
        return fstatat(directory, name, info, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : errno;
    }
    // As glibc fills a stat from a statx where the kernel has no stat of its own.
    memset(info, 0, sizeof *info);
    info->st_dev = makedev(x.stx_dev_major, x.stx_dev_minor);
    info->st_ino = x.stx_ino;
    info->st_mode = x.stx_mode;
    info->st_nlink = x.stx_nlink;
    info->st_uid = x.stx_uid;
    info->st_gid = x.stx_gid;
    info->st_rdev = makedev(x.stx_rdev_major, x.stx_rdev_minor);
    info->st_size = (off_t)x.stx_size;
    info->st_blksize = (blksize_t)x.stx_blksize;
    info->st_blocks = (blkcnt_t)x.stx_blocks;
    info->st_atim.tv_sec = x.stx_atime.tv_sec;
    info->st_atim.tv_nsec = x.stx_atime.tv_nsec;
    info->st_mtim.tv_sec = x.stx_mtime.tv_sec;
    info->st_mtim.tv_nsec = x.stx_mtime.tv_nsec;
    info->st_ctim.tv_sec = x.stx_ctime.tv_sec;
    info->st_ctim.tv_nsec = x.stx_ctime.tv_nsec;
    if ((x.stx_mask & STATX_BTIME) && (x.stx_btime.tv_sec != 0 || x.stx_btime.tv_nsec != 0)) {
        *birth = (long long)x.stx_btime.tv_sec * 1000000000LL + x.stx_btime.tv_nsec;
    }
    return 0;
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

// The reaper runs in a child forked from a multithreaded process that never execs: from fork on
// it calls only async-signal-safe functions (and prctl, a plain system call), and allocates nothing.
#define CPHOTOS_REAPER_GROUPS 4096

static void cphotos_close_all_but(int kept) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 0U, (unsigned)kept - 1, 0U) == 0
        && syscall(SYS_close_range, (unsigned)kept + 1, ~0U, 0U) == 0) {
        return;
    }
#endif
    for (int fd = 0; fd < 65536; fd++) {
        if (fd != kept) { close(fd); }
    }
}

static _Noreturn void cphotos_reap_groups(int channel) {
    // A session of its own: a signal to photosd's process group (a shell job's Ctrl-C or
    // `kill -9 %1`) does not end the reaper with photosd, and so leave the hooks running.
    setsid();
    prctl(PR_SET_NAME, (unsigned long)"hook-reaper", 0, 0, 0);
    const int ignored[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM};
    struct sigaction ignore = {0};
    ignore.sa_handler = SIG_IGN;
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) { sigaction(ignored[i], &ignore, NULL); }
    cphotos_close_all_but(channel);
    static pid_t groups[CPHOTOS_REAPER_GROUPS];
    int count = 0;
    for (;;) {
        pid_t record = 0;
        ssize_t got = recv(channel, &record, sizeof record, 0);
        if (got < 0 && errno == EINTR) { continue; }
        // 0: every copy of the other end is closed, photosd has exited (or was killed).
        if (got <= 0) { break; }
        if (got != sizeof record || record == 0) { continue; }
        if (record > 0) {
            if (count < CPHOTOS_REAPER_GROUPS) { groups[count++] = record; }
        } else {
            for (int i = 0; i < count; i++) {
                if (groups[i] == -record) {
                    groups[i] = groups[--count];
                    break;
                }
            }
        }
    }
    for (int i = 0; i < count; i++) { kill(-groups[i], SIGKILL); }
    _exit(0);
}

int cphotos_start_group_reaper(int *reaper) {
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) { return -1; }
    pid_t child = fork();
    if (child < 0) {
        int error = errno;
        close(ends[0]);
        close(ends[1]);
        errno = error;
        return -1;
    }
    if (child == 0) { cphotos_reap_groups(ends[1]); }
    close(ends[1]);
    if (reaper != NULL) { *reaper = child; }
    return ends[0];
}

int cphotos_tell_group_reaper(int channel, int record) {
    ssize_t sent;
    do {
        sent = send(channel, &record, sizeof record, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)sizeof record ? 0 : errno;
}
