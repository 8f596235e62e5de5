import Foundation
import GRDB
import PhotosCore

/// Where one exec hook stands, kept in the library so that it survives restarts: the last change
/// it was given and acknowledged (exit 0), its failures, and whether it is parked.
///
/// The daemon runs hooks; `photos hooks` reads and moves these rows. A row changed by another
/// process is noticed through its ``HookState/generation``.
public struct HookState: Sendable, Hashable, Codable {
    /// The hook's name in the config file.
    public var name: String
    /// The token of the last change-log entry the hook acknowledged: it is given what comes after.
    public var cursor: Int64
    /// Whether the hook is in the daemon's config now; only enabled hooks hold history back.
    public var enabled: Bool
    /// Failed runs in a row.
    public var failures: Int
    /// Set when the hook was parked after too many failures; cleared by `photos hooks resume`.
    public var parkedAt: Double?
    /// Why the hook was parked: its last exit status and the tail of its stderr.
    public var parkedReason: String?
    /// When the last run started, seconds since 1970.
    public var lastRunAt: Double?
    /// How the last run ended (`exit 0`, `exit 3`, `signal 9`, `timed out`, `cannot start: ...`).
    public var lastOutcome: String?
    /// How long the last run took, in seconds.
    public var lastDuration: Double?
    /// The tail of the last failed run's stderr.
    public var lastError: String?
    /// Runs that exited 0, and the objects they were given, since the hook was first seen.
    public var runs: Int
    /// Objects delivered by successful runs.
    public var delivered: Int
    /// Bumped whenever something outside the runner moves the row (resume, replay), so a running
    /// daemon starts the hook again from the new cursor.
    public var generation: Int

    /// A hook seen for the first time, starting after `cursor`.
    public init(name: String, cursor: Int64) {
        self.name = name
        self.cursor = cursor
        enabled = true
        failures = 0
        runs = 0
        delivered = 0
        generation = 0
    }

    /// Whether the hook waits for `photos hooks resume`.
    public var isParked: Bool { parkedAt != nil }
}

/// A hook's row, read and written through the engine-neutral ``StoreConnection``.
extension HookState {
    /// The columns of a hook's row, in the order ``init(row:)`` reads them and ``values`` gives them.
    static let columnNames = [
        "name", "cursor", "enabled", "failures", "parkedAt", "parkedReason", "lastRunAt", "lastOutcome",
        "lastDuration", "lastError", "runs", "delivered", "generation",
    ]

    /// ``columnNames`` as a result list.
    static let columns = SQLText.list(columnNames)

    /// A hook's state from a row that selected ``columns``.
    init(row: StoreRow) throws {
        name = try row.text(0)
        cursor = try row.int64(1)
        enabled = try row.bool(2)
        failures = Int(try row.int64(3))
        parkedAt = row.optionalDouble(4)
        parkedReason = row.optionalText(5)
        lastRunAt = row.optionalDouble(6)
        lastOutcome = row.optionalText(7)
        lastDuration = row.optionalDouble(8)
        lastError = row.optionalText(9)
        runs = Int(try row.int64(10))
        delivered = Int(try row.int64(11))
        generation = Int(try row.int64(12))
    }

    /// The row's values, in the order of ``columns``.
    var values: [SQLValue] {
        [
            .text(name), .int(cursor), .int(enabled ? 1 : 0), .int(Int64(failures)),
            parkedAt.map(SQLValue.double) ?? .null,
            parkedReason.map(SQLValue.text) ?? .null, lastRunAt.map(SQLValue.double) ?? .null,
            lastOutcome.map(SQLValue.text) ?? .null, lastDuration.map(SQLValue.double) ?? .null,
            lastError.map(SQLValue.text) ?? .null, .int(Int64(runs)), .int(Int64(delivered)), .int(Int64(generation)),
        ]
    }

    /// The hook named `name`, or nil when the library has no row for it.
    static func named(_ name: String, in connection: some StoreConnection) throws -> HookState? {
        try connection.firstRow("SELECT \(columns) FROM hook WHERE name = ?", [.text(name)], HookState.init(row:))
    }

    /// Adds the row of a hook the library has none for.
    func insert(in connection: some StoreConnection) throws {
        try connection.execute(SQLText.insert(into: "hook", Self.columnNames), values)
    }

    /// Writes the new values of a hook's row.
    func update(in connection: some StoreConnection) throws {
        try connection.execute(
            "UPDATE hook SET \(SQLText.assignments(Self.columnNames.dropFirst())) WHERE name = ?",
            Array(values.dropFirst()) + [.text(name)])
    }
}

/// How a hook's run ended, as the runner records it.
public struct HookRunRecord: Sendable, Hashable {
    /// When the run started, seconds since 1970.
    public var startedAt: Double
    /// How long it took, in seconds.
    public var duration: Double
    /// `exit 0`, `exit 3`, `signal 9`, `timed out after 60 s`, `cannot start: ...`.
    public var outcome: String
    /// The tail of its stderr, for failures (a webhook's: the start of the answer's body).
    public var errorTail: String?
    /// What the parked reason calls ``errorTail``: `stderr`, or `body` for a webhook.
    public var tailName: String

    /// A run record.
    public init(
        startedAt: Double, duration: Double, outcome: String, errorTail: String? = nil, tailName: String = "stderr"
    ) {
        self.startedAt = startedAt
        self.duration = duration
        self.outcome = outcome
        self.errorTail = errorTail
        self.tailName = tailName
    }
}

extension LibraryDatabase {
    /// The table of hook cursors, and the bound on history kept for hooks that lag behind.
    static func registerHookMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11: hook cursors") { db in
            try db.execute(
                sql: """
                    CREATE TABLE hook (
                        name TEXT PRIMARY KEY,
                        cursor INTEGER NOT NULL,
                        enabled INTEGER NOT NULL DEFAULT 1,
                        failures INTEGER NOT NULL DEFAULT 0,
                        parkedAt REAL,
                        parkedReason TEXT,
                        lastRunAt REAL,
                        lastOutcome TEXT,
                        lastDuration REAL,
                        lastError TEXT,
                        runs INTEGER NOT NULL DEFAULT 0,
                        delivered INTEGER NOT NULL DEFAULT 0,
                        generation INTEGER NOT NULL DEFAULT 0
                    ) WITHOUT ROWID;
                    -- Entries an enabled hook has not acknowledged are kept past the library's own
                    -- history limit, up to this many (every process prunes, so the bound lives here).
                    ALTER TABLE library ADD COLUMN hookHistoryLimit INTEGER NOT NULL DEFAULT 1000000;
                    """)
        }
    }

    // MARK: Reading

    /// Every hook the library has a cursor for, by name.
    public func hookStates() throws -> [HookState] {
        try read { db in try db.rows("SELECT \(HookState.columns) FROM hook ORDER BY name", [], HookState.init(row:)) }
    }

    /// One hook's state, or nil if the library has never seen it.
    public func hookState(named name: String) throws -> HookState? {
        try read { db in try HookState.named(name, in: db) }
    }

    // MARK: The daemon's writes

    /// Makes the library's hook rows match the config: new hooks start after the newest entry (a hook
    /// added today is not flooded with last year's changes; `photos hooks replay` goes back), hooks
    /// no longer configured stop holding history. Returns the states of `names`, in that order.
    @discardableResult
    public func enrollHooks(_ names: [String], historyLimit: Int) throws -> [HookState] {
        try bookkeeping { db in
            let newest = try Self.newestToken(db)
            try db.execute("UPDATE hook SET enabled = 0", [])
            for name in names {
                if var state = try HookState.named(name, in: db) {
                    state.enabled = true
                    try state.update(in: db)
                } else {
                    try HookState(name: name, cursor: newest).insert(in: db)
                }
            }
            try db.execute(
                "UPDATE library SET hookHistoryLimit = ? WHERE id = 1", [.int(Int64(max(0, historyLimit)))])
            return try names.map { try HookState.named($0, in: db)! }
        }
    }

    /// Records a run that exited 0: the cursor moves to `token` unless the row was moved meanwhile
    /// (its generation changed; then the replay or resume wins and this batch is given again).
    /// Returns false when the row had moved.
    @discardableResult
    public func acknowledgeHook(
        _ name: String, through token: Int64, generation: Int, objects: Int, run: HookRunRecord?
    ) throws -> Bool {
        try bookkeeping { db in
            guard var state = try HookState.named(name, in: db), state.generation == generation else {
                return false
            }
            state.cursor = max(state.cursor, token)
            state.failures = 0
            if let run {
                state.runs += 1
                state.delivered += objects
                state.lastRunAt = run.startedAt
                state.lastDuration = run.duration
                state.lastOutcome = run.outcome
            }
            try state.update(in: db)
            return true
        }
    }

    /// Records a failed run; parks the hook when it has failed `maxFailures` times in a row.
    /// Returns the new state (nil if the row had moved meanwhile).
    @discardableResult
    public func recordHookFailure(_ name: String, generation: Int, run: HookRunRecord, maxFailures: Int) throws
        -> HookState?
    {
        try bookkeeping { db in
            guard var state = try HookState.named(name, in: db), state.generation == generation else {
                return nil
            }
            state.failures += 1
            state.lastRunAt = run.startedAt
            state.lastDuration = run.duration
            state.lastOutcome = run.outcome
            state.lastError = run.errorTail
            if state.failures >= max(1, maxFailures) {
                state.parkedAt = Date().timeIntervalSince1970
                var reason = "\(run.outcome) after \(state.failures) failed runs in a row"
                if let tail = run.errorTail, !tail.isEmpty { reason += "; \(run.tailName): \(tail)" }
                state.parkedReason = reason
            }
            try state.update(in: db)
            return state
        }
    }

    // MARK: `photos hooks`

    /// Unparks a hook: its failures are forgotten and the daemon runs it again from its cursor.
    /// Throws `StoreError.Code.notFound` for a hook the library has never seen.
    @discardableResult
    public func resumeHook(_ name: String) throws -> HookState {
        try bookkeeping { db in
            guard var state = try HookState.named(name, in: db) else { throw Self.unknownHook(name) }
            state.parkedAt = nil
            state.parkedReason = nil
            state.failures = 0
            state.generation += 1
            try state.update(in: db)
            return state
        }
    }

    /// Moves a hook's cursor to `token` (back, to be given changes again; or forward, to skip),
    /// and unparks it. A token older than the kept history gives the hook an `expired` run.
    @discardableResult
    public func moveHookCursor(_ name: String, to token: Int64) throws -> HookState {
        try bookkeeping { db in
            guard var state = try HookState.named(name, in: db) else { throw Self.unknownHook(name) }
            state.cursor = max(0, min(token, try Self.newestToken(db)))
            state.parkedAt = nil
            state.parkedReason = nil
            state.failures = 0
            state.generation += 1
            try state.update(in: db)
            return state
        }
    }

    // MARK: History held for hooks

    /// The oldest entry pruning must keep for hooks, given the cutoff it would use otherwise: the
    /// lowest cursor of an enabled hook, but never more than the library's hook history limit behind
    /// the newest entry (a hook that stopped for months does not grow the library without bound;
    /// it gets an `expired` run instead).
    static func cutoffHeldByHooks(_ db: some StoreConnection, cutoff: Int64, newest: Int64) throws -> Int64 {
        guard let lowest = try db.scalarInt64("SELECT MIN(cursor) FROM hook WHERE enabled = 1") else { return cutoff }
        let limit = try db.scalarInt64("SELECT hookHistoryLimit FROM library WHERE id = 1") ?? 0
        return min(cutoff, max(lowest, newest - limit))
    }

    private static func unknownHook(_ name: String) -> StoreError {
        StoreError(.notFound, "no hook named \(name) has run in this library (is it in the daemon's config?)")
    }
}

// MARK: What a hook's filter asks of the store

extension LibraryDatabase {
    /// The albums a hook's `albums` names: each a directory-backed album's directory or an album's
    /// local identifier. Returns their row ids and directories, and the entries that name no album.
    public func resolveAlbums(_ entries: [String]) throws -> (ids: [Int64], directories: [String], missing: [String]) {
        try read { db in
            var ids: [Int64] = []
            var directories: [String] = []
            var missing: [String] = []
            for entry in entries {
                let row = try db.firstRow(
                    """
                    SELECT id, path FROM collection
                    WHERE isList = 0 AND (localIdentifier = ? OR (path = ? AND \(db.dialect.isThisHost("host"))))
                    """,
                    [.text(entry), .text(Self.trimmingSlash(entry))]
                ) { (try $0.int64(0), $0.optionalText(1)) }
                guard let row else {
                    missing.append(entry)
                    continue
                }
                ids.append(row.0)
                if let path = row.1 { directories.append(path) }
            }
            return (ids, directories, missing)
        }
    }

    /// Of these live assets, the ones that match `predicate` (nil: all) and belong to one of
    /// `albums` (nil: any album or none). Hidden assets and burst members count like any other.
    public func assetIdentifiers(
        among identifiers: [String], matching predicate: SQLFragment?, inAlbums albums: [Int64]?
    )
        throws -> Set<String>
    {
        guard !identifiers.isEmpty else { return [] }
        return try read { db in
            var sql =
                "SELECT asset.localIdentifier FROM asset WHERE asset.localIdentifier IN (\(db.dialect.elementsOfJSONArray()))"
            var arguments: [SQLValue] = [.text(JSONText.array(identifiers))]
            if let predicate {
                sql += " AND (\(predicate.sql))"
                arguments += predicate.arguments
            }
            if let albums {
                sql += """
                     AND EXISTS (SELECT 1 FROM collection_asset WHERE collection_asset.assetId = asset.id
                    AND \(db.dialect.isInWholeNumberList("collection_asset.collectionId")))
                    """
                arguments.append(.text(JSONText.array(albums)))
            }
            return Set(try db.rows(sql, arguments) { try $0.text(0) })
        }
    }

    /// Of these deleted assets, the ones whose last state (their tombstone) matches `predicate`
    /// (nil: all) and whose files lay in one of `directories` (nil: anywhere). A deleted asset's
    /// user-album memberships are gone with it: only directory-backed albums can be told.
    public func deletedAssetIdentifiers(
        among identifiers: [String], matching predicate: SQLFragment?, inDirectories directories: [String]?
    ) throws -> Set<String> {
        guard !identifiers.isEmpty else { return [] }
        return try read { db in
            // The tombstones' records, as rows of a table named `asset`, so the compiled predicate
            // reads them as it reads live assets.
            let projection = AssetRecord.columns(AssetRecord.columnNames, fromJSON: "record", db.dialect)
            // Their files, as rows of a table named `resource`, for `filename` and `isLibraryOwned`.
            var sql = """
                WITH asset AS (SELECT \(projection) FROM tombstone
                WHERE isAsset = 1 AND localIdentifier IN (\(db.dialect.elementsOfJSONArray()))),
                \(DeletedObject.KeptResource.rowsCTE(db.dialect))
                SELECT asset.localIdentifier FROM asset
                """
            var arguments: [SQLValue] = [.text(JSONText.array(identifiers)), .text(JSONText.array(identifiers))]
            if let predicate {
                sql += " WHERE (\(predicate.sql))"
                arguments += predicate.arguments
            }
            var matched = Set(try db.rows(sql, arguments) { try $0.text(0) })
            if let directories {
                let wanted = Set(directories.map(Self.trimmingSlash))
                let deleted = try Self.deletedObjects(localIdentifiers: Array(matched), db)
                matched = matched.filter { identifier in
                    deleted[identifier]?.resources.contains { resource in
                        wanted.contains(PathName.directory(of: resource.path))
                    } ?? false
                }
            }
            return matched
        }
    }

    private static func trimmingSlash(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

extension LibraryDatabase {
    /// How many change-log entries come after `token` (a hook's lag).
    public func changeCount(after token: Int64) throws -> Int {
        try read { db in
            Int(try db.scalarInt64("SELECT COUNT(*) FROM change WHERE token > ?", [.int(token)]) ?? 0)
        }
    }
}
