import Foundation

/// Type-checks a parsed predicate against a schema and compiles it to SQL.
///
/// Validation and compilation are one pass, so whatever validates also compiles. Every leaf yields 0 or 1,
/// never NULL: equality uses `IS`, and other comparisons on nullable columns are guarded with `IS NOT NULL`,
/// so `NOT` behaves as NSPredicate's two-valued logic (`NOT (burstIdentifier == "b")` matches nil).
struct PredicateCompiler {
    /// A compiled comparison side.
    private struct Term {
        enum Kind {
            case key(PredicateKey)
            case evaluatedObject
            case integerExpression
            /// `distanceToLocation(…)`: kilometres, a number.
            case distance
            case value(PredicateValue)
        }

        var kind: Kind
        var offset: Int
        /// The SQL expression (not used for `.value`).
        var sql = ""
        var arguments: [SQLValue] = []
        /// Nullable column expressions this term reads.
        var nullable: [String] = []
        /// Whether a key (or SELF) appears in the term.
        var hasKey = false
        /// How the term is named in messages.
        var name = ""

        var value: PredicateValue? {
            if case .value(let value) = kind { return value }
            return nil
        }

        /// The value kind of a non-value term, for messages: "date key 'creationDate'".
        var label: String {
            switch kind {
            case .key(let key): "\(key.type.label) key '\(name)'"
            case .evaluatedObject: "SELF"
            case .integerExpression: "bitwise expression \(name)"
            case .distance: "distance \(name)"
            case .value(let value): value.kindDescription
            }
        }

        /// Comparable groups: numbers with numbers, dates with dates, strings with strings and SELF.
        var family: String {
            switch kind {
            case .key(let key):
                switch key.type {
                case .integer, .double, .bitmask: "number"
                case .bool: "bool"
                case .date: "date"
                case .string: "string"
                case .location: "location"
                }
            case .evaluatedObject: "string"
            case .integerExpression, .distance: "number"
            case .value: "value"
            }
        }

        var isString: Bool {
            if case .key(let key) = kind { return key.type == .string }
            return false
        }

        /// Whether `<`, `>` and BETWEEN make sense: not for booleans or SELF.
        var isOrderable: Bool {
            switch kind {
            case .key(let key): key.type != .bool && key.type != .location
            case .evaluatedObject: false
            case .integerExpression, .distance: true
            case .value(let value): value != .null && value != .bool(true) && value != .bool(false)
            }
        }
    }

    let schema: PredicateSchema
    let format: String
    let column: (String) -> String
    let dialect: SQLDialect

    func compile(_ node: PredicateNode) throws(PredicateFormatError) -> SQLFragment {
        switch node {
        case .constant(let value):
            return SQLFragment(sql: dialect.boolean(value))
        case .not(let inner):
            let fragment = try compile(inner)
            return SQLFragment(sql: "NOT (\(fragment.sql))", arguments: fragment.arguments)
        case .and(let parts):
            return try join(parts, with: "AND")
        case .or(let parts):
            return try join(parts, with: "OR")
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    /// The most terms joined in one flat `a OR b OR …` run. SQLite parses such a run as a chain as deep as it is
    /// long and refuses expressions deeper than 1000, so longer lists are joined as a tree of runs this long.
    static let maximumRun = 16

    private func join(_ parts: [PredicateNode], with keyword: String) throws(PredicateFormatError) -> SQLFragment {
        // An empty conjunction is true and an empty disjunction false, as in NSCompoundPredicate.
        guard !parts.isEmpty else { return SQLFragment(sql: dialect.boolean(keyword == "AND")) }
        var fragments: [SQLFragment] = []
        fragments.reserveCapacity(parts.count)
        for part in parts {
            fragments.append(try compile(part))
        }
        // Each pass groups runs into one term, so 10 000 terms are 4 levels of at most 16.
        repeat {
            var grouped: [SQLFragment] = []
            grouped.reserveCapacity(fragments.count / Self.maximumRun + 1)
            var start = 0
            while start < fragments.count {
                let run = fragments[start..<min(start + Self.maximumRun, fragments.count)]
                grouped.append(
                    SQLFragment(
                        sql: "(" + run.map(\.sql).joined(separator: " \(keyword) ") + ")",
                        arguments: run.flatMap(\.arguments)
                    ))
                start += Self.maximumRun
            }
            fragments = grouped
        } while fragments.count > 1
        return fragments[0]
    }

    // MARK: - Comparisons

    private func compile(_ comparison: PredicateComparison) throws(PredicateFormatError) -> SQLFragment {
        var left = try term(namesAsValues(comparison.left, comparedWith: comparison.right))
        var right = try term(namesAsValues(comparison.right, comparedWith: comparison.left))
        var operatorType = comparison.operatorType
        let at = comparison.offset
        let name = operatorType.rawValue
        if operatorType == .contains, case .key(let key) = left.kind, key.type == .bitmask {
            return try bitContained(left, right, at: at)
        }

        guard left.hasKey || right.hasKey else {
            throw error(.unsupportedFeature, "comparison '\(comparison)' must involve a key or SELF", at: at)
        }
        // Put the key side on the left: `%@ < creationDate` is `creationDate > %@`.
        if left.value != nil {
            guard
                [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo]
                    .contains(operatorType)
            else {
                throw error(.unsupportedFeature, "\(name) needs a key or SELF on its left side", at: at)
            }
            swap(&left, &right)
            operatorType = operatorType.mirrored
        }
        let options = comparison.options
        if !options.isEmpty {
            for side in [left, right] where side.value == nil && !side.isString {
                throw error(.typeMismatch, "modifiers [c]/[d] apply only to strings, not to \(side.label)", at: at)
            }
        }

        switch operatorType {
        case .equalTo, .notEqualTo:
            return try equality(left, right, negated: operatorType == .notEqualTo, options: options, at: at)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try ordering(left, right, operatorType, options: options, at: at)
        case .in:
            return try membership(left, right, options: options, at: at)
        case .between:
            return try between(left, right, options: options, at: at)
        case .beginsWith, .endsWith, .contains, .like:
            return try stringOperator(left, right, operatorType, options: options, at: at)
        }
    }

    /// A bare word on the right of a key with value names (`mediaType == video`) is that name, when
    /// the schema has no key so spelled; inside `{…}` too.
    private func namesAsValues(_ operand: PredicateOperand, comparedWith other: PredicateOperand) -> PredicateOperand {
        guard case .key(let keyName, _) = other, let key = schema.key(named: keyName), !key.names.isEmpty else {
            return operand
        }
        if case .key(let word, let offset) = operand, schema.key(named: word) == nil, key.names[word] != nil {
            return .value(.string(word), offset: offset)
        }
        return operand
    }

    /// `mediaSubtypes CONTAINS "photoLive"` (or a number of bits, or a collection of names, all
    /// needed): the bits are set, as the JSON's list holds the name.
    private func bitContained(_ left: Term, _ right: Term, at: Int) throws(PredicateFormatError) -> SQLFragment {
        let values: [PredicateValue]
        switch right.value {
        case .array(let elements): values = elements
        case .some(let value): values = [value]
        case nil:
            throw error(
                .typeMismatch, "CONTAINS on \(left.label) needs a name or a number, not \(right.label)",
                at: right.offset)
        }
        var bits: Int64 = 0
        for value in values {
            guard case .int(let number) = try bind(value, comparedWith: left, options: [], at: right.offset) else {
                throw error(.typeMismatch, "\(left.label) cannot contain \(value.kindDescription)", at: right.offset)
            }
            bits |= number
        }
        return SQLFragment(sql: "(\(left.sql) & ?) = ?", arguments: [.int(bits), .int(bits)])
    }

    private func equality(_ left: Term, _ right: Term, negated: Bool, options: PredicateComparisonOptions, at: Int)
        throws(PredicateFormatError) -> SQLFragment
    {
        if right.value == .null {
            if case .integerExpression = left.kind {
                throw error(.typeMismatch, "\(left.label) is never nil", at: right.offset)
            }
            return SQLFragment(sql: "\(left.sql) IS \(negated ? "NOT " : "")NULL", arguments: left.arguments)
        }
        let lhs = folded(left, options)
        let rhs = try operandSQL(right, comparedWith: left, options: options)
        // `=` gives NULL when a side is NULL; `IS` keeps the result 0/1 (and nil != "x" true, as in NSPredicate).
        let canBeNull = !left.nullable.isEmpty || !right.nullable.isEmpty
        let op = canBeNull ? dialect.isSame(negated: negated) : (negated ? "<>" : "=")
        return SQLFragment(sql: "\(lhs.sql) \(op) \(rhs.sql)", arguments: lhs.arguments + rhs.arguments)
    }

    private func ordering(
        _ left: Term,
        _ right: Term,
        _ operatorType: PredicateOperatorType,
        options: PredicateComparisonOptions,
        at: Int
    ) throws(PredicateFormatError) -> SQLFragment {
        for side in [left, right] where !side.isOrderable {
            throw error(.typeMismatch, "\(operatorType.rawValue) cannot compare \(side.label)", at: at)
        }
        let lhs = folded(left, options)
        let rhs = try operandSQL(right, comparedWith: left, options: options)
        let fragment = SQLFragment(
            sql: "\(lhs.sql) \(operatorType.rawValue) \(rhs.sql)",
            arguments: lhs.arguments + rhs.arguments
        )
        return guarded(fragment, left.nullable + right.nullable)
    }

    /// Lists longer than this are bound as one JSON array (`json_each`), not a placeholder each.
    static let longestPlaceholderList = 64

    /// The values as a JSON array, or nil if one has no JSON form that reads back as the same
    /// value (a non-finite double; NULLs are never in the list).
    static func jsonArray(_ values: ArraySlice<SQLValue>) -> String? {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch value {
            case .int(let number): bytes.append(contentsOf: String(number).utf8)
            case .double(let number):
                guard number.isFinite else { return nil }
                // Swift's shortest round-trip form; SQLite reads it back to the same double.
                bytes.append(contentsOf: "\(number)".utf8)
            case .text(let text): JSONText.appendString(text, to: &bytes)
            case .null, .blob: return nil
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private func membership(_ left: Term, _ right: Term, options: PredicateComparisonOptions, at: Int)
        throws(PredicateFormatError) -> SQLFragment
    {
        guard case .array(let elements) = right.value else {
            throw error(
                .typeMismatch,
                "IN needs a collection (an array argument or {…}) on its right side, not \(right.label)",
                at: right.offset
            )
        }
        let lhs = folded(left, options)
        var placeholders: [String] = []
        var arguments = lhs.arguments
        var includesNull = false
        for element in elements {
            if element == .null {
                includesNull = true
                continue
            }
            let bound = try bind(element, comparedWith: left, options: options, at: right.offset)
            placeholders.append("?")
            arguments.append(bound)
        }
        if placeholders.isEmpty {
            // SQLite accepts `x IN ()`, but a constant reads better and cannot trip other engines.
            guard includesNull else { return SQLFragment(sql: dialect.boolean(false)) }
            return SQLFragment(sql: "\(left.sql) IS NULL", arguments: left.arguments)
        }
        let list: SQLFragment
        // PostgreSQL binds up to 65,535 values and compares a bound list by each value's own type.
        if dialect == .sqlite, placeholders.count > Self.longestPlaceholderList,
            let json = Self.jsonArray(arguments[lhs.arguments.count...])
        {
            // One argument whatever the length: SQLite allows at most 32,766 placeholders in a
            // statement, and each length would be a statement of its own in the cache. The values
            // from json_each have no affinity, as bound ones have none: comparisons are the same.
            list = SQLFragment(
                sql: "\(lhs.sql) IN (SELECT value FROM json_each(?))", arguments: lhs.arguments + [.text(json)])
        } else {
            list = SQLFragment(sql: "\(lhs.sql) IN (\(placeholders.joined(separator: ", ")))", arguments: arguments)
        }
        if includesNull {
            return SQLFragment(sql: "(\(left.sql) IS NULL OR \(list.sql))", arguments: left.arguments + list.arguments)
        }
        return guarded(list, left.nullable)
    }

    private func between(_ left: Term, _ right: Term, options: PredicateComparisonOptions, at: Int)
        throws(PredicateFormatError) -> SQLFragment
    {
        guard left.isOrderable else {
            throw error(.typeMismatch, "BETWEEN cannot compare \(left.label)", at: at)
        }
        guard case .array(let bounds) = right.value, bounds.count == 2 else {
            throw error(
                .typeMismatch,
                "BETWEEN needs two bounds {lower, upper} on its right side, not \(right.label)",
                at: right.offset
            )
        }
        let lhs = folded(left, options)
        var arguments = lhs.arguments
        for bound in bounds {
            if bound == .null {
                throw error(.typeMismatch, "BETWEEN bounds cannot be nil", at: right.offset)
            }
            arguments.append(try bind(bound, comparedWith: left, options: options, at: right.offset))
        }
        return guarded(SQLFragment(sql: "\(lhs.sql) BETWEEN ? AND ?", arguments: arguments), left.nullable)
    }

    private func stringOperator(
        _ left: Term,
        _ right: Term,
        _ operatorType: PredicateOperatorType,
        options: PredicateComparisonOptions,
        at: Int
    ) throws(PredicateFormatError) -> SQLFragment {
        let name = operatorType.rawValue
        guard case .key(let key) = left.kind, key.type == .string else {
            throw error(.typeMismatch, "\(name) needs a string key on its left side, not \(left.label)", at: at)
        }
        guard case .string(let pattern) = right.value else {
            throw error(.typeMismatch, "\(name) needs a string on its right side, not \(right.label)", at: right.offset)
        }
        let fragment: SQLFragment
        if operatorType == .like {
            fragment = SQLFragment(
                sql: "\(PredicateFunctions.likeFunctionName)(\(left.sql), ?, \(options.rawValue))",
                arguments: [.text(pattern)]
            )
        } else {
            let lhs = folded(left, options).sql
            let needle = PredicateFunctions.fold(pattern, flags: options.rawValue)
            // SQLite's substr/length count code points, so the needle's length is too.
            let length = Int64(needle.unicodeScalars.count)
            switch operatorType {
            case .contains:
                fragment = SQLFragment(sql: dialect.contains(lhs), arguments: [.text(needle)])
            case .beginsWith:
                fragment = dialect.startsWith(lhs, needle, length: length)
            default:
                // substr(x, -0) would be all of x, so an empty suffix is matched by every string.
                fragment =
                    length == 0
                    ? SQLFragment(sql: dialect.boolean(true))
                    : dialect.endsWith(lhs, needle, length: length)
            }
        }
        return guarded(fragment, left.nullable)
    }

    // MARK: - Terms

    private func term(_ operand: PredicateOperand) throws(PredicateFormatError) -> Term {
        switch operand {
        case .distance(let name, let keyOffset, let latitude, let longitude, let offset):
            guard let key = schema.key(named: name) else {
                throw error(.unsupportedKey, schema.unsupportedKeyMessage(name), at: keyOffset)
            }
            guard key.type == .location else {
                throw error(
                    .typeMismatch,
                    "\(PredicateParser.distanceFunction) measures from a location key, "
                        + "not \(key.type.label) key '\(name)'",
                    at: keyOffset)
            }
            let latitudeColumn = column("latitude")
            let longitudeColumn = column("longitude")
            return Term(
                kind: .distance, offset: offset,
                sql: "\(PredicateFunctions.distanceFunctionName)(\(latitudeColumn), \(longitudeColumn), ?, ?)",
                arguments: [.double(latitude), .double(longitude)], nullable: [latitudeColumn, longitudeColumn],
                hasKey: true, name: operand.description)
        case .value(let value, let offset):
            return Term(kind: .value(value), offset: offset)
        case .evaluatedObject(let offset):
            let sql = column("localIdentifier")
            return Term(kind: .evaluatedObject, offset: offset, sql: sql, hasKey: true, name: "SELF")
        case .key(let name, let offset):
            guard let key = schema.key(named: name) else {
                throw error(.unsupportedKey, schema.unsupportedKeyMessage(name), at: offset)
            }
            let sql = column(key.name)
            return Term(
                kind: .key(key),
                offset: offset,
                sql: sql,
                nullable: key.isNullable ? [sql] : [],
                hasKey: true,
                name: name
            )
        case .bitwise(let leftOperand, let op, let rightOperand):
            var combined = Term(kind: .integerExpression, offset: operand.offset, name: operand.description)
            var parts: [String] = []
            for side in [leftOperand, rightOperand] {
                let part = try term(side)
                switch part.kind {
                case .key(let key) where key.type == .integer || key.type == .bitmask:
                    break
                case .integerExpression, .value(.int):
                    break
                default:
                    throw error(
                        .typeMismatch,
                        "bitwise '\(op.rawValue)' needs integer keys and integers, not \(part.label)",
                        at: part.offset
                    )
                }
                if case .value(let value) = part.kind {
                    parts.append("?")
                    combined.arguments.append(try bind(value, comparedWith: combined, options: [], at: part.offset))
                } else {
                    parts.append(part.sql)
                    combined.arguments += part.arguments
                }
                combined.nullable += part.nullable
                combined.hasKey = combined.hasKey || part.hasKey
            }
            combined.sql = "(\(parts[0]) \(op.rawValue) \(parts[1]))"
            return combined
        }
    }

    /// SQL for the right side: a bound value checked against the left, or a compatible key.
    private func operandSQL(_ term: Term, comparedWith other: Term, options: PredicateComparisonOptions)
        throws(PredicateFormatError) -> SQLFragment
    {
        if let value = term.value {
            let bound = try bind(value, comparedWith: other, options: options, at: term.offset)
            return SQLFragment(sql: "?", arguments: [bound])
        }
        guard term.family == other.family else {
            throw error(.typeMismatch, "cannot compare \(other.label) with \(term.label)", at: term.offset)
        }
        return folded(term, options)
    }

    /// Converts a value to its storage form after checking it suits the term it is compared with.
    private func bind(
        _ value: PredicateValue,
        comparedWith term: Term,
        options: PredicateComparisonOptions,
        at offset: Int
    ) throws(PredicateFormatError) -> SQLValue {
        let message = "\(term.label) cannot be compared with \(value.kindDescription)"
        let mismatch = error(.typeMismatch, message, at: offset)
        switch (term.kind, value) {
        case (.evaluatedObject, .string(let identifier)), (.evaluatedObject, .object(let identifier)):
            return .text(identifier)
        case (.key(let key), _):
            switch (key.type, value) {
            case (.integer, .int(let number)), (.bitmask, .int(let number)), (.double, .int(let number)):
                return .int(number)
            case (.integer, .double(let number)), (.double, .double(let number)):
                return .double(number)
            case (.integer, .string(let text)) where !key.names.isEmpty,
                (.bitmask, .string(let text)) where !key.names.isEmpty:
                guard let number = key.names[text] else {
                    throw error(.typeMismatch, message + ": " + unknownName(text, of: key), at: offset)
                }
                return .int(number)
            case (.bool, .bool(let flag)):
                return .int(flag ? 1 : 0)
            case (.bool, .int(let number)) where number == 0 || number == 1:
                return .int(number)
            case (.date, .date(let date)):
                return .double(date.timeIntervalSince1970)
            case (.string, .string(let text)):
                return .text(PredicateFunctions.fold(text, flags: options.rawValue))
            default:
                throw mismatch
            }
        case (.integerExpression, .int(let number)):
            return .int(number)
        case (.distance, .int(let number)):
            return .double(Double(number))
        case (.distance, .double(let number)):
            return .double(number)
        default:
            throw mismatch
        }
    }

    /// "not a mediaType name (did you mean 'image'?); the names are …".
    private func unknownName(_ text: String, of key: PredicateKey) -> String {
        let names = key.names.sorted { $0.value < $1.value }.map(\.key)
        var message = "not a \(key.name) name"
        if let near = PredicateSchema.nearestSpelling(of: text, among: names) {
            message += " (did you mean '\(near)'?)"
        }
        return message + "; the names are \(names.joined(separator: ", "))"
    }

    /// The term's SQL, wrapped in `photos_fold` when modifiers apply to a string column.
    private func folded(_ term: Term, _ options: PredicateComparisonOptions) -> SQLFragment {
        guard !options.isEmpty, term.isString else {
            return SQLFragment(sql: term.sql, arguments: term.arguments)
        }
        return SQLFragment(
            sql: "\(PredicateFunctions.foldFunctionName)(\(term.sql), \(options.rawValue))",
            arguments: term.arguments
        )
    }

    /// Prefixes `col IS NOT NULL AND` for each nullable column, so the leaf is 0 rather than NULL.
    private func guarded(_ fragment: SQLFragment, _ nullable: [String]) -> SQLFragment {
        var seen: Set<String> = []
        let checks = nullable.filter { seen.insert($0).inserted }.map { "\($0) IS NOT NULL" }
        guard !checks.isEmpty else { return fragment }
        return SQLFragment(
            sql: "(" + (checks + [fragment.sql]).joined(separator: " AND ") + ")",
            arguments: fragment.arguments
        )
    }

    private func error(_ code: PredicateFormatError.Code, _ message: String, at offset: Int) -> PredicateFormatError {
        PredicateFormatError(code, message, offset: offset, format: format)
    }
}

extension PredicateKeyType {
    /// The type's name in messages.
    var label: String {
        switch self {
        case .integer: "integer"
        case .bool: "bool"
        case .double: "number"
        case .date: "date"
        case .string: "string"
        case .bitmask: "bitmask"
        case .location: "location"
        }
    }
}
