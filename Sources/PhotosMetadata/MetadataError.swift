/// Why a file could not be described.
///
/// Bad input is data, not a crash (docs/architecture.md, "Invariants"): every failure of ``MetadataExtractor`` and
/// ``MediaSniffer`` is one of these, with a code a program can switch on, a message a person can
/// read, and the path it concerns. The ingest pipeline records `description` as the rejection
/// reason.
///
/// ```swift
/// do {
///     let metadata = try extractor.extract(path: path)
/// } catch where error.code == .truncated {
///     print("incomplete upload? \(error.message)")
/// }
/// ```
public struct MetadataError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases (compare with `==`, switch with `case .x`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case unreadable, empty, notMedia, truncated, corrupt, tooLarge, libraryUnavailable
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The file could not be opened or read (missing, permissions, a directory, an I/O error).
        public static let unreadable = Code(.unreadable)
        /// The file has zero bytes.
        public static let empty = Code(.empty)
        /// The content is not an image or a video (text, PDF, a sidecar), whatever its name says.
        public static let notMedia = Code(.notMedia)
        /// The file ends before its own structure says it should (an interrupted copy).
        public static let truncated = Code(.truncated)
        /// The structure is inconsistent: no image data, offsets outside the file, impossible sizes.
        public static let corrupt = Code(.corrupt)
        /// The headers declare a size beyond the extractor's ``MetadataExtractor/Limits`` (a gigapixel by default,
        /// far above any camera's): a lie, or a picture no decoder should be asked to allocate.
        public static let tooLarge = Code(.tooLarge)
        /// libmagic could not be opened or could not load its database.
        public static let libraryUnavailable = Code(.libraryUnavailable)

        /// The code's name, as written in Swift (`truncated`).
        public var description: String { wrapped.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for people (`"JPEG ends inside the scan data: no EOI marker"`).
    public let message: String
    /// The file concerned, as given by the caller.
    public let path: String
    /// The lower-level error that caused this one, if any (for example a failed system call).
    public let cause: (any Error)?

    /// Creates an error; `cause` is the lower-level error, if any.
    public init(code: Code, message: String, path: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// `"truncated: JPEG ends inside the scan data (path/to/file.jpg)"`.
    public var description: String {
        var text = "\(code): \(message) (\(path))"
        if let cause { text += " [\(cause)]" }
        return text
    }
}
