import Glibc
import PhotosCore

/// The system calls the Trash makes beyond ``FileOperations``: what `lstat` says of ownership and
/// mode, directory listings, whole small files, disk usage, and the recursive removal that only
/// ``Trash/erase(_:)`` makes, inside a trash's `files/`.
enum TrashFiles {
    /// What `lstat` says of a path.
    struct Status: Sendable {
        var device: Int64
        var inode: Int64
        var mode: UInt32
        var owner: UInt32
        var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
        var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
        var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
        var isSticky: Bool { mode & UInt32(S_ISVTX) != 0 }
    }

    /// `lstat(2)` (`stat(2)` when `followingLinks`); nil when nothing is at `path`.
    static func status(_ path: String, followingLinks: Bool = false) throws -> Status? {
        var info = stat()
        let result = PathBytes.withCString(path) { followingLinks ? stat($0, &info) : lstat($0, &info) }
        guard result == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw SystemCallError(call: followingLinks ? "stat" : "lstat", path: path, errno: code)
        }
        return Status(
            device: Int64(bitPattern: UInt64(info.st_dev)), inode: Int64(bitPattern: UInt64(info.st_ino)),
            mode: UInt32(info.st_mode), owner: UInt32(info.st_uid))
    }

    /// Whether something is at `path` (`lstat`); true when that cannot be told, so that a caller
    /// about to take the name leaves it alone.
    static func exists(_ path: String) -> Bool {
        do { return try status(path) != nil } catch { return true }
    }

    /// `mkdir(2)` with `mode` (less the umask); false when something is already there.
    static func makeDirectory(_ path: String, mode: mode_t) throws -> Bool {
        if PathBytes.withCString(path, { mkdir($0, mode) }) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        throw SystemCallError(call: "mkdir", path: path, errno: code)
    }

    /// Reads all of a small file (at most `limit` bytes: more is an `EFBIG` error), without
    /// following a symbolic link at its last name.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = try Syscall.openForReading(path)
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try Syscall.read(fd, into: $0, at: bytes.count) }
            bytes += chunk[..<count]
            if count < chunk.count { return bytes }
            if bytes.count > limit { throw SystemCallError(call: "read", path: path, errno: EFBIG) }
        }
    }

    /// The names in a directory (``FileOperations/names(in:)``); nil when there is no directory.
    static func names(in directory: String) throws -> [String]? {
        do {
            return try FileOperations.names(in: directory)
        } catch let error as SystemCallError where error.errno == ENOENT || error.errno == ENOTDIR {
            return nil
        }
    }

    /// The disk space `path` and everything under it take, in bytes, as `du -B1` counts it: the
    /// blocks of each file and directory once (hard links once), symbolic links not followed.
    static func diskUsage(_ path: String) throws -> Int64 {
        var seen = Set<[Int64]>()
        func usage(_ path: String) throws -> Int64 {
            var info = stat()
            guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else {
                throw SystemCallError(call: "lstat", path: path, errno: errno)
            }
            guard
                seen.insert([Int64(bitPattern: UInt64(info.st_dev)), Int64(bitPattern: UInt64(info.st_ino))])
                    .inserted
            else { return 0 }
            var total = Int64(info.st_blocks) * 512
            if info.st_mode & S_IFMT == S_IFDIR {
                for name in try names(in: path) ?? [] { total += try usage(path + "/" + name) }
            }
            return total
        }
        return try usage(path)
    }

    /// Removes `path` and, if it is a directory, everything under it, without ever following a
    /// symbolic link (a link is removed, not what it points to; `O_NOFOLLOW` on every directory
    /// opened). Only for a trash's `files/NAME`: the one place where the library removes a tree.
    static func removeTree(_ path: String) throws {
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        let directory = PathBytes.withCString(parent.isEmpty ? "/" : parent) {
            open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard directory >= 0 else { throw SystemCallError(call: "open", path: parent, errno: errno) }
        defer { Syscall.close(directory) }
        try removeEntry(name, in: directory, path: path)
    }

    /// Removes the entry `name` of the directory open as `parent` (`unlinkat`), emptying it first
    /// when it is a directory; a name already gone is not an error.
    private static func removeEntry(_ name: String, in parent: Int32, path: String) throws {
        if PathBytes.withCString(name, { unlinkat(parent, $0, 0) }) == 0 { return }
        var code = errno
        if code == ENOENT { return }
        // EISDIR is Linux's answer for a directory; POSIX allows EPERM.
        guard code == EISDIR || code == EPERM else { throw SystemCallError(call: "unlink", path: path, errno: code) }
        let fd = PathBytes.withCString(name) {
            openat(parent, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard fd >= 0 else {
            // Not a directory after all (EPERM from an immutable file): report the unlink's error.
            throw SystemCallError(call: "unlink", path: path, errno: errno == ENOTDIR || errno == ELOOP ? code : errno)
        }
        guard let stream = fdopendir(fd) else {
            Syscall.close(fd)
            throw SystemCallError(call: "fdopendir", path: path, errno: errno)
        }
        defer { closedir(stream) }
        var children: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallError(call: "readdir", path: path, errno: errno) }
                break
            }
            let child = PathBytes.name(ofEntry: entry)
            if child != "." && child != ".." { children.append(child) }
        }
        for child in children { try removeEntry(child, in: dirfd(stream), path: path + "/" + child) }
        if PathBytes.withCString(name, { unlinkat(parent, $0, AT_REMOVEDIR) }) == 0 { return }
        code = errno
        if code == ENOENT { return }
        throw SystemCallError(call: "rmdir", path: path, errno: code)
    }

    /// The kernel's id of this boot (`/proc/sys/kernel/random/boot_id`), or "" when unreadable: a
    /// process id is only the same process within one boot.
    static let bootID: String = {
        guard let bytes = try? read("/proc/sys/kernel/random/boot_id", limit: 256) else { return "" }
        return String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
    }()
}
