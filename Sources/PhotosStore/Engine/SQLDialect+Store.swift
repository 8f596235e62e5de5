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
