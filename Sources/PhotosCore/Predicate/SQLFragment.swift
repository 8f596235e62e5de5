/// A WHERE fragment and its bound parameters, in order (`?` placeholders).
///
/// Values from the format or its arguments are always bound, never pasted into `sql`.
///
/// ```swift
/// let fragment = try predicate.sql(for: .asset) { "asset.\($0)" }
/// // fragment.sql == "asset.pixelWidth > ?", fragment.arguments == [.int(100)]
/// ```
public struct SQLFragment: Sendable, Hashable {
    /// The SQL expression, usable after `WHERE`.
    public var sql: String
    /// The values for the `?` placeholders, in order.
    public var arguments: [SQLValue]

    /// Creates a fragment.
    public init(sql: String, arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// A value bound to a `?` placeholder, in SQLite's storage classes.
public enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// INTEGER (also booleans as 0/1).
    case int(Int64)
    /// REAL (also dates as seconds since 1970).
    case double(Double)
    /// TEXT (also object arguments as their localIdentifier).
    case text(String)
    /// BLOB: bytes kept as they are (a token's hash); no predicate makes one.
    case blob([UInt8])
}
