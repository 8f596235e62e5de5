#ifndef PHOTOSD_CPHOTOSLINUX_H
#define PHOTOSD_CPHOTOSLINUX_H
#include <stddef.h>
#include <sys/stat.h>
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
/// A non-blocking, close-on-exec event counter (eventfd with EFD_NONBLOCK | EFD_CLOEXEC); -1 and
/// errno on failure. Glibc's Swift module leaves out <sys/eventfd.h>.
int cphotos_event_counter(void);

/// A pipe whose two ends are closed on exec (pipe2 with O_CLOEXEC, a GNU extension Glibc's Swift
/// module leaves out), its reading end also non-blocking: `ends[0]` reads, `ends[1]` writes. 0, or
/// -1 and errno.
int cphotos_pipe(int ends[_Nonnull 2]);

/// How many bytes the pipe (or socket) `fd` holds, ready to be read (the FIONREAD ioctl, which
/// Swift cannot call: ioctl is variadic); -1 and errno.
int cphotos_readable_bytes(int fd);

/// A descriptor for the process `pid` (pidfd_open, close-on-exec), readable once it has exited;
/// -1 and errno (ENOSYS before Linux 5.3, ESRCH when there is no such process).
int cphotos_process_descriptor(int pid);

/// Names the calling thread for top -H, gdb and /proc/PID/task/*/comm (pthread_setname_np, a GNU
/// extension; at most 15 bytes are kept); 0 or the error number.
int cphotos_name_this_thread(const char *_Nonnull name);

/// Renames `from` to `to` unless something is already at `to` (renameat2 with RENAME_NOREPLACE, a GNU
/// extension Glibc's Swift module leaves out): 0, or the error number (EEXIST when `to` is taken;
/// EINVAL where the file system cannot promise it).
int cphotos_rename_noreplace(const char *_Nonnull from, const char *_Nonnull to);

/// What lstat gives of `name` in the directory open as `directory` (or of the path `name`, with
/// AT_FDCWD), from one statx call, with the file's birth time in nanoseconds since 1970 in `*birth`
/// (0 where the file system keeps none, or records 0: an image made without them). A rename and an
/// edit in place keep a file's birth time; a copy, a restore or a new file given a freed inode's
/// number does not. Falls back to fstatat (no birth time) on a kernel without statx. 0 or the error number.
int cphotos_file_status(int directory, const char *_Nonnull name, struct stat *_Nonnull info, long long *_Nonnull birth);

/// Starts writing `fd`'s dirty pages to disk without waiting (sync_file_range with
/// SYNC_FILE_RANGE_WRITE, a GNU extension): a hint before an fsync of many files, never a promise
/// of durability; 0 or the error number.
int cphotos_start_writeback(int fd);

/// Writes to disk everything written to the file system that holds `fd` (syncfs, a GNU extension
/// Glibc's Swift module leaves out): 0 or the error number.
int cphotos_sync_file_system(int fd);

/// Puts the calling thread in SCHED_IDLE, the lowest scheduling class (it runs only when nothing
/// else wants the processor); 0 or the error number.
int cphotos_idle_this_thread(void);

/// The first occurrence of `needle` in `haystack` (memmem, a GNU extension Glibc's Swift module
/// leaves out, searching by whole needle rather than byte by byte), or NULL.
const void *_Nullable cphotos_find_bytes(
    const void *_Nonnull haystack, size_t haystack_length, const void *_Nonnull needle, size_t needle_length);

/// Forks the hook reaper: a process that outlives this one only to SIGKILL the process groups this
/// one told it about (``cphotos_tell_group_reaper``), once this one has exited, however it ended
/// (SIGKILL and crashes included). It learns that from the end of its socket: the returned
/// descriptor (close-on-exec, a SOCK_SEQPACKET socket) is the only other end, so it closes only
/// when this process is gone. The reaper is in a session of its own, ignores the terminal's and
/// the usual stop signals (it leaves on its own), keeps no other descriptor, and is named
/// `hook-reaper` in /proc/PID/comm. Returns the descriptor and sets `*reaper` to its pid; -1 and
/// errno on failure.
int cphotos_start_group_reaper(int *_Nullable reaper);

/// Tells the reaper of ``cphotos_start_group_reaper`` (its descriptor `channel`) a process group
/// to kill if this process dies (`record` = the group's id) or to forget (`record` = minus it);
/// 0 or the error number (EPIPE once the reaper is gone: never SIGPIPE).
int cphotos_tell_group_reaper(int channel, int record);

#endif
