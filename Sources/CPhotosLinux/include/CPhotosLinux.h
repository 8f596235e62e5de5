#ifndef PHOTOSD_CPHOTOSLINUX_H
#define PHOTOSD_CPHOTOSLINUX_H
#include <sys/vfs.h>

/// The file system magic number (statfs f_type) of the file system holding `path`, or -1.
static inline long cphotos_filesystem_type(const char *_Nonnull path) {
    struct statfs info;
    if (statfs(path, &info) != 0) { return -1; }
    return (long)info.f_type;
}

/// Whether the file system holding `path` counts a directory's subdirectories in its link count
/// (2 plus one per subdirectory), as ext2/3/4, XFS and tmpfs do: there, a directory of two links
/// holds no directory, and a walk looking for directories need not list it. 0 for any other file
/// system (btrfs counts 1; network and FUSE file systems may count anything) and when statfs fails.
static inline int cphotos_links_count_subdirectories(const char *_Nonnull path) {
    switch (cphotos_filesystem_type(path)) {
    case 0xEF53: case 0x58465342: case 0x01021994: return 1;
    default: return 0;
    }
}

/// An anonymous file in memory (memfd_create with MFD_CLOEXEC), named `name` in /proc; -1 and
/// errno when the kernel has none.
int cphotos_memory_file(const char *_Nonnull name);

/// Adds `increment` to the nice value of the calling thread only (Linux schedules threads one by
/// one), at most 19; 0 or errno.
int cphotos_lower_thread_priority(int increment);

/// Whether the child process `pid` has exited (1; a zombie, or already reaped), is running (0), or
/// cannot be asked (-1). Reaps nothing (waitid with WNOWAIT).
int cphotos_child_has_exited(int pid);

/// Gives the memory malloc holds free back to the system (glibc's malloc_trim(0)); 1 when some
/// was released.
int cphotos_release_free_memory(void);
#endif
