import Foundation
import PhotosCore

/// A directory under a root that exists but could not be listed at the last scan: what the library
/// had under it is kept (identifiers, favorites, albums) and shown unavailable until it reads again.
public struct UnreadableDirectoryRecord: Sendable, Hashable {
    /// The directory's absolute path.
    public var path: String
    /// The `errno` of the failed listing (`EACCES`, `EIO`, `ESTALE`...).
    public var code: Int32
    /// The error as text.
    public var reason: String
    /// When it was first found unreadable, seconds since 1970.
    public var since: Double

    /// A record of an unreadable directory.
    public init(path: String, code: Int32, reason: String, since: Double = Date().timeIntervalSince1970) {
        self.path = path
        self.code = code
        self.reason = reason
        self.since = since
    }
}

/// Which directories under a root are unreadable (their content kept, unavailable).
extension LibraryTransaction {
    /// Makes `directories` the unreadable directories strictly under `root`: others under it are
    /// readable again. A directory already known keeps the date it was first found unreadable.
    public func setUnreadableDirectories(_ directories: [UnreadableDirectoryRecord], under root: String) throws {
        let (condition, arguments) = Self.under(root, column: "path")
        let known = try db.rows(
            "SELECT path FROM unreadable_directory WHERE \(condition) AND \(db.dialect.isThisHost("host"))", arguments
        ) { try $0.text(0) }
        let now = Set(directories.map(\.path))
        try markReadable(known.filter { !now.contains($0) })
        for directory in directories { try markUnreadable(directory) }
    }

    /// Records one directory as unreadable (or refreshes its reason).
    public func markUnreadable(_ directory: UnreadableDirectoryRecord) throws {
        try db.execute(
            """
            INSERT INTO unreadable_directory (path, code, reason, since) VALUES (?, ?, ?, ?)
            ON CONFLICT(path, host) DO UPDATE SET code = excluded.code, reason = excluded.reason
            """,
            [.text(directory.path), .int(Int64(directory.code)), .text(directory.reason), .double(directory.since)])
    }

    /// Forgets that these directories were unreadable: they were listed again (or are gone).
    public func markReadable(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try db.execute(
            """
            DELETE FROM unreadable_directory
            WHERE path IN (\(db.dialect.elementsOfJSONArray())) AND \(db.dialect.isThisHost("host"))
            """,
            [.text(JSONText.array(paths))])
    }

    /// The unreadable directories at or under `path`.
    public func unreadableDirectories(under path: String) throws -> [String] {
        let (condition, arguments) = Self.under(path, column: "path")
        return try db.rows(
            """
            SELECT path FROM unreadable_directory
            WHERE (path = ? OR (\(condition))) AND \(db.dialect.isThisHost("host")) ORDER BY path
            """,
            [.text(path)] + arguments
        ) { try $0.text(0) }
    }
}

extension LibraryDatabase {
    /// Every directory of this host's roots found unreadable at its root's last scan, by path.
    public func unreadableDirectories() throws -> [UnreadableDirectoryRecord] {
        try read { db in
            try db.rows(
                "SELECT path, code, reason, since FROM unreadable_directory WHERE \(db.dialect.isThisHost("host")) ORDER BY path",
                []
            ) {
                UnreadableDirectoryRecord(
                    path: try $0.text(0), code: Int32(truncatingIfNeeded: try $0.int64(1)), reason: try $0.text(2),
                    since: $0.optionalDouble(3) ?? 0)
            }
        }
    }

    /// The paths under which files cannot be read now: offline roots and unreadable directories,
    /// and in a library several hosts share, the roots of another host whose photosd is not
    /// connected. An asset with a file under one of them is unavailable (kept, not readable).
    public func unavailablePaths() throws -> [String] {
        try read { db in
            let (sql, arguments) = db.dialect.unavailablePaths(schema: schema)
            return try db.rows(sql, arguments) { try $0.text(0) }
        }
    }

    /// In a library several hosts share, the host whose disk holds the file at `path` (or the
    /// directory `path`), as the store gave it back, when that is another host than this one: it
    /// reads the file, serves it, and alone may change it (``RootHosts/holder(of:)``). Nil for an
    /// absolute path: this host's, or a library file's.
    public func hostHolding(file path: String) -> String? {
        RootHosts.holder(of: path)
    }
}
