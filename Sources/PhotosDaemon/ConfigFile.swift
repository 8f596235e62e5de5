import Foundation

/// photosd's configuration file: a small TOML subset read from `$XDG_CONFIG_HOME/photosd/config.toml`.
///
/// ```toml
/// # ~/.config/photosd/config.toml
/// library = "/srv/photos/library.sqlite"
/// roots = ["/home/me/Pictures", "/mnt/camera"]
/// ignore = ["*.xmp", "Thumbs.db", "@eaDir"]
/// settle_ms = 300
/// poll_interval_s = 120
/// time_zone = "Europe/Paris"
/// ```
///
/// Keys are bare, values are strings, integers, booleans or arrays of strings (which may span
/// lines); `#` starts a comment. Unknown keys and malformed lines are errors naming the line.
public struct ConfigFile: Sendable, Hashable {
    /// The library file (`library`).
    public var library: String?
    /// The directories to watch (`roots`).
    public var roots: [String] = []
    /// Shell patterns of names to skip (`ignore`).
    public var ignore: [String] = []
    /// The settle period in milliseconds (`settle_ms`).
    public var settleMilliseconds: Int?
    /// How often unwatchable roots are crawled, in seconds (`poll_interval_s`).
    public var pollIntervalSeconds: Int?
    /// The zone for file dates with no offset (`time_zone`).
    public var timeZone: String?

    /// An empty configuration.
    public init() {}

    /// The default location: `$XDG_CONFIG_HOME/photosd/config.toml` (`~/.config/photosd/config.toml`).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/photosd/config.toml"
    }

    /// Reads a file; a missing file at the default location is an empty configuration.
    public static func read(path: String) throws -> ConfigFile {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try parse(text, path: path)
    }

    /// Parses configuration text.
    public static func parse(_ text: String, path: String = "config.toml") throws -> ConfigFile {
        var config = ConfigFile()
        var pending: (key: String, line: Int, text: String)?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if var open = pending {
                open.text += " " + line
                pending = open
                if line.hasSuffix("]") {
                    try config.set(open.key, try value(open.text, line: open.line, path: path), line: open.line, path: path)
                    pending = nil
                }
                continue
            }
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError(path: path, line: number + 1, message: "expected key = value, got '\(line)'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let rest = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if rest.hasPrefix("[") && !rest.hasSuffix("]") {
                pending = (key, number + 1, rest)
                continue
            }
            try config.set(key, try value(rest, line: number + 1, path: path), line: number + 1, path: path)
        }
        if let open = pending {
            throw ConfigError(path: path, line: open.line, message: "unterminated array for '\(open.key)'")
        }
        return config
    }

    private enum Value {
        case string(String), integer(Int), boolean(Bool), strings([String])
    }

    private mutating func set(_ key: String, _ value: Value, line: Int, path: String) throws {
        func fail(_ expected: String) -> ConfigError {
            ConfigError(path: path, line: line, message: "'\(key)' must be \(expected)")
        }
        switch (key, value) {
        case ("library", .string(let text)): library = text
        case ("library", _): throw fail("a string")
        case ("roots", .strings(let list)): roots = list
        case ("roots", _): throw fail("an array of strings")
        case ("ignore", .strings(let list)): ignore = list
        case ("ignore", _): throw fail("an array of strings")
        case ("settle_ms", .integer(let number)) where number >= 0: settleMilliseconds = number
        case ("settle_ms", _): throw fail("a whole number of milliseconds, 0 or more")
        case ("poll_interval_s", .integer(let number)) where number > 0: pollIntervalSeconds = number
        case ("poll_interval_s", _): throw fail("a whole number of seconds, more than 0")
        case ("time_zone", .string(let text)):
            guard TimeZone(identifier: text) != nil else { throw fail("a time zone identifier such as Europe/Paris") }
            timeZone = text
        case ("time_zone", _): throw fail("a string")
        default:
            throw ConfigError(
                path: path, line: line,
                message: "unknown key '\(key)' (known: library, roots, ignore, settle_ms, poll_interval_s, time_zone)")
        }
    }

    private static func value(_ text: String, line: Int, path: String) throws -> Value {
        if text.hasPrefix("\"") || text.hasPrefix("'") {
            return .string(try string(text, line: line, path: path))
        }
        if text.hasPrefix("[") && text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
            if inner.isEmpty { return .strings([]) }
            var items: [String] = []
            var rest = Substring(inner)
            while !rest.isEmpty {
                rest = rest.drop { $0 == " " || $0 == "," }
                if rest.isEmpty { break }
                guard let quote = rest.first, quote == "\"" || quote == "'",
                    let end = rest.dropFirst().firstIndex(of: quote)
                else { throw ConfigError(path: path, line: line, message: "arrays hold quoted strings only") }
                items.append(String(rest[rest.index(after: rest.startIndex)..<end]))
                rest = rest[rest.index(after: end)...]
            }
            return .strings(items)
        }
        if text == "true" || text == "false" { return .boolean(text == "true") }
        if let number = Int(text.replacingOccurrences(of: "_", with: "")) { return .integer(number) }
        throw ConfigError(path: path, line: line, message: "cannot read the value '\(text)'")
    }

    private static func string(_ text: String, line: Int, path: String) throws -> String {
        guard let quote = text.first, text.count >= 2, text.last == quote else {
            throw ConfigError(path: path, line: line, message: "unterminated string \(text)")
        }
        var inner = String(text.dropFirst().dropLast())
        if quote == "\"" {
            inner = inner.replacingOccurrences(of: "\\\\", with: "\u{0}").replacingOccurrences(of: "\\\"", with: "\"")
                .replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\u{0}", with: "\\")
        }
        return inner
    }

    private static func stripComment(_ line: String) -> String {
        var quote: Character?
        for (offset, character) in line.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" {
                return String(line.prefix(offset))
            }
        }
        return line
    }
}

/// A problem in the configuration file, with its place.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// The configuration file.
    public let path: String
    /// The line with the problem, from 1.
    public let line: Int
    /// What is wrong.
    public let message: String
    /// `path:line: message`.
    public var description: String { "\(path):\(line): \(message)" }
}
