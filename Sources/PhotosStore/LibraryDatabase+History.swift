import Foundation
import GRDB
import PhotosCore

/// The change log's bounds: how much history is kept, and which tokens can still be answered.
extension LibraryDatabase {
    /// The library's identifier, fixed when it was created.
    public func libraryIdentifier() throws -> String {
        try read { db in try String.fetchOne(db, sql: "SELECT identifier FROM library WHERE id = 1") ?? "" }
    }

    /// The newest token removed from the log: changes after a token older than this cannot be told.
    public func prunedThrough() throws -> Int64 {
        try read { db in try Self.prunedThrough(db) }
    }

    static func prunedThrough(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT prunedThrough FROM library WHERE id = 1")) ?? 0
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
            let floor = try Self.prunedThrough(db)
            guard token >= floor else {
                throw StoreError(
                    .historyExpired,
                    "changes since token \(token) are no longer kept (history starts after \(floor)); fetch everything again"
                )
            }
            return try Self.entries(after: token, limit: limit, db)
        }
    }

    /// The log's rows after `token` in a transaction that already checked the history bound.
    static func entries(after token: Int64, limit: Int, _ db: Database) throws -> [LibraryChange] {
        var sql = "SELECT token, payload FROM change WHERE token > ? ORDER BY token"
        var arguments: StatementArguments = [token]
        if limit > 0 {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        let decoder = JSONDecoder()
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
            let payload: String = row["payload"]
            var change = try decoder.decode(LibraryChange.self, from: Data(payload.utf8))
            change.token = row["token"]
            return change
        }
    }

    /// Keeps at most `entries` change-log entries and drops older ones, with the tombstones of
    /// objects deleted by them. Returns the number of entries removed.
    @discardableResult
    public func pruneHistory(keeping entries: Int) throws -> Int {
        do {
            return try writer.write { db in try Self.prune(db, keeping: entries) }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    static func prune(_ db: Database, keeping entries: Int) throws -> Int {
        let newest = try newestToken(db)
        let cutoff = try cutoffHeldByHooks(db, cutoff: newest - Int64(max(0, entries)), newest: newest)
        guard cutoff > 0 else { return 0 }
        try db.execute(sql: "DELETE FROM change WHERE token <= ?", arguments: [cutoff])
        let removed = db.changesCount
        try db.execute(sql: "DELETE FROM tombstone WHERE token <= ?", arguments: [cutoff])
        try db.execute(
            sql: "UPDATE library SET prunedThrough = MAX(prunedThrough, ?) WHERE id = 1", arguments: [cutoff])
        return removed
    }
}
