/// The parsed form of a predicate: compound predicates over comparisons.
///
/// Offsets are character offsets into the format string, kept so that validating against a schema
/// (which happens after parsing) can point at the offending token.
///
/// ```swift
/// let predicate = try PhotoKitPredicate(format: "favorite == YES AND pixelWidth > 100", arguments: [])
/// if case .and(let parts) = predicate.expression { print(parts.count) }   // 2
/// ```
public indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// `NOT p` or `!p`.
    case not(PredicateNode)
    /// `a AND b AND ...`, in source order; an explicit parenthesized group stays a nested node.
    case and([PredicateNode])
    /// `a OR b OR ...`, in source order.
    case or([PredicateNode])
    /// A comparison of two operands.
    case comparison(PredicateComparison)
}

/// One comparison: `left operator[options] right`, e.g. `localizedTitle BEGINSWITH[c] 'trip'`.
public struct PredicateComparison: Sendable, Hashable {
    /// The left operand as written (a value on the left is allowed, e.g. `%@ < creationDate`).
    public var left: PredicateOperand
    /// The operator.
    public var operatorType: PredicateOperatorType
    /// The `[c]`, `[d]`, `[cd]` modifiers.
    public var options: PredicateComparisonOptions
    /// The right operand as written.
    public var right: PredicateOperand
    /// Character offset of the operator token.
    public var offset: Int

    /// Creates a comparison.
    public init(
        _ left: PredicateOperand,
        _ operatorType: PredicateOperatorType,
        _ right: PredicateOperand,
        options: PredicateComparisonOptions = [],
        offset: Int
    ) {
        self.left = left
        self.operatorType = operatorType
        self.options = options
        self.right = right
        self.offset = offset
    }
}

/// The comparison operators of the NSPredicate format language that PhotoKit supports.
public enum PredicateOperatorType: String, Sendable, Hashable, CaseIterable {
    /// `==` or `=`.
    case equalTo = "=="
    /// `!=` or `<>`.
    case notEqualTo = "!="
    /// `<`.
    case lessThan = "<"
    /// `<=` or `=<`.
    case lessThanOrEqualTo = "<="
    /// `>`.
    case greaterThan = ">"
    /// `>=` or `=>`.
    case greaterThanOrEqualTo = ">="
    /// `IN`: the left value is one of the right collection's elements.
    case `in` = "IN"
    /// `BETWEEN {lo, hi}`, inclusive at both ends.
    case between = "BETWEEN"
    /// `BEGINSWITH`.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`.
    case endsWith = "ENDSWITH"
    /// `CONTAINS` (substring).
    case contains = "CONTAINS"
    /// `LIKE` with `*` and `?` wildcards.
    case like = "LIKE"

    /// The operator with its operands swapped (`<` becomes `>`), for moving a key to the left side.
    var mirrored: PredicateOperatorType {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: self
        }
    }
}

/// The string comparison modifiers; the raw values are the `flags` bits of `photos_fold`/`photos_like`.
public struct PredicateComparisonOptions: OptionSet, Sendable, Hashable {
    /// The flag bits.
    public let rawValue: Int

    /// Creates options from flag bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = PredicateComparisonOptions(rawValue: PredicateFunctions.caseInsensitive)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = PredicateComparisonOptions(
        rawValue: PredicateFunctions.diacriticInsensitive
    )
}

/// An operand of a comparison.
public indirect enum PredicateOperand: Sendable, Hashable {
    /// A key as written (aliases are resolved against a schema later), from an identifier, `#name` or `%K`.
    case key(String, offset: Int)
    /// `SELF`: the object itself, compared by localIdentifier.
    case evaluatedObject(offset: Int)
    /// A literal or a substituted argument.
    case value(PredicateValue, offset: Int)
    /// `left & right` or `left | right`.
    case bitwise(PredicateOperand, PredicateBitwiseOperator, PredicateOperand)
    /// `distanceToLocation(key, latitude, longitude)`: the great-circle distance in kilometres from
    /// the point (degrees) to where the object was taken; `key` is the location key as written.
    case distance(key: String, keyOffset: Int, latitude: Double, longitude: Double, offset: Int)

    /// Character offset where the operand starts.
    public var offset: Int {
        switch self {
        case .key(_, let offset), .evaluatedObject(let offset), .value(_, let offset): offset
        case .bitwise(let left, _, _): left.offset
        case .distance(_, _, _, _, let offset): offset
        }
    }
}

/// The bitwise operators allowed between integer keys and integers.
public enum PredicateBitwiseOperator: String, Sendable, Hashable {
    /// `&`.
    case and = "&"
    /// `|`.
    case or = "|"
}
