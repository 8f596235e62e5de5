import Foundation
import GRDB
#if canImport(Glibc)
    import Glibc
#endif

/// Why the library file could not be read or written: a code, the cause (SQLite's result code and
/// message, the errno), and the library file.
///
/// The store throws this for every failure of SQLite or of the files around it, so that the
/// public API can map it to one `PHPhotosError` code (in the Photos module) and the command line
/// and daemon can say what happened:
/// ```swift
/// do { _ = try LibraryDatabase(path: path) }
/// catch let error as StoreError where error.code == .corrupt { print("damaged:", error.message) }
/// ```
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, by what the user can do about it.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The file is damaged or is not a SQLite database (SQLITE_CORRUPT, SQLITE_NOTADB).
        case corrupt
        /// Another connection held the lock past the busy timeout (SQLITE_BUSY, SQLITE_LOCKED).
        case busy
        /// The disk or quota is full (SQLITE_FULL, ENOSPC, EDQUOT).
        case full
        /// The file or its file system is read-only (SQLITE_READONLY, EROFS).
        case readOnly
        /// The file or its directory may not be read or written (EACCES, EPERM, SQLITE_PERM, SQLITE_AUTH).
        case permissionDenied
        /// The file cannot be opened or reached: a directory in its place, a missing or vanished
        /// volume, an I/O error (SQLITE_CANTOPEN, SQLITE_IOERR, EIO).
        case unreachable
        /// The library was made by a newer build: its schema has migrations this build does not know.
        case newerSchema
        /// There is no library at the path (and none was to be created).
        case notFound
        /// The change history after a token was pruned.
        case historyExpired
        /// The operation was interrupted (SQLITE_INTERRUPT, SQLITE_ABORT).
        case interrupted
        /// A row lacks a column its reader needs, or holds another kind of value there: a query with a
        /// stale column list, or a library written by another build.
        case missingColumn
        /// Anything else SQLite reported: a bug here rather than a state of the file.
        case other
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// The library file, if known.
    public let path: String?
    /// SQLite's extended result code, when SQLite reported the failure.
    public let sqliteCode: Int32?
    /// SQLite's message, when SQLite reported the failure.
    public let sqliteMessage: String?
    /// The system's error number, when a system call failed or SQLite's failure has a known one.
    public let errno: Int32?

    /// Creates an error from its parts.
    public init(
        _ code: Code, _ message: String, path: String? = nil, sqliteCode: Int32? = nil, sqliteMessage: String? = nil,
        errno: Int32? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.sqliteCode = sqliteCode
        self.sqliteMessage = sqliteMessage
        self.errno = errno
    }

    /// The store's view of a GRDB error: the code it means for the library, SQLite's code and message kept.
    public init(_ error: DatabaseError, path: String?) {
        let primary = error.resultCode
        let code: Code
        var number: Int32?
        switch primary {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: code = .corrupt
        case .SQLITE_BUSY, .SQLITE_LOCKED: code = .busy
        case .SQLITE_FULL:
            code = .full
            number = ENOSPC
        case .SQLITE_READONLY: code = .readOnly
        case .SQLITE_PERM, .SQLITE_AUTH:
            code = .permissionDenied
            number = EACCES
        case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_NOLFS:
            // SQLite does not keep the errno in the error; the file itself says most of it.
            let cause = path.flatMap(StoreError.diagnose)
            code = cause?.code ?? .unreachable
            number = cause?.errno ?? (primary == .SQLITE_IOERR ? EIO : nil)
        case .SQLITE_INTERRUPT, .SQLITE_ABORT: code = .interrupted
        default: code = .other
        }
        let sqliteMessage = error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        let subject = path.map { "the library at \($0)" } ?? "the library"
        let message: String =
            switch code {
            case .corrupt:
                "\(subject) is damaged or not a photo library: \(sqliteMessage) "
                    + "(`photos rebuild` makes it again from the photos, their sidecars and album manifests)"
            case .busy: "\(subject) is locked by another writer: \(sqliteMessage)"
            case .full: "no space left to write \(subject): \(sqliteMessage)"
            case .readOnly: "\(subject) is read-only: \(sqliteMessage)"
            case .permissionDenied: "no permission to use \(subject): \(sqliteMessage)"
            case .unreachable: "\(subject) cannot be opened: \(sqliteMessage)"
            case .interrupted: "an operation on \(subject) was interrupted: \(sqliteMessage)"
            default: "\(subject): \(sqliteMessage)"
            }
        self.init(
            code, message, path: path, sqliteCode: error.extendedResultCode.rawValue, sqliteMessage: sqliteMessage,
            errno: number)
    }

    /// Any error of the store's work as a `StoreError` where it is one of SQLite's or of the
    /// file system's; other errors (a request's own, such as an unknown identifier) pass through.
    public static func wrap(_ error: any Error, path: String?) -> any Error {
        switch error {
        case let error as StoreError: return error
        case let error as DatabaseError: return StoreError(error, path: path)
        case let error as CocoaError where error.code == .fileWriteOutOfSpace:
            return StoreError(
                .full, "no space left to write \(path ?? "the library"): \(error)", path: path, errno: ENOSPC)
        default:
            let nsError = error as NSError
            guard nsError.domain == NSPOSIXErrorDomain else { return error }
            return StoreError(posix: Int32(nsError.code), "\(nsError.localizedDescription)", path: path)
        }
    }

    /// An error from a failed system call's errno.
    public init(posix number: Int32, _ message: String, path: String?) {
        let code: Code =
            switch number {
            case ENOSPC, EDQUOT: .full
            case EROFS: .readOnly
            case EACCES, EPERM: .permissionDenied
            case ENOENT: .notFound
            default: .unreachable
            }
        let reason = String(cString: strerror(number))
        self.init(code, "\(message): \(reason)", path: path, errno: number)
    }

    /// Why a library file cannot be opened, from the file itself: nil when nothing is visibly wrong.
    static func diagnose(_ path: String) -> (code: Code, errno: Int32)? {
        var info = stat()
        if stat(path, &info) != 0 {
            let number = Glibc.errno
            // A missing file or directory is a volume that went away as far as the library can tell.
            return ([EACCES, EPERM].contains(number) ? .permissionDenied : .unreachable, number)
        }
        if info.st_mode & S_IFMT == S_IFDIR { return (.unreachable, EISDIR) }
        if access(path, R_OK) != 0 { return (.permissionDenied, Glibc.errno) }
        if access(path, W_OK) != 0 {
            let number = Glibc.errno
            return (number == EROFS ? .readOnly : .permissionDenied, number)
        }
        return nil
    }

    /// The code, the message and the cause.
    public var description: String {
        var causes: [String] = []
        if let sqliteCode { causes.append("SQLite \(sqliteCode)") }
        if let errno { causes.append("errno \(errno)") }
        return message + (causes.isEmpty ? "" : " (\(causes.joined(separator: ", ")))")
    }
}
