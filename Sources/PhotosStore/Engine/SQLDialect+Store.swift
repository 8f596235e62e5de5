import Foundation
import PhotosCore

/// SQL of the store's own tables that the engines write differently.
extension SQLDialect {
    /// One of the store's conditions written for SQLite (a smart album's), in this engine's SQL:
    /// SQLite takes any number for a truth value and PostgreSQL only booleans, so the condition that
    /// always holds, `1`, is `TRUE` there.
    func condition(_ condition: String) -> String {
        condition.trimmingCharacters(in: .whitespaces) == "1" ? boolean(true) : condition
    }

    /// The paths under which files cannot be read now (a sorted column of paths as the store gives
    /// them back, another host's named by it, ``RootHosts``): offline roots and unreadable
    /// directories, and in a library several hosts share, the roots of every other host whose
    /// photosd is not connected to this library (`schema`: the library's, "" for the database's
    /// own), as an offline disk's are. A photosd is known by the name its connections give the
    /// server (``LibraryDatabase/presenceName(program:host:schema:)``).
    func unavailablePaths(schema: String?) -> (sql: String, arguments: [SQLValue]) {
        switch self {
        case .sqlite:
            ("SELECT path FROM root WHERE isOffline = 1 UNION SELECT path FROM unreadable_directory ORDER BY 1", [])
        case .postgreSQL:
            (
                """
                SELECT \(hostedPath("root")) FROM root
                WHERE isOffline = 1 OR (host <> '' AND NOT \(isThisHost("host")) AND NOT EXISTS (
                    SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
                        AND application_name = left('photosd@' || root.host || ' ' || ?, 63)))
                UNION SELECT \(hostedPath("unreadable_directory")) FROM unreadable_directory ORDER BY 1
                """, [.text(schema ?? "")]
            )
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
}
