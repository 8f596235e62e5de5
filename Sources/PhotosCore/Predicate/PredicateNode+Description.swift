import Foundation

extension PredicateNode: CustomStringConvertible {
    /// A normalized format string, close to NSPredicate's `predicateFormat`: arguments appear as literals,
    /// compound parts in parentheses, and dates as `CAST(<seconds since 2001>, "NSDate")`.
    public var description: String {
        switch self {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner):
            return "NOT \(inner.parenthesized)"
        case .and(let parts):
            return parts.map(\.parenthesized).joined(separator: " AND ")
        case .or(let parts):
            return parts.map(\.parenthesized).joined(separator: " OR ")
        case .comparison(let comparison):
            return comparison.description
        }
    }

    private var parenthesized: String {
        switch self {
        case .and, .or, .not: "(\(description))"
        case .constant, .comparison: description
        }
    }
}

extension PredicateComparison: CustomStringConvertible {
    /// The comparison as format text, e.g. `localizedTitle BEGINSWITH[c] "trip"`.
    public var description: String {
        var modifiers = ""
        if !options.isEmpty {
            modifiers = "["
            if options.contains(.caseInsensitive) { modifiers += "c" }
            if options.contains(.diacriticInsensitive) { modifiers += "d" }
            modifiers += "]"
        }
        return "\(left) \(operatorType.rawValue)\(modifiers) \(right)"
    }
}

extension PredicateOperand: CustomStringConvertible {
    /// The operand as format text: the key, `SELF`, a literal, or `(a & b)`.
    public var description: String {
        switch self {
        case .key(let name, _): name
        case .evaluatedObject: "SELF"
        case .value(let value, _): value.formatLiteral
        case .bitwise(let left, let op, let right): "(\(left) \(op.rawValue) \(right))"
        case .distance(let key, _, let latitude, let longitude, _):
            "\(PredicateParser.distanceFunction)(\(key), \(latitude), \(longitude))"
        }
    }
}

extension PredicateValue {
    /// The value as a format-language literal.
    var formatLiteral: String {
        switch self {
        case .null:
            return "nil"
        case .bool(let value):
            return value ? "YES" : "NO"
        case .int(let value):
            return String(value)
        case .double(let value):
            return String(value)
        case .string(let value):
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        case .date(let value):
            return "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .array(let values):
            return "{" + values.map(\.formatLiteral).joined(separator: ", ") + "}"
        case .object(let localIdentifier):
            return "<object \(PredicateValue.string(localIdentifier).formatLiteral)>"
        }
    }

    /// The value with its kind, for error messages: `integer 5`, `string "a"`.
    var kindDescription: String {
        switch self {
        case .null: "nil"
        case .bool: "bool \(formatLiteral)"
        case .int: "integer \(formatLiteral)"
        case .double: "number \(formatLiteral)"
        case .string: "string \(formatLiteral)"
        case .date: "date \(formatLiteral)"
        case .array(let values): "collection of \(values.count)"
        case .object: "object \(formatLiteral)"
        }
    }
}
