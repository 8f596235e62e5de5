/// Splits a format string into tokens and substitutes the `%` arguments in order.
///
/// Argument errors (missing, extra, wrong type for `%d`) are raised here, so they name the specifier's
/// offset and the argument's position.
struct PredicateLexer {
    /// Words with a meaning in the NSPredicate grammar; case-insensitive, as in NSPredicate.
    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES",
        "ANY", "ALL", "SOME", "NONE", "SUBQUERY", "FUNCTION", "TRUEPREDICATE", "FALSEPREDICATE",
        "FIRST", "LAST", "SIZE", "ANYKEY", "CAST", "FETCH",
    ]

    private let format: String
    private let characters: [Character]
    private let arguments: [PredicateValue]
    private var position = 0
    private var argumentIndex = 0
    private var previous: PredicateToken?

    init(format: String, arguments: [PredicateValue]) {
        self.format = format
        self.characters = Array(format)
        self.arguments = arguments
    }

    /// Returns the next token, `.end` at the end of the format (checking then that every argument was used).
    ///
    /// Tokens are produced on demand so that errors come out in source order: a syntax error before a bad
    /// `$variable` is reported first.
    mutating func next() throws(PredicateFormatError) -> PredicateToken {
        skipWhitespace()
        guard position < characters.count else {
            if argumentIndex < arguments.count {
                throw error(
                    .argument,
                    "\(arguments.count) argument\(arguments.count == 1 ? "" : "s") given but the format uses "
                        + "\(argumentIndex); argument \(argumentIndex + 1) is extra",
                    at: nil
                )
            }
            return PredicateToken(kind: .end, offset: characters.count, text: "")
        }
        let token = try nextToken()
        previous = token
        return token
    }

    // MARK: - Tokens

    private mutating func nextToken() throws(PredicateFormatError) -> PredicateToken {
        let start = position
        let character = characters[position]
        if character == "'" || character == "\"" {
            return try stringLiteral(quote: character)
        }
        if character.isNumber && character.isASCII {
            return try numberLiteral(negative: false, start: start)
        }
        if character == "-", peek(1)?.isASCII == true, peek(1)?.isNumber == true, !previousIsOperand {
            position += 1
            return try numberLiteral(negative: true, start: start)
        }
        if isIdentifierStart(character) {
            return try word()
        }
        switch character {
        case "%":
            return try formatSpecifier()
        case "#":
            position += 1
            guard let next = peek(0), isIdentifierStart(next) else {
                throw error(.syntax, "expected a key name after '#'", at: start)
            }
            let name = identifier()
            return try keyToken(name, start: start)
        case "$":
            position += 1
            let name = identifier()
            throw error(.unsupportedFeature, "substitution variables are not supported: '$\(name)'", at: start)
        case "@":
            position += 1
            let name = identifier()
            throw error(.unsupportedFeature, "collection operators are not supported: '@\(name)'", at: start)
        default:
            return try symbol()
        }
    }

    private mutating func symbol() throws(PredicateFormatError) -> PredicateToken {
        let start = position
        // Longest match first; the value is the normalized spelling.
        let symbols: [(String, String)] = [
            ("==", "=="), ("=<", "<="), ("=>", ">="), ("!=", "!="), ("<>", "!="), ("<=", "<="), (">=", ">="),
            ("&&", "&&"), ("||", "||"), ("**", "**"),
            ("=", "=="), ("<", "<"), (">", ">"), ("!", "!"), ("&", "&"), ("|", "|"), ("(", "("), (")", ")"),
            ("{", "{"), ("}", "}"), ("[", "["), ("]", "]"), (",", ","), ("+", "+"), ("-", "-"), ("*", "*"),
            ("/", "/"), (".", "."),
        ]
        for (spelling, normalized) in symbols where matches(spelling) {
            position += spelling.count
            return PredicateToken(kind: .symbol(normalized), offset: start, text: spelling)
        }
        throw error(.syntax, "unexpected character '\(characters[start])'", at: start)
    }

    private mutating func word() throws(PredicateFormatError) -> PredicateToken {
        let start = position
        let name = identifier()
        let upper = name.uppercased()
        switch upper {
        case "YES", "TRUE": return PredicateToken(kind: .value(.bool(true)), offset: start, text: name)
        case "NO", "FALSE": return PredicateToken(kind: .value(.bool(false)), offset: start, text: name)
        case "NIL", "NULL": return PredicateToken(kind: .value(.null), offset: start, text: name)
        case "SELF":
            if peek(0) == "." {
                throw error(.unsupportedKey, "key paths are not supported: '\(name)\(dottedTail())'", at: start)
            }
            return PredicateToken(kind: .evaluatedObject, offset: start, text: name)
        default:
            break
        }
        if Self.keywords.contains(upper) {
            return PredicateToken(kind: .keyword(upper), offset: start, text: name)
        }
        return try keyToken(name, start: start)
    }

    /// A key token, rejecting a dotted key path that follows the name.
    private mutating func keyToken(_ name: String, start: Int) throws(PredicateFormatError) -> PredicateToken {
        if peek(0) == ".", let next = peek(1), isIdentifierStart(next) || next == "@" {
            throw error(.unsupportedKey, "key paths are not supported: '\(name)\(dottedTail())'", at: start)
        }
        return PredicateToken(kind: .key(name), offset: start, text: String(characters[start..<position]))
    }

    /// Consumes `.a.b...` after a name and returns it, for the key path error message.
    private mutating func dottedTail() -> String {
        var tail = ""
        while peek(0) == ".", let next = peek(1), isIdentifierStart(next) || next == "@" {
            position += 1
            if next == "@" { position += 1 }
            tail += "." + (next == "@" ? "@" : "") + identifier()
        }
        return tail
    }

    private mutating func identifier() -> String {
        let start = position
        while let character = peek(0), isIdentifierPart(character) {
            position += 1
        }
        return String(characters[start..<position])
    }

    // MARK: - Literals

    private mutating func stringLiteral(quote: Character) throws(PredicateFormatError) -> PredicateToken {
        let start = position
        position += 1
        var value = ""
        while true {
            guard let character = peek(0) else {
                throw error(.syntax, "unterminated string literal", at: start)
            }
            position += 1
            if character == quote { break }
            guard character == "\\" else {
                value.append(character)
                continue
            }
            guard let escaped = peek(0) else {
                throw error(.syntax, "unterminated string literal", at: start)
            }
            position += 1
            switch escaped {
            case "n": value.append("\n")
            case "t": value.append("\t")
            case "r": value.append("\r")
            case "0": value.append("\0")
            case "u":
                let hex = String(characters[position..<min(position + 4, characters.count)])
                guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw error(.syntax, "invalid \\u escape in string literal", at: position - 2)
                }
                position += 4
                value.unicodeScalars.append(scalar)
            default:
                // \\, \', \" and any other escaped character stand for themselves.
                value.append(escaped)
            }
        }
        return PredicateToken(kind: .value(.string(value)), offset: start, text: String(characters[start..<position]))
    }

    private mutating func numberLiteral(negative: Bool, start: Int) throws(PredicateFormatError) -> PredicateToken {
        let digitsStart = position
        let radixes: [(String, Int)] = [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)]
        for (prefix, radix) in radixes where matches(prefix) {
            position += 2
            let digitStart = position
            while let character = peek(0), character.isHexDigit, character.hexDigitValue! < radix {
                position += 1
            }
            let digits = String(characters[digitStart..<position])
            guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else {
                throw error(.syntax, "invalid number literal '\(text(from: start))'", at: start)
            }
            let value: Int64? =
                negative
                ? (magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil)
                : Int64(exactly: magnitude)
            guard let value else {
                throw error(.syntax, "integer literal '\(text(from: start))' is out of range", at: start)
            }
            return PredicateToken(kind: .value(.int(value)), offset: start, text: text(from: start))
        }
        skipDigits()
        var isDecimal = false
        if peek(0) == ".", let next = peek(1), next.isASCII, next.isNumber {
            isDecimal = true
            position += 1
            skipDigits()
        }
        if let e = peek(0), e == "e" || e == "E" {
            let sign = peek(1) == "+" || peek(1) == "-" ? 1 : 0
            if let next = peek(1 + sign), next.isASCII, next.isNumber {
                isDecimal = true
                position += 1 + sign
                skipDigits()
            }
        }
        if let next = peek(0), isIdentifierPart(next) {
            throw error(.syntax, "invalid number literal '\(text(from: start))\(next)'", at: start)
        }
        let literal = (negative ? "-" : "") + String(characters[digitsStart..<position])
        if isDecimal {
            guard let value = Double(literal) else {
                throw error(.syntax, "invalid number literal '\(literal)'", at: start)
            }
            return PredicateToken(kind: .value(.double(value)), offset: start, text: literal)
        }
        guard let value = Int64(literal) else {
            throw error(.syntax, "integer literal '\(literal)' is out of range", at: start)
        }
        return PredicateToken(kind: .value(.int(value)), offset: start, text: literal)
    }

    private mutating func skipDigits() {
        while let character = peek(0), character.isASCII, character.isNumber {
            position += 1
        }
    }

    // MARK: - Arguments

    private mutating func formatSpecifier() throws(PredicateFormatError) -> PredicateToken {
        let start = position
        position += 1
        var lengthModifier = ""
        while let character = peek(0), "hlqLzjt".contains(character), lengthModifier.count < 2 {
            lengthModifier.append(character)
            position += 1
        }
        guard let conversion = peek(0) else {
            throw error(.syntax, "incomplete format specifier '\(text(from: start))'", at: start)
        }
        position += 1
        let spelling = text(from: start)
        switch conversion {
        case "%" where lengthModifier.isEmpty:
            throw error(.syntax, "'%%' is a literal percent sign and cannot stand for a value", at: start)
        case "@" where lengthModifier.isEmpty:
            let value = try takeArgument(for: spelling, at: start)
            return PredicateToken(kind: .value(value), offset: start, text: spelling)
        case "K" where lengthModifier.isEmpty:
            let value = try takeArgument(for: spelling, at: start)
            guard case .string(let name) = value else {
                throw error(
                    .argument,
                    "argument \(argumentIndex) for %K must be a key name string, got \(value.kindDescription)",
                    at: start
                )
            }
            return try substitutedKey(name, start: start, spelling: spelling)
        case "d", "i", "u", "o", "x", "X", "D", "U", "O":
            let value = try takeArgument(for: spelling, at: start)
            switch value {
            case .int: return PredicateToken(kind: .value(value), offset: start, text: spelling)
            case .bool(let flag):
                return PredicateToken(kind: .value(.int(flag ? 1 : 0)), offset: start, text: spelling)
            default:
                throw error(
                    .argument,
                    "argument \(argumentIndex) for \(spelling) must be an integer, got \(value.kindDescription)",
                    at: start
                )
            }
        case "f", "F", "e", "E", "g", "G", "a", "A":
            let value = try takeArgument(for: spelling, at: start)
            switch value {
            case .double: return PredicateToken(kind: .value(value), offset: start, text: spelling)
            case .int(let integer):
                return PredicateToken(kind: .value(.double(Double(integer))), offset: start, text: spelling)
            default:
                throw error(
                    .argument,
                    "argument \(argumentIndex) for \(spelling) must be a number, got \(value.kindDescription)",
                    at: start
                )
            }
        case "c", "C", "s", "S", "p":
            throw error(.unsupportedFeature, "format specifier '\(spelling)' is not supported", at: start)
        default:
            throw error(.syntax, "invalid format specifier '\(spelling)'", at: start)
        }
    }

    private mutating func takeArgument(for spelling: String, at start: Int) throws(PredicateFormatError)
        -> PredicateValue
    {
        guard argumentIndex < arguments.count else {
            throw error(
                .argument,
                "missing argument \(argumentIndex + 1) for \(spelling) (\(arguments.count) given)",
                at: start
            )
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }

    /// A `%K` key: any string is a key (reserved words too), except "SELF" and dotted paths.
    private func substitutedKey(_ name: String, start: Int, spelling: String) throws(PredicateFormatError)
        -> PredicateToken
    {
        if name.uppercased() == "SELF" {
            return PredicateToken(kind: .evaluatedObject, offset: start, text: spelling)
        }
        if name.contains(".") {
            throw error(.unsupportedKey, "key paths are not supported: '\(name)'", at: start)
        }
        guard !name.isEmpty else {
            throw error(.argument, "argument \(argumentIndex) for %K is an empty key name", at: start)
        }
        return PredicateToken(kind: .key(name), offset: start, text: spelling)
    }

    // MARK: - Helpers

    private var previousIsOperand: Bool {
        switch previous?.kind {
        case .key, .value, .evaluatedObject: true
        case .symbol(let symbol): symbol == ")" || symbol == "}"
        default: false
        }
    }

    private func isIdentifierStart(_ character: Character) -> Bool {
        character == "_" || character.isLetter
    }

    private func isIdentifierPart(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }

    private func peek(_ ahead: Int) -> Character? {
        position + ahead < characters.count ? characters[position + ahead] : nil
    }

    private func matches(_ spelling: String) -> Bool {
        var index = position
        for character in spelling {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
        }
        return true
    }

    private func text(from start: Int) -> String {
        String(characters[start..<position])
    }

    private mutating func skipWhitespace() {
        while let character = peek(0), character.isWhitespace {
            position += 1
        }
    }

    private func error(_ code: PredicateFormatError.Code, _ message: String, at offset: Int?) -> PredicateFormatError {
        PredicateFormatError(code, message, offset: offset, format: format)
    }
}
