import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The engine-neutral connection as SQLite's conformance gives it: every kind of value goes in and
/// comes back as it was, statements count their rows and inserts number theirs, a row read as the
/// wrong kind is an error naming the column, and a hook's row written and read through it is the
/// hook's state. ``PostgreSQLConnectionTests`` hold PostgreSQL's connection to the same contract.
@Suite struct StoreConnectionTests {
    @Test func everyKindOfValueComesBackAsItWent() throws {
        let database = try LibraryDatabase()
        try database.read { db in try ConnectionContract.valuesComeBackAsTheyWent(db) }
        let row = StoreRow(values: ConnectionContract.values)
        #expect(row.optionalInt64(1) == -42 && row.optionalDouble(3) == 2.5 && row.optionalText(4) == "café/日本")
        #expect(row.optionalBytes(5) == [0, 255, 7] && row.optionalInt64(0) == nil && row.optionalText(9) == nil)
        let wrong = #expect(throws: StoreError.self) { try row.int64(4) }
        #expect(
            wrong?.code == .missingColumn && wrong?.message.contains("column 4") == true, "\(String(describing: wrong))"
        )
        #expect(throws: StoreError.self) { try row.text(7) }
    }

    @Test func statementsCountTheirRowsAndInsertsNumberTheirs() throws {
        let database = try LibraryDatabase()
        try database.writer.write { db in
            try ConnectionContract.rowsAreCountedNumberedAndRead(
                db, table: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT UNIQUE, size INTEGER, data BLOB)")
        }
    }

    @Test func aHooksRowGoesThroughTheConnection() throws {
        let database = try LibraryDatabase()
        var state = HookState(name: "sync", cursor: 3)
        state.parkedAt = 1_700_000_000.5
        state.parkedReason = "exit 1 after 5 failed runs in a row"
        state.failures = 5
        state.runs = 2
        try database.writer.write { db in try state.insert(in: db) }
        #expect(try database.hookState(named: "sync") == state)
        state.cursor = 9
        state.parkedAt = nil
        state.parkedReason = nil
        state.enabled = false
        try database.writer.write { db in try state.update(in: db) }
        #expect(try database.hookStates() == [state])
        #expect(try database.hookState(named: "other") == nil)
    }
}

/// What every engine's ``StoreConnection`` does alike, run against each.
enum ConnectionContract {
    struct Item: Equatable {
        var id: Int64
        var name: String
        var size: Int64?
        var data: [UInt8]?
    }

    /// One value of each kind, NULL first.
    static let values: [SQLValue] = [.null, .int(-42), .int(.max), .double(2.5), .text("café/日本"), .blob([0, 255, 7])]

    static func valuesComeBackAsTheyWent(_ db: some StoreConnection) throws {
        let rows = try db.rows("SELECT ?, ?, ?, ?, ?, ?", values) { $0.values }
        #expect(rows == [values])
        // Extremes and text that looks like SQL.
        let edges: [SQLValue] = [
            .int(.min), .double(-0.125), .text("it's a ? 'quoted' \"name\""), .blob([]), .text(""),
        ]
        #expect(try db.rows("SELECT ?, ?, ?, ?, ?", edges) { $0.values } == [edges])
        // An empty text is no NULL.
        #expect(try db.rows("SELECT ? IS NULL", [.text("")]) { try $0.int64(0) } == [0])
    }

    /// `table`: the engine's DDL for `item (id, name UNIQUE, size, data)` with a generated id.
    static func rowsAreCountedNumberedAndRead(_ db: some StoreConnection, table: String) throws {
        try db.execute(table, [])
        let insert = SQLText.insert(into: "item", ["name", "size", "data"])
        let first = try db.insert(insert, [.text("a.jpg"), .int(10), .blob([1, 2])])
        let second = try db.insert(insert, [.text("b.jpg"), .int(20), .null])
        #expect(second > first)
        #expect(try db.execute("UPDATE item SET size = size + ? WHERE size < ?", [.int(1), .int(100)]) == 2)
        #expect(try db.execute("DELETE FROM item WHERE name = ?", [.text("nothing")]) == 0)
        let read = try db.rows("SELECT id, name, size, data FROM item ORDER BY id", []) {
            Item(id: try $0.int64(0), name: try $0.text(1), size: $0.optionalInt64(2), data: $0.optionalBytes(3))
        }
        #expect(
            read == [
                Item(id: first, name: "a.jpg", size: 11, data: [1, 2]),
                Item(id: second, name: "b.jpg", size: 21, data: nil),
            ])
        // A `?` inside a literal is no placeholder; the one after it is the first.
        let quoted = try db.rows("SELECT name FROM item WHERE name <> '?' AND id = ?", [.int(second)]) {
            try $0.text(0)
        }
        #expect(quoted == ["b.jpg"])
        #expect(try db.firstRow("SELECT name FROM item ORDER BY id DESC", []) { try $0.text(0) } == "b.jpg")
        // A list of any length in one argument, as the engine's dialect reads a JSON array.
        let named = try db.rows(
            "SELECT name FROM item WHERE name IN (\(db.dialect.elementsOfJSONArray())) ORDER BY name",
            [.text(JSONText.array(["b.jpg", "none", "a.jpg"]))]
        ) { try $0.text(0) }
        #expect(named == ["a.jpg", "b.jpg"])
        let numbered = try db.rows(
            "SELECT name FROM item WHERE id IN (\(db.dialect.elementsOfJSONArray(wholeNumbers: true)))",
            [.text(JSONText.array([second, 999]))]
        ) { try $0.text(0) }
        #expect(numbered == ["b.jpg"])
        #expect(try db.firstRow("SELECT name FROM item WHERE id < 0", []) { try $0.text(0) } == nil)
        // A second row of the same name breaks the table's rule: the store's error, the row not written.
        let clash = #expect(throws: (any Error).self) { try db.insert(insert, [.text("a.jpg"), .int(1), .null]) }
        let error = try #require(clash.map { StoreError.wrap($0, path: nil) as? StoreError } ?? nil)
        #expect(error.code == .other, "\(error)")
    }
}
