import PhotosCore

/// What the store holds of one directory's files, as a scan compares them with the disk.
public struct DirectoryRows: Sendable {
    /// The resources whose files were in the directory (an edit's files are the library's, never
    /// a scan's: they are left out).
    public var stored: [StoredFile]
    /// The rejected files there, by path.
    public var rejected: [String: RejectedFile]

    /// Rows as a scan compares them.
    public init(stored: [StoredFile], rejected: [String: RejectedFile]) {
        self.stored = stored
        self.rejected = rejected
    }
}

/// The reads a scan makes between its transactions, directory by directory, so that it never holds
/// what the store knows of a whole tree: on a read connection, beside the transactions that commit
/// what the scan read. Obtain one with ``LibraryDatabase/scanReader(_:)``.
public struct ScanReader {
    let db: any StoreConnection
    /// The host scanning, in a library several hosts share (``LibraryDatabase/host``).
    var host: String? = nil
    /// The import destinations ``readDirectories(_:)`` read with the directories' rows, which
    /// ``importDestinations()`` gives instead of asking again.
    private var importsRead: [(destination: String, owner: Int64)]?

    init(db: any StoreConnection, host: String? = nil) {
        self.db = db
        self.host = host
    }

    /// ``rows(in:)`` of several directories, their rows in the same order, and what
    /// ``importDestinations()`` will answer in this reader. Where each statement is a round trip to
    /// a server, all of it is one statement, in the read transaction's one snapshot, each row given
    /// to the directory whose ranges hold its path; else ``rows(in:)`` for each directory.
    public mutating func readDirectories(_ directories: [DirectoryRanges]) throws -> [DirectoryRows] {
        guard db.dialect.statementsAreRoundTrips else { return try directories.map(rows(in:)) }
        let values = directories.flatMap(\.values)
        // The ranges as a table the paths' indexes are searched from, one search a range: a
        // condition of a hundred ORs cost more to plan than to run.
        let ranges =
            values.isEmpty
            ? "SELECT NULL, NULL WHERE \(db.dialect.boolean(false))"
            : "VALUES " + values.map { _ in "(?, ?)" }.joined(separator: ", ")
        let mine = FileJournalEntry.ofHost(host)
        // One row shape for the three: what kind of row (0 a stored file, 1 a rejection, 2 an import
        // being placed), then the columns each kind fills, and whether the row is this host's
        // (``RootHosts``). The host is compared in the rows read, not in the condition: on a first
        // scan's new tables, with no statistics yet, the server took a host's rows for few and read
        // all of them for each range, six times slower.
        let rows = try db.rows(
            """
            WITH bounds (lower, upper) AS (\(ranges))
            SELECT 0, r.id, r.assetId, r.type, d.path || r.name, r.device, r.inode, r.fileSize, r.modificationTime,
                r.birthTime, NULL, NULL, NULL, \(db.dialect.isThisHost("d.host"))
            FROM bounds JOIN directory d ON d.path >= bounds.lower AND d.path < bounds.upper
            JOIN resource r ON r.directoryId = d.id
            WHERE r.type NOT IN \(PHAssetResourceType.editTypesSQL)
            UNION ALL
            SELECT 1, NULL, NULL, NULL, path, NULL, NULL, fileSize, modificationTime, NULL, code, reason, rejectedDate,
                \(db.dialect.isThisHost("rejected.host"))
            FROM bounds JOIN rejected ON rejected.path >= bounds.lower AND rejected.path < bounds.upper
            UNION ALL
            SELECT 2, NULL, owner, NULL, destination, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                \(db.dialect.boolean(true))
            FROM fileJournal WHERE operation = ? AND \(mine.condition)
            """,
            values.flatMap { $0 } + [.text(FileJournalEntry.Operation.importFile.rawValue)] + mine.arguments
        ) { $0 }
        var read = directories.map { _ in DirectoryRows(stored: [], rejected: [:]) }
        /// The directory whose ranges hold `path`: the only one, when one is read.
        func directory(of path: String) -> Int? {
            directories.count == 1 ? 0 : directories.firstIndex { $0.contains(path) }
        }
        var imports: [(destination: String, owner: Int64)] = []
        for row in rows where try row.bool(13) {
            switch try row.int64(0) {
            case 0:
                let file = try StoredFile(row: row, from: 1)
                if let index = directory(of: file.path) { read[index].stored.append(file) }
            case 1:
                let path = try row.text(4)
                guard let index = directory(of: path) else { continue }
                read[index].rejected[path] = RejectedFile(
                    path: path, code: try row.text(10), reason: try row.text(11), fileSize: try row.int64(7),
                    modificationTime: row.optionalDouble(8) ?? 0, rejectedDate: row.optionalDouble(12) ?? 0)
            default:
                imports.append((try row.text(4), try row.int64(2)))
            }
        }
        importsRead = imports
        return read
    }

    /// The store's rows for the files in `ranges`: those directly in the directory, and those
    /// under subdirectories the ranges do not step over (gone from disk).
    public func rows(in ranges: DirectoryRanges) throws -> DirectoryRows {
        var stored: [StoredFile] = []
        var rejected: [String: RejectedFile] = [:]
        let rejections =
            "SELECT \(RejectedFile.columns) FROM rejected WHERE path >= ? AND path < ? AND \(db.dialect.isThisHost("host"))"
        for values in ranges.values {
            // Directory paths end with "/": those of the directory and of its subdirectories gone
            // from disk lie in the ranges, as the paths of their files do.
            stored += try LibraryTransaction.storedFiles(
                db, where: "d.path >= ? AND d.path < ? AND \(db.dialect.isThisHost("d.host"))", values)
            for file in try db.rows(rejections, values, RejectedFile.init(row:)) { rejected[file.path] = file }
        }
        return DirectoryRows(stored: stored, rejected: rejected)
    }

    /// Whether a photo or video is directly in the directory of `ranges`: whether it has an album.
    public func holdsMedia(in ranges: DirectoryRanges) throws -> Bool {
        try db.scalarInt64(
            "SELECT 1 FROM \(FileDirectories.join) WHERE \(DirectoryRanges.primaryCondition(db.dialect)) LIMIT 1",
            ranges.primaryArguments) != nil
    }

    /// The files under `root` (under any root of this host's, when nil) on device `device` with
    /// inode `inode`: where a file new at its path may have been before it moved.
    public func files(device: Int64, inode: Int64, under root: String?) throws -> [StoredFile] {
        let (condition, arguments) = Self.under(root, db.dialect)
        return try LibraryTransaction.storedFiles(
            db, where: "r.device = ? AND r.inode = ? AND \(condition)", [.int(device), .int(inode)] + arguments)
    }

    /// The files under `root` (under any root of this host's, when nil) of `size` bytes last
    /// modified at `modificationTime`: where a file new at its path may have been before it was
    /// moved across devices (`mv` keeps both).
    public func files(size: Int64, modificationTime: Double, under root: String?) throws -> [StoredFile] {
        let (condition, arguments) = Self.bySizeAndTime(size, modificationTime, under: root, db.dialect)
        return try LibraryTransaction.storedFiles(db, where: condition, arguments)
    }

    /// The condition of ``files(size:modificationTime:under:)``, on the index of sizes and times.
    static func bySizeAndTime(_ size: Int64, _ modificationTime: Double, under root: String?, _ dialect: SQLDialect)
        -> (String, [SQLValue])
    {
        let (condition, arguments) = under(root, dialect)
        return (
            "r.fileSize = ? AND r.modificationTime = ? AND \(condition)",
            [.int(size), .double(modificationTime)] + arguments
        )
    }

    /// The condition on a file's directory `d` that keeps this host's files under `root`, or all of
    /// them.
    private static func under(_ root: String?, _ dialect: SQLDialect) -> (String, [SQLValue]) {
        guard let root else { return (dialect.isThisHost("d.host"), []) }
        return FileDirectories.under(root, dialect)
    }

    /// This host's roots that are online, but `root`: where else a file new under `root` may have
    /// come from.
    public func onlineRoots(besides root: String) throws -> [String] {
        try db.rows(
            "SELECT path FROM root WHERE isOffline = 0 AND path <> ? AND \(db.dialect.isThisHost("host")) ORDER BY path",
            [.text(root)]
        ) { try $0.text(0) }
    }

    /// The store's rows for the files at `paths` (the daemon's look at the files its events
    /// named), with their rejections, the unreadable directories at or under theirs, and whether
    /// `root` is online: what the scan of those files compares them with, in one read.
    public func filesAt(
        _ paths: Set<String>, directories: Set<String>, root: String
    ) throws -> (stored: [StoredFile], rejected: [String: RejectedFile], unreadable: [String], online: Bool) {
        let rows = LibraryTransaction(db: db)
        var unreadable: [String] = []
        for directory in directories { unreadable += try rows.unreadableDirectories(under: directory) }
        return (
            try rows.storedFiles(atPaths: paths), try rows.rejectedFiles(atPaths: paths), unreadable,
            try rows.isOnlineRoot(root)
        )
    }

    /// The destinations of this host's file journal's `import` entries, with the process placing
    /// each: files an import puts in place and scans itself. Read in the scan's own read transaction,
    /// so that a file listed after its entry committed is known to be an import's.
    public func importDestinations() throws -> [(destination: String, owner: Int64)] {
        if let importsRead { return importsRead }
        let mine = FileJournalEntry.ofHost(host)
        return try db.rows(
            "SELECT destination, owner FROM fileJournal WHERE operation = ? AND \(mine.condition)",
            [.text(FileJournalEntry.Operation.importFile.rawValue)] + mine.arguments
        ) { (try $0.text(0), try $0.int64(1)) }
    }

    /// Whether the store has a file under `root`, at any depth: when it has none, no file found
    /// there can have moved from anywhere the scan looks.
    public func hasFiles(under root: String) throws -> Bool {
        try LibraryTransaction.hasFiles(db, under: root)
    }

    /// Whether the store holds a rejection of a file under `root`, at any depth.
    public func hasRejections(under root: String) throws -> Bool {
        let (condition, arguments) = LibraryTransaction.under(root, column: "path")
        return try db.scalarInt64(
            "SELECT 1 FROM rejected WHERE \(condition) AND \(db.dialect.isThisHost("host")) LIMIT 1", arguments) != nil
    }
}

extension LibraryDatabase {
    /// Runs `body` with a ``ScanReader`` in one read transaction.
    public func scanReader<T>(_ body: (ScanReader) throws -> T) throws -> T {
        try read { db in try body(ScanReader(db: db, host: host)) }
    }
}

extension LibraryTransaction {
    /// The assets whose photo or video is directly in the directory of `ranges`, oldest first: its
    /// album's members, without visiting the rows below its subdirectories.
    public func primaryAssets(in ranges: DirectoryRanges) throws -> [Int64] {
        try db.rows(
            """
            SELECT a.id FROM \(FileDirectories.join) JOIN asset a ON a.id = r.assetId
            WHERE \(DirectoryRanges.primaryCondition(db.dialect)) GROUP BY a.id ORDER BY coalesce(a.creationDate, 0), a.id
            """, ranges.primaryArguments
        ) { try $0.int64(0) }
    }

    /// ``primaryAssets(in:)`` of several directories, by directory (one with none is absent): for
    /// an engine whose statements are round trips, 1,024 directories a statement (a batch's new
    /// albums, mostly in one).
    public func primaryAssets(inDirectories directories: [String]) throws -> [String: [Int64]] {
        var assets: [String: [Int64]] = [:]
        var start = 0
        while start < directories.count {
            let slice = directories[start..<min(start + 1_024, directories.count)]
            assets.merge(try primaryAssets(inFewDirectories: Array(slice)), uniquingKeysWith: { first, _ in first })
            start += slice.count
        }
        return assets
    }

    /// ``primaryAssets(in:)`` of every directory at or under `root`, by directory (one with none
    /// is absent), in one statement: a whole tree's albums, where a statement is a round trip.
    public func primaryAssets(under root: String) throws -> [String: [Int64]] {
        let (condition, arguments) = FileDirectories.under(root, db.dialect)
        // The directory table's paths end with "/"; a directory is named without it.
        return try primaryAssets(where: condition, arguments) { $0 == "/" ? "/" : String($0.dropLast()) }
    }

    /// ``primaryAssets(inDirectories:)`` in one statement.
    private func primaryAssets(inFewDirectories directories: [String]) throws -> [String: [Int64]] {
        guard !directories.isEmpty else { return [:] }
        // The directory table's paths end with "/"; each is given back as the caller named it.
        var named: [String: String] = [:]
        for directory in directories { named[directory.hasSuffix("/") ? directory : directory + "/"] = directory }
        // This host's directories by path, found first: their ids are what the resources' index is searched by.
        let directoriesNamed =
            "SELECT id FROM directory WHERE path IN (\(db.dialect.elementsOfJSONArray())) AND \(db.dialect.isThisHost("host"))"
        return try primaryAssets(
            where: db.dialect.isIn("d.id", query: directoriesNamed), [.text(JSONText.array(Array(named.keys)))]
        ) { named[$0] ?? $0 }
    }

    /// The photos and videos of the directories `condition` (over `d`, the directory, with its
    /// `arguments`) selects, oldest first, by directory as `name` names each directory's path.
    private func primaryAssets(where condition: String, _ arguments: [SQLValue], name: (String) -> String) throws
        -> [String: [Int64]]
    {
        let rows = try db.rows(
            """
            SELECT d.path, a.id FROM \(FileDirectories.join) JOIN asset a ON a.id = r.assetId
            WHERE \(condition) AND r.type IN (?, ?)
            GROUP BY d.path, a.id ORDER BY d.path, coalesce(a.creationDate, 0), a.id
            """,
            arguments + [
                .int(Int64(PHAssetResourceType.photo.rawValue)), .int(Int64(PHAssetResourceType.video.rawValue)),
            ]
        ) { (path: try $0.text(0), id: try $0.int64(1)) }
        var assets: [String: [Int64]] = [:]
        for row in rows { assets[name(row.path), default: []].append(row.id) }
        return assets
    }
}
