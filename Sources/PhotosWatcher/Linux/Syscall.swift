import Glibc

/// The other system calls the monitor makes: a wake-up `eventfd`, `poll`, `close`.
enum Syscall {
    /// `eventfd(2)` and `pthread_setname_np(3)`: Glibc's module map leaves out `<sys/eventfd.h>`
    /// and the GNU extensions, so these are looked up in the C library already loaded instead of
    /// through a C shim target.
    private typealias EventFDFunction = @convention(c) (UInt32, Int32) -> Int32
    private typealias SetNameFunction = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32

    private static let eventfdFunction = loadedFunction("eventfd", as: EventFDFunction.self)
    private static let setNameFunction = loadedFunction("pthread_setname_np", as: SetNameFunction.self)

    private static func loadedFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    /// Names a thread for `top -H`, `gdb` and `/proc/PID/task/*/comm` (15 bytes at most); a
    /// missing function or a failure leaves the name as it was.
    ///
    /// The corresponding C function is `pthread_setname_np`.
    static func setName(of thread: pthread_t, to name: String) {
        _ = setNameFunction?(thread, String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }

    /// Creates an event counter, non-blocking and closed on exec (`EFD_NONBLOCK | EFD_CLOEXEC`,
    /// which equal `O_NONBLOCK | O_CLOEXEC`), and returns its descriptor.
    ///
    /// The corresponding C function is `eventfd`.
    static func eventFD() throws(WatchError) -> Int32 {
        guard let create = eventfdFunction else {
            throw WatchError(code: .systemCallFailed, message: "eventfd is not in the C library")
        }
        while true {
            let fd = create(0, O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw WatchError(
                code: .systemCallFailed, message: "cannot create the wake-up eventfd",
                cause: SystemCallError(call: "eventfd", errno: code))
        }
    }

    /// Adds one to an event counter, waking whoever polls it. A full counter (`EAGAIN`) is
    /// already readable, which is all a wake-up needs.
    ///
    /// The corresponding C function is `write` (what `eventfd_write` does).
    static func signal(eventFD fd: Int32) {
        var one: UInt64 = 1
        while write(fd, &one, MemoryLayout<UInt64>.size) < 0 {
            let code = errno
            precondition(code != EBADF, "write on a closed eventfd")
            if code == EINTR { continue }
            return
        }
    }

    /// Waits until one of `descriptors` is ready or `timeout` milliseconds pass (-1: no limit);
    /// returns how many are ready. `EINTR` restarts the wait with the full timeout.
    ///
    /// The corresponding C function is `poll`.
    static func poll(_ descriptors: inout [pollfd], timeout: Int32) throws(WatchError) -> Int {
        while true {
            let ready = descriptors.withUnsafeMutableBufferPointer {
                Glibc.poll($0.baseAddress, nfds_t($0.count), timeout)
            }
            if ready >= 0 { return Int(ready) }
            let code = errno
            precondition(code != EFAULT, "poll with a bad descriptor array")
            if code == EINTR { continue }
            throw WatchError(
                code: .systemCallFailed, message: "poll failed", cause: SystemCallError(call: "poll", errno: code))
        }
    }

    /// Closes a descriptor; `EINTR` is not retried (on Linux the descriptor is already released).
    ///
    /// The corresponding C function is `close`.
    static func close(_ fd: Int32) {
        let result = Glibc.close(fd)
        precondition(result == 0 || errno != EBADF, "close of a descriptor that is not open")
    }
}
