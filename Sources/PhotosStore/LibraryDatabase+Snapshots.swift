import Foundation
import GRDB
import GRDBSQLite
import PhotosCore

/// The row ids an asset query selected, in order, and the change-log token they are current at.
///
/// A fetch result keeps one; ``LibraryDatabase/update(_:query:)`` brings it up to date after
/// commits, touching only what the commits touched.
public struct AssetSnapshot: Sendable, Hashable {
    /// The selected assets' row ids, in the query's order.
    public var ids: [Int64]
    /// The newest change-log entry the snapshot includes.
    public var token: Int64

    /// A snapshot of `ids` as of `token`.
    public init(ids: [Int64], token: Int64) {
        self.ids = ids
        self.token = token
    }
}

/// How a snapshot became current (``LibraryDatabase/update(_:query:)``).
public enum SnapshotUpdate: Sendable {
    /// Nothing the query selects changed.
    case unchanged
    /// The same rows in the same order; those at `indexes` have new properties or content.
    case edited(indexes: IndexSet)
    /// A few rows left, arrived or moved; the others kept their order. `before` and `after` are
    /// the touched rows with their positions in the old and new snapshot, in position order
    /// (the input of `OrderedDiff(oldCount:touchedBefore:touchedAfter:changed:)`).
    case spliced(
        ids: [Int64], before: [(element: Int64, index: Int)], after: [(element: Int64, index: Int)],
        changed: Set<Int64>)
    /// Fetched again, because too much changed or the query cannot be spliced.
    case refetched(ids: [Int64], changed: Set<Int64>)
}

extension LibraryDatabase {
    /// The row ids an asset query selects, with the token they are current at (one read).
    public func assetSnapshot(matching query: AssetQuery) throws -> AssetSnapshot {
        try read { db in
            let (sql, arguments) = query.sql(dialect: db.dialect)
            return AssetSnapshot(
                ids: try Self.fetchIDs(db, sql: sql, arguments: arguments), token: try Self.newestToken(db))
        }
    }

    /// The snapshot of `query` and the watched roots that are offline (``offlineRoots()``), in one
    /// read: an asset fetch reports both, and each read transaction costs a lock and a reader.
    public func assetSnapshotAndOfflineRoots(matching query: AssetQuery) throws
        -> (snapshot: AssetSnapshot, offlineRoots: [String])
    {
        try read { db in
            let (sql, arguments) = query.sql(dialect: db.dialect)
            let snapshot = AssetSnapshot(
                ids: try Self.fetchIDs(db, sql: sql, arguments: arguments), token: try Self.newestToken(db))
            return (snapshot, try Self.offlineRoots(db))
        }
    }

    /// Brings a snapshot of `query` up to date with every change committed after its token.
    ///
    /// The cost follows what changed, not the size of the snapshot, wherever it can: edits that
    /// cannot move rows in, out or around keep the snapshot; a few insertions, deletions and
    /// reorders are spliced in, each placed by a binary search that reads the sort keys of
    /// O(log n) rows; only large changes, limits and time-dependent queries fetch again.
    ///
    /// ```swift
    /// var snapshot = try database.assetSnapshot(matching: query)
    /// // ... commits ...
    /// let (update, current) = try database.update(snapshot, query: query)
    /// if case .spliced(let ids, _, _, _) = update { snapshot = AssetSnapshot(ids: ids, token: current) }
    /// ```
    public func update(_ snapshot: AssetSnapshot, query: AssetQuery) throws -> (update: SnapshotUpdate, token: Int64) {
        try read { db in
            let newest = try Self.newestToken(db)
            guard newest > snapshot.token else { return (.unchanged, snapshot.token) }
            return (try SnapshotSplicer(db: db, query: query, snapshot: snapshot).update(), newest)
        }
    }

    /// The token of the newest change-log entry (0 for a library never written to).
    static func newestToken(_ db: some StoreConnection) throws -> Int64 {
        try db.scalarInt64(newestTokenSQL) ?? 0
    }

    /// The query of ``newestToken(_:)``: one row, NULL for an empty log.
    static let newestTokenSQL = "SELECT MAX(token) FROM change"
}

/// The work of one ``LibraryDatabase/update(_:query:)``, inside its read transaction.
struct SnapshotSplicer {
    /// Entries to read before fetching again is simpler than reading what each touched.
    static let maximumEntries = 256

    let db: any StoreConnection
    let query: AssetQuery
    let snapshot: AssetSnapshot

    func update() throws -> SnapshotUpdate {
        let changes = try changesSinceSnapshot()
        guard let changes, splices(changes) else { return try refetch(changes) }
        let touched = try rowIDs(changes.asset)
        if changes.asset.inserted.isEmpty && changes.asset.deleted.isEmpty
            && !query.depends(onProperties: Set(changes.asset.changedProperties.values.joined()))
        {
            // Nothing can move: one pass finds the changed rows, however many.
            let filter = RowFilter(touched.updated)
            var indexes = IndexSet()
            for (index, id) in snapshot.ids.enumerated() where filter.contains(id) { indexes.insert(index) }
            return indexes.isEmpty ? .unchanged : .edited(indexes: indexes)
        }
        // Splicing k rows reads about k·log(n/k) sort keys; past a point, one fetch is cheaper.
        guard touched.all.count <= max(64, snapshot.ids.count / 32) else { return try refetch(changes) }
        return try splice(touched: touched.all, updated: touched.updated)
    }

    // MARK: What changed

    /// Every asset and collection change after the snapshot, merged; nil when the log no longer
    /// holds them all or they are too many to be worth reading.
    private func changesSinceSnapshot() throws -> LibraryChange? {
        guard snapshot.token >= (try LibraryDatabase.prunedThrough(db)) else { return nil }
        let entries = try LibraryDatabase.entries(after: snapshot.token, limit: Self.maximumEntries + 1, db)
        guard entries.count <= Self.maximumEntries else { return nil }
        var merged = LibraryChange(token: 0, timestamp: 0)
        for entry in entries {
            merged.asset.inserted += entry.asset.inserted
            merged.asset.updated += entry.asset.updated
            merged.asset.deleted += entry.asset.deleted
            merged.asset.changedProperties.merge(entry.asset.changedProperties) { $0 + $1 }
            merged.assetCollection.updated += entry.assetCollection.updated + entry.assetCollection.deleted
        }
        return merged
    }

    /// Whether rows outside the touched ones keep their membership and order: not when an
    /// album's membership may have changed, a limit cuts the result, membership depends on
    /// the clock, or the rows are trashed assets.
    private func splices(_ changes: LibraryChange) -> Bool {
        guard query.limit == 0 else { return false }
        // Albums bounding the query may have gained or lost members.
        if query.albums != nil, !changes.assetCollection.updated.isEmpty { return false }
        switch query.scope {
        case .collection: return changes.assetCollection.updated.isEmpty
        // Recently Deleted's rows are not the asset table's, which splicing probes.
        case .smartAlbum(let subtype):
            return subtype != .smartAlbumRecentlyAdded && subtype != .smartAlbumRecentlyDeleted
        case .library, .localIdentifiers, .burst: return true
        // A transient collection's few assets: fetched again rather than spliced by list position.
        case .listed: return false
        }
    }

    /// The row ids of the touched assets: live ones from the asset table, deleted ones from their
    /// tombstones.
    private func rowIDs(_ changes: ObjectChanges) throws -> (all: Set<Int64>, updated: Set<Int64>) {
        let identifiers = Set(changes.inserted + changes.updated + changes.deleted)
        guard !identifiers.isEmpty else { return ([], []) }
        var rows = try LibraryDatabase.ids(table: "asset", localIdentifiers: Array(identifiers), db)
        let gone = identifiers.filter { rows[$0] == nil }
        if !gone.isEmpty {
            let deleted = try db.rows(
                """
                SELECT localIdentifier, rowId FROM tombstone
                WHERE isAsset = 1 AND localIdentifier IN (\(db.dialect.elementsOfJSONArray()))
                """, [.text(JSONText.array(Array(gone)))]
            ) { (try $0.text(0), try $0.int64(1)) }
            for (identifier, id) in deleted { rows[identifier] = id }
        }
        return (Set(rows.values), Set(changes.updated.compactMap { rows[$0] }))
    }

    // MARK: Fetching again

    private func refetch(_ changes: LibraryChange?) throws -> SnapshotUpdate {
        let (sql, arguments) = query.sql(dialect: db.dialect)
        let ids = try LibraryDatabase.fetchIDs(db, sql: sql, arguments: arguments)
        // Without the log, every row counts as changed.
        let changed = try changes.map { try rowIDs($0.asset).updated } ?? Set(ids)
        if ids == snapshot.ids && !ids.contains(where: changed.contains) { return .unchanged }
        return .refetched(ids: ids, changed: changed)
    }

    // MARK: Splicing

    private func splice(touched: Set<Int64>, updated: Set<Int64>) throws -> SnapshotUpdate {
        var keys = try SortKeyReader(db: db, query: query)
        // The touched rows the query selects now, in its order.
        var arriving: [(id: Int64, key: [SQLValue])] = []
        for id in touched {
            if let key = try keys.key(of: id) { arriving.append((id, key)) }
        }
        arriving.sort { keys.orders($0.key, before: $1.key) }

        // The untouched rows keep their order; the touched ones leave.
        var remaining: [Int64] = []
        remaining.reserveCapacity(snapshot.ids.count + arriving.count)
        var before: [(element: Int64, index: Int)] = []
        let filter = RowFilter(touched)
        for (index, id) in snapshot.ids.enumerated() {
            if filter.contains(id) { before.append((id, index)) } else { remaining.append(id) }
        }
        guard !before.isEmpty || !arriving.isEmpty else { return .unchanged }

        // Where each arriving row goes among the remaining ones.
        var places = [Int](repeating: 0, count: arriving.count)
        try keys.place(
            arriving.map(\.key), in: remaining, lower: 0, upper: remaining.count, into: &places,
            range: 0..<arriving.count)
        var ids: [Int64] = []
        ids.reserveCapacity(remaining.count + arriving.count)
        var after: [(element: Int64, index: Int)] = []
        var copied = 0
        for (offset, row) in arriving.enumerated() {
            ids.append(contentsOf: remaining[copied..<places[offset]])
            copied = places[offset]
            after.append((row.id, ids.count))
            ids.append(row.id)
        }
        ids.append(contentsOf: remaining[copied...])
        return .spliced(ids: ids, before: before, after: after, changed: updated)
    }
}

/// Reads rows' sort keys (the query's ORDER BY values) and compares them as SQLite orders them.
struct SortKeyReader {
    let order: [AssetQuery.OrderTerm]
    private let db: any StoreConnection
    /// The key of a row if the query selects it.
    private let memberSQL: String
    private let memberArguments: [SQLValue]
    /// The key of a row known to be selected (an untouched row of the snapshot): no conditions
    /// to evaluate, save the album's, whose position is the key.
    private let probeSQL: String
    /// The album whose members are probed, bound before the row id.
    private let probeCollection: Int64?
    /// The probe prepared on SQLite's connection, stepped through SQLite's C API.
    private let sqliteProbe: Statement?
    private var cache: [Int64: [SQLValue]] = [:]

    init(db: any StoreConnection, query: AssetQuery) throws {
        self.db = db
        let clauses = query.clauses(db.dialect)
        order = clauses.order
        let select = "SELECT " + clauses.order.map(\.expression).joined(separator: ", ") + " FROM " + clauses.from
        memberSQL = select + " WHERE " + (clauses.conditions + ["asset.id = ?"]).joined(separator: " AND ")
        memberArguments = clauses.arguments
        if case .collection(let id) = query.scope {
            probeSQL = select + " WHERE collection_asset.collectionId = ? AND asset.id = ?"
            probeCollection = id
        } else {
            probeSQL = select + " WHERE asset.id = ?"
            probeCollection = nil
        }
        sqliteProbe = try (db as? Database)?.cachedStatement(sql: probeSQL)
    }

    /// The row's sort key, or nil when the query does not select the row.
    func key(of id: Int64) throws -> [SQLValue]? {
        try db.firstRow(memberSQL, memberArguments + [.int(id)]) { $0.values }
    }

    /// The sort key of a row the query is known to select.
    ///
    /// A binary search reads about k·log(n/k) of these, so on SQLite this path steps the prepared
    /// statement with SQLite's C API: a quarter of the cost of a GRDB fetch (photos-bench).
    mutating func knownKey(of id: Int64) throws -> [SQLValue] {
        if let cached = cache[id] { return cached }
        let key: [SQLValue]?
        if let sqliteProbe {
            key = try Self.step(sqliteProbe, collection: probeCollection, id: id, columns: order.count)
        } else {
            key = try db.firstRow(probeSQL, (probeCollection.map { [.int($0)] } ?? []) + [.int(id)]) { $0.values }
        }
        guard let key else { preconditionFailure("row \(id) of the snapshot left the result untouched") }
        cache[id] = key
        return key
    }

    private static func step(_ probe: Statement, collection: Int64?, id: Int64, columns: Int) throws -> [SQLValue]? {
        let handle = probe.sqliteStatement
        sqlite3_reset(handle)
        var index: Int32 = 1
        if let collection {
            sqlite3_bind_int64(handle, index, collection)
            index += 1
        }
        sqlite3_bind_int64(handle, index, id)
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
            if code == SQLITE_DONE { return nil }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading the sort key of row \(id)")
        }
        return (0..<Int32(columns)).map { SQLValue(handle, $0) }
    }

    /// Whether a row with key `a` comes before one with key `b`.
    func orders(_ a: [SQLValue], before b: [SQLValue]) -> Bool {
        for (term, (x, y)) in zip(order, zip(a, b)) {
            let comparison = Self.compare(x, y)
            if comparison != 0 { return term.ascending ? comparison < 0 : comparison > 0 }
        }
        return false
    }

    /// Finds, for sorted keys `keys[range]`, their insertion places in `rows[lower..<upper]`:
    /// the median by binary search, then each half within its side, so that k keys cost about
    /// k·log(n/k) key reads rather than k·log(n).
    mutating func place(
        _ keys: [[SQLValue]], in rows: [Int64], lower: Int, upper: Int, into places: inout [Int], range: Range<Int>
    ) throws {
        guard !range.isEmpty else { return }
        let middle = (range.lowerBound + range.upperBound) / 2
        var low = lower
        var high = upper
        while low < high {
            let probe = (low + high) / 2
            let key = try knownKey(of: rows[probe])
            if orders(key, before: keys[middle]) { low = probe + 1 } else { high = probe }
        }
        places[middle] = low
        try place(keys, in: rows, lower: lower, upper: low, into: &places, range: range.lowerBound..<middle)
        try place(keys, in: rows, lower: low, upper: upper, into: &places, range: (middle + 1)..<range.upperBound)
    }

    /// SQLite's order of two values under the BINARY collation: NULL, then numbers, then text
    /// (by bytes), then blobs.
    static func compare(_ a: SQLValue, _ b: SQLValue) -> Int {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .null: 0
            case .int, .double: 1
            case .text: 2
            case .blob: 3
            }
        }
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.int(let x), .double(let y)): return Double(x) < y ? -1 : Double(x) > y ? 1 : 0
        case (.double(let x), .int(let y)): return x < Double(y) ? -1 : x > Double(y) ? 1 : 0
        case (.double(let x), .double(let y)): return x < y ? -1 : x > y ? 1 : 0
        case (.text(let x), .text(let y)):
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : y.utf8.lexicographicallyPrecedes(x.utf8) ? 1 : 0
        case (.blob(let x), .blob(let y)):
            return x.lexicographicallyPrecedes(y) ? -1 : y.lexicographicallyPrecedes(x) ? 1 : 0
        default: return 0
        }
    }
}

/// Membership in a small set of row ids, tested for every row of a snapshot: a bitmap of the
/// ids' low bits answers most rows with one load, and the set the rest.
struct RowFilter {
    private var bits = [UInt64](repeating: 0, count: 256)
    private let rows: Set<Int64>

    init(_ rows: Set<Int64>) {
        self.rows = rows
        for row in rows { bits[Int(row & 0x3FFF) >> 6] |= 1 << UInt64(row & 63) }
    }

    @inline(__always)
    func contains(_ row: Int64) -> Bool {
        bits[Int(row & 0x3FFF) >> 6] & (1 << UInt64(row & 63)) != 0 && rows.contains(row)
    }
}
