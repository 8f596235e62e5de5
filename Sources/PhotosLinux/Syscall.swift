import CPhotosLinux
import Glibc
import PhotosCore

/// The system calls on descriptors that the reading modules make, each retried on `EINTR`.
///
/// A bad descriptor here is a bug in the caller, not bad input, hence the preconditions. Paths are
/// `PathBytes` strings: a name that is not UTF-8 reaches the kernel as its own bytes.
public enum Syscall {
    /// `open(2)` read-only, close-on-exec, and non-blocking so that a FIFO cannot hang the caller;
    /// never through a symbolic link at `path`'s name (`O_NOFOLLOW`: `ELOOP`). What the reading
    /// modules open is a library's file, found by a crawl that follows no link: a link there since
    /// would have them read another file than the asset's.
    public static func openForReading(_ path: String) throws(SystemCallError) -> Int32 {
        while true {
            let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW) }
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: "open", path: path, errno: code)
        }
    }

    /// ``openForReading(_:)``, and with `wholePath` no symbolic link in a directory on the way
    /// either: the descriptor's real path (`/proc/self/fd`) must be `path` itself, else `ELOOP`.
    ///
    /// For a root's files, whose paths hold no link (roots are resolved, the crawl follows none): a
    /// folder swapped for a link to another folder would otherwise have the library read, and its
    /// API serve, a file of that folder that no asset has (`~/.ssh/id_rsa` behind a folder of a
    /// shared root whose asset had that name).
    public static func openForReading(_ path: String, wholePath: Bool) throws(SystemCallError) -> Int32 {
        let fd = try openForReading(path)
        guard wholePath, !isOpened(fd, at: path) else { return fd }
        close(fd)
        throw SystemCallError(call: "open", path: path, errno: ELOOP)
    }

    /// Whether the kernel's name for the open file `fd` is `path`, byte for byte; when `/proc` is
    /// not there to ask, whether `path` resolves to itself.
    private static func isOpened(_ fd: Int32, at path: String) -> Bool {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        if count >= 0 {
            return PathBytes.withCString(path) { strlen($0) == count && memcmp($0, buffer, count) == 0 }
        }
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return false }
        defer { free(resolved) }
        return PathBytes.withCString(path) { strcmp($0, resolved) == 0 }
    }

    /// `fstat(2)`: whether the descriptor is a regular file, and its size in bytes.
    public static func regularFileSize(_ fd: Int32) throws(SystemCallError) -> (isRegular: Bool, size: Int) {
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
    public static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
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
    public static func close(_ fd: Int32) {
        let result = Glibc.close(fd)
        precondition(result == 0 || errno != EBADF, "close of a descriptor that is not open")
    }

    /// Waits until one of `descriptors` is ready or `timeout` milliseconds pass (-1: no limit);
    /// returns how many are ready. `EINTR` restarts the wait with the full timeout.
    ///
    /// The corresponding C function is `poll`.
    public static func poll(_ descriptors: inout [pollfd], timeout: Int32) throws(SystemCallError) -> Int {
        while true {
            let ready = descriptors.withUnsafeMutableBufferPointer {
                Glibc.poll($0.baseAddress, nfds_t($0.count), timeout)
            }
            if ready >= 0 { return Int(ready) }
            let code = errno
            precondition(code != EFAULT, "poll with a bad descriptor array")
            if code == EINTR { continue }
            throw SystemCallError(call: "poll", errno: code)
        }
    }

    /// Whether the file system holding the directory `path` counts a directory's subdirectories in
    /// its link count (ext2/3/4, XFS, tmpfs): there a directory of two links holds no directory.
    /// False for any other file system, and when it cannot be told.
    ///
    /// The corresponding C function is `statfs`.
    public static func linksCountSubdirectories(_ path: String) -> Bool {
        PathBytes.withCString(path) { cphotos_links_count_subdirectories($0) } == 1
    }

    /// The magic number of the file system holding `path` (`statfs`'s `f_type`: 0x6969 for NFS),
    /// or nil when it cannot be told.
    ///
    /// The corresponding C function is `statfs`.
    public static func fileSystemType(_ path: String) -> UInt64? {
        let type = PathBytes.withCString(path) { cphotos_filesystem_type($0) }
        return type == -1 ? nil : UInt64(truncatingIfNeeded: type)
    }

    /// Gives the memory `malloc` holds free back to the system; true when some was released.
    ///
    /// The corresponding C function is glibc's `malloc_trim(0)`.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        cphotos_release_free_memory() == 1
    }
}
