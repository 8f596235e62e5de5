import Glibc
import PhotosCore

/// The inotify system calls, each retried on `EINTR`.
///
/// A bad descriptor (`EBADF`) or a bad buffer (`EFAULT`) is a bug in this module, not a condition
/// of the machine, hence the preconditions. The `IN_*` constants import from Glibc as `Int32`
/// (`IN_ALL_EVENTS` does not import at all); the masks here are the `UInt32` the calls take.
enum Inotify {
    /// The events a watched directory reports: entries created, completed, written, moved, removed
    /// or changed, and the directory's own removal or move. `IN_ONLYDIR` refuses anything but a
    /// directory, `IN_DONT_FOLLOW` never watches through a symbolic link, and `IN_EXCL_UNLINK` stops
    /// events for a file once it is unlinked (a deleted temporary file still being written).
    static let directoryMask = UInt32(
        IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ATTRIB | IN_MODIFY | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

    /// ``directoryMask`` without `IN_DONT_FOLLOW`, for a root: a root given as a symbolic link to a
    /// directory is watched as that directory.
    static let rootMask = directoryMask & ~UInt32(IN_DONT_FOLLOW)

    /// Creates an inotify instance, non-blocking and closed on exec, and returns its descriptor.
    ///
    /// The corresponding C function is `inotify_init1`.
    static func initialize() throws(WatchError) -> Int32 {
        while true {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw error(call: "inotify_init1", errno: code, path: nil)
        }
    }

    /// Watches `path` for `mask` and returns the watch descriptor; watching an inode that is already
    /// watched returns its existing descriptor (and replaces its mask).
    ///
    /// `ENOSPC` (the user's watch limit) throws ``WatchError/Code/watchLimitReached``; `ENOENT`,
    /// `ENOTDIR` and `EACCES` have codes of their own.
    ///
    /// The corresponding C function is `inotify_add_watch`.
    static func addWatch(fd: Int32, path: String, mask: UInt32) throws(WatchError) -> Int32 {
        while true {
            let wd = PathBytes.withCString(path) { inotify_add_watch(fd, $0, mask) }
            if wd >= 0 { return wd }
            let code = errno
            precondition(code != EBADF && code != EFAULT, "inotify_add_watch on a closed descriptor or bad path")
            if code == EINTR { continue }
            throw error(call: "inotify_add_watch", errno: code, path: path)
        }
    }

    /// Stops watching `wd`; the kernel then queues `IN_IGNORED` for it. A descriptor the kernel has
    /// already dropped (`EINVAL`: its directory was deleted or unmounted) is not an error.
    ///
    /// The corresponding C function is `inotify_rm_watch`.
    static func removeWatch(fd: Int32, wd: Int32) {
        while inotify_rm_watch(fd, wd) != 0 {
            let code = errno
            precondition(code != EBADF, "inotify_rm_watch on a closed descriptor")
            if code == EINTR { continue }
            return
        }
    }

    /// Reads whole events into `buffer`; returns the number of bytes, or nil when none is queued
    /// (`EAGAIN`: the descriptor is non-blocking).
    ///
    /// The buffer must hold at least one event with the longest name (`16 + NAME_MAX + 1` bytes),
    /// or the kernel answers `EINVAL`.
    ///
    /// The corresponding C function is `read`.
    static func read(fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(WatchError) -> Int? {
        precondition(buffer.count >= MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1, "inotify buffer too small")
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let code = errno
            precondition(code != EBADF && code != EFAULT, "read on a closed inotify descriptor")
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw error(call: "read", errno: code, path: nil)
        }
    }

    private static func error(call: String, errno code: Int32, path: String?) -> WatchError {
        let cause = SystemCallError(call: call, errno: code)
        switch code {
        case ENOSPC:
            return WatchError(
                code: .watchLimitReached, message: "no inotify watch left (max_user_watches)", path: path, cause: cause)
        case ENOENT:
            return WatchError(code: .notFound, message: "no such directory", path: path, cause: cause)
        case ENOTDIR:
            return WatchError(code: .notADirectory, message: "not a directory", path: path, cause: cause)
        case EACCES:
            return WatchError(code: .permissionDenied, message: "permission denied", path: path, cause: cause)
        default:
            return WatchError(code: .systemCallFailed, message: "\(call) failed", path: path, cause: cause)
        }
    }
}
