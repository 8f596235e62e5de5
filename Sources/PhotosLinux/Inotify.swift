import Glibc
import PhotosCore

/// The inotify system calls, each retried on `EINTR`.
///
/// A bad descriptor (`EBADF`) or a bad buffer (`EFAULT`) is a bug in the caller, not a condition
/// of the machine, hence the preconditions. The `IN_*` constants import from Glibc as `Int32`
/// (`IN_ALL_EVENTS` does not import at all); the masks the calls take are `UInt32`.
///
/// ```swift
/// let fd = FileDescriptor(try Inotify.create())
/// _ = try Inotify.addWatch("/srv/photos", mask: UInt32(IN_CREATE | IN_ONLYDIR), to: fd.rawValue)
/// ```
public enum Inotify {
    /// The smallest read buffer: one event with the longest name (`16 + NAME_MAX + 1` bytes). A
    /// smaller one gets `EINVAL` from the kernel.
    public static let minimumBufferSize = MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1

    /// The alignment a read buffer is allocated with.
    public static let bufferAlignment = MemoryLayout<inotify_event>.alignment

    /// Creates an inotify instance, non-blocking and closed on exec, and returns its descriptor.
    ///
    /// The corresponding C function is `inotify_init1`.
    public static func create() throws(SystemCallError) -> Int32 {
        while true {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: "inotify_init1", errno: code)
        }
    }

    /// Watches `path` for `mask` on the instance `fd` and returns the watch descriptor; watching an
    /// inode that is already watched returns its existing descriptor (and replaces its mask).
    ///
    /// The corresponding C function is `inotify_add_watch`.
    public static func addWatch(_ path: String, mask: UInt32, to fd: Int32) throws(SystemCallError) -> Int32 {
        while true {
            let wd = PathBytes.withCString(path) { inotify_add_watch(fd, $0, mask) }
            if wd >= 0 { return wd }
            let code = errno
            precondition(code != EBADF && code != EFAULT, "inotify_add_watch on a closed descriptor or bad path")
            if code == EINTR { continue }
            throw SystemCallError(call: "inotify_add_watch", path: path, errno: code)
        }
    }

    /// Stops watching `wd`; the kernel then queues `IN_IGNORED` for it. A descriptor the kernel has
    /// already dropped (`EINVAL`: its directory was deleted or unmounted) is not an error.
    ///
    /// The corresponding C function is `inotify_rm_watch`.
    public static func removeWatch(_ wd: Int32, from fd: Int32) {
        while inotify_rm_watch(fd, wd) != 0 {
            let code = errno
            precondition(code != EBADF, "inotify_rm_watch on a closed descriptor")
            if code == EINTR { continue }
            return
        }
    }

    /// Reads whole events from `fd` into `buffer` (at least ``minimumBufferSize`` bytes); returns
    /// the number of bytes, or nil when none is queued (`EAGAIN`: the descriptor is non-blocking).
    /// ``InotifyEventParser/parse(_:)`` splits them.
    ///
    /// The corresponding C function is `read`.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        precondition(buffer.count >= minimumBufferSize, "inotify buffer too small")
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let code = errno
            precondition(code != EBADF && code != EFAULT, "read on a closed inotify descriptor")
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: code)
        }
    }
}
