import Dispatch
import Foundation
import GRDB
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// Opening a library: private modes, one creator at a time, and failures as `StoreError` with their cause.
@Suite struct LibraryOpeningTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "library-opening")
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    /// The process's umask, read without changing it (tests run in parallel in one process).
    func umask() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    @Test func newLibraryFilesArePrivateWhateverTheUmask() throws {
        // With the usual 022, files and directories would be readable by every local user.
        #expect(try umask() & 0o077 != 0o077, "the umask already hides everything: this test proves nothing")
        let existingMode = try mode(directory.url.path)
        let path = directory.path("data/photosd/library.sqlite").path
        let database = try LibraryDatabase(path: path)
        try database.write { transaction in
            try transaction.insertCollection(
                CollectionRecord(
                    localIdentifier: "X/L0/040", isList: false, type: 1, subtype: 2, title: "x", position: 0,
                    createdDate: 0))
        }
        #expect(try mode(directory.path("data").path) == 0o700)
        #expect(try mode(directory.path("data/photosd").path) == 0o700)
        #expect(try mode(path) == 0o600)
        #expect(try mode(path + "-wal") == 0o600)
        #expect(try mode(path + "-shm") == 0o600)
        #expect(try mode(directory.url.path) == existingMode, "an existing directory is never changed")
    }

    @Test func anExistingLibraryKeepsItsMode() throws {
        let path = directory.path("old.sqlite").path
        _ = try LibraryDatabase(path: path)
        chmod(path, 0o640)
        _ = try LibraryDatabase(path: path)
        #expect(try mode(path) == 0o640)
    }

    @Test func concurrentOpensOfANewLibraryAllSucceed() throws {
        // Each open is its own SQLite connection, as each process's would be.
        let path = directory.path("race/library.sqlite").path
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let database = try LibraryDatabase(path: path)
                _ = try database.currentToken()
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let applied = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(applied.count == LibraryDatabase.schemaVersion)
    }

    @Test func garbageIsCorrupt() throws {
        let path = directory.path("garbage.sqlite").path
        try DamagedLibrary.writeGarbage(to: path)
        #expect {
            _ = try LibraryDatabase(path: path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .corrupt && error.sqliteCode == 26 && error.path == path
        }
    }

    @Test func aDirectoryInPlaceOfTheFileIsUnreachable() throws {
        let path = directory.path("dir.sqlite")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        #expect {
            _ = try LibraryDatabase(path: path.path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .unreachable && error.errno == EISDIR && error.sqliteCode != nil
        }
    }

    @Test func aMissingLibraryIsNotFound() throws {
        #expect {
            _ = try LibraryDatabase(existingAt: directory.path("missing.sqlite").path)
        } throws: { error in
            (error as? StoreError)?.code == .notFound
        }
    }

    @Test func unknownMigrationsAreANewerSchema() throws {
        let path = directory.path("newer.sqlite").path
        _ = try LibraryDatabase(path: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v42: later')")
        }
        #expect {
            _ = try LibraryDatabase(path: path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .newerSchema && error.message.contains("v42: later")
        }
    }

    /// A library in WAL mode is opened with no connection of its own for the schema check (opening
    /// it writes nothing before `migrate` checks); any other file is checked first, so that a newer
    /// build's library in another journal mode is refused without being switched to WAL mode.
    @Test func aNewerLibraryOutOfWALModeIsRefusedBeforeItIsSwitched() throws {
        let path = directory.path("newer-rollback.sqlite").path
        _ = try LibraryDatabase(path: path)
        #expect(LibraryDatabase.isInWALMode(path))
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v42: later')")
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
        }
        #expect(!LibraryDatabase.isInWALMode(path))
        #expect {
            _ = try LibraryDatabase(path: path)
        } throws: { error in
            (error as? StoreError)?.code == .newerSchema
        }
        #expect(!LibraryDatabase.isInWALMode(path), "the refused library was switched to WAL mode")

        let text = directory.path("notes.sqlite").path
        try Data("SQLite format 3? no: a note".utf8).write(to: URL(fileURLWithPath: text))
        #expect(!LibraryDatabase.isInWALMode(text))
        #expect(!LibraryDatabase.isInWALMode(directory.path("missing.sqlite").path))
    }

    @Test func aWriterPastTheBusyTimeoutIsBusy() throws {
        let path = directory.path("busy.sqlite").path
        let database = try LibraryDatabase(path: path, busyTimeout: 0.1)
        let lock = try HeldWriteLock(path: path)
        defer { lock.release() }
        #expect {
            try database.write { transaction in
                try transaction.insertCollection(
                    CollectionRecord(
                        localIdentifier: "Y/L0/040", isList: false, type: 1, subtype: 2, title: "y", position: 0,
                        createdDate: 0))
            }
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .busy && error.sqliteCode.map { $0 & 0xFF } == 5
        }
        // Reading is not blocked by a writer.
        #expect(try database.currentToken() >= 0)
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs"))
    func aFullDiskIsFull() throws {
        let disk = try SmallFileSystem(megabytes: 2)
        let database = try LibraryDatabase(path: disk.url.appendingPathComponent("library.sqlite").path)
        try disk.fill()
        #expect {
            try database.write { transaction in
                for index in 0..<2000 {
                    _ = try transaction.insertCollection(
                        CollectionRecord(
                            localIdentifier: "Z\(index)/L0/040", isList: false, type: 1, subtype: 2,
                            title: String(repeating: "z", count: 2000), position: index, createdDate: 0))
                }
            }
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .full && error.errno == ENOSPC
        }
    }

    @Test func privateFilesAreWrittenWhole() throws {
        let path = directory.path("status.json").path
        try PrivateFiles.write(Data("one".utf8), atomicallyTo: path)
        try PrivateFiles.write(Data("two".utf8), atomicallyTo: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(try mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["status.json"])
    }
}
