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
                ? "SELECT CAST(jsonb_array_elements_text(CAST(? AS jsonb)) AS bigint)"
                : "SELECT jsonb_array_elements_text(CAST(? AS jsonb))"
        }
    }
}
