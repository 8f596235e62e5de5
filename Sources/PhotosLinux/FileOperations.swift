import CPhotosLinux
import Foundation
import Glibc
import PhotosCore
import Synchronization

/// What `lstat` says about a file, as far as the journal needs it to know the file again.
public struct FileIdentity: Equatable, Sendable {
    /// `st_dev`.
    public var device: Int64
    /// `st_ino`.
    public var inode: Int64
    /// `st_size`, in bytes.
    public var size: Int64
    /// `st_mtim`, in seconds since 1970.
    public var modificationTime: Double
    /// Whether it is a regular file (a symbolic link is not, unless followed).
    public var isRegularFile: Bool

    /// An identity as `lstat` would give it.
    public init(device: Int64, inode: Int64, size: Int64, modificationTime: Double, isRegularFile: Bool) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationTime = modificationTime
        self.isRegularFile = isRegularFile
    }
}

/// The system calls the library makes on files, each retried on `EINTR`. Paths go to the kernel
/// as the bytes they stand for (``PathBytes``), so a name that is not UTF-8 is never another file.
///
/// These are the only calls through which the `Photos` module creates, links or removes files;
/// docs/architecture.md's "Where the library writes" lists each caller and why it is safe. Failures
/// throw ``SystemCallError`` with the call, the path and `errno`.
public enum FileOperations {
    /// Retries `body` while it fails with `EINTR`; throws the failure with the call and path.
    private static func retrying(_ call: String, _ path: String, _ body: () -> Int32) throws -> Int32 {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, path: path, errno: code)
        }
    }

    /// The last time `path` (not a link's target) changed in any way, content, name or metadata
    /// (`st_ctime`, seconds since 1970): unlike its modification time, no program can set it back,
    /// so a file copied with its old times kept (`cp -a`, rsync, a sync tool's rename into place)
    /// still shows when it arrived. Nil when there is no file at `path`.
    public static func statusChangeTime(_ path: String) -> Double? {
        var info = stat()
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else { return nil }
        return Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
    }

    /// `lstat(2)` (or `stat(2)`, following a symbolic link): the file's identity, or nil when
    /// there is no file at `path`.
    public static func identity(_ path: String, followingLinks: Bool = false) throws -> FileIdentity? {
        var info = stat()
        guard PathBytes.withCString(path, { followingLinks ? stat($0, &info) : lstat($0, &info) }) == 0 else {
            let code = Glibc.errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw SystemCallError(call: followingLinks ? "stat" : "lstat", path: path, errno: code)
        }
        let time = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileIdentity(
            device: Int64(info.st_dev), inode: Int64(info.st_ino), size: Int64(info.st_size), modificationTime: time,
            isRegularFile: (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// The names in a directory (`opendir(3)`, `readdir(3)`), without `.` and `..`, read as bytes
    /// (``PhotosCore/PathBytes``): a name that is not UTF-8 is listed and can be opened, which
    /// `FileManager` cannot do. A `readdir` that fails part way fails the listing: a half-read
    /// directory never looks emptied.
    public static func names(in directory: String) throws -> [String] {
        guard let stream = PathBytes.withCString(directory, { opendir($0) }) else {
            throw SystemCallError(call: "opendir", path: directory, errno: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallError(call: "readdir", path: directory, errno: errno) }
                return names
            }
            let name = PathBytes.name(ofEntry: entry)
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Whether a directory is at `path` (through a symbolic link only when `followingLinks`).
    public static func isDirectory(_ path: String, followingLinks: Bool = false) -> Bool {
        var info = stat()
        guard PathBytes.withCString(path, { followingLinks ? stat($0, &info) : lstat($0, &info) }) == 0 else {
            return false
        }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `mkdir(2)` with `mode` (0700 unless said; the umask applies); returns false when a directory is
    /// already there (not made here).
    public static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws -> Bool {
        if PathBytes.withCString(path, { mkdir($0, mode) }) == 0 { return true }
        let code = Glibc.errno
        var info = stat()
        if code == EEXIST, PathBytes.withCString(path, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return false
        }
        throw SystemCallError(call: "mkdir", path: path, errno: code)
    }

    /// `rmdir(2)`: removes a directory only when it is empty; false when it is not (or is gone).
    @discardableResult
    public static func removeEmptyDirectory(_ path: String) -> Bool {
        PathBytes.withCString(path) { rmdir($0) } == 0
    }

    /// `open(2)` with `O_CREAT | O_EXCL` (never an existing file), write-only, with `mode` (0600 unless
    /// said; the umask applies).
    public static func createExclusively(_ path: String, mode: mode_t = 0o600) throws -> Int32 {
        try retrying("open", path) {
            PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) }
        }
    }

    /// `link(2)`: a second name for a file; fails with `EEXIST` rather than replace one.
    public static func link(_ existing: String, _ new: String) throws {
        _ = try retrying("link", new) {
            PathBytes.withCString(existing) { old in PathBytes.withCString(new) { Glibc.link(old, $0) } }
        }
    }

    /// `unlink(2)`; a file already gone is not an error.
    public static func unlink(_ path: String) throws {
        if PathBytes.withCString(path, { Glibc.unlink($0) }) == 0 { return }
        let code = Glibc.errno
        if code == ENOENT { return }
        throw SystemCallError(call: "unlink", path: path, errno: code)
    }

    /// `rename(2)`, only after checking that nothing is at `new`: for file systems without hard links.
    /// Both names are in the library's own folder, where nothing else creates files.
    public static func renameIfAbsent(_ old: String, _ new: String) throws {
        if try identity(new) != nil { throw SystemCallError(call: "rename", path: new, errno: EEXIST) }
        _ = try retrying("rename", new) {
            PathBytes.withCString(old) { from in PathBytes.withCString(new) { Glibc.rename(from, $0) } }
        }
    }

    /// Moves `old` to `new` on the same file system, never replacing a file at `new`: `renameat2(2)`
    /// with `RENAME_NOREPLACE` (`EEXIST` when `new` is taken, `EXDEV` across mounts: nothing is ever
    /// copied). For a file or directory of the user's as well as the library's own.
    ///
    /// Where the file system cannot promise that (`EINVAL`: NFS, some FUSE file systems), a file or
    /// link is given the second name with `link(2)`, which fails rather than replace, and its first
    /// name is then removed; a directory is renamed with `rename(2)` after checking that nothing is at
    /// `new`, since a directory can replace only an empty directory, never a file or a directory with
    /// something in it. A crash between `link` and `unlink` leaves the file under both names, never
    /// under none.
    public static func renameWithoutReplacing(_ old: String, _ new: String) throws {
        while true {
            let code = PathBytes.withCString(old) { from in
                PathBytes.withCString(new) { to in cphotos_rename_noreplace(from, to) }
            }
            if code == 0 { return }
            if code == EINTR { continue }
            guard code == EINVAL, let source = try identity(old) else {
                throw SystemCallError(call: "renameat2", path: code == EEXIST ? new : old, errno: code)
            }
            if try identity(new) != nil { throw SystemCallError(call: "renameat2", path: new, errno: EEXIST) }
            var info = stat()
            let isDirectory = PathBytes.withCString(old) { lstat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            if isDirectory {
                _ = try retrying("rename", new) {
                    PathBytes.withCString(old) { from in PathBytes.withCString(new) { Glibc.rename(from, $0) } }
                }
            } else {
                try link(old, new)
                // The second name is the same file: only then is the first removed.
                guard let moved = try identity(new), moved.device == source.device, moved.inode == source.inode else {
                    throw SystemCallError(call: "link", path: new, errno: EEXIST)
                }
                try unlink(old)
            }
            return
        }
    }

    /// Writes to disk everything written to the file system that holds the directory `path`
    /// (`syncfs(2)`): one wait for a batch of new files, rather than an `fsync` each.
    public static func syncFileSystem(containing path: String) throws {
        let fd = try retrying("open", path) {
            PathBytes.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }
        defer { close(fd) }
        let error = cphotos_sync_file_system(fd)
        guard error == 0 else { throw SystemCallError(call: "syncfs", path: path, errno: error) }
    }

    /// `fsync(2)` of a file or directory by path: its content, or its entries, reach the disk.
    public static func sync(_ path: String, directory: Bool = false) throws {
        let flags = (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC
        let fd = try retrying("open", path) { PathBytes.withCString(path) { open($0, flags) } }
        defer { close(fd) }
        _ = try retrying("fsync", path) { fsync(fd) }
    }

    /// Writes all of `bytes` to `fd` (`write(2)`).
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if Glibc.errno == EINTR { continue }
                throw SystemCallError(call: "write", path: path, errno: Glibc.errno)
            }
            done += written
        }
    }

    /// Creates a new file at `path` (which must not exist) with `mode` (less the umask), lets `fill`
    /// write to it, then `fsync`s it. On failure the partial file is removed: it is the library's
    /// own, made here.
    private static func createFile(
        at path: String, mode: mode_t = 0o600, syncing: Bool = true, _ fill: (Int32) throws -> Void
    ) throws {
        let output = try createExclusively(path, mode: mode)
        do {
            try fill(output)
            if syncing { _ = try retrying("fsync", path) { fsync(output) } }
            close(output)
        } catch {
            close(output)
            // The error that stopped the copy is the one to report; the partial file goes if it can.
            try? unlink(path)
            throw error
        }
    }

    /// Copies `source` to a new file at `destination` (which must not exist), then `fsync`s it.
    /// Only the data is copied (`lseek(SEEK_DATA)`, `lseek(SEEK_HOLE)`, then `ftruncate` to the
    /// size): a sparse file stays sparse, a 100 GB disk image of a few megabytes is not inflated.
    ///
    /// With `preservingAttributes`, the copy keeps the source's permission bits (read, write and
    /// execute for owner, group and others) and its access and modification times, as `cp -p` does.
    /// Without `syncing`, the copy is not synced: the caller syncs many at once
    /// (``syncFileSystem(containing:)``) before it trusts any of them.
    ///
    /// Without `followingLinks`, a symbolic link at `source`'s name is not followed (`ELOOP`): what
    /// copies an asset's file copies that file, not what a link swapped in at its name points to.
    public static func copy(
        _ source: String, to destination: String, preservingAttributes: Bool = false, mode: mode_t = 0o600,
        syncing: Bool = true, followingLinks: Bool = true
    ) throws {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW)
        let input = try retrying("open", source) { PathBytes.withCString(source) { open($0, flags) } }
        defer { close(input) }
        var info = stat()
        _ = try retrying("fstat", source) { fstat(input, &info) }
        let size = off_t(info.st_size)
        let seekData: Int32 = 3, seekHole: Int32 = 4  // Linux's SEEK_DATA and SEEK_HOLE.
        try createFile(at: destination, mode: mode, syncing: syncing) { output in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var offset: off_t = 0
            var end = size
            while offset < end {
                var data = lseek(input, offset, seekData)
                if data < 0 {
                    if Glibc.errno == ENXIO { break }  // Only a hole is left.
                    data = offset  // A file system that cannot say: all of it is data.
                }
                var hole = lseek(input, data, seekHole)
                if hole < 0 || hole > end { hole = end }
                var position = data
                while position < hole {
                    let count = pread(input, buffer.baseAddress, min(buffer.count, Int(hole - position)), position)
                    if count < 0 {
                        if Glibc.errno == EINTR { continue }
                        throw SystemCallError(call: "read", path: source, errno: Glibc.errno)
                    }
                    if count == 0 {
                        end = position  // Shorter than it was: what is there is the copy.
                        break
                    }
                    guard lseek(output, position, SEEK_SET) == position else {
                        throw SystemCallError(call: "lseek", path: destination, errno: Glibc.errno)
                    }
                    try write(output, UnsafeRawBufferPointer(rebasing: buffer[..<count]), path: destination)
                    position += off_t(count)
                }
                offset = hole
            }
            _ = try retrying("ftruncate", destination) { ftruncate(output, end) }
            if preservingAttributes {
                // After the last write, which would set the modification time anew.
                _ = try retrying("fchmod", destination) { fchmod(output, info.st_mode & 0o777) }
                var times = [info.st_atim, info.st_mtim]
                _ = try retrying("futimens", destination) { futimens(output, &times) }
            }
        }
    }

    /// Whether the regular files `first` and `second` hold the same bytes: their sizes, then their
    /// contents read side by side (`read(2)` of both to the end). A copy is trusted only once this says so.
    public static func sameContent(_ first: String, _ second: String) throws -> Bool {
        guard let left = try identity(first, followingLinks: true),
            let right = try identity(second, followingLinks: true),
            left.isRegularFile, right.isRegularFile, left.size == right.size
        else { return false }
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY
        let a = try retrying("open", first) { PathBytes.withCString(first) { open($0, flags) } }
        defer { close(a) }
        let b = try retrying("open", second) { PathBytes.withCString(second) { open($0, flags) } }
        defer { close(b) }
        let size = 1 << 20
        let bufferA = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        let bufferB = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer {
            bufferA.deallocate()
            bufferB.deallocate()
        }
        /// Fills `buffer` from `fd` as far as the file goes; returns how many bytes it read.
        func fill(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ path: String) throws -> Int {
            var done = 0
            while done < buffer.count {
                let count = read(fd, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if Glibc.errno == EINTR { continue }
                    throw SystemCallError(call: "read", path: path, errno: Glibc.errno)
                }
                if count == 0 { break }
                done += count
            }
            return done
        }
        while true {
            let (countA, countB) = (try fill(a, bufferA, first), try fill(b, bufferB, second))
            guard countA == countB else { return false }
            if countA == 0 { return true }
            if memcmp(bufferA.baseAddress!, bufferB.baseAddress!, countA) != 0 { return false }
        }
    }

    /// Writes `data` to a new file at `destination` (which must not exist), then `fsync`s it.
    public static func write(_ data: Data, to destination: String, mode: mode_t = 0o600) throws {
        try createFile(at: destination, mode: mode) { output in
            try data.withUnsafeBytes { bytes in try write(output, bytes, path: destination) }
        }
    }

    /// Appends `data` to the regular file at `path` in one `write(2)` (`O_APPEND`, `O_NOFOLLOW`) and
    /// `fsync`s it, only if it is still `expected` (device and inode, checked on the open descriptor):
    /// a file another program put under that name meanwhile is never written (`EAGAIN`), and a
    /// symbolic link is never followed. A stop mid-way leaves the old bytes followed by a part of
    /// `data`, never less than the old bytes.
    public static func append(_ data: Data, to path: String, expecting expected: FileIdentity) throws {
        let fd = try retrying("open", path) {
            PathBytes.withCString(path) { open($0, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY) }
        }
        defer { close(fd) }
        var info = stat()
        _ = try retrying("fstat", path) { fstat(fd, &info) }
        guard (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_dev) == expected.device,
            Int64(info.st_ino) == expected.inode
        else { throw SystemCallError(call: "write", path: path, errno: EAGAIN) }
        try data.withUnsafeBytes { bytes in try write(fd, bytes, path: path) }
        _ = try retrying("fsync", path) { fsync(fd) }
    }

    /// Replaces the regular file at `path` (or creates it) with `data`, atomically: the bytes go to a
    /// new temporary file beside it (`.NAME.photosd-PID-N.tmp`, `O_EXCL`), which is `fsync`ed, given
    /// the old file's permission bits (a new file: 0666 less the umask), and renamed over `path`
    /// (`rename(2)`; a new file is `link`ed, which never replaces one); then the directory is `fsync`ed. A reader sees the old bytes or the new, never
    /// a mix, and a crash leaves at most the temporary file, never a short `path`.
    ///
    /// With `expecting`, the file must still be that file (device, inode, size, modification time)
    /// just before the rename, or nothing is replaced and the call throws `EAGAIN`: another program
    /// wrote it since it was read, and the caller reads it again. `nil` expects no file at all.
    /// A path that is not a regular file (a directory, a symbolic link, a FIFO) is refused (`EINVAL`).
    public static func replace(_ path: String, with data: Data, expecting: FileIdentity?? = .none) throws {
        let current = try identity(path)
        if let current, !current.isRegularFile { throw SystemCallError(call: "rename", path: path, errno: EINVAL) }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary =
            (slash.map { String(path[...$0]) } ?? "") + ".\(name).photosd-\(getpid())-\(nextTemporary()).tmp"
        let output = try createExclusively(temporary, mode: 0o666)
        do {
            try data.withUnsafeBytes { bytes in try write(output, bytes, path: temporary) }
            var info = stat()
            if current != nil, PathBytes.withCString(path, { lstat($0, &info) }) == 0 {
                _ = try retrying("fchmod", temporary) { fchmod(output, info.st_mode & 0o7777) }
            }
            _ = try retrying("fsync", temporary) { fsync(output) }
            close(output)
        } catch {
            close(output)
            try? unlink(temporary)
            throw error
        }
        do {
            let now = try identity(path)
            if case .some(let expected) = expecting, now != expected {
                throw SystemCallError(call: "rename", path: path, errno: EAGAIN)
            }
            // A new file is linked into place, which fails rather than replace one another program
            // created meanwhile; where the file system has no hard links, it is renamed.
            var placed = false
            if now == nil {
                do {
                    try link(temporary, path)
                    try unlink(temporary)
                    placed = true
                } catch let error as SystemCallError where error.errno == EEXIST {
                    throw SystemCallError(call: "link", path: path, errno: EAGAIN)
                } catch {}
            }
            if !placed {
                _ = try retrying("rename", path) {
                    PathBytes.withCString(temporary) { from in PathBytes.withCString(path) { Glibc.rename(from, $0) } }
                }
            }
        } catch {
            try? unlink(temporary)
            throw error
        }
        try sync(directory, directory: true)
    }

    /// A counter that makes this process's temporary names distinct.
    private static let temporaryCounter = Mutex<UInt64>(0)

    private static func nextTemporary() -> UInt64 {
        temporaryCounter.withLock { counter in
            counter += 1
            return counter
        }
    }

    /// `realpath(3)`: the path with links and `..` resolved, or nil when it does not resolve.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }

    /// `path` with the symbolic links of as much of it as exists resolved (``resolved(_:)``), and
    /// the rest as given: where a file not made yet, or a folder not mounted, would be. Two paths
    /// that name one place through links resolve alike; a relative path is taken as given.
    ///
    /// ```swift
    /// // ~/drop -> ~/Pictures/Inbox
    /// FileOperations.resolvedAsFarAsItExists("/home/me/drop/new")  // "/home/me/Pictures/Inbox/new"
    /// ```
    public static func resolvedAsFarAsItExists(_ path: String) -> String {
        if let whole = resolved(path) { return whole }
        let name = PathName.name(of: path)
        let directory = PathName.directory(of: path)
        guard path.hasPrefix("/"), !directory.isEmpty, directory != path, name != "..", name != "." else { return path }
        let parent = directory == "/" ? "/" : resolvedAsFarAsItExists(directory)
        return parent == "/" ? "/" + name : parent + "/" + name
    }

    /// Why this process cannot make, rename or remove entries in `directory`, in words (nil when it
    /// can): "a read-only file system" (`statvfs`'s `ST_RDONLY`), "no permission to write"
    /// (`access(W_OK|X_OK)`), "missing", or "not a directory". A root's policy is checked against
    /// this before a change is committed, so that a change that cannot reach the disk fails instead.
    public static func writeRestriction(ofDirectory directory: String) -> String? {
        var status = stat()
        guard PathBytes.withCString(directory, { stat($0, &status) }) == 0 else {
            return Glibc.errno == ENOENT ? "missing" : "cannot be reached (\(String(cString: strerror(Glibc.errno))))"
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return "not a directory" }
        var volume = statvfs()
        if PathBytes.withCString(directory, { statvfs($0, &volume) }) == 0, volume.f_flag & UInt(ST_RDONLY) != 0 {
            return "a read-only file system"
        }
        guard PathBytes.withCString(directory, { access($0, W_OK | X_OK) }) == 0 else {
            return Glibc.errno == EROFS ? "a read-only file system" : "no permission to write"
        }
        return nil
    }

    /// Whether a process with this id is running (`kill(pid, 0)`).
    public static func processIsAlive(_ pid: Int64) -> Bool {
        guard pid > 0, pid <= Int64(Int32.max) else { return false }
        return kill(pid_t(pid), 0) == 0 || Glibc.errno == EPERM
    }

    /// This process's id.
    public static var processID: Int64 { Int64(getpid()) }
}
