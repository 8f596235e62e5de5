import Synchronization

/// A parsed, validated predicate. Parsing happens once, in init.
///
/// The format language is NSPredicate's, restricted to what PhotoKit fetches accept: comparisons, `IN`,
/// `BETWEEN`, string operators with `[c]`/`[d]`, bitwise `&`/`|` on integer keys, and `AND`/`OR`/`NOT`.
///
/// ```swift
/// let predicate = try PhotoKitPredicate(
///     format: "(mediaSubtypes & %d) != 0 AND creationDate > %@",
///     arguments: [.int(4), .date(since)]
/// )
/// let fragment = try predicate.sql(for: .asset) { "asset.\($0)" }
/// // fragment.sql: "((asset.mediaSubtypes & ?) <> ? AND (asset.creationDate IS NOT NULL AND asset.creationDate > ?))"
/// // fragment.arguments: [.int(4), .int(0), .double(since.timeIntervalSince1970)]
/// ```
public struct PhotoKitPredicate: Sendable, Hashable {
    /// The most values one predicate may bind, leaving room under SQLite's 32766 for the rest of the query.
    public static let maximumBoundValues = 30_000

    /// `text` as a string literal of the format language: in double quotes, `\` and `"` escaped,
    /// so that nothing in it reaches past the string (`filename CONTAINS[c] \(stringLiteral(name))`).
    public static func stringLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The format string as given.
    public let format: String
    /// The parsed predicate, with arguments substituted.
    public let expression: PredicateNode

    /// Parses a format, substituting `%@`, `%K`, `%d`... from `arguments` in order.
    ///
    /// Throws for syntax errors, unsupported NSPredicate features, and missing, extra or mistyped arguments.
    /// Keys are checked later, against a class, by `validate(against:)` or `sql(for:column:)`.
    public init(format: String, arguments: [PredicateValue]) throws(PredicateFormatError) {
        self.format = format
        // A format without arguments parses the same every time: a server parses the same few for
        // every request, and parsing was a tenth of a 50-asset page's time.
        if arguments.isEmpty, let parsed = Self.parsedFormats.withLock({ $0[format] }) {
            expression = parsed
            return
        }
        var parser = try PredicateParser(format: format, arguments: arguments)
        expression = try parser.parse()
        if arguments.isEmpty {
            Self.parsedFormats.withLock { [expression] parsed in
                if parsed.count >= Self.parsedFormatCapacity { parsed.removeAll(keepingCapacity: true) }
                parsed[format] = expression
            }
        }
    }

    /// Formats without arguments already parsed, by text; emptied when ``parsedFormatCapacity`` is
    /// reached (a client sending ever new formats costs a parse each, as without the cache).
    private static let parsedFormats = Mutex<[String: PredicateNode]>([:])
    static let parsedFormatCapacity = 512

    /// Parses a format with arguments as Swift code passes them to `NSPredicate(format:argumentArray:)`,
    /// converting each with `PredicateValue(argument:)`.
    public init(format: String, argumentArray: [Any]) throws(PredicateFormatError) {
        var values: [PredicateValue] = []
        for (index, argument) in argumentArray.enumerated() {
            guard let value = PredicateValue(argument: argument) else {
                throw PredicateFormatError(
                    .argument,
                    "argument \(index + 1) of type \(type(of: argument)) cannot be used in a predicate",
                    format: format
                )
            }
            values.append(value)
        }
        try self.init(format: format, arguments: values)
    }

    /// Type-checks against a schema (unknown key for that class, wrong operand type, unsupported operator...).
    public func validate(against schema: PredicateSchema) throws(PredicateFormatError) {
        _ = try sql(for: schema) { $0 }
    }

    /// Compiles to SQL. `column` maps a canonical key name ("localIdentifier" for SELF) to the SQL expression of
    /// its column.
    ///
    /// The fragment is safe to combine with `AND`/`OR` without extra parentheses. String operators call the
    /// `photos_fold` and `photos_like` functions described in `PredicateFunctions`.
    public func sql(for schema: PredicateSchema, column: (String) -> String) throws(PredicateFormatError) -> SQLFragment
    {
        try sql(for: schema, dialect: .sqlite, column: column)
    }

    /// Compiles to the SQL of an engine: ``sql(for:column:)`` in `dialect`.
    package func sql(for schema: PredicateSchema, dialect: SQLDialect, column: (String) -> String)
        throws(PredicateFormatError) -> SQLFragment
    {
        let fragment = try withoutActuallyEscaping(column) { column throws(PredicateFormatError) in
            try PredicateCompiler(schema: schema, format: format, column: column, dialect: dialect).compile(expression)
        }
        // SQLite binds at most 32766 values to one statement (SQLITE_MAX_VARIABLE_NUMBER since 3.32); say so here
        // rather than fail later in the store with a message that does not name the predicate.
        guard fragment.arguments.count <= Self.maximumBoundValues else {
            throw PredicateFormatError(
                .tooComplex,
                "the predicate binds \(fragment.arguments.count) values, more than \(Self.maximumBoundValues)",
                format: format)
        }
        return fragment
    }

    /// The predicate as normalized format text, arguments shown as literals.
    public var predicateFormat: String {
        expression.description
    }
}
