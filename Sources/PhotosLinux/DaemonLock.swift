import Foundation
import Glibc
import Synchronization

/// One photosd per library: an exclusive lock on `<library>.photosd.lock`, held for the daemon's
/// life, with the holder's PID and name written in the file. `photos rebuild` holds it too while it
/// replaces the library file, so that no photosd serves the file it replaces.
///
/// Two daemons on one library would both run the hooks and overwrite each other's status file, so
/// that `photos status` reported the wrong process and roots. The second one now stops before it
/// does anything, naming the first:
/// ```swift
/// let lock = try DaemonLock.acquire(forLibrary: path)
/// // DaemonLockError: photosd (pid 4242) already serves the library at /home/me/.local/share/photosd/library.sqlite
/// ```
/// The lock is `flock(2)`'s: the kernel drops it when the process ends however it ends, so a killed
/// daemon leaves no stale lock (the file stays, unlocked, and is reused). The descriptor is
/// close-on-exec: hooks and other children never hold it. The library file itself, when it exists,
/// is locked the same way (SQLite's own locks are `fcntl`'s, which `flock` leaves alone), so that a
/// second photosd given another hard link to it, whose lock file is another, stops too.
public final class DaemonLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: Int32
    /// The library file's, held as long (-1 while there was no file to lock).
    private let libraryDescriptor: Mutex<Int32>
    /// The library's path, as given.
    private let library: String

    private init(path: String, descriptor: Int32, library: String, libraryDescriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        self.library = library
        self.libraryDescriptor = Mutex(libraryDescriptor)
    }

    deinit {
        close(descriptor)
        libraryDescriptor.withLock { if $0 >= 0 { close($0) } }
    }

    /// Locks the library file too, when the lock was taken before the file was made (photosd
    /// making a new library): from then on, another name of the file is the same library.
    public func lockLibraryFile() throws(DaemonLockError) {
        let taken = libraryDescriptor.withLock { $0 >= 0 }
        guard !taken else { return }
        let descriptor = try Self.lockFile(library, lockPath: path)
        libraryDescriptor.withLock { $0 = descriptor }
    }

    /// `flock(LOCK_EX | LOCK_NB)` of `descriptor`, again when a signal cut it: nil once locked,
    /// else `errno` (`EWOULDBLOCK`: another process holds it).
    private static func lockExclusively(_ descriptor: Int32) -> Int32? {
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        return result == 0 ? nil : errno
    }

    /// Opens and locks the library file at `library` (`-1` when there is none yet).
    private static func lockFile(_ library: String, lockPath: String) throws(DaemonLockError) -> Int32 {
        let descriptor = open(resolved(library), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return -1 }
        guard let number = lockExclusively(descriptor) else { return descriptor }
        close(descriptor)
        guard number == EWOULDBLOCK else {
            throw DaemonLockError(
                .unusable, library: library, path: lockPath, reason: String(cString: strerror(number)))
        }
        throw DaemonLockError(.heldThroughAnotherName, library: library, path: lockPath, reason: nil)
    }

    /// The lock file of a library: `<library>.photosd.lock`, beside the file the path leads to, its
    /// symbolic links followed (the library's own, or a folder's on the way): a second photosd
    /// given a link to the library takes the same lock.
    public static func path(forLibrary libraryPath: String) -> String {
        resolved(libraryPath) + ".photosd.lock"
    }

    /// `path` with its symbolic links resolved (`realpath(3)`); for a file not made yet, its folder's
    /// resolved (``FileOperations/resolvedAsFarAsItExists(_:)``).
    static func resolved(_ path: String) -> String {
        FileOperations.resolvedAsFarAsItExists(
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }

    /// Takes the library's lock for `holder` (the program, as messages name it), or throws
    /// ``DaemonLockError`` naming the process that holds it.
    public static func acquire(
        forLibrary libraryPath: String, holder: String = "photosd"
    ) throws(DaemonLockError) -> DaemonLock {
        let path = path(forLibrary: libraryPath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw DaemonLockError(.unusable, library: libraryPath, path: path, reason: String(cString: strerror(errno)))
        }
        if let number = lockExclusively(descriptor) {
            let (pid, name) = readHolder(descriptor)
            close(descriptor)
            guard number == EWOULDBLOCK else {
                throw DaemonLockError(
                    .unusable, library: libraryPath, path: path, reason: String(cString: strerror(number)))
            }
            throw DaemonLockError(.held(pid: pid), library: libraryPath, path: path, reason: nil, holder: name)
        }
        // The library file under every name it has (a hard link's lock file is another).
        let library: Int32
        do {
            library = try lockFile(libraryPath, lockPath: path)
        } catch {
            close(descriptor)
            throw error
        }
        // The holder's PID and name, for the next one's message (and for people): written whole, once locked.
        let text = Array("\(getpid())\n\(holder)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DaemonLock(path: path, descriptor: descriptor, library: libraryPath, libraryDescriptor: library)
    }

    /// The PID and the program's name written in a lock file, when it holds them (a file of an older
    /// build holds the PID alone: photosd's).
    private static func readHolder(_ descriptor: Int32) -> (pid: Int32?, name: String) {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return (nil, "photosd") }
        let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n")
        let name = lines.count > 1 ? lines[1].trimmingCharacters(in: .whitespaces) : ""
        return (lines.first.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }, name.isEmpty ? "photosd" : name)
    }
}

/// photosd (or `photos rebuild`) cannot take its library's lock: another process holds it, or the
/// lock file cannot be made.
public struct DaemonLockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the lock was not taken.
    public enum Code: Sendable, Hashable {
        /// Another process holds it; its PID when the file names one.
        case held(pid: Int32?)
        /// Another process serves the library file through another of its names (a hard link),
        /// whose lock file is another.
        case heldThroughAnotherName
        /// The lock file cannot be opened or locked (the reason says why).
        case unusable
    }

    /// Why.
    public let code: Code
    /// The library.
    public let library: String
    /// The lock file.
    public let path: String
    /// The system's reason, for ``Code/unusable``.
    public let reason: String?
    /// The program that holds it, for ``Code/held(pid:)``: `photosd`, `photos rebuild`.
    public let holder: String
    /// The PID of the process that holds it, when the lock file names one.
    public var pid: Int32? {
        guard case .held(let pid) = code else { return nil }
        return pid
    }

    init(_ code: Code, library: String, path: String, reason: String?, holder: String = "photosd") {
        self.code = code
        self.library = library
        self.path = path
        self.reason = reason
        self.holder = holder
    }

    /// What happened and what to do, in a sentence.
    public var description: String {
        switch code {
        case .held(let pid):
            let who = pid.map { "\(holder) (pid \($0))" } ?? "another \(holder)"
            let doing = holder == "photosd" ? "already serves" : "is rebuilding"
            return "\(who) \(doing) the library at \(library) (it holds \(path)); stop it first, "
                + "or give this one another --library"
        case .heldThroughAnotherName:
            return "another photosd already serves the library at \(library) through another of its names (a hard "
                + "link to the file); stop it first, or give this one another --library"
        case .unusable:
            return "cannot lock \(path) to serve the library at \(library) alone: \(reason ?? "unknown error")"
        }
    }
}
