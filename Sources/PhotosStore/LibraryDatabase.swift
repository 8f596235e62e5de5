import CPhotosSQLite
import Foundation
import GRDB
import PhotosCore
import Synchronization

/// The store of one photo library: assets, resources, collections and the change log.
///
/// A library is one SQLite file in WAL mode, so several processes (the daemon, the CLI, apps) can
/// read while one writes; or, opened within the package (``init(postgreSQL:historyLimit:)``), a
/// PostgreSQL database that several hosts share. Either engine is reached only through ``read(_:)``,
/// ``write(_:)`` and the bookkeeping writes, with the engine-neutral ``StoreConnection``. Every
/// write goes through ``write(_:)``, which appends one change-log entry in the same transaction
/// (docs/architecture.md, "Invariants").
///
/// ```swift
/// let database = try LibraryDatabase(path: "/tmp/library.sqlite")
/// let ids = try database.assetIDs(matching: AssetQuery())
/// ```
public final class LibraryDatabase: Sendable {
    /// The library file, or nil for an in-memory library or one kept in PostgreSQL.
    public let path: String?
    /// Where the library is, as messages and logs name it: its file, its PostgreSQL URL without the
    /// password, or "memory".
    public let location: String
    /// Whether opening made the library (a new file, or a PostgreSQL schema that held none): a new
    /// library takes back what the roots keep of the one before it.
    public let isNew: Bool
    /// The host this process writes as, in a library several hosts share (one kept in PostgreSQL):
    /// `$PHOTOS_HOST`, else the machine's host name. Its roots are named by it and their paths
    /// (``RootHosts``): another host's root at the same path is another root. Nil for a library
    /// file, which one machine holds.
    public let host: String?
    /// The engine the library is kept in, chosen when it was opened.
    let engine: Engine
    /// The engines a library is kept in.
    enum Engine: Sendable {
        /// A SQLite file (or memory), through GRDB.
        case sqlite(any DatabaseWriter)
        /// A PostgreSQL database or schema.
        case postgreSQL(PostgreSQLLibrary)
    }

    /// The SQL the library's engine speaks, for SQL made outside a transaction (a predicate compiled
    /// for it).
    package var dialect: SQLDialect {
        switch engine {
        case .sqlite: .sqlite
        case .postgreSQL: .postgreSQL
        }
    }

    /// SQLite's writer, for what only a library file has (its migrations, its checkpoints, its
    /// copy); a library kept in PostgreSQL has none, and asking for it is a programming error.
    package var writer: any DatabaseWriter {
        guard case .sqlite(let writer) = engine else {
            preconditionFailure("a library kept in PostgreSQL has no SQLite writer")
        }
        return writer
    }
    /// Checkpoints the library file's log off the commit path (nil in memory).
    let checkpointer: WALCheckpointer?
    /// The API's one-row reads (a request's access token, the newest change token), on a
    /// connection of their own (a file's library only).
    let lookups: SQLiteLookups?
    /// The connections every read transaction runs on (a file's library only; one in memory reads
    /// through its queue).
    let readConnections: ReadConnections?
    /// How many change-log entries are kept (older ones are pruned as new ones come); tokens
    /// older than what is kept expire (`persistentChangeTokenExpired`).
    public static let defaultHistoryLimit = 100_000

    /// SQLite set up for this process before its first connection opens: without its count of the
    /// memory it holds, which took a process-wide mutex at each of its allocations (about 5% of a
    /// first scan's committing thread). SQLITE_MISUSE, and nothing changed, where a connection was
    /// opened before.
    private static let sqliteSetUp = cphotos_sqlite_stop_counting_memory()
    /// How many change-log entries this library keeps.
    public let historyLimit: Int
    private let newestCommit = Mutex<(token: Int64, date: Date)?>(nil)
    /// This process's change feeds on this database, woken by its commits at once (other processes'
    /// commits reach them through the shared commit signal).
    let localCommits = LocalCommits()
    /// This process's followers of the library file's commits, by any process, and the one
    /// ``CommitSignal`` they share (``followCommits(_:)``).
    let commitFollowers = CommitFollowers()

    /// The token of this process's newest commit and when its COMMIT returned: where a
    /// commit-to-observer latency starts (photos-bench).
    public var lastCommit: (token: Int64, date: Date)? { newestCommit.withLock { $0 } }

    /// How long a write waits for another connection's write lock before failing with
    /// `StoreError.Code.busy` (10 seconds unless told otherwise).
    public static let defaultBusyTimeout: TimeInterval = 10

    /// Opens (creating if needed) the library at `path` and brings its schema up to date.
    ///
    /// A new library's directory is created 0700 and its file 0600 (SQLite gives the `-wal` and
    /// `-shm` files the library file's mode), whatever the umask. Creating and migrating hold a
    /// lock on the directory, so processes opening a new library at once do not race. Throws a
    /// ``StoreError``: `.corrupt` for a damaged file, `.newerSchema` for a library made by a newer
    /// build (which is refused, not opened), `.permissionDenied`, `.unreachable`, `.full`...
    public init(
        path: String, historyLimit: Int = LibraryDatabase.defaultHistoryLimit,
        busyTimeout: TimeInterval = LibraryDatabase.defaultBusyTimeout
    ) throws {
        // Never a file named after a URL (a directory "postgresql:" where the program runs).
        guard !Self.isPostgreSQL(path) else {
            throw StoreError(.notFound, "\(Self.shown(path)) is a PostgreSQL library, not a file: open it by location")
        }
        _ = Self.sqliteSetUp
        self.path = path
        location = path
        host = nil
        self.historyLimit = max(1, historyLimit)
        let checkpointer = WALCheckpointer(path: path)
        self.checkpointer = checkpointer
        lookups = SQLiteLookups(path: path, busyTimeout: busyTimeout)
        readConnections = ReadConnections(path: path, configuration: Self.configuration(busyTimeout: busyTimeout))
        let directory = (path as NSString).deletingLastPathComponent
        do {
            if !directory.isEmpty { try PrivateFiles.makeDirectory(directory) }
            (engine, isNew) = try PrivateFiles.withLock(onDirectory: directory) {
                // A file already in WAL mode is not written by opening the pool (`migrate` checks the
                // schema before any write); any other is checked through a connection of its own
                // first, since switching it to WAL mode would write to it.
                let created = try PrivateFiles.createFile(path)
                if !created, !Self.isInWALMode(path) {
                    try Self.checkSchema(ofExistingFile: path, busyTimeout: busyTimeout)
                }
                let pool = try DatabasePool(path: path, configuration: Self.configuration(busyTimeout: busyTimeout))
                try Self.migrate(pool, path: path)
                try pool.writeWithoutTransaction { checkpointer.attach(to: $0) }
                return (.sqlite(pool), created)
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Opens the library at `location`: a library file's path, or a `postgresql://` URL
    /// (``PostgreSQLAddress``). Where there is no library there, one is made, unless `creating` is
    /// false: then `StoreError` `.notFound` is thrown.
    ///
    /// ```swift
    /// let shared = try LibraryDatabase(location: "postgresql://photos@nas/photos", creating: false)
    /// ```
    public convenience init(
        location: String, creating: Bool = true, historyLimit: Int = LibraryDatabase.defaultHistoryLimit,
        busyTimeout: TimeInterval = LibraryDatabase.defaultBusyTimeout
    ) throws {
        if Self.isPostgreSQL(location) {
            try self.init(postgreSQL: location, creating: creating, historyLimit: historyLimit)
        } else {
            guard creating || FileManager.default.fileExists(atPath: location) else {
                throw StoreError(.notFound, "no library at \(location)", path: location, errno: ENOENT)
            }
            try self.init(path: location, historyLimit: historyLimit, busyTimeout: busyTimeout)
        }
    }

    /// Opens an existing library at `location` (a file or a `postgresql://` URL) without creating
    /// it; throws `StoreError` `.notFound` if there is no library there.
    public convenience init(existingAt location: String) throws {
        try self.init(location: location, creating: false)
    }

    /// Opens a private in-memory library, for tests and transient work.
    public init(historyLimit: Int = LibraryDatabase.defaultHistoryLimit) throws {
        _ = Self.sqliteSetUp
        path = nil
        location = "memory"
        isNew = true
        host = nil
        self.historyLimit = max(1, historyLimit)
        checkpointer = nil
        lookups = nil
        readConnections = nil
        let queue = try DatabaseQueue(configuration: Self.configuration(busyTimeout: Self.defaultBusyTimeout))
        try Self.migrate(queue, path: nil)
        engine = .sqlite(queue)
    }

    /// Opens the library kept in PostgreSQL at `location`, a `postgresql://` URL
    /// (``PostgreSQLAddress``: `?schema=` for a schema of its own), making it if its schema holds
    /// none and `creating`. Throws a ``StoreError``: `.notFound` for no library and not `creating`,
    /// `.unreachable` for a server that is not there, `.newerSchema` for a library made by a newer
    /// build...
    ///
    /// The store reads and writes such a library as it does a file, held to the same behaviour by
    /// the contract tests; several hosts may open one at once, each as its ``host``.
    package init(
        postgreSQL location: String, creating: Bool = true, historyLimit: Int = LibraryDatabase.defaultHistoryLimit,
        host: String = LibraryDatabase.thisHost()
    ) throws {
        path = nil
        var address = try PostgreSQLAddress(location)
        // The server names each connection after the program, its host and the library: how other
        // hosts know whether this host's photosd is connected to it (``unavailablePaths()``).
        let program = ProcessInfo.processInfo.processName
        address.applicationName = Self.presenceName(program: program, host: host, schema: address.schema)
        address.libraryHost = host
        self.location = address.description
        self.host = host
        self.historyLimit = max(1, historyLimit)
        checkpointer = nil
        lookups = nil
        readConnections = nil
        let (library, made) = try PostgreSQLLibrary.open(address, creating: creating) { schema in
            Self.presenceName(program: program, host: host, schema: schema)
        }
        engine = .postgreSQL(library)
        isNew = made
    }

    /// The name a process's connections to a library kept in PostgreSQL give the server
    /// (`application_name`, at most 63 bytes as the server keeps it): `photosd@nas family` for
    /// photosd on the host `nas` with the library in the schema `family`, `photosd@nas ` with it in
    /// `public`.
    static func presenceName(program: String, host: String, schema: String?) -> String {
        String(decoding: Array("\(program)@\(host) \(schema ?? "")".utf8.prefix(63)), as: UTF8.self)
    }

    /// The schema a library kept in PostgreSQL is in, as the server resolved its address's ("" for
    /// the database's own, `public`), nil for a file.
    var schema: String? {
        guard case .postgreSQL(let library) = engine else { return nil }
        return library.schema
    }

    /// This machine's name in a library several hosts share: `$PHOTOS_HOST`, else its host name.
    public static func thisHost(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let named = environment["PHOTOS_HOST"], !named.isEmpty { return named }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        return String(cString: name)
    }

    deinit {
        // No commit comes after this: the writer is this library's alone.
        checkpointer?.close()
        // The read-only connections before the writer, which then checkpoints the log and removes it.
        lookups?.close()
        readConnections?.close()
        if case .postgreSQL(let library) = engine { library.close() }
    }

    private static func configuration(busyTimeout: TimeInterval) -> Configuration {
        var configuration = Configuration()
        // Another process may hold the write lock for a batch; wait rather than fail.
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            db.add(function: Self.foldFunction)
            db.add(function: Self.likeFunction)
            db.add(function: Self.distanceFunction)
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a committed
            // change survives a crash of any process; a power loss may take back the last few. FULL
            // (SQLite's default) cost an fsync of 10 to 90 ms per commit here (photos-bench).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A statement that fires triggers (smart album counts, album figures) keeps the pages it
            // first touches in a statement journal, to undo itself alone: as a temporary file, that
            // was ten writes per asset inserted, a third of a scan's time. The writer keeps them in
            // memory (a statement's pages); readers, whose large sorts spill to temporary files,
            // keep the default.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        }
        return configuration
    }

    /// `photos_fold(text, flags)`: case and diacritic folding for `[c]`/`[d]` predicate modifiers.
    private static let foldFunction = DatabaseFunction("photos_fold", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return PredicateFunctions.fold(text, flags: Int.fromDatabaseValue(values[1]) ?? 0)
    }

    /// `photos_like(value, pattern, flags)`: NSPredicate's LIKE (`*`, `?`) after folding.
    private static let likeFunction = DatabaseFunction("photos_like", argumentCount: 3, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]),
            let pattern = String.fromDatabaseValue(values[1])
        else { return nil }
        return PredicateFunctions.like(text, pattern: pattern, flags: Int.fromDatabaseValue(values[2]) ?? 0)
    }

    /// `photos_distance(lat, lon, lat, lon)`: kilometres between two points, for `distanceToLocation`.
    private static let distanceFunction = DatabaseFunction(
        PredicateFunctions.distanceFunctionName, argumentCount: 4, pure: true
    ) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return PredicateFunctions.distance(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// Runs `body` in a read transaction: a consistent snapshot of the library, through the
    /// engine-neutral ``StoreConnection``.
    ///
    /// The engine's and the file system's failures are thrown as ``StoreError``. Within the package
    /// only (the store's readers, tests, benchmarks): no engine's type reaches past the store.
    package func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        do {
            switch engine {
            case .sqlite(let writer):
                if let shared = SharedReads.shared.connection(of: self) { return try body(shared) }
                return try readTransaction(writer) { db in try body(db) }
            case .postgreSQL(let library): return try library.read(body)
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Runs `body` with every read of this library that it makes on this thread in one read
    /// transaction: they see one snapshot, and open one transaction instead of one each (a tenth of
    /// an API page's time under load, when each went through GRDB's reader pool; a page fetches and
    /// then reads its rows). For a few reads in a row, as a request makes; a write inside commits as
    /// ever, and the reads after it still see the snapshot from before it. A library kept in
    /// PostgreSQL, or a transaction that cannot be opened, runs `body` as it is (each read then on
    /// its own, failing where its caller handles it).
    ///
    /// ```swift
    /// try database.withinOneRead {
    ///     let result = PHAsset.fetchAssets(with: options)  // the snapshot's read
    ///     try result.writeAssetJSON(in: 0..<50, as: .element, into: &writer)  // the rows' read
    /// }
    /// ```
    public func withinOneRead<T>(_ body: () throws -> T) throws -> T {
        guard case .sqlite(let writer) = engine, SharedReads.shared.connection(of: self) == nil else {
            return try body()
        }
        var outcome: Result<T, any Error>?
        do {
            try readTransaction(writer) { db in outcome = Result { try SharedReads.shared.with(db, of: self, body) } }
        } catch {
            // A transaction that could not be opened (the file gone, locked, damaged): the block's
            // reads then fail one by one as they would alone, each where its caller handles it.
            guard let outcome else { return try body() }
            _ = try outcome.get()
            throw StoreError.wrap(error, path: path)
        }
        return try outcome!.get()
    }

    /// Runs `body` in a read transaction of SQLite's own connection: for what only SQLite has (its
    /// catalogue, its pragmas, its query plans), which tests and benchmarks look at.
    package func sqliteRead<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            if let shared = SharedReads.shared.connection(of: self) { return try body(shared) }
            return try readTransaction(writer, body)
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Runs `body` in a read transaction of SQLite's: on a connection of ``readConnections`` (a
    /// file's library), else of `writer`'s (one in memory). Throws SQLite's errors as they are.
    private func readTransaction<T>(_ writer: any DatabaseWriter, _ body: (Database) throws -> T) throws -> T {
        guard let readConnections else { return try writer.read(body) }
        return try readConnections.read(body)
    }

    /// Runs `body` in one write transaction and appends one change-log entry for what it changed.
    ///
    /// Either everything `body` did commits, with its change-log entry, or nothing does. A body that
    /// changes nothing appends no entry. Returns the body's result and the entry's token, if any.
    /// SQLite's and the file system's failures are thrown as ``StoreError``; the body's own errors
    /// as they are.
    @discardableResult
    public func write<T>(_ body: (LibraryTransaction) throws -> T) throws -> (value: T, token: Int64?) {
        do {
            return try unwrappedWrite(body)
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    private func unwrappedWrite<T>(_ body: (LibraryTransaction) throws -> T) throws -> (value: T, token: Int64?) {
        let (value, entry): (T, LibraryChange?)
        switch engine {
        case .sqlite(let writer):
            (value, entry) = try writer.write { db in
                let rowsChanged = db.totalChangesCount
                return try commit(body, in: db) { db.totalChangesCount != rowsChanged }
            }
        case .postgreSQL(let library):
            (value, entry) = try library.write { db in try commit(body, in: db) { true } }
        }
        let result = (value: value, token: entry?.token)
        if let entry {
            let committed = Date()
            newestCommit.withLock { $0 = (entry.token, committed) }
            localCommits.announce(entry)
        }
        return result
    }

    /// The work of one ``write(_:)`` inside its transaction: the body, the albums' figures it may
    /// have made dirty (`wroteRows`: whether it wrote any row), its change-log entry, and now and
    /// then a pruning of the log, so that it stays bounded.
    private func commit<T>(
        _ body: (LibraryTransaction) throws -> T, in db: any StoreConnection, wroteRows: () -> Bool
    ) throws -> (T, LibraryChange?) {
        let transaction = LibraryTransaction(db: db, host: host)
        let value = try body(transaction)
        // Albums whose dates a removal or a date change may have moved, computed once each.
        if wroteRows() { try CollectionStats.refresh(db) }
        let entry = try transaction.changes.append(to: db)
        if let token = entry?.token, token % Int64(min(1024, historyLimit)) == 0 {
            _ = try Self.prune(db, keeping: historyLimit)
        }
        return (value, entry)
    }

    /// Runs `body` in one write transaction that appends no change-log entry: the store's
    /// bookkeeping (the file journal, hooks' cursors, access tokens, merge bases, imports'
    /// records), which is not library content and which observers are not told of.
    ///
    /// The engine's and the file system's failures are thrown as ``StoreError``, the body's own as
    /// they are.
    func bookkeeping<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        do {
            switch engine {
            case .sqlite(let writer): return try writer.write { db in try body(db) }
            case .postgreSQL(let library): return try library.bookkeeping(body)
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// The token of the newest change-log entry (0 for a library never written to), committed by
    /// any process. Inside ``withinOneRead(_:)``, the newest its snapshot holds.
    public func currentToken() throws -> Int64 {
        guard let lookups, SharedReads.shared.connection(of: self) == nil else {
            return try read { db in try Self.newestToken(db) }
        }
        do {
            return try lookups.newestToken()
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }
}
