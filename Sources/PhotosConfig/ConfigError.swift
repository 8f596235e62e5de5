/// A problem in the configuration file: what is wrong, in which file, on which line, under which key.
///
/// Its description is the one line photosd prints before it exits with status 78 (`EX_CONFIG`):
///
/// ```text
/// config.toml:12: hooks[1].changes: "inserted2" is not one of inserted, updated, deleted
/// config.toml:3: Error while parsing table header: expected ']', saw '\n'
/// config.toml: cannot read the file: ...
/// ```
///
/// A syntax error has no key, an unreadable file no line.
///
/// `hooks[i]` counts the `[[hooks]]` tables from 0, in the order the file gives them.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// The kind of problem, for callers that react to some (tests, `photos hooks list`).
    public enum Code: String, Sendable, Hashable {
        /// The file cannot be read, or is not UTF-8 text.
        case unreadable
        /// The text is not TOML (the line is TOMLKit's).
        case syntax
        /// A key photosd does not know, at the top level or in a hook.
        case unknownKey
        /// A value of the wrong TOML type (a string where an array of strings belongs...).
        case wrongType
        /// A key that must be given is missing (a hook's `name` or `command`).
        case missingKey
        /// A value of the right type outside what the key accepts (a negative time, an unknown name).
        case invalidValue
        /// Two hooks with one name.
        case duplicateName
        /// A hook's `predicate` does not parse, or names a key assets do not have.
        case invalidPredicate
        /// A hook's `albums` entry names no album of the library.
        case unknownAlbum
        /// An import's `layout` or `name` template does not parse.
        case invalidTemplate
        /// Two imports with one drop folder (`from`), or one inside the other's.
        case duplicateSource
    }

    /// The kind of problem.
    public let code: Code
    /// The configuration file, as it was named.
    public let path: String
    /// The line with the problem, from 1; nil when the problem is the whole file (it cannot be read).
    public let line: Int?
    /// The key, as a path: `settle_ms`, `hooks[1].changes`; nil for syntax errors and unreadable files.
    public let key: String?
    /// What is wrong.
    public let message: String
    /// The error behind this one, if any (the predicate's parse error, the file system's error).
    public let cause: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, path: String, line: Int?, key: String?, message: String, cause: (any Error)? = nil
    ) {
        self.code = code
        self.path = path
        self.line = line
        self.key = key
        self.message = message
        self.cause = cause
    }

    /// `path:line: key: message`, leaving out the parts the problem has not.
    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += key + ": " }
        return text + message
    }
}
