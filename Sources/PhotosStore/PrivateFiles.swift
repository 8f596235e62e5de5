import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Files and directories the library creates for itself, private to the user whatever the umask
/// (the XDG base-directory rule: data directories 0700), and the lock that serialises creating a
/// library across processes.
///
/// Only what these functions create gets these modes: an existing directory or file is never
/// changed, because it may be the user's.
/// ```swift
/// try PrivateFiles.makeDirectory("/home/me/.local/share/photosd")   // 0700, with missing parents
/// try PrivateFiles.write(Data("{}".utf8), atomicallyTo: "/home/me/.local/share/photosd/x.json")  // 0600
/// ```
public enum PrivateFiles {
    /// The mode of directories the library creates.
    public static let directoryMode: mode_t = 0o700
    /// The mode of files the library creates.
    public static let fileMode: mode_t = 0o600

    /// Creates `path` and any missing parent as 0700 directories; existing ones are left as they are.
    ///
    /// The corresponding C functions are `mkdir` and `chmod` (the mode is set again after
    /// `mkdir`, which the umask may have narrowed).
    public static func makeDirectory(_ path: String) throws {
        var missing: [String] = []
        var current = (path as NSString).standardizingPath
        while !current.isEmpty, current != "/", !exists(current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            if mkdir(directory, directoryMode) != 0 {
                let number = errno
                // Another process made it first: it is its creator's, leave it.
                if number == EEXIST { continue }
                throw StoreError(posix: number, "cannot create the directory \(directory)", path: directory)
            }
            if chmod(directory, directoryMode) != 0 {
                throw StoreError(posix: errno, "cannot make \(directory) private", path: directory)
            }
        }
    }

    /// Creates an empty 0600 file at `path` unless something is there already. Returns whether it
    /// created the file.
    ///
    /// The corresponding C functions are `open` (`O_CREAT | O_EXCL`), `fchmod` and `close`.
    @discardableResult
    public static func createFile(_ path: String) throws -> Bool {
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode) }
        if fd < 0 {
            let number = errno
            if number == EEXIST { return false }
            throw StoreError(posix: number, "cannot create \(path)", path: path)
        }
        defer { close(fd) }
        if fchmod(fd, fileMode) != 0 { throw StoreError(posix: errno, "cannot make \(path) private", path: path) }
        return true
    }

    /// Writes `data` to `path` through a 0600 temporary file renamed into place: a reader sees the
    /// old content or the new, never half of it.
    ///
    /// The corresponding C functions are `open`, `write`, `fsync` and `rename`.
    public static func write(_ data: Data, atomicallyTo path: String) throws {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode) }
        guard fd >= 0 else { throw StoreError(posix: errno, "cannot create \(temporary)", path: temporary) }
        var failure: StoreError?
        if fchmod(fd, fileMode) != 0 {
            failure = StoreError(posix: errno, "cannot make \(temporary) private", path: path)
        }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while failure == nil, offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = StoreError(posix: errno, "cannot write \(path)", path: path)
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = StoreError(posix: errno, "cannot write \(path)", path: path) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 {
            failure = StoreError(posix: errno, "cannot replace \(path)", path: path)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Runs `body` holding an exclusive lock on `directory`, so that processes creating or migrating
    /// a library there run one at a time. Without the lock, five processes opening a new library at
    /// once each saw no schema and 1 to 4 failed with "table asset already exists".
    ///
    /// The lock is `flock` on the directory itself: it leaves no file behind, and it is independent
    /// of SQLite's own POSIX locks on the library file (closing the descriptor cannot release those,
    /// as closing one on the library file would). A directory that cannot be opened for the lock
    /// (no read permission) is used without it. The corresponding C functions are `open`
    /// (`O_DIRECTORY`), `flock` and `close`.
    public static func withLock<T>(onDirectory directory: String, _ body: () throws -> T) throws -> T {
        let fd = retrying { open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        if retrying({ flock(fd, LOCK_EX) }) != 0 {
            throw StoreError(posix: errno, "cannot lock \(directory) to open the library", path: directory)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Calls `call` again while it fails with EINTR.
    private static func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
