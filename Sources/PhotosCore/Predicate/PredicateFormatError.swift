/// An error in a format string: what is wrong, and where.
///
/// ```swift
/// do {
///     _ = try PhotoKitPredicate(format: "foo == 1", arguments: []).validate(against: .asset)
/// } catch {
///     print(error)   // unsupported key 'foo' for PHAsset at offset 0 in "foo == 1"
/// }
/// ```
///
/// Named apart from Foundation's own `PredicateError`, so code importing both needs no qualification.
public struct PredicateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for callers that map errors (all become `PHPhotosError` in the Photos module).
    public enum Code: String, Sendable, Hashable {
        /// The format does not parse: unexpected token, unterminated string, unbalanced parentheses.
        case syntax
        /// Valid NSPredicate syntax that PhotoKit does not support (MATCHES, ANY, SUBQUERY, functions).
        case unsupportedFeature
        /// A key the class does not support, or a key path.
        case unsupportedKey
        /// An operator applied to a key or value of the wrong type.
        case typeMismatch
        /// Missing, extra, or wrongly typed `%` arguments.
        case argument
        /// The format crosses a limit that keeps parsing and querying bounded: too long, nested too deeply, too
        /// many comparisons or bound values.
        case tooComplex
    }

    /// The kind of problem.
    public let code: Code
    /// What is wrong, e.g. "unsupported key 'foo' for PHAsset".
    public let message: String
    /// Character offset in the format where the problem token starts, if it has a place.
    public let offset: Int?
    /// The format string (or sort key) the error is about.
    public let format: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, offset: Int? = nil, format: String) {
        self.code = code
        self.message = message
        self.offset = offset
        self.format = format
    }

    /// The message with its place, e.g. `unsupported key 'foo' for PHAsset at offset 12 in "foo == 1"`.
    /// A format longer than this is quoted by its start only: a hostile format can be megabytes long.
    static let quotedLength = 200

    public var description: String {
        var quoted = "\"\(format)\""
        if format.utf8.count > Self.quotedLength, format.count > Self.quotedLength {
            quoted = "\"\(format.prefix(Self.quotedLength))…\" (\(format.count) characters)"
        }
        if let offset {
            return "\(message) at offset \(offset) in \(quoted)"
        }
        return "\(message) in \(quoted)"
    }
}
