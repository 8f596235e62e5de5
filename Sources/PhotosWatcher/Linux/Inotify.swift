import Glibc
import PhotosLinux

/// The monitor's masks, and PhotosLinux's inotify calls with their failures as ``WatchError``s.
///
/// The `IN_*` constants import from Glibc as `Int32` (`IN_ALL_EVENTS` does not import at all); the
/// masks here are the `UInt32` the calls take.
extension Inotify {
    /// The events a watched directory reports: entries created, completed, written, moved, removed
    /// or changed, and the directory's own removal or move. `IN_ONLYDIR` refuses anything but a
    /// directory, `IN_DONT_FOLLOW` never watches through a symbolic link, and `IN_EXCL_UNLINK` stops
    /// events for a file once it is unlinked (a deleted temporary file still being written).
    static let directoryMask = UInt32(
        IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ATTRIB | IN_MODIFY | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

    /// ``directoryMask`` without `IN_DONT_FOLLOW`, for a root: a root given as a symbolic link to a
    /// directory is watched as that directory.
    static let rootMask = directoryMask & ~UInt32(IN_DONT_FOLLOW)

    /// ``Inotify/create()``: a new instance's descriptor.
    static func initialize() throws(WatchError) -> Int32 {
        do {
            return try create()
        } catch {
            throw WatchError(systemCall: error)
        }
    }

    /// ``Inotify/addWatch(_:mask:to:)``: `ENOSPC` (the user's watch limit) throws
    /// ``WatchError/Code/watchLimitReached``; `ENOENT`, `ENOTDIR` and `EACCES` have codes of their own.
    static func addWatch(fd: Int32, path: String, mask: UInt32) throws(WatchError) -> Int32 {
        do {
            return try addWatch(path, mask: mask, to: fd)
        } catch {
            throw WatchError(systemCall: error)
        }
    }

    /// ``Inotify/removeWatch(_:from:)``.
    static func removeWatch(fd: Int32, wd: Int32) {
        removeWatch(wd, from: fd)
    }

    /// ``Inotify/read(_:into:)``.
    static func read(fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(WatchError) -> Int? {
        do {
            return try read(fd, into: buffer)
        } catch {
            throw WatchError(systemCall: error)
        }
    }
}

extension WatchError {
    /// The error for a failed call, its code by `errno`, its path the call's.
    init(systemCall cause: SystemCallError) {
        let path = cause.path
        switch cause.errno {
        case ENOSPC:
            self.init(
                code: .watchLimitReached, message: "no inotify watch left (max_user_watches)", path: path, cause: cause)
        case ENOENT:
            self.init(code: .notFound, message: "no such directory", path: path, cause: cause)
        case ENOTDIR:
            self.init(code: .notADirectory, message: "not a directory", path: path, cause: cause)
        case EACCES:
            self.init(code: .permissionDenied, message: "permission denied", path: path, cause: cause)
        default:
            self.init(code: .systemCallFailed, message: "\(cause.call) failed", path: path, cause: cause)
        }
    }
}
