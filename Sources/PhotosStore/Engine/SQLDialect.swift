/// What the engines write differently in SQL the store makes once for both: the connection says
/// which it speaks (``StoreConnection/dialect``), and the few parts that differ are asked of it.
///
/// ```swift
/// try db.execute(
///     "DELETE FROM unreadable_directory WHERE path IN (\(db.dialect.elementsOfJSONArray()))",
///     [.text(JSONText.array(paths))])
/// ```
package enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgreSQL

    /// A subquery of the elements of a JSON array bound at its one `?`, as text or, with
    /// `wholeNumbers`, as whole numbers: for `x IN (…)` with a list of any length in one argument.
    func elementsOfJSONArray(wholeNumbers: Bool = false) -> String {
        switch self {
        case .sqlite: "SELECT value FROM json_each(?)"
        case .postgreSQL:
            wholeNumbers
                ? "SELECT CAST(jsonb_array_elements_text(CAST(? AS jsonb)) AS bigint) AS value"
                : "SELECT jsonb_array_elements_text(CAST(? AS jsonb)) AS value"
        }
    }

    /// A table of the elements of a JSON array bound at its one `?`, for a FROM clause: each row
    /// has the element as `alias.value` (JSON where it is an array or object: ``element(_:of:)``
    /// reads into it) and its place in the array, from 0, as `alias.key`.
    func elementsOfJSONArray(as alias: String) -> String {
        switch self {
        case .sqlite: "json_each(?) AS \(alias)"
        case .postgreSQL:
            "(SELECT value, ordinality - 1 AS key FROM jsonb_array_elements(CAST(? AS jsonb)) WITH ORDINALITY) AS \(alias)"
        }
    }

    /// The text at `index` of the JSON array `json` (an expression), as text.
    func element(_ index: Int, of json: String) -> String {
        switch self {
        case .sqlite: "json_extract(\(json), '$[\(index)]')"
        case .postgreSQL: "(\(json) ->> \(index))"
        }
    }

    /// A query of the newest change-log token handed out, committed or not (0 or no row for none):
    /// one more is the token the transaction's own entry will get, which a write holding the
    /// library's write lock may name before it appends its entry (its tombstones do).
    var lastIssuedChangeToken: String {
        switch self {
        case .sqlite: "SELECT seq FROM sqlite_sequence WHERE name = 'change'"
        case .postgreSQL: "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_token_seq"
        }
    }

    /// A join whose tables SQLite must take in the order written (`CROSS JOIN ... ON`, which
    /// PostgreSQL does not accept with a condition; its planner chooses the order itself).
    var orderedJoin: String {
        switch self {
        case .sqlite: "CROSS JOIN"
        case .postgreSQL: "JOIN"
        }
    }
}
