/// The line on which each key of a TOML document is first given, by key path (`library`, `hooks`,
/// `hooks[1]`, `hooks[1].changes`).
///
/// TOMLKit gives the line of a syntax error but not the place of a value, so error messages about
/// values find it here. The text has already parsed as TOML, so this reader only needs to tell
/// table headers and keys from what is inside strings, arrays, inline tables and comments.
/// `hooks[i]` is the i-th `[[hooks]]` table, from 0. Keys inside an inline table or an array of
/// inline tables have no line of their own: `line(of:)` gives the line of the nearest enclosing
/// key that has one.
struct ConfigLines: Sendable, Hashable {
    private var lines: [String: Int] = [:]

    /// Reads the places of the keys of `text`.
    init(_ text: String) {
        var scanner = Scanner(Array(text.unicodeScalars))
        var section: [String] = []
        var arrayCounts: [String: Int] = [:]

        /// Resolves key parts against the tables seen so far: `hooks` after two `[[hooks]]` is `hooks[1]`.
        func resolve(_ parts: [String], under prefix: [String], appendingElement: Bool) -> [String] {
            var resolved = prefix
            for (index, part) in parts.enumerated() {
                var name = part
                let plain = (resolved + [part]).joined(separator: ".")
                if appendingElement && index == parts.count - 1 {
                    let count = arrayCounts[plain, default: 0]
                    arrayCounts[plain] = count + 1
                    record(resolved + [part], line: scanner.line)
                    name += "[\(count)]"
                } else if let count = arrayCounts[plain] {
                    name += "[\(count - 1)]"
                }
                resolved.append(name)
                record(resolved, line: scanner.line)
            }
            return resolved
        }

        func record(_ path: [String], line: Int) {
            let key = path.joined(separator: ".")
            if lines[key] == nil { lines[key] = line }
        }

        while true {
            scanner.skipBlankAndComments()
            guard let first = scanner.peek() else { break }
            if first == "[" {
                scanner.advance()
                let isArray = scanner.peek() == "["
                if isArray { scanner.advance() }
                let parts = scanner.readKey()
                section = resolve(parts, under: [], appendingElement: isArray)
                scanner.skipLine()
            } else {
                let parts = scanner.readKey()
                _ = resolve(parts, under: section, appendingElement: false)
                if scanner.peek() == "=" { scanner.advance() }
                scanner.skipValue()
            }
        }
    }

    /// The line of a key path, else of the nearest enclosing key or table given on a line of its own.
    func line(of key: String) -> Int? {
        var key = key
        while !key.isEmpty {
            if let line = lines[key] { return line }
            if key.hasSuffix("]"), let open = key.lastIndex(of: "[") {
                key = String(key[..<open])
            } else if let dot = key.lastIndex(of: ".") {
                key = String(key[..<dot])
            } else {
                return nil
            }
        }
        return nil
    }

    /// A cursor over the document's characters that counts lines.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        mutating func advance() {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }

        mutating func skipSpaces() {
            while let next = peek(), next == " " || next == "\t" { advance() }
        }

        mutating func skipLine() {
            while let next = peek(), next != "\n" { advance() }
        }

        mutating func skipBlankAndComments() {
            while let next = peek() {
                if next == " " || next == "\t" || next == "\n" || next == "\r" {
                    advance()
                } else if next == "#" {
                    skipLine()
                } else {
                    return
                }
            }
        }

        /// A dotted key (`a."b.c".d`), bare or quoted parts; stops before `=` or `]`.
        mutating func readKey() -> [String] {
            var parts: [String] = []
            while true {
                skipSpaces()
                guard let next = peek() else { return parts }
                if next == "\"" || next == "'" {
                    parts.append(readString())
                } else {
                    var part = ""
                    while let scalar = peek(), scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || scalar == "_" || scalar == "-"
                    {
                        part.unicodeScalars.append(scalar)
                        advance()
                    }
                    parts.append(part)
                }
                skipSpaces()
                guard peek() == "." else { return parts }
                advance()
            }
        }

        /// A quoted string (basic, literal or multi-line), returned with basic escapes undone.
        @discardableResult
        mutating func readString() -> String {
            guard let quote = peek() else { return "" }
            let multiline = peek(1) == quote && peek(2) == quote
            advance()
            if multiline {
                advance()
                advance()
            } else if peek() == quote {
                advance()
                return ""
            }
            var text = ""
            while let next = peek() {
                if next == "\\" && quote == "\"" {
                    advance()
                    if let escaped = peek() {
                        text.unicodeScalars.append(escaped)
                        advance()
                    }
                    continue
                }
                if next == quote {
                    if !multiline {
                        advance()
                        return text
                    }
                    if peek(1) == quote && peek(2) == quote {
                        // A multi-line string may end with up to two more quotes that belong to it.
                        while peek(3) == quote {
                            text.unicodeScalars.append(quote)
                            advance()
                        }
                        advance()
                        advance()
                        advance()
                        return text
                    }
                }
                if next == "\n" && !multiline { return text }
                text.unicodeScalars.append(next)
                advance()
            }
            return text
        }

        /// A value: through strings, arrays and inline tables (which may span lines) to its line's end.
        mutating func skipValue() {
            var depth = 0
            while let next = peek() {
                switch next {
                case "\"", "'":
                    readString()
                    continue
                case "[", "{":
                    depth += 1
                case "]", "}":
                    depth -= 1
                case "#":
                    skipLine()
                    continue
                case "\n":
                    if depth <= 0 { return }
                default:
                    break
                }
                advance()
            }
        }
    }
}
