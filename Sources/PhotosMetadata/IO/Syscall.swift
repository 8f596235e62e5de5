import PhotosCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: its name and `errno`.
struct SystemCallError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32

    var description: String {
        let text = strerror(errno).map { String(cString: $0) } ?? "unknown error"
        return "\(call): \(text) (errno \(errno))"
    }
}

/// The few system calls this module makes, each retried on `EINTR`.
///
/// A bad descriptor here is a bug in this module, not bad input, hence the preconditions.
enum Syscall {
    /// `open(2)` read-only, close-on-exec, and non-blocking so that a FIFO cannot hang the caller.
    /// `path` is a ``PathBytes`` string: a name that is not UTF-8 opens the file with those bytes.
    static func openForReading(_ path: String) throws(SystemCallError) -> Int32 {
        while true {
            let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: "open", errno: code)
        }
    }

    /// `fstat(2)`: whether the descriptor is a regular file, and its size in bytes.
    static func regularFileSize(_ fd: Int32) throws(SystemCallError) -> (isRegular: Bool, size: Int) {
        var info = stat()
        while fstat(fd, &info) != 0 {
            let code = errno
            precondition(code != EBADF, "fstat on a closed descriptor")
            if code == EINTR { continue }
            throw SystemCallError(call: "fstat", errno: code)
        }
        return ((info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size))
    }

    /// `pread(2)` until `buffer` is full or the file ends; returns the number of bytes read.
    static func read(
        _ fd: Int32,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) throws(SystemCallError) -> Int {
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return 0 }
            let result = pread(fd, base + done, buffer.count - done, off_t(offset + done))
            if result > 0 {
                done += result
            } else if result == 0 {
                break
            } else {
                let code = errno
                precondition(code != EBADF, "pread on a closed descriptor")
                if code == EINTR || code == EAGAIN { continue }
                throw SystemCallError(call: "pread", errno: code)
            }
        }
        return done
    }

    /// `close(2)`; `EINTR` is not retried (on Linux the descriptor is already released).
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(fd)
        #elseif canImport(Musl)
            _ = Musl.close(fd)
        #else
            _ = Darwin.close(fd)
        #endif
    }
}
