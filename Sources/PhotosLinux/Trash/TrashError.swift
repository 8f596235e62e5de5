import Glibc

/// Why a file could not be trashed, or a trashed one restored, erased or read.
///
/// One error type for the Trash, with a code a program can switch on, a message a person can read
/// that names the file and the reason, the path concerned, and the failed system call as the
/// cause. A change request turns ``Code/noTrash`` and ``Code/permissionDenied`` into
/// `accessRestricted`, and ``Code/destinationTaken`` into a refusal naming the path.
///
/// ```swift
/// do {
///     let entry = try Trash().trash("/media/card/DCIM/IMG_0001.JPG")
///     print("in \(entry.directory.path) as \(entry.name)")
/// } catch let error as TrashError where error.code == .noTrash {
///     print(error.message)  // "no trash can be used on the file system of …: …"
/// }
/// ```
public struct TrashError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases (compare with `==`, switch with `case .x`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case notFound, notTrashable, noTrash, crossDevice, destinationTaken, permissionDenied, invalidEntry
            case systemCallFailed
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The file to trash is not there, or a trashed entry's file is missing from `files/`.
        public static let notFound = Code(.notFound)
        /// The path cannot go to a trash: `/`, `.`, `..`, a mount point, or a trash directory or
        /// something inside one.
        public static let notTrashable = Code(.notTrashable)
        /// No trash directory can be used on the file's file system (the home trash is elsewhere, and
        /// `$topdir/.Trash/$uid` and `$topdir/.Trash-$uid` fail their checks or cannot be made). The
        /// file is left where it is: it is never copied to another device.
        public static let noTrash = Code(.noTrash)
        /// The kernel refused the move as one across mounts (`EXDEV`); nothing was copied.
        public static let crossDevice = Code(.crossDevice)
        /// A file is already at the path a restore would move to; nothing was replaced.
        public static let destinationTaken = Code(.destinationTaken)
        /// The file or a directory on the way may not be changed by this user (`EACCES`, `EPERM`,
        /// `EROFS`).
        public static let permissionDenied = Code(.permissionDenied)
        /// A `.trashinfo` file cannot be read as one (no `[Trash Info]` group, no `Path=`).
        public static let invalidEntry = Code(.invalidEntry)
        /// Any other failure of a system call.
        public static let systemCallFailed = Code(.systemCallFailed)

        /// The code's name, as written in Swift (`noTrash`).
        public var description: String { wrapped.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for people: names the file and the reason.
    public let message: String
    /// The file concerned, if any.
    public let path: String?
    /// The lower-level error, usually a ``SystemCallError``.
    public let cause: (any Error)?

    /// Creates an error; `cause` is the lower-level error, if any.
    public init(code: Code, message: String, path: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// `"noTrash: no trash can be used … (/media/card/IMG_1.JPG) [mkdir …: Read-only file system (errno 30)]"`.
    public var description: String {
        var text = "\(code): \(message)"
        if let path { text += " (\(path))" }
        if let cause { text += " [\(cause)]" }
        return text
    }

    /// The error for a failed system call while doing `what` (which names the file): `errno` picks
    /// the code; `path` is the file concerned.
    static func failed(_ what: String, path: String, _ error: any Error) -> TrashError {
        if let error = error as? TrashError { return error }
        let code: Code
        switch (error as? SystemCallError)?.errno {
        case ENOENT: code = .notFound
        case EACCES, EPERM, EROFS: code = .permissionDenied
        case EXDEV: code = .crossDevice
        case EEXIST, ENOTEMPTY: code = .destinationTaken
        default: code = .systemCallFailed
        }
        let reason = (error as? SystemCallError)?.reason ?? "\(error)"
        return TrashError(code: code, message: "cannot \(what): \(reason)", path: path, cause: error)
    }
}
