import Glibc

/// A failed system call: its name, `errno`, and the path it was given, if any.
///
/// The error this module's system calls throw (the Trash wraps it in a ``TrashError`` that names
/// the file trashed or restored). Callers that have an error type of their own (`WatchError`,
/// `MetadataError`, `ImagingError`, `PHPhotosError`) keep this as the cause, or switch on ``errno``.
///
/// ```swift
/// do {
///     try FileOperations.link(staged, destination)
/// } catch where error.errno == EEXIST {
///     // another file has that name: it is not replaced
/// }
/// ```
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function, as in its manual page (`inotify_add_watch`).
    public let call: String
    /// The `errno` it set.
    public let errno: Int32
    /// The path it was given, as a `PathBytes` string, when it took one.
    public let path: String?

    /// Creates the error for `call` failing with `errno` on `path`.
    public init(call: String, path: String? = nil, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// The system's text for ``errno`` (`strerror`): "No space left on device"; for an `open` that
    /// met a symbolic link it did not follow (`ELOOP`, see ``Syscall``), that in words.
    public var reason: String {
        if call == "open" && errno == ELOOP { return "a symbolic link on the way, which the library does not follow" }
        return strerror(errno).map { String(cString: $0) } ?? "unknown error"
    }

    /// `"inotify_add_watch: No space left on device (errno 28)"`, with the path after the call
    /// when there is one (`"link /a/b.jpg: File exists (errno 17)"`).
    public var description: String {
        let subject = path.map { "\(call) \($0)" } ?? call
        return "\(subject): \(reason) (errno \(errno))"
    }
}
