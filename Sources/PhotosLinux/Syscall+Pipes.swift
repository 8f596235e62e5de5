import CPhotosLinux
import Glibc

/// Pipes to a child process and the child's own descriptor: what a thread polls to read a
/// program's output without Swift's shared pool.
///
/// ```swift
/// let pipe = try Syscall.pipe()                       // give pipe.writing to the child
/// let exited = try Syscall.processDescriptor(child)    // readable once the child has exited
/// var buffer = [UInt8](repeating: 0, count: 65536)
/// let count = try buffer.withUnsafeMutableBytes { try Syscall.readSome(pipe.reading, into: $0) }
/// ```
extension Syscall {
    /// Creates a pipe and returns its two ends, both closed on exec, so that no other program
    /// started meanwhile (another hook) inherits the writing end and keeps the pipe open; the
    /// reading end is non-blocking (``readSome(_:into:)`` returns nil when the pipe is empty), the
    /// writing end blocking, as a program expects its standard output to be.
    ///
    /// The corresponding C function is `pipe2` with `O_CLOEXEC`, then `fcntl` with `O_NONBLOCK`.
    public static func pipe() throws(SystemCallError) -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [-1, -1]
        while cphotos_pipe(&ends) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: "pipe2", errno: code)
        }
        return (ends[0], ends[1])
    }

    /// Reads what `fd` holds into `buffer`, at most its size, without waiting: the number of
    /// bytes, 0 at the end (every writer has closed the pipe), or nil when nothing is there yet
    /// (`EAGAIN`: the descriptor is non-blocking).
    ///
    /// The corresponding C function is `read`.
    public static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError)
        -> Int?
    {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let code = errno
            precondition(code != EBADF && code != EFAULT, "read on a closed descriptor or a bad buffer")
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            throw SystemCallError(call: "read", errno: code)
        }
    }

    /// How many bytes the pipe `fd` holds now, ready to be read.
    ///
    /// The corresponding C call is `ioctl` with `FIONREAD`.
    public static func readableBytes(_ fd: Int32) throws(SystemCallError) -> Int {
        let count = cphotos_readable_bytes(fd)
        guard count < 0 else { return Int(count) }
        let code = errno
        precondition(code != EBADF, "FIONREAD on a closed descriptor")
        throw SystemCallError(call: "ioctl", errno: code)
    }

    /// A descriptor for the process `pid` (close-on-exec), which `poll` reports readable once the
    /// process has exited. `pid` must be a child not yet reaped (waited for): a pid reaped
    /// may already name another process.
    ///
    /// Throws `ENOSYS` on kernels before Linux 5.3, `ESRCH` when there is no such process.
    ///
    /// The corresponding C function is `pidfd_open`.
    public static func processDescriptor(_ pid: pid_t) throws(SystemCallError) -> Int32 {
        while true {
            let fd = cphotos_process_descriptor(pid)
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: "pidfd_open", errno: code)
        }
    }
}
