import Foundation
import GRDB
import PhotosLinux
import PhotosStore
import Synchronization

/// Libraries broken the ways real ones break, for tests that check a failure is reported and
/// never shown as an empty library.
public enum DamagedLibrary {
    /// Copies `database` to `path` (SQLite's `VACUUM INTO`) and fills the pages of the `asset`
    /// table and its indexes with garbage: the copy opens (its schema and migrations are intact),
    /// but every read of assets fails with `SQLITE_CORRUPT`, as a disk's bad sectors would make it.
    public static func copyWithDamagedAssets(of database: LibraryDatabase, to path: String) throws {
        try copy(database, to: path)
        let (pages, pageSize) = try DatabaseQueue(path: path).read { db in
            (
                try Int.fetchAll(
                    db, sql: "SELECT rootpage FROM sqlite_master WHERE tbl_name = 'asset' AND rootpage > 0"),
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            )
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        // Not a valid b-tree page header: 0xFF is no page type SQLite knows.
        let garbage = Data(repeating: 0xFF, count: pageSize)
        for page in pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: garbage)
        }
        try handle.synchronize()
    }

    /// Copies a library file as it is now, committed changes included (SQLite's `VACUUM INTO`,
    /// on a connection of its own: it cannot run inside the library's read transactions).
    public static func copy(_ database: LibraryDatabase, to path: String) throws {
        let source = try DatabaseQueue(path: try database.path ?? { throw CocoaError(.fileNoSuchFile) }())
        try source.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    }

    /// Writes `bytes` of garbage at `path`: a file that is no SQLite database at all.
    public static func writeGarbage(to path: String, bytes: Int = 64 * 1024) throws {
        var generator = SplitMix64(seed: 42)
        let data = Data((0..<bytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// A small tmpfs mounted for one test, to fill up: a real full disk (`ENOSPC`, `SQLITE_FULL`).
/// Needs root and a `mount` that works (a container may refuse); ``isAvailable`` says.
public final class SmallFileSystem: Sendable {
    /// The mount point.
    public let url: URL
    private let filler: URL

    /// Whether tmpfs can be mounted here (root, and mount allowed).
    public static let isAvailable: Bool = {
        guard getuid() == 0, let probe = try? SmallFileSystem(megabytes: 1) else { return false }
        _ = probe
        return true
    }()

    /// Mounts a tmpfs of `megabytes` on a fresh temporary directory.
    public init(megabytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("photos-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        filler = url.appendingPathComponent("filler")
        let status = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", url.path])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: url)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// Writes a file until the file system has no space left.
    public func fill() throws {
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let chunk = Data(repeating: 0xA5, count: 64 * 1024)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        // The last partial chunk: down to the byte.
        let small = Data(repeating: 0xA5, count: 512)
        while (try? handle.write(contentsOf: small)) != nil {}
    }

    /// Remounts the file system read-only: writes, and removing its files, fail with `EROFS`, for
    /// root too.
    public func makeReadOnly() throws {
        let status = try Self.run("/bin/mount", ["-o", "remount,ro", url.path])
        guard status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    }

    /// Removes what ``fill()`` wrote.
    public func free() throws {
        try FileManager.default.removeItem(at: filler)
    }

    deinit {
        _ = try? Self.run("/bin/umount", ["-l", url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Another connection holding a library's write lock (as another process's long write would),
/// until ``release()``.
public final class HeldWriteLock: Sendable {
    private let release_ = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// Whether ``release()`` has run; held while it waits, so that a second caller waits too.
    private let released = Mutex(false)

    /// Opens the library at `path` on another connection and takes its write lock (`BEGIN IMMEDIATE`).
    public init(path: String) throws {
        let other = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0)
        // A thread of its own: the wait for release() must not hold one of the shared pool's threads.
        // A `SystemThread`, which releases the connection before the thread ends (see `SystemThread`).
        try SystemThread(name: "test-held-lock") { [release_, done] in
            // A failure to lock shows as the test's write succeeding: nothing to report here.
            try? other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                release_.wait()
                try db.execute(sql: "ROLLBACK")
            }
            done.signal()
        }.detach()
        locked.wait()
    }

    /// Gives the lock up and waits until the other connection has.
    public func release() {
        released.withLock { released in
            guard !released else { return }
            released = true
            release_.signal()
            done.wait()
        }
    }

    deinit { release() }
}
