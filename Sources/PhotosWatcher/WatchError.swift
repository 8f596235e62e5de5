import PhotosLinux

/// Why a directory could not be watched, or the monitor could not start.
///
/// One error type for the module, with a code a program can switch on, a message a person can read,
/// the path concerned and the failed system call as the cause. The watcher service turns
/// ``Code/watchLimitReached`` into "this root is polled instead"; the other codes mean the root is
/// not there or not readable.
///
/// ```swift
/// do {
///     try monitor.addRoot("/srv/photos")
/// } catch where error.code == .watchLimitReached {
///     crawler.pollPeriodically("/srv/photos")
/// }
/// ```
public struct WatchError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases (compare with `==`, switch with `case .x`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case watchLimitReached, notFound, notADirectory, permissionDenied, systemCallFailed, stopped
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// No watch is left: the kernel said `ENOSPC` (`max_user_watches`), or the ``WatchBudget`` is spent.
        public static let watchLimitReached = Code(.watchLimitReached)
        /// The path does not exist (`ENOENT`).
        public static let notFound = Code(.notFound)
        /// The path, or one of its parents, is not a directory (`ENOTDIR`).
        public static let notADirectory = Code(.notADirectory)
        /// The directory may not be read (`EACCES`).
        public static let permissionDenied = Code(.permissionDenied)
        /// Any other failure of a system call (`EMFILE` from `inotify_init1`, `ENOMEM`, ...).
        public static let systemCallFailed = Code(.systemCallFailed)
        /// The monitor was stopped; it watches nothing more.
        public static let stopped = Code(.stopped)

        /// The code's name, as written in Swift (`watchLimitReached`).
        public var description: String { wrapped.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// The directory concerned, if any.
    public let path: String?
    /// The lower-level error, usually a `SystemCallError` (PhotosLinux).
    public let cause: (any Error)?

    /// Creates an error; `cause` is the lower-level error, if any.
    public init(code: Code, message: String, path: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// `"watchLimitReached: no inotify watch left (/srv/photos) [inotify_add_watch: ...]"`.
    public var description: String {
        var text = "\(code): \(message)"
        if let path { text += " (\(path))" }
        if let cause { text += " [\(cause)]" }
        return text
    }
}
