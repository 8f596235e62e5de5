import PhotosLinux

/// Why a sidecar could not be read or written: a code, a message naming the file and the reason,
/// and the lower-level cause.
///
/// ```swift
/// do {
///     let sidecar = try SidecarFile.read(path)
/// } catch where error.code == .notXMP {
///     logger.info("unreadable sidecar", metadata: ["file.path": "\(path)", "reason": "\(error.message)"])
/// }
/// ```
public struct SidecarError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case notXMP, tooLarge, unsupported, notASidecar, changedWhileWriting, exempiUnavailable, systemCallFailed,
                checkFailed
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The file is not XMP Exempi can read: not XML, truncated, not RDF.
        public static let notXMP = Code(.notXMP)
        /// The file is larger than a sidecar can be (``SidecarFile/maximumSize``).
        public static let tooLarge = Code(.tooLarge)
        /// XML the library will not edit: a DOCTYPE, nesting deeper than 256 levels, no `rdf:RDF` element.
        public static let unsupported = Code(.unsupported)
        /// The path does not end in `.xmp` (the library writes sidecars only, never a photo).
        public static let notASidecar = Code(.notASidecar)
        /// Another program replaced the sidecar between its reading and the write; nothing was
        /// written: read it again and merge.
        public static let changedWhileWriting = Code(.changedWhileWriting)
        /// Exempi (libexempi8) cannot be loaded.
        public static let exempiUnavailable = Code(.exempiUnavailable)
        /// Reading, writing or renaming failed (the cause is a `SystemCallError`).
        public static let systemCallFailed = Code(.systemCallFailed)
        /// The merged sidecar did not read back as it should (other tools' properties, or the
        /// library's own, differed); nothing was written.
        public static let checkFailed = Code(.checkFailed)

        /// The code's name, as written in Swift (`notXMP`).
        public var description: String { wrapped.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// The sidecar.
    public let path: String
    /// The lower-level error, if any.
    public let cause: (any Error)?

    /// Creates an error about the sidecar at `path`.
    public init(code: Code, message: String, path: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// `"notXMP: /photos/IMG_1.JPG.xmp: not XMP (Exempi error -201) [...]"`.
    public var description: String {
        var text = "\(code): \(path): \(message)"
        if let cause { text += " [\(cause)]" }
        return text
    }
}
