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
    /// A database file in WAL mode with a table of blobs, its writer reporting to `checkpointer`.
    private func database(in directory: TemporaryDirectory, _ checkpointer: WALCheckpointer) throws -> DatabasePool {
        let pool = try DatabasePool(path: directory.path("library.sqlite").path)
        try pool.write { try $0.execute(sql: "CREATE TABLE blob (id INTEGER PRIMARY KEY, bytes BLOB)") }
        // What creating the table logged is copied now: the file's size after it is the baseline.
        try pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
            checkpointer.attach(to: db)
        }
        return pool
    }

    /// Commits `count` rows of 8 KB: at least two log pages each.
    private func commit(_ count: Int, to pool: DatabasePool) throws {
        for _ in 0..<count {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO blob (bytes) VALUES (?)", arguments: [Data(count: 8192)])
            }
        }
    }

    private func fileSize(_ directory: TemporaryDirectory) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("library.sqlite").path)
        return (attributes[.size] as? Int) ?? 0
    }

    @Test func commitsLeaveTheCheckpointToTheCheckpointer() async throws {
        let directory = try TemporaryDirectory(prefix: "wal-checkpointer")
        let queue = DispatchQueue(label: "wal-checkpointer-test")
        let checkpointer = WALCheckpointer(
            path: directory.path("library.sqlite").path, threshold: 10, inlineLimit: 100_000, delay: .milliseconds(1),
            queue: queue)
        let pool = try database(in: directory, checkpointer)
        let before = try fileSize(directory)

        // With the checkpointer's queue held, nothing copies the log: not the commits (SQLite would
        // have at 10 pages with this threshold, and at 1,000 by default), not the checkpointer.
        queue.suspend()
        try commit(40, to: pool)
        #expect(try fileSize(directory) == before)
        #expect(checkpointer.counts.largestLog >= 80)
        #expect(checkpointer.counts.inlineRuns == 0)

        queue.resume()
        try await waitUntil("the checkpointer's first run") { checkpointer.counts.runs >= 1 }
        #expect(try fileSize(directory) >= before + 40 * 8192)
        #expect(checkpointer.counts.inlineRuns == 0)
        checkpointer.close()
    }

    @Test func aCheckpointerThatFallsBehindIsCaughtByTheWriter() throws {
        let directory = try TemporaryDirectory(prefix: "wal-checkpointer-behind")
        let queue = DispatchQueue(label: "wal-checkpointer-behind-test")
        let checkpointer = WALCheckpointer(
            path: directory.path("library.sqlite").path, threshold: 10, inlineLimit: 60, delay: .milliseconds(1),
            queue: queue)
        let pool = try database(in: directory, checkpointer)
        let before = try fileSize(directory)
        queue.suspend()
        defer { queue.resume() }

        try commit(100, to: pool)
        // The writer copied the log itself each time it reached the limit, and the log started over.
        let counts = checkpointer.counts
        #expect(counts.inlineRuns >= 2)
        #expect(counts.runs == 0)
        #expect(counts.largestLog < 60 + 10)
        #expect(try fileSize(directory) >= before + 60 * 8192)
        checkpointer.close()
    }

    @Test func aClosedCheckpointerRunsNoMore() async throws {
        let directory = try TemporaryDirectory(prefix: "wal-checkpointer-closed")
        let queue = DispatchQueue(label: "wal-checkpointer-closed-test")
        let checkpointer = WALCheckpointer(
            path: directory.path("library.sqlite").path, threshold: 10, inlineLimit: 100_000, delay: .milliseconds(1),
            queue: queue)
        let pool = try database(in: directory, checkpointer)
        let before = try fileSize(directory)
        queue.suspend()
        try commit(20, to: pool)
        // Due, not yet run: closing now leaves the due run nothing to do.
        checkpointer.close()
        queue.resume()
        try await offPool { queue.sync {} }
        try await Task.sleep(for: .milliseconds(20))
        try await offPool { queue.sync {} }
        #expect(checkpointer.counts.runs == 0)
        #expect(try fileSize(directory) == before)
    }

    @Test func aLibraryFileHasACheckpointerAndAnInMemoryOneNone() throws {
        let directory = try TemporaryDirectory(prefix: "wal-checkpointer-library")
        let library = try LibraryDatabase(path: directory.path("library.sqlite").path)
        #expect(library.checkpointer != nil)
        #expect(try LibraryDatabase().checkpointer == nil)
    }
}
