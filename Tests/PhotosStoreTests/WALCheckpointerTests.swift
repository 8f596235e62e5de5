import Dispatch
import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The write-ahead log is copied into the database file by the checkpointer's own connection, not
/// by the commits that fill it, and stays bounded when that connection falls behind. What a
/// checkpoint copied shows in the database file's size: the pages written only to the log are not
/// in it until a checkpoint copies them.
@Suite struct WALCheckpointerTests {
    /// A database file in WAL mode with a table of blobs, its writer reporting to a checkpointer
    /// due at 10 pages, 1 ms after the commit, on a queue the test may hold.
    private struct Fixture {
        let directory: TemporaryDirectory
        let queue = DispatchQueue(label: "wal-checkpointer-test")
        let checkpointer: WALCheckpointer
        let pool: DatabasePool
        /// The database file's size once the table is made, before any commit the checkpointer sees.
        let sizeBefore: Int

        init(inlineLimit: Int32 = 100_000) throws {
            directory = try TemporaryDirectory(prefix: "wal-checkpointer")
            let path = directory.path("library.sqlite").path
            checkpointer = WALCheckpointer(
                path: path, threshold: 10, inlineLimit: inlineLimit, delay: .milliseconds(1), queue: queue)
            pool = try DatabasePool(path: path)
            try pool.write { try $0.execute(sql: "CREATE TABLE blob (id INTEGER PRIMARY KEY, bytes BLOB)") }
            // What creating the table logged is copied now: the file's size after it is the baseline.
            try pool.writeWithoutTransaction { [checkpointer] db in
                _ = try db.checkpoint(.truncate)
                // SQLite's own checkpoint at the same 10 pages: were it still on, the commits would
                // copy the log themselves.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 10")
                checkpointer.attach(to: db)
            }
            sizeBefore = try Self.size(of: path)
        }

        /// The database file's size now.
        func fileSize() throws -> Int { try Self.size(of: directory.path("library.sqlite").path) }

        private static func size(of path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }

        /// Commits `count` rows of 8 KB: at least two log pages each.
        func commit(_ count: Int) throws {
            for _ in 0..<count {
                try pool.write { db in
                    try db.execute(sql: "INSERT INTO blob (bytes) VALUES (?)", arguments: [Data(count: 8192)])
                }
            }
        }
    }

    @Test func commitsLeaveTheCheckpointToTheCheckpointer() async throws {
        let fixture = try Fixture()
        let checkpointer = fixture.checkpointer
        // With the checkpointer's queue held, nothing copies the log: not the commits (SQLite would
        // have, at 10 pages), not the checkpointer.
        fixture.queue.suspend()
        try fixture.commit(40)
        #expect(try fixture.fileSize() == fixture.sizeBefore)
        #expect(checkpointer.counts.largestLog >= 80)
        #expect(checkpointer.counts.inlineRuns == 0)

        fixture.queue.resume()
        try await waitUntil("the checkpointer's first run") { checkpointer.counts.runs >= 1 }
        #expect(try fixture.fileSize() >= fixture.sizeBefore + 40 * 8192)
        #expect(checkpointer.counts.inlineRuns == 0)
        checkpointer.close()
    }

    @Test func aCheckpointerThatFallsBehindIsCaughtByTheWriter() throws {
        let fixture = try Fixture(inlineLimit: 60)
        fixture.queue.suspend()
        defer { fixture.queue.resume() }

        try fixture.commit(100)
        // The writer copied the log itself each time it reached the limit, and the log started over.
        let counts = fixture.checkpointer.counts
        #expect(counts.inlineRuns >= 2)
        #expect(counts.runs == 0)
        #expect(counts.largestLog < 60 + 10)
        #expect(try fixture.fileSize() >= fixture.sizeBefore + 60 * 8192)
        fixture.checkpointer.close()
    }

    @Test func aClosedCheckpointerRunsNoMore() async throws {
        let fixture = try Fixture()
        let queue = fixture.queue
        queue.suspend()
        try fixture.commit(20)
        // Due, not yet run: closing now leaves the due run nothing to do.
        fixture.checkpointer.close()
        queue.resume()
        try await offPool { queue.sync {} }
        try await Task.sleep(for: .milliseconds(20))
        try await offPool { queue.sync {} }
        #expect(fixture.checkpointer.counts.runs == 0)
        #expect(try fixture.fileSize() == fixture.sizeBefore)
    }

    @Test func aLibraryFileHasACheckpointerAndAnInMemoryOneNone() throws {
        let directory = try TemporaryDirectory(prefix: "wal-checkpointer-library")
        let library = try LibraryDatabase(path: directory.path("library.sqlite").path)
        #expect(library.checkpointer != nil)
        #expect(try LibraryDatabase().checkpointer == nil)
    }
}
