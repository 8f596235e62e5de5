import Foundation
import PhotosCore
import Testing

@testable import PhotosStore

/// The engine-neutral connection as SQLite's conformance gives it: every kind of value goes in and
/// comes back as it was, a row read as the wrong kind is an error naming the column, and a hook's
/// row written and read through it is the hook's state.
@Suite struct StoreConnectionTests {
    @Test func everyKindOfValueComesBackAsItWent() throws {
        let database = try LibraryDatabase()
        let values: [SQLValue] = [.null, .int(-42), .int(.max), .double(2.5), .text("café/日本"), .blob([0, 255, 7])]
        let rows = try database.read { db in
            try db.rows("SELECT ?, ?, ?, ?, ?, ?", values) { $0.values }
        }
        #expect(rows == [values])
        let row = StoreRow(values: values)
        #expect(row.optionalInt64(1) == -42 && row.optionalDouble(3) == 2.5 && row.optionalText(4) == "café/日本")
        #expect(row.optionalBytes(5) == [0, 255, 7] && row.optionalInt64(0) == nil && row.optionalText(9) == nil)
        let wrong = #expect(throws: StoreError.self) { try row.int64(4) }
        #expect(
            wrong?.code == .missingColumn && wrong?.message.contains("column 4") == true, "\(String(describing: wrong))"
        )
        #expect(throws: StoreError.self) { try row.text(7) }
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
