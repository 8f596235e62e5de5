import Foundation
import PhotosCore

/// The change log's bounds: how much history is kept, and which tokens can still be answered.
extension LibraryDatabase {
    /// The library's identifier, fixed when it was created.
    public func libraryIdentifier() throws -> String {
        try read { db in try db.scalarText("SELECT identifier FROM library WHERE id = 1") ?? "" }
    }

    /// The newest token removed from the log: changes after a token older than this cannot be told.
    public func prunedThrough() throws -> Int64 {
        try read { db in try Self.prunedThrough(db) }
    }

    /// Starts the history of a library file not written to yet after `token`: its first change is
    /// `token + 1`, and every token up to `token` is expired (``requireHistory(after:)``). What a
    /// library made again from the disk (`photos rebuild`) does, so that a token a program kept of
    /// the library it replaces is refused, never taken for one of its own.
    package func startHistory(after token: Int64) throws {
        guard case .sqlite = engine else {
            throw StoreError(.other, "only a library file's history starts after a token")
        }
        try bookkeeping { db in
            guard try Self.newestToken(db) == 0 else {
                throw StoreError(.other, "the history of a library written to already cannot start again")
            }
            try db.execute("DELETE FROM sqlite_sequence WHERE name = 'change'", [])
            try db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('change', ?)", [.int(token)])
            try db.execute("UPDATE library SET prunedThrough = ? WHERE id = 1", [.int(token)])
        }
    }

    static func prunedThrough(_ db: some StoreConnection) throws -> Int64 {
        try db.scalarInt64("SELECT prunedThrough FROM library WHERE id = 1") ?? 0
    }

    /// The entries after `token`, or `StoreError` `.historyExpired` (PhotoKit's 3105) when entries after it
    /// were pruned: never a silent partial answer.
    /// At most `limit` entries (0: all), oldest first.
    ///
    /// This is the one read of the log: ``changeFeed(after:)`` pages through it, and
    /// `fetchPersistentChanges`, `photos changes` and the daemon's consumers call it. The bound and the
    /// entries are read in one read transaction, so pruning cannot slip between them.
    public func changes(after token: Int64, limit: Int = 0) throws -> [LibraryChange] {
        try read { db in
            try Self.requireHistory(after: token, db)
            return try Self.entries(after: token, limit: limit, db)
        }
    }

    /// Throws `historyExpired` unless the changes after `token` can be told: the log is pruned past
    /// it, or it is past the log's newest token (no commit of this library made it: it is another
    /// library's, or this one was made again; followed from it, the changes up to it would be
    /// skipped without a word). A change stream checks before it starts.
    public func requireHistory(after token: Int64) throws {
        try read { db in try Self.requireHistory(after: token, db) }
    }

    static func requireHistory(after token: Int64, _ db: some StoreConnection) throws {
        let floor = try Self.prunedThrough(db)
        guard token >= floor else {
            throw StoreError(
                .historyExpired,
                "changes since token \(token) are no longer kept (history starts after \(floor)); fetch everything again"
            )
        }
        let newest = max(try newestToken(db), floor)
        guard token <= newest else {
            throw StoreError(
                .historyExpired,
                "token \(token) is past this library's newest change (\(newest)): it is another library's, "
                    + "or this one was made again; fetch everything again")
        }
    }

    /// The log's rows after `token` in a transaction that already checked the history bound.
    static func entries(after token: Int64, limit: Int, _ db: some StoreConnection) throws -> [LibraryChange] {
        var sql = "SELECT token, payload FROM change WHERE token > ? ORDER BY token"
        var arguments: [SQLValue] = [.int(token)]
        if limit > 0 {
            sql += " LIMIT ?"
            arguments.append(.int(Int64(limit)))
        }
        let decoder = JSONDecoder()
        return try db.rows(sql, arguments) { row in
            var change = try decoder.decode(LibraryChange.self, from: Data(try row.text(1).utf8))
            change.token = try row.int64(0)
            return change
        }
    }

    /// Keeps at most `entries` change-log entries and drops older ones, with the tombstones of
    /// objects deleted by them. Returns the number of entries removed.
    @discardableResult
    public func pruneHistory(keeping entries: Int) throws -> Int {
        try bookkeeping { db in try Self.prune(db, keeping: entries) }
    }

    static func prune(_ db: some StoreConnection, keeping entries: Int) throws -> Int {
        let newest = try newestToken(db)
        let cutoff = try cutoffHeldByHooks(db, cutoff: newest - Int64(max(0, entries)), newest: newest)
        guard cutoff > 0 else { return 0 }
        let removed = try db.execute("DELETE FROM change WHERE token <= ?", [.int(cutoff)])
        try db.execute("DELETE FROM tombstone WHERE token <= ?", [.int(cutoff)])
        // The bound only moves forward (CASE: SQLite's two-argument MAX is PostgreSQL's GREATEST).
        try db.execute(
            "UPDATE library SET prunedThrough = CASE WHEN prunedThrough > ? THEN prunedThrough ELSE ? END WHERE id = 1",
            [.int(cutoff), .int(cutoff)])
        return removed
    }
}
