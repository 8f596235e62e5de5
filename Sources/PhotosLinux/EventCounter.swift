import CPhotosLinux
import Glibc

/// The `eventfd` calls: a counter a thread polls alongside its other descriptors, so that another
/// thread can wake it (to stop it, or to hand it work).
///
/// ```swift
/// let wakeUp = FileDescriptor(try EventCounter.create())
/// // the thread: poll on [work, wakeUp.rawValue]
/// EventCounter.signal(wakeUp.rawValue)   // elsewhere: the poll returns
/// ```
public enum EventCounter {
    /// Creates an event counter, non-blocking and closed on exec (`EFD_NONBLOCK | EFD_CLOEXEC`), and
    /// returns its descriptor.
    ///
    /// The corresponding C function is `eventfd`.
    public static func create() throws(SystemCallError) -> Int32 {
        while true {
            let fd = cphotos_event_counter()
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: "eventfd", errno: code)
        }
    }

    /// Adds one to the counter, waking whoever polls it. A full counter (`EAGAIN`) is already
    /// readable, which is all a wake-up needs.
    ///
    /// The corresponding C function is `write` (what `eventfd_write` does).
    public static func signal(_ fd: Int32) {
        var one: UInt64 = 1
        while write(fd, &one, MemoryLayout<UInt64>.size) < 0 {
            let code = errno
            precondition(code != EBADF, "write on a closed eventfd")
            if code == EINTR { continue }
            return
        }
    }
}
