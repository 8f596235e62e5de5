import Foundation
import Synchronization

/// A status file photosd writes (``DaemonStatus``, ``StartupProgress``), read for the API: decoded
/// again only when the file is another one than the one last read.
///
/// `GET /v1/health` reads the daemon's status for each request, and monitors ask for it many times
/// a second; reading and decoding the file each time was a sixth of the request. The files are only
/// ever replaced whole (written to a temporary name, renamed over), so a new write is a new file: a
/// look at the name (`stat`) tells whether the file read last is still the one there, by its
/// device, inode, size and times. An inode number a replaced file freed can be given to a later
/// write, but that write is at least a status interval later (250 ms), which its times tell.
///
/// ```swift
/// let status = StatusFileReader(path: statusPath) { try DaemonStatus.read(from: $0) }
/// let current = try status.value()  // nil while there is no file
/// ```
public final class StatusFileReader<Value: Sendable>: Sendable {
    private let path: String
    private let decode: @Sendable (String) throws -> Value
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        init(_ info: stat) {
            (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
            (modified, changed) = (info.st_mtim, info.st_ctim)
        }

        static func == (a: Identity, b: Identity) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }
    private let last = Mutex<(identity: Identity, value: Value)?>(nil)

    /// A reader of the file at `path`, which `decode` reads and decodes.
    public init(path: String, decode: @escaping @Sendable (String) throws -> Value) {
        self.path = path
        self.decode = decode
    }

    /// The file's value: the one decoded last while the file is the same, else decoded now; nil
    /// when there is no file. Throws `decode`'s error for a file that cannot be read or decoded, and
    /// a `POSIXError` when `stat` fails otherwise than for a missing file.
    public func value() throws -> Value? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let identity = Identity(info)
        if let cached = last.withLock({ $0?.identity == identity ? $0?.value : nil }) { return cached }
        let value = try decode(path)
        // Taken for the file as it was before the read: a file replaced during the read is read again
        // at the next look, never kept as the newer one.
        last.withLock { $0 = (identity, value) }
        return value
    }
}
