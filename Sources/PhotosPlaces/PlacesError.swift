/// Why a gazetteer or a country table could not be read.
public struct PlacesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The file could not be opened or read.
        case unreadable
    }

    /// What went wrong.
    public var code: Code
    /// The file.
    public var path: String
    /// The cause, as the system reported it.
    public var message: String

    /// An error with a code, the file and the cause.
    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The file and the cause, for logs.
    public var description: String { "\(path): \(message)" }
}
