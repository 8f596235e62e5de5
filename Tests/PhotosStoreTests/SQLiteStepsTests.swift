import GRDB
import GRDBSQLite
import PhotosCore
import Testing

@testable import PhotosStore

/// SQLite's statements run with the store's values bound through the C API (``SQLiteSteps``):
/// values go in whole, a wrong count of values or a broken rule is an error naming the statement,
/// the statement runs again after one, and a run dropped before its last row holds nothing open.
/// The values of every kind are ``StoreConnectionTests``'s.
@Suite struct SQLiteStepsTests {
    @Test func textGoesInWholeWithItsNulsAndItsLength() throws {
        let database = try LibraryDatabase()
        try database.writer.read { db in
            let text = "a\u{0}b/日本"
            let steps = try SQLiteSteps(db, "SELECT length(CAST(? AS BLOB)), ?", [.text(text), .text(text)])
            #expect(try steps.next())
            #expect(sqlite3_column_int64(steps.handle, 0) == Int64(text.utf8.count))
            #expect(SQLValue(steps.handle, 1) == .text(text))
            #expect(try !steps.next())
        }
    }

    @Test func aWrongCountOfValuesIsRefusedNamingTheStatement() throws {
        let database = try LibraryDatabase()
        try database.writer.read { db in
            for values: [SQLValue] in [[.int(1)], [.int(1), .int(2), .int(3)]] {
                let error = #expect(throws: DatabaseError.self) { try SQLiteSteps(db, "SELECT ?, ?", values) }
                #expect(
                    error?.resultCode == .SQLITE_MISUSE && error?.sql == "SELECT ?, ?", "\(String(describing: error))")
            }
        }
    }

    @Test func aBrokenRuleIsAnErrorAndTheStatementRunsAgainAfterIt() throws {
        let database = try LibraryDatabase()
        try database.writer.write { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT UNIQUE)")
            let insert = "INSERT INTO item (name) VALUES (?)"
            try SQLiteSteps(db, insert, [.text("a")]).run()
            let clash = #expect(throws: DatabaseError.self) { try SQLiteSteps(db, insert, [.text("a")]).run() }
            #expect(clash?.resultCode == .SQLITE_CONSTRAINT && clash?.sql == insert, "\(String(describing: clash))")
            try SQLiteSteps(db, insert, [.text("b")]).run()
            #expect(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY name") == ["a", "b"])
        }
    }

    @Test func aRunDroppedBeforeItsLastRowLeavesItsStatementAtRest() throws {
        let database = try LibraryDatabase()
        try database.writer.read { db in
            let sql = "SELECT value FROM json_each(?)"
            var handle: SQLiteStatement?
            do {
                let steps = try SQLiteSteps(db, sql, [.text("[1, 2, 3]")])
                #expect(try steps.next())
                handle = steps.handle
                #expect(sqlite3_stmt_busy(handle) != 0)
            }
            #expect(sqlite3_stmt_busy(handle) == 0)
            // The cached statement starts over with new values.
            #expect(try db.integers(sql, [.text("[4, 5]")]) == [4, 5])
        }
    }
}
