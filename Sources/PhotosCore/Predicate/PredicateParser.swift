import Foundation
/// A recursive-descent parser for the NSPredicate format language subset PhotoKit accepts.
///
/// Precedence, loosest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, comparison, `|`, `&`, primary. Predicates and
/// operands share one grammar (so `(mediaSubtypes & 4) != 0` and `(a == 1) AND b == 2` both parse); each
/// level then checks it got the kind it needs.
///
/// The format comes from callers that may pass anything, so the parser bounds its own work: a format longer than
/// ``maximumLength`` characters, nesting deeper than ``maximumDepth`` (parentheses, `NOT`/`!`, `{…}`, chained `&`
/// and `|`) or more than ``maximumComparisons`` comparisons is a `tooComplex` error with the offset where the limit
/// was crossed, never a stack overflow deep in the recursion.
struct PredicateParser {
    /// The longest format accepted, in characters: room for tens of thousands of terms.
    static let maximumLength = 1_000_000
    /// The deepest nesting accepted. Every compiled level adds to SQLite's expression depth (at most 1000), and
    /// each level recurses here and in the compiler; hand-written predicates nest a few levels.
    static let maximumDepth = 64
    /// The most comparisons accepted in one format; each binds one or two values, and SQLite binds at most 32766.
    static let maximumComparisons = 10_000
    /// The one function the language has: `distanceToLocation(location, latitude, longitude)`, in kilometres.
    static let distanceFunction = "distanceToLocation"

    /// A parse result: a predicate or an operand, with where it starts.
    private enum Parsed {
        case predicate(PredicateNode, offset: Int)
        case operand(PredicateOperand)
    }

    private let format: String
    private var lexer: PredicateLexer
    /// The one token of lookahead.
    private var current: PredicateToken
    /// How deeply the token being parsed is nested.
    private var depth = 0
    /// Comparisons parsed so far.
    private var comparisons = 0

    init(format: String, arguments: [PredicateValue]) throws(PredicateFormatError) {
        self.format = format
        // A character takes at least one UTF-8 byte, so only a long buffer needs counting.
        if format.utf8.count > Self.maximumLength, format.count > Self.maximumLength {
            throw PredicateFormatError(
                .tooComplex, "the format is longer than \(Self.maximumLength) characters",
                offset: Self.maximumLength, format: format)
        }
        self.lexer = PredicateLexer(format: format, arguments: arguments)
        self.current = try lexer.next()
    }

    /// Parses the whole format into a predicate.
    mutating func parse() throws(PredicateFormatError) -> PredicateNode {
        if current.kind == .end {
            throw error(.syntax, "empty predicate format", at: 0)
        }
        let result = try parseOr()
        if current.kind != .end {
            if current.isSymbol(")") {
                throw error(.syntax, "unbalanced parentheses: unexpected ')'", at: current.offset)
            }
            throw error(.syntax, "unexpected '\(current.text)' after the end of the predicate", at: current.offset)
        }
        return try predicate(result)
    }

    // MARK: - Predicates

    private mutating func parseOr() throws(PredicateFormatError) -> Parsed {
        let first = try parseAnd()
        guard current.isKeyword("OR") || current.isSymbol("||") else { return first }
        var parts = [try predicate(first)]
        while current.isKeyword("OR") || current.isSymbol("||") {
            try advance()
            parts.append(try predicate(try parseAnd()))
        }
        return .predicate(.or(parts), offset: offset(of: first))
    }

    private mutating func parseAnd() throws(PredicateFormatError) -> Parsed {
        let first = try parseNot()
        guard current.isKeyword("AND") || current.isSymbol("&&") else { return first }
        var parts = [try predicate(first)]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            try advance()
            parts.append(try predicate(try parseNot()))
        }
        return .predicate(.and(parts), offset: offset(of: first))
    }

    private mutating func parseNot() throws(PredicateFormatError) -> Parsed {
        guard current.isKeyword("NOT") || current.isSymbol("!") else { return try parseComparison() }
        let start = current.offset
        try enter(at: start)
        defer { depth -= 1 }
        try advance()
        return .predicate(.not(try predicate(try parseNot())), offset: start)
    }

    private mutating func parseComparison() throws(PredicateFormatError) -> Parsed {
        let left = try parseBitwiseOr()
        let operatorToken = current
        guard let operatorType = try comparisonOperator() else { return left }
        let options = try comparisonOptions()
        comparisons += 1
        guard comparisons <= Self.maximumComparisons else {
            throw error(
                .tooComplex, "the format has more than \(Self.maximumComparisons) comparisons",
                at: operatorToken.offset)
        }
        let right = try parseBitwiseOr()
        let comparison = PredicateComparison(
            try operand(left, for: operatorToken),
            operatorType,
            try operand(right, for: operatorToken),
            options: options,
            offset: operatorToken.offset
        )
        return .predicate(.comparison(comparison), offset: offset(of: left))
    }

    /// Consumes a comparison operator if the current token is one.
    private mutating func comparisonOperator() throws(PredicateFormatError) -> PredicateOperatorType? {
        let token = current
        let operatorType: PredicateOperatorType?
        switch token.kind {
        case .symbol(let symbol):
            operatorType = PredicateOperatorType.allCases.first { $0.rawValue == symbol }
        case .keyword("MATCHES"):
            throw error(.unsupportedFeature, "MATCHES (regular expressions) is not supported", at: token.offset)
        case .keyword(let word):
            operatorType = PredicateOperatorType.allCases.first { $0.rawValue == word }
        default:
            operatorType = nil
        }
        if operatorType != nil { try advance() }
        return operatorType
    }

    /// Consumes `[c]`, `[d]`, `[cd]` after an operator.
    private mutating func comparisonOptions() throws(PredicateFormatError) -> PredicateComparisonOptions {
        guard current.isSymbol("[") else { return [] }
        let start = current.offset
        try advance()
        guard case .key(let letters) = current.kind else {
            throw error(.syntax, "expected comparison modifiers like [c], [d] or [cd]", at: current.offset)
        }
        var options: PredicateComparisonOptions = []
        for letter in letters {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default:
                throw error(
                    .unsupportedFeature,
                    "unsupported comparison modifier '\(letter)' in [\(letters)]; use c and/or d",
                    at: current.offset
                )
            }
        }
        try advance()
        guard current.isSymbol("]") else {
            throw error(.syntax, "expected ']' to close the modifiers opened", at: start)
        }
        try advance()
        return options
    }

    // MARK: - Operands

    private mutating func parseBitwiseOr() throws(PredicateFormatError) -> Parsed {
        var result = try parseBitwiseAnd()
        // Each operator nests the result one level deeper (`(a | b) | c`).
        let outer = depth
        defer { depth = outer }
        while current.isSymbol("|") {
            let token = current
            try enter(at: token.offset)
            try advance()
            let right = try parseBitwiseAnd()
            result = .operand(.bitwise(try operand(result, for: token), .or, try operand(right, for: token)))
        }
        return result
    }

    private mutating func parseBitwiseAnd() throws(PredicateFormatError) -> Parsed {
        var result = try parsePrimary()
        let outer = depth
        defer { depth = outer }
        while true {
            if current.isSymbol("&") {
                let token = current
                try enter(at: token.offset)
                try advance()
                let right = try parsePrimary()
                result = .operand(.bitwise(try operand(result, for: token), .and, try operand(right, for: token)))
            } else if case .symbol(let symbol) = current.kind, ["+", "-", "*", "/", "**"].contains(symbol) {
                throw error(.unsupportedFeature, "arithmetic operator '\(symbol)' is not supported", at: current.offset)
            } else {
                return result
            }
        }
    }

    private mutating func parsePrimary() throws(PredicateFormatError) -> Parsed {
        let token = current
        switch token.kind {
        case .symbol("("):
            try enter(at: token.offset)
            defer { depth -= 1 }
            try advance()
            let inner = try parseOr()
            guard current.isSymbol(")") else {
                if current.kind == .end {
                    throw error(.syntax, "unbalanced parentheses: '(' is never closed", at: token.offset)
                }
                throw error(.syntax, "expected ')' but found '\(current.text)'", at: current.offset)
            }
            try advance()
            if case .predicate(let node, _) = inner {
                return .predicate(node, offset: token.offset)
            }
            return inner
        case .symbol("{"):
            try enter(at: token.offset)
            defer { depth -= 1 }
            return .operand(try parseAggregate())
        case .value(let value):
            try advance()
            return .operand(.value(value, offset: token.offset))
        case .key(let name):
            try advance()
            if current.isSymbol("(") {
                guard name == Self.distanceFunction else {
                    throw error(
                        .unsupportedFeature,
                        "function expressions are not supported: '\(name)(' "
                            + "(the one function is \(Self.distanceFunction))",
                        at: token.offset)
                }
                return .operand(try parseDistance(at: token.offset))
            }
            return .operand(.key(name, offset: token.offset))
        case .evaluatedObject:
            try advance()
            return .operand(.evaluatedObject(offset: token.offset))
        case .keyword("TRUEPREDICATE"):
            try advance()
            return .predicate(.constant(true), offset: token.offset)
        case .keyword("FALSEPREDICATE"):
            try advance()
            return .predicate(.constant(false), offset: token.offset)
        case .keyword(let word) where ["ANY", "ALL", "SOME", "NONE"].contains(word):
            throw error(.unsupportedFeature, "aggregate operator \(word) is not supported", at: token.offset)
        case .keyword("CAST"):
            return .operand(.value(try parseDateCast(), offset: token.offset))
        case .keyword(let word) where ["SUBQUERY", "FUNCTION", "FETCH"].contains(word):
            throw error(.unsupportedFeature, "\(word) expressions are not supported", at: token.offset)
        case .keyword(let word) where ["FIRST", "LAST", "SIZE", "ANYKEY"].contains(word):
            throw error(.unsupportedFeature, "\(word) is not supported", at: token.offset)
        case .end:
            throw error(.syntax, "unexpected end of format, expected a key or value", at: token.offset)
        case .symbol(let symbol) where ["+", "-", "*", "/", "**"].contains(symbol):
            throw error(.unsupportedFeature, "arithmetic operator '\(symbol)' is not supported", at: token.offset)
        case .symbol(")"):
            throw error(.syntax, "unbalanced parentheses: unexpected ')'", at: token.offset)
        default:
            throw error(.syntax, "expected a key or value, found '\(token.text)'", at: token.offset)
        }
    }

    /// `distanceToLocation(location, latitude, longitude)`: kilometres from the point, given in
    /// degrees (north and east positive), to where the object was taken.
    /// ```
    /// distanceToLocation(location, 48.8566, 2.3522) < 5
    /// ```
    private mutating func parseDistance(at start: Int) throws(PredicateFormatError) -> PredicateOperand {
        let usage = "\(Self.distanceFunction)(location, latitude, longitude)"
        try advance()  // The '('.
        guard case .key(let key) = current.kind else {
            throw error(.syntax, "\(usage) takes a location key first, found '\(current.text)'", at: current.offset)
        }
        let keyOffset = current.offset
        try advance()
        var coordinates: [Double] = []
        for (name, limit) in [("latitude", 90.0), ("longitude", 180.0)] {
            guard current.isSymbol(",") else {
                throw error(
                    .syntax, "expected ',' and a \(name) in \(usage), found '\(current.text)'", at: current.offset)
            }
            try advance()
            let number: Double
            switch current.kind {
            case .value(.int(let value)): number = Double(value)
            case .value(.double(let value)): number = value
            default:
                throw error(
                    .typeMismatch, "the \(name) in \(usage) must be a number of degrees, found '\(current.text)'",
                    at: current.offset)
            }
            guard number.isFinite, abs(number) <= limit else {
                throw error(
                    .typeMismatch,
                    "a \(name) lies between -\(Int(limit)) and \(Int(limit)) degrees, not \(current.text)",
                    at: current.offset)
            }
            coordinates.append(number)
            try advance()
        }
        guard current.isSymbol(")") else {
            throw error(.syntax, "expected ')' to close \(usage), found '\(current.text)'", at: current.offset)
        }
        try advance()
        return .distance(
            key: key, keyOffset: keyOffset, latitude: coordinates[0], longitude: coordinates[1], offset: start)
    }

    /// `CAST(value, "NSDate")`: a date written in the format itself, as `NSPredicate` writes one
    /// (`predicateFormat` of a date argument): seconds since 2001-01-01 UTC, or (a Linux addition,
    /// for the command line) an ISO 8601 date and time with its UTC offset.
    /// ```
    /// creationDate > CAST(599529600, "NSDate")
    /// creationDate > CAST("2020-01-01T00:00:00Z", "NSDate")
    /// ```
    private mutating func parseDateCast() throws(PredicateFormatError) -> PredicateValue {
        let start = current.offset
        try advance()
        guard current.isSymbol("(") else {
            throw error(.syntax, "expected '(' after CAST, found '\(current.text)'", at: current.offset)
        }
        try advance()
        guard case .value(let value) = current.kind else {
            throw error(.syntax, "CAST takes a number or a string, found '\(current.text)'", at: current.offset)
        }
        let valueOffset = current.offset
        try advance()
        guard current.isSymbol(",") else {
            throw error(.syntax, "expected ',' in CAST, found '\(current.text)'", at: current.offset)
        }
        try advance()
        guard case .value(.string(let type)) = current.kind else {
            throw error(.syntax, "CAST needs a type name in quotes, found '\(current.text)'", at: current.offset)
        }
        guard type == "NSDate" else {
            throw error(.unsupportedFeature, "CAST to \(type) is not supported (only \"NSDate\")", at: current.offset)
        }
        try advance()
        guard current.isSymbol(")") else {
            throw error(.syntax, "expected ')' to close CAST, found '\(current.text)'", at: current.offset)
        }
        try advance()
        switch value {
        case .int(let seconds): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case .double(let seconds) where seconds.isFinite: return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .string(let text):
            guard let date = ISO8601Dates.date(from: text) else {
                throw error(
                    .syntax, "'\(text)' is not an ISO 8601 date and time with a UTC offset (2020-01-01T00:00:00Z)",
                    at: valueOffset)
            }
            return .date(date)
        default:
            throw error(.syntax, "CAST to NSDate takes seconds since 2001 or an ISO 8601 string", at: start)
        }
    }

    /// `{a, b, ...}`: a literal collection of values (keys are not allowed inside).
    private mutating func parseAggregate() throws(PredicateFormatError) -> PredicateOperand {
        let start = current.offset
        try advance()
        var values: [PredicateValue] = []
        if current.isSymbol("}") {
            try advance()
            return .value(.array([]), offset: start)
        }
        while true {
            let elementToken = current
            let element = try operand(try parseBitwiseOr(), for: elementToken)
            guard case .value(let value, _) = element else {
                throw error(
                    .unsupportedFeature,
                    "only values are allowed in an aggregate {…}, found '\(element)'",
                    at: element.offset
                )
            }
            values.append(value)
            if current.isSymbol(",") {
                try advance()
            } else if current.isSymbol("}") {
                try advance()
                return .value(.array(values), offset: start)
            } else if current.kind == .end {
                throw error(.syntax, "unterminated aggregate: '{' is never closed", at: start)
            } else {
                throw error(.syntax, "expected ',' or '}' in aggregate, found '\(current.text)'", at: current.offset)
            }
        }
    }

    // MARK: - Helpers

    /// Requires a predicate where a predicate is needed (operands of AND/OR/NOT and the whole format).
    private func predicate(_ parsed: Parsed) throws(PredicateFormatError) -> PredicateNode {
        switch parsed {
        case .predicate(let node, _):
            return node
        case .operand(let operand):
            throw error(.syntax, "expected a comparison, found '\(operand)' alone", at: operand.offset)
        }
    }

    /// Requires an operand where a value is needed (sides of a comparison or of `&`/`|`).
    private func operand(_ parsed: Parsed, for token: PredicateToken) throws(PredicateFormatError) -> PredicateOperand {
        switch parsed {
        case .operand(let operand):
            return operand
        case .predicate(_, let offset):
            throw error(.syntax, "'\(token.text)' needs a key or value, not a predicate", at: offset)
        }
    }

    private func offset(of parsed: Parsed) -> Int {
        switch parsed {
        case .predicate(_, let offset): offset
        case .operand(let operand): operand.offset
        }
    }

    /// Goes one nesting level deeper, or throws when that crosses ``maximumDepth``.
    private mutating func enter(at offset: Int) throws(PredicateFormatError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error(.tooComplex, "the format nests more than \(Self.maximumDepth) levels deep", at: offset)
        }
    }

    private mutating func advance() throws(PredicateFormatError) {
        if current.kind != .end {
            current = try lexer.next()
        }
    }

    private func error(_ code: PredicateFormatError.Code, _ message: String, at offset: Int) -> PredicateFormatError {
        PredicateFormatError(code, message, offset: offset, format: format)
    }
}
