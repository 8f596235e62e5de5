import Foundation
import GRDB
import PhotosCore
import PhotosLinux
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// The read-only connections a file's library reads on: one snapshot a read, another process's
/// commits seen at the next, no write, and no transaction left open between reads whatever the
/// body did, so the log can always be checkpointed.
@Suite struct ReadConnectionsTests {
    let directory: TemporaryDirectory
    let database: LibraryDatabase
    let other: LibraryDatabase

    init() throws {
        directory = try TemporaryDirectory(prefix: "reads")
        database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        other = try LibraryDatabase(existingAt: directory.path("library.sqlite").path)
    }

    func insert(_ name: String, into library: LibraryDatabase) throws {
        try library.write { try $0.insertAsset(AssetRecord(localIdentifier: "\(name)/L0/001", mediaType: .image)) }
    }

    /// Whether the log can be copied back whole and restarted: no connection holds a read open.
    func logCheckpointsWhole() throws -> Bool {
        let row = try #require(
            try database.writer.writeWithoutTransaction { db in
                try Row.fetchOne(db, sql: "PRAGMA main.wal_checkpoint(TRUNCATE)")
            })
        let (busy, logPages, copied): (Int, Int, Int) = (row[0], row[1], row[2])
        return busy == 0 && logPages == copied
    }

    @Test func aReadSeesOneSnapshotAndTheNextSeesWhatCameSince() throws {
        let connections = try #require(database.readConnections)
        try insert("a", into: other)
        let counts = try connections.read { db in
            let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset")
            try insert("b", into: other)
            return (before, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset"))
        }
        #expect(counts.0 == 1 && counts.1 == 1)
        #expect(try connections.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") } == 2)
        #expect(try database.assetIDs(matching: AssetQuery()).count == 2)
        #expect(try logCheckpointsWhole())
    }

    @Test func aReadCannotWriteAndAFailedReadLeavesNothingOpen() throws {
        let connections = try #require(database.readConnections)
        try insert("a", into: database)
        #expect(throws: DatabaseError.self) {
            try connections.read { db in try db.execute(sql: "DELETE FROM asset") }
        }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connections.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset")
                throw Stop()
            }
        }
        // A body that ends its own transaction ends the read without an error.
        try connections.read { db in try db.execute(sql: "COMMIT") }
        #expect(try logCheckpointsWhole())
        #expect(try database.assetIDs(matching: AssetQuery()).count == 1)
    }

    @Test func manyReadsAtOnceEachGetAConnectionAndKeepNoneOpen() throws {
        try insert("a", into: database)
        let threads = ReadConnections.kept + 4
        let counted = Counted()
        let started = try (0..<threads).map { index in
            try SystemThread(name: "read-\(index)") {
                for _ in 0..<50 {
                    let count = try? database.withinOneRead { try database.assetIDs(matching: AssetQuery()).count }
                    if count == 1 { counted.value.withLock { $0 += 1 } }
                }
            }
        }
        for thread in started { thread.join() }
        #expect(counted.value.withLock { $0 } == threads * 50)
        #expect(try logCheckpointsWhole())
    }

    /// The last connection to a file in WAL mode checkpoints the log and removes it, which a
    /// read-only one cannot: the writer closes last, and a released library leaves its file alone.
    @Test func aReleasedLibraryLeavesNoLogBehind() throws {
        let directory = try TemporaryDirectory(prefix: "reads-released")
        let path = directory.path("library.sqlite").path
        do {
            let library = try LibraryDatabase(path: path)
            try insert("a", into: library)
            #expect(try library.assetIDs(matching: AssetQuery()).count == 1)
            #expect(try library.withinOneRead { try library.currentToken() } == 1)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try LibraryDatabase(existingAt: path).assetIDs(matching: AssetQuery()).count == 1)
    }

    final class Counted: Sendable {
        let value = Mutex(0)
    }
}
