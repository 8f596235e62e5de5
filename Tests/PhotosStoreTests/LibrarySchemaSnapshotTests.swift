import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A new library file is made from the schema snapshot, which must make what the migrations make.
///
/// When a migration is added, the first test fails until the snapshot is written again:
/// `PHOTOS_RECORD_SCHEMA=1 swift test --filter LibrarySchemaSnapshotTests`.
struct LibrarySchemaSnapshotTests {
    /// Everything a library holds, as the statements that would make it again, with the library's
    /// row (its identifier aside) and `user_version`.
    static func contents(_ db: Database) throws -> [String] {
        var contents = try LibrarySchemaSnapshot.statements(making: db)
        for row in try Row.fetchAll(db, sql: "SELECT * FROM library") {
            contents.append(
                "library: "
                    + row.columnNames.filter { $0 != "identifier" }.map { "\($0)=\(row[$0] as DatabaseValue)" }
                    .joined(separator: " "))
        }
        contents.append("user_version: \(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1)")
        return contents
    }

    @Test func aNewLibraryMadeFromTheSnapshotHoldsWhatTheMigrationsMake() throws {
        let migrated = try DatabaseQueue()
        try LibraryDatabase.migrate(migrated, path: nil, fromSnapshot: false)
        let migrations = LibraryDatabase.migrator.migrations
        if ProcessInfo.processInfo.environment["PHOTOS_RECORD_SCHEMA"] == "1" {
            try Self.record(try migrated.read(LibrarySchemaSnapshot.statements(making:)), migrations: migrations)
        }
        #expect(
            LibrarySchemaSnapshot.standsFor(migrations),
            "the schema snapshot is of other migrations: run PHOTOS_RECORD_SCHEMA=1 swift test --filter LibrarySchemaSnapshotTests"
        )

        let made = try DatabaseQueue()
        try LibraryDatabase.migrate(made, path: nil)
        let expected = try migrated.read(Self.contents)
        let found = try made.read(Self.contents)
        // The first difference alone: the whole schema would bury it.
        #expect(found.count == expected.count)
        if let line = expected.indices.first(where: { $0 < found.count && expected[$0] != found[$0] }) {
            Issue.record(
                "statement \(line) differs: the migrations make\n\(expected[line])\nthe snapshot\n\(found[line])")
        }
        // Made from the snapshot, not migrated: the migrations' work would have taken far longer,
        // and each one is recorded as applied all the same.
        #expect(try made.read { try LibraryDatabase.migrator.appliedIdentifiers($0) } == Set(migrations))
    }

    @Test func eachNewLibraryHasAnIdentifierOfItsOwn() throws {
        let identifiers = try (0..<3).map { _ in
            let queue = try DatabaseQueue()
            try LibraryDatabase.migrate(queue, path: nil)
            return try queue.read { try String.fetchOne($0, sql: "SELECT identifier FROM library") }
        }
        #expect(Set(identifiers.compactMap { $0 }).count == 3)
        #expect(identifiers.allSatisfy { UUID(uuidString: $0 ?? "") != nil })
    }

    @Test func aFileThatHoldsSomethingIsMigratedNotMadeFromTheSnapshot() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try LibraryDatabase.migrate(queue, path: nil)
        let tables = try queue.read {
            try String.fetchSet($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(tables.isSuperset(of: ["notes", "asset", "collection", "library"]))
        #expect(
            try queue.read { try LibraryDatabase.migrator.appliedIdentifiers($0) }
                == Set(LibraryDatabase.migrator.migrations))
    }

    @Test func aLibraryOpenedTwiceIsMadeOnce() throws {
        let directory = try TemporaryDirectory(prefix: "schema-snapshot")
        let path = directory.path("library.sqlite").path
        let first = try LibraryDatabase(path: path)
        let identifier = try first.sqliteRead { try String.fetchOne($0, sql: "SELECT identifier FROM library") }
        let second = try LibraryDatabase(path: path)
        #expect(try second.sqliteRead { try String.fetchOne($0, sql: "SELECT identifier FROM library") } == identifier)
    }

    /// Writes `LibrarySchemaSnapshot+Statements.swift` for these statements and migrations.
    static func record(_ statements: [String], migrations: [String]) throws {
        func literal(_ text: String) -> String {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return "        #\"\"\"\n" + lines.map { "        " + $0 }.joined(separator: "\n") + "\n        \"\"\"#"
        }
        let source = """
            // Written by LibrarySchemaSnapshotTests (PHOTOS_RECORD_SCHEMA=1): do not edit.

            extension LibrarySchemaSnapshot {
                static let migrations: [String] = [
            \(migrations.map { "        #\"" + $0 + "\"#," }.joined(separator: "\n"))
                ]

                static let statements: [String] = [
            \(statements.map { literal($0) + "," }.joined(separator: "\n"))
                ]
            }

            """
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/PhotosStore/LibrarySchemaSnapshot+Statements.swift").standardized
        try source.write(to: path, atomically: true, encoding: .utf8)
    }
}
