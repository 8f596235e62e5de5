/// What the engines write differently in SQL made once for both (the store's statements, compiled
/// predicates): the store's connection says which it speaks, and the few parts that differ are
/// asked of it.
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
    package func elementsOfJSONArray(wholeNumbers: Bool = false) -> String {
        switch self {
        case .sqlite: "SELECT value FROM json_each(?)"
        case .postgreSQL:
            wholeNumbers
                ? "SELECT CAST(jsonb_array_elements_text(CAST(? AS jsonb)) AS bigint) AS value"
                : "SELECT jsonb_array_elements_text(CAST(? AS jsonb)) AS value"
        }
    }

    /// The condition that `column` is one of the whole numbers of a JSON array bound at its one `?`
    /// (`id IN (…)` with a list of any length in one argument). PostgreSQL reads it as `= ANY` of an
    /// array made once, which it plans in a few microseconds and answers from the column's index;
    /// `IN` over a set-returning function was planned as a join, 0.9 ms for a page of 50 ids.
    package func isInWholeNumberList(_ column: String) -> String {
        switch self {
        case .sqlite: "\(column) IN (SELECT value FROM json_each(?))"
        case .postgreSQL:
            "\(column) = ANY(CAST(ARRAY(SELECT jsonb_array_elements_text(CAST(? AS jsonb))) AS bigint[]))"
        }
    }

    /// The condition that `column` is one of the values `query` selects (one column), the query run
    /// once. PostgreSQL reads it as `= ANY` of the array the query makes: a value its index finds,
    /// where `IN (query)` was planned as a join, on a first scan's tables (no statistics yet) a
    /// nested loop over every row of both, twenty times slower.
    package func isIn(_ column: String, query: String) -> String {
        switch self {
        case .sqlite: "\(column) IN (\(query))"
        case .postgreSQL: "\(column) = ANY(ARRAY(\(query)))"
        }
    }

    /// A table of the elements of a JSON array bound at its one `?`, for a FROM clause: each row
    /// has the element as `alias.value` (JSON where it is an array or object: ``element(_:of:)``
    /// reads into it) and its place in the array, from 0, as `alias.key`.
    /// With `wholeNumbers`, the elements are whole numbers, read as such.
    package func elementsOfJSONArray(as alias: String, wholeNumbers: Bool = false) -> String {
        switch self {
        case .sqlite: "json_each(?) AS \(alias)"
        case .postgreSQL:
            wholeNumbers
                ? "(SELECT CAST(value AS bigint) AS value, ordinality - 1 AS key "
                    + "FROM jsonb_array_elements_text(CAST(? AS jsonb)) WITH ORDINALITY) AS \(alias)"
                : "(SELECT value, ordinality - 1 AS key FROM jsonb_array_elements(CAST(? AS jsonb)) WITH ORDINALITY) "
                    + "AS \(alias)"
        }
    }

    /// The text at `index` of the JSON array `json` (an expression), as text.
    package func element(_ index: Int, of json: String) -> String {
        switch self {
        case .sqlite: "json_extract(\(json), '$[\(index)]')"
        case .postgreSQL: "(\(json) ->> \(index))"
        }
    }

    /// A join whose tables SQLite must take in the order written (`CROSS JOIN ... ON`, which
    /// PostgreSQL does not accept with a condition; its planner chooses the order itself).
    package var orderedJoin: String {
        switch self {
        case .sqlite: "CROSS JOIN"
        case .postgreSQL: "JOIN"
        }
    }

    /// Whether each statement costs a round trip to a server (PostgreSQL's, about 150 µs on
    /// loopback beyond its work), so that reads are worth gathering into fewer statements; SQLite's
    /// statements run in the process, where several small ones cost less than one that joins them.
    package var statementsAreRoundTrips: Bool {
        switch self {
        case .sqlite: false
        case .postgreSQL: true
        }
    }

    /// `INSERT INTO`, where a failed insert fails its whole transaction: SQLite's `INSERT OR
    /// ROLLBACK INTO`, as every failed statement does on PostgreSQL. SQLite then keeps no
    /// statement journal to undo the statement alone, which a statement that fires triggers
    /// otherwise fills with every page it touches: an asset's insert, which counts the smart
    /// albums by trigger, cost 19 µs with the journal and 13 without. The triggers it fires take
    /// its conflict policy: only for tables whose insert triggers hold no `OR IGNORE` of their own.
    package var insertFailingTransaction: String {
        switch self {
        case .sqlite: "INSERT OR ROLLBACK INTO"
        case .postgreSQL: "INSERT INTO"
        }
    }

    /// What makes the rows of an ``orderedJoin`` that starts from a list come in the list's order
    /// (`key` its elements' index): nothing on SQLite, which reads the list first and keeps its
    /// order; an `ORDER BY` elsewhere, where the planner may read the tables in any order.
    package func inListOrder(_ key: String) -> String {
        switch self {
        case .sqlite: ""
        case .postgreSQL: " ORDER BY \(key)"
        }
    }

    /// A condition that always holds (`true`) or never does.
    package func boolean(_ value: Bool) -> String {
        switch self {
        case .sqlite: value ? "1" : "0"
        case .postgreSQL: value ? "TRUE" : "FALSE"
        }
    }

    /// The operator that compares two values NULL-safely: NULL is the same as NULL and differs from
    /// any value, and the result is never NULL (`negated`: whether they differ).
    package func isSame(negated: Bool) -> String {
        switch self {
        case .sqlite: negated ? "IS NOT" : "IS"
        case .postgreSQL: negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"
        }
    }

    /// The condition that the text `expression` contains the text bound at its one `?`.
    package func contains(_ expression: String) -> String {
        switch self {
        case .sqlite: "instr(\(expression), ?) > 0"
        case .postgreSQL: "strpos(\(expression), ?) > 0"
        }
    }

    /// The condition that the text `expression` ends with `suffix`, of `length` characters (more
    /// than 0), and its arguments.
    package func endsWith(_ expression: String, _ suffix: String, length: Int64) -> SQLFragment {
        switch self {
        case .sqlite: SQLFragment(sql: "substr(\(expression), ?) = ?", arguments: [.int(-length), .text(suffix)])
        case .postgreSQL:
            SQLFragment(sql: "right(\(expression), CAST(? AS integer)) = ?", arguments: [.int(length), .text(suffix)])
        }
    }

    /// The condition that the text `expression` starts with `prefix`, of `length` characters, and
    /// its arguments.
    package func startsWith(_ expression: String, _ prefix: String, length: Int64) -> SQLFragment {
        switch self {
        case .sqlite: SQLFragment(sql: "substr(\(expression), 1, ?) = ?", arguments: [.int(length), .text(prefix)])
        case .postgreSQL:
            SQLFragment(sql: "left(\(expression), CAST(? AS integer)) = ?", arguments: [.int(length), .text(prefix)])
        }
    }

    /// How a value read out of JSON is typed in SQL: SQLite keeps JSON's own kinds, PostgreSQL
    /// reads text and casts it.
    package enum JSONKind: Sendable {
        case text, integer, real
        /// JSON's `true` and `false`, read as 1 and 0.
        case flag
    }

    /// The field `key` of the JSON object `json` (an expression: a text column, or an element of
    /// ``elements(ofJSONArray:as:)``), as a value of `kind`; NULL where the object has none.
    package func field(_ key: String, of json: String, as kind: JSONKind) -> String {
        switch self {
        case .sqlite: return "json_extract(\(json), '$.\(key)')"
        case .postgreSQL:
            let text = "(CAST(\(json) AS jsonb) ->> '\(key)')"
            switch kind {
            case .text: return text
            case .integer: return "CAST(\(text) AS bigint)"
            case .real: return "CAST(\(text) AS double precision)"
            case .flag: return "CASE WHEN CAST(\(text) AS boolean) THEN 1 WHEN \(text) IS NOT NULL THEN 0 END"
            }
        }
    }

    /// A FROM item of the elements of the JSON array in `json` (an expression, such as a text
    /// column), each row's element as `alias.value`, for ``field(_:of:as:)``.
    package func elements(ofJSONArray json: String, as alias: String) -> String {
        switch self {
        case .sqlite: "json_each(\(json)) AS \(alias)"
        case .postgreSQL: "jsonb_array_elements(CAST(\(json) AS jsonb)) AS \(alias)(value)"
        }
    }

    /// An ORDER BY term's direction, NULLs first when ascending and last when descending, as SQLite
    /// orders them (PostgreSQL's default is the reverse).
    package func direction(ascending: Bool) -> String {
        switch self {
        case .sqlite: ascending ? "" : " DESC"
        case .postgreSQL: ascending ? " NULLS FIRST" : " DESC NULLS LAST"
        }
    }

    /// The current time in seconds since 1970, as a number.
    package var now: String {
        switch self {
        case .sqlite: "CAST(strftime('%s','now') AS REAL)"
        case .postgreSQL: "CAST(EXTRACT(EPOCH FROM now()) AS double precision)"
        }
    }
}
