import Foundation
import GRDB
import GRDBSQLite
import PhotosCore

/// A resource as the scanner compares it with the disk.
public struct StoredFile: Sendable, Hashable {
    /// The resource row.
    public var resourceID: Int64
    /// The asset it belongs to.
    public var assetID: Int64
    /// A `PHAssetResourceType` raw value.
    public var type: Int
    /// The absolute path of the file.
    public var path: String
    /// The file's device when last seen.
    public var device: Int64?
    /// The file's inode when last seen.
    public var inode: Int64?
    /// The file's size when last read.
    public var fileSize: Int64
    /// The file's modification time when last read.
    public var modificationTime: Double?
    /// The file's birth time (nanoseconds since 1970) when last seen; nil where its file system
    /// keeps none, or the store has not learnt it yet.
    public var birthTime: Int64? = nil
}

extension StoredFile {
    /// A stored file from a row whose columns from `first` on are the resource id, asset id, type,
    /// path, device, inode, size, modification time and birth time (``LibraryTransaction/storedFiles``'
    /// order).
    init(row: StoreRow, from first: Int) throws {
        resourceID = try row.int64(first)
        assetID = try row.int64(first + 1)
        type = Int(try row.int64(first + 2))
        path = try row.text(first + 3)
        device = row.optionalInt64(first + 4)
        inode = row.optionalInt64(first + 5)
        fileSize = try row.int64(first + 6)
        modificationTime = row.optionalDouble(first + 7)
        birthTime = row.optionalInt64(first + 8)
    }
}

/// Reads and writes for mirroring directories: files under a root, rejections, directory collections.
extension LibraryTransaction {
    /// The SQL condition and arguments for paths strictly under `root`.
    static func under(_ root: String, column: String) -> (String, [SQLValue]) {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        // "0" follows "/" in byte order, so this range is every path starting with the prefix.
        return ("\(column) >= ? AND \(column) < ?", [.text(prefix), .text(String(prefix.dropLast()) + "0")])
    }

    /// Every resource whose file lies under `root`.
    public func storedFiles(under root: String) throws -> [StoredFile] {
        let (condition, arguments) = FileDirectories.under(root, db.dialect)
        return try storedFiles(where: condition, arguments)
    }

    /// The resources whose files are at these paths, as the scanner compares them.
    public func storedFiles(atPaths paths: Set<String>) throws -> [StoredFile] {
        let (ids, arguments) = FileDirectories.ids(at: paths, db.dialect)
        return try storedFiles(where: "r.id IN (\(ids))", arguments)
    }

    /// The resources whose files are on `device` with one of these inode numbers, as the scanner
    /// compares them: where another name of a file gone from its path may be (a hard link). Read
    /// from the index of devices and inodes.
    public func storedFiles(device: Int64, inodes: [Int64]) throws -> [StoredFile] {
        guard !inodes.isEmpty else { return [] }
        return try storedFiles(
            where: "r.device = ? AND \(db.dialect.isInWholeNumberList("r.inode"))",
            [.int(device), .text(JSONText.array(inodes))])
    }

    /// Every resource whose file is directly in `directory`, as the scanner compares it.
    public func storedFiles(inDirectory directory: String) throws -> [StoredFile] {
        let (condition, arguments) = FileDirectories.directlyIn(directory, db.dialect)
        return try storedFiles(where: condition, arguments)
    }

    /// Read column by column: the daemon asks this for each file that arrives. An edit's files are
    /// the library's own, never the scanner's to compare, move or remove (even under a root that
    /// holds the library's folder).
    private func storedFiles(where condition: String, _ arguments: [SQLValue]) throws -> [StoredFile] {
        try Self.storedFiles(db, where: condition, arguments)
    }

    /// `condition` is on `FileDirectories.join` (`r` and `d`).
    static func storedFiles(
        _ db: some StoreConnection, where condition: String, _ arguments: [SQLValue]
    ) throws -> [StoredFile] {
        let sql = storedFilesSQL(where: condition)
        if let sqlite = db as? Database { return try storedFiles(sqlite, sql, arguments) }
        return try db.rows(sql, arguments) { row in try StoredFile(row: row, from: 0) }
    }

    /// The statement of ``storedFiles(_:where:_:)``.
    static func storedFilesSQL(where condition: String) -> String {
        """
        SELECT r.id, r.assetId, r.type, d.path || r.name, r.device, r.inode, r.fileSize, r.modificationTime,
            r.birthTime
        FROM \(FileDirectories.join)
        WHERE \(condition) AND r.type NOT IN \(PHAssetResourceType.editTypesSQL)
        """
    }

    /// Read column by column from SQLite's own row: a rescan reads every file's row, and GRDB's
    /// row decoding cost a sixth of a rescan of a million files.
    private static func storedFiles(_ db: Database, _ sql: String, _ arguments: [SQLValue]) throws -> [StoredFile] {
        let steps = try SQLiteSteps(db, sql, arguments)
        let row = steps.handle
        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(row, column) == SQLITE_NULL ? nil : sqlite3_column_int64(row, column)
        }
        var files: [StoredFile] = []
        while try steps.next() {
            let path = sqlite3_column_text(row, 3).map { text in
                String(
                    decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(row, 3))), as: UTF8.self)
            }
            files.append(
                StoredFile(
                    resourceID: sqlite3_column_int64(row, 0), assetID: sqlite3_column_int64(row, 1),
                    type: Int(sqlite3_column_int64(row, 2)), path: path ?? "", device: integer(4), inode: integer(5),
                    fileSize: sqlite3_column_int64(row, 6),
                    modificationTime: sqlite3_column_type(row, 7) == SQLITE_NULL ? nil : sqlite3_column_double(row, 7),
                    birthTime: integer(8)))
        }
        return files
    }

    /// The assets whose photo or video is directly in `directory`, oldest first: an album's
    /// members, asked for each file that arrives (one query, no records decoded).
    public func primaryAssets(inDirectory directory: String) throws -> [Int64] {
        try primaryAssets(in: DirectoryRanges(directory: directory, subdirectories: []))
    }

    /// The directory-backed album of a directory, if any.
    public func directoryAlbum(at path: String) throws -> CollectionRecord? {
        try db.firstRow(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE path = ? AND isList = 0 AND \(db.dialect.isThisHost("host"))",
            [.text(path)],
            CollectionRecord.init(row:))
    }

    /// Points a resource at its file's new place (a move keeps the asset).
    public func moveResource(_ file: StoredFile, to path: String, name: String) throws {
        let (directory, fileName) = FileDirectories.split(path)
        try db.execute(
            "UPDATE resource SET directoryId = ?, name = ?, originalFilename = ?, pairingName = ? WHERE id = ?",
            [
                .int(try FileDirectories.id(of: directory, db)), .text(fileName), .text(name == fileName ? nil : name),
                .text(PairingName.of(name)), .int(file.resourceID),
            ])
        let asset = try db.rows(
            "SELECT localIdentifier, burstIdentifier FROM asset WHERE id = ?", [.int(file.assetID)]
        ) { row in (try row.text(0), row.optionalText(1)) }.first
        guard let (identifier, burst) = asset else { return }
        changes.recorder.updated(.asset, identifier, properties: ["resources"])
        // A burst is a directory's: the frame's old and new directories each keep a representative.
        if let burst { try pickBurstRepresentatives([burst]) }
    }

    /// Removes resources; assets left with no resource are deleted. An asset that keeps some of its
    /// files changed (`resources`); those files are returned, for the scanner to read again: what is
    /// left may make another asset of it (a Live Photo's movie without its still is a video, the RAW
    /// of a RAW+JPEG pair without its JPEG a photo).
    @discardableResult
    public func deleteResources(_ files: [StoredFile]) throws -> [StoredFile] {
        guard !files.isEmpty else { return [] }
        let removed = SQLValue.text(JSONText.array(files.map(\.resourceID)))
        let affected = SQLValue.text(JSONText.array(Array(Set(files.map(\.assetID)))))
        let listed = db.dialect.elementsOfJSONArray(wholeNumbers: true)
        // Assets losing every file are deleted while their resource rows are still there, so that
        // their tombstones say which files they had. An edit's files do not keep an asset whose
        // original is gone.
        let orphans = try db.rows(
            """
            SELECT affected.value FROM (\(listed)) AS affected WHERE NOT EXISTS (
                SELECT 1 FROM resource WHERE assetId = affected.value AND id NOT IN (\(listed))
                AND type NOT IN \(PHAssetResourceType.editTypesSQL))
            """, [affected, removed]
        ) { try $0.int64(0) }
        try deleteAssets(orphans)
        try db.execute("DELETE FROM resource WHERE id IN (\(listed))", [removed])
        // A Live Photo whose movie left is a still photo.
        let unpaired = try db.rows(
            """
            SELECT \(AssetRecord.selectionSQL) FROM asset WHERE id IN (\(listed)) AND (mediaSubtypes & ?) != 0
            AND NOT EXISTS (SELECT 1 FROM resource WHERE assetId = asset.id AND type = ?)
            """,
            [
                affected, .int(Int64(PHAssetMediaSubtype.photoLive.rawValue)),
                .int(Int64(PHAssetResourceType.pairedVideo.rawValue)),
            ], AssetRecord.init(row:))
        for var asset in unpaired {
            asset.mediaSubtypes &= ~Int64(PHAssetMediaSubtype.photoLive.rawValue)
            try updateAsset(asset, properties: ["mediaSubtypes"])
        }
        let kept = Set(files.map(\.assetID)).subtracting(orphans)
        guard !kept.isEmpty else { return [] }
        let keptList: [SQLValue] = [.text(JSONText.array(Array(kept)))]
        for identifier in try db.rows(
            "SELECT localIdentifier FROM asset WHERE id IN (\(listed))", keptList, { try $0.text(0) })
        {
            changes.recorder.updated(.asset, identifier, properties: ["resources"])
        }
        return try storedFiles(where: "r.assetId IN (\(listed))", keptList)
    }

    /// The files of these assets that lie in another directory than the asset's photo or video (its
    /// primary resource): the movie of a Live Photo or one half of a RAW+JPEG pair after one of the
    /// asset's files was moved to another folder. Files pair only within a directory, so these are no
    /// longer the asset's: ``deleteResources(_:)`` takes them off it, and the scanner reads them again
    /// as the new files a scan of their folder would find. An edit's files are the library's, and stay.
    public func filesApartFromTheirPrimary(ofAssets assetIDs: Set<Int64>) throws -> [StoredFile] {
        guard !assetIDs.isEmpty else { return [] }
        let listed = db.dialect.elementsOfJSONArray(wholeNumbers: true)
        let files = try storedFiles(where: "r.assetId IN (\(listed))", [.text(JSONText.array(Array(assetIDs)))])
        let primaryTypes = Set([PHAssetResourceType.photo, .video, .audio].map(\.rawValue))
        var apart: [StoredFile] = []
        for ofAsset in Dictionary(grouping: files, by: \.assetID).values {
            guard
                let primary = ofAsset.filter({ primaryTypes.contains($0.type) })
                    .min(by: { ($0.type, $0.path) < ($1.type, $1.path) })
            else { continue }
            let directory = PathName.directory(of: primary.path)
            apart += ofAsset.filter { PathName.directory(of: $0.path) != directory }
        }
        return apart.sorted { $0.path < $1.path }
    }

    /// Replaces an asset's resources; its edit's files (``PhotosCore/PHAssetResourceType/editTypes``) stay.
    public func replaceResources(ofAsset assetID: Int64, with resources: [ResourceRecord]) throws {
        try db.execute(
            "DELETE FROM resource WHERE assetId = ? AND type NOT IN \(PHAssetResourceType.editTypesSQL)",
            [.int(assetID)])
        for var resource in resources {
            resource.assetId = assetID
            try insertResource(resource)
        }
    }

    /// The resources of an asset.
    public func resources(ofAsset assetID: Int64) throws -> [ResourceRecord] {
        try db.rows(
            "SELECT \(FileDirectories.columns(db.dialect)) FROM \(FileDirectories.join) WHERE r.assetId = ? ORDER BY r.type",
            [.int(assetID)], ResourceRecord.init(row:))
    }

    /// The asset with a row id.
    public func asset(id: Int64) throws -> AssetRecord? {
        try db.firstRow(
            "SELECT \(AssetRecord.selectionSQL) FROM asset WHERE id = ?", [.int(id)], AssetRecord.init(row:))
    }

    // MARK: Rejections

    /// Rejections under a root, keyed by path.
    public func rejectedFiles(under root: String) throws -> [String: RejectedFile] {
        let (condition, arguments) = Self.under(root, column: "path")
        let rows = try db.rows(
            "SELECT \(RejectedFile.columns) FROM rejected WHERE \(condition) AND \(db.dialect.isThisHost("host"))",
            arguments, RejectedFile.init(row:))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.path, $0) })
    }

    /// The rejections of files at these paths, by path.
    public func rejectedFiles(atPaths paths: Set<String>) throws -> [String: RejectedFile] {
        let rows = try db.rows(
            """
            SELECT \(RejectedFile.columns) FROM rejected
            WHERE path IN (\(db.dialect.elementsOfJSONArray())) AND \(db.dialect.isThisHost("host"))
            """,
            [.text(JSONText.array(Array(paths)))], RejectedFile.init(row:))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.path, $0) })
    }

    /// Records (or refreshes) a rejection.
    public func reject(_ file: RejectedFile) throws {
        guard db.dialect.statementsAreRoundTrips else {
            try db.execute(Self.rejectSQL, file.values)
            return
        }
        // Held and sent with the transaction's next statement: a batch's rejections, many to a statement.
        try db.insertLater(Self.laterReject, file.values)
    }

    /// Rejections held for later: each in place of the one for the same path, the last given
    /// where one transaction rejects a path twice.
    private static let laterReject = LaterInsert(
        table: "rejected", columns: RejectedFile.columns,
        row: "(?::text, ?::text, ?::text, ?::bigint, ?::float8, ?::float8)",
        statement: """
            INSERT INTO rejected (\(RejectedFile.columns))
            SELECT DISTINCT ON (path) \(RejectedFile.columns) FROM ({rows}) AS v (position, \(RejectedFile.columns))
            ORDER BY path, position DESC
            ON CONFLICT (path, host) DO UPDATE SET
            """ + " " + RejectedFile.columnNames.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))

    /// A rejection's row, in place of the one for the same path: one statement.
    private static let rejectSQL =
        SQLText.insert(into: "rejected", RejectedFile.columnNames) + " ON CONFLICT(path, host) DO UPDATE SET "
        + RejectedFile.columnNames.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// Forgets rejections (the files are gone, or now read fine).
    public func forgetRejections(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try db.execute(
            "DELETE FROM rejected WHERE path IN (\(db.dialect.elementsOfJSONArray())) AND \(db.dialect.isThisHost("host"))",
            [.text(JSONText.array(paths))])
    }

    // MARK: Directory collections

    /// The directory-backed collections at or under a root.
    public func directoryCollections(under root: String) throws -> [CollectionRecord] {
        let (condition, arguments) = Self.under(root, column: "path")
        return try db.rows(
            """
            SELECT \(CollectionRecord.columns(db.dialect)) FROM collection
            WHERE (path = ? OR (\(condition))) AND \(db.dialect.isThisHost("host"))
            """, [.text(root)] + arguments, CollectionRecord.init(row:))
    }

    /// The directory-backed collection list of a directory, if any.
    public func directoryCollection(at path: String) throws -> CollectionRecord? {
        try db.firstRow(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE path = ? AND isList = 1 AND \(db.dialect.isThisHost("host"))",
            [.text(path)],
            CollectionRecord.init(row:))
    }

    /// Whether the library knows `path` as a root, online: scanned, and not found gone since.
    public func isOnlineRoot(_ path: String) throws -> Bool {
        try db.scalarInt64(
            "SELECT isOffline FROM root WHERE path = ? AND \(db.dialect.isThisHost("host"))", [.text(path)]) == 0
    }

    /// Marks a root as reachable or offline and notes when it was scanned; in a library several
    /// hosts share, the root is this host's, and what a library file left there becomes this host's
    /// (``claimRoot(_:)``).
    public func setRoot(_ path: String, offline: Bool) throws {
        try claimRoot(path)
        try db.execute(
            """
            INSERT INTO root (path, isOffline, lastScanDate, host) VALUES (?, ?, ?, ?)
            ON CONFLICT(path, host) DO UPDATE SET isOffline = excluded.isOffline,
                lastScanDate = CASE WHEN excluded.isOffline <> 0 THEN root.lastScanDate ELSE excluded.lastScanDate END
            """, [.text(path), .flag(offline), .double(Date().timeIntervalSince1970), .text(host ?? "")])
    }

    /// Marks this host's root `path` offline, when the library knows it (a root it has read);
    /// a path it never read is not made a root.
    public func markRootOffline(_ path: String) throws {
        try claimRoot(path)
        try db.execute("UPDATE root SET isOffline = 1 WHERE path = ? AND host = ?", [.text(path), .text(host ?? "")])
    }

    /// In a library several hosts share, makes this host's what the library holds at or under the
    /// root `path` for no host (``RootHosts``): a library copied from a file names no host, and its
    /// photos are on the disk of the first host that scans their root. Another host's root at the
    /// same path is another root, left alone.
    public func claimRoot(_ path: String) throws {
        guard let host,
            try db.scalarInt64("SELECT 1 FROM root WHERE path = ? AND host = ''", [.text(path)]) != nil
        else { return }
        let (under, arguments) = Self.under(path, column: "path")
        try db.execute("DELETE FROM root WHERE path = ? AND host = ''", [.text(path)])
        for table in RootHosts.hostedTables {
            // A directory's path ends with "/": the root's own is under it.
            try db.execute(
                "UPDATE \(table) SET host = ? WHERE host = '' AND (path = ? OR \(under))",
                [.text(host), .text(path)] + arguments)
        }
    }
}

extension LibraryDatabase {
    /// This host's roots, online or not: the folders whose files are the library's where they lie.
    public func rootPaths() throws -> [String] {
        try read { db in
            try db.rows("SELECT path FROM root WHERE \(db.dialect.isThisHost("host")) ORDER BY path", []) {
                try $0.text(0)
            }
        }
    }

    /// This host's roots last found unreadable (unmounted, removed): their assets are kept,
    /// unavailable.
    public func offlineRoots() throws -> [String] {
        try read { db in try Self.offlineRoots(db) }
    }

    static func offlineRoots(_ db: some StoreConnection) throws -> [String] {
        try db.rows(
            "SELECT path FROM root WHERE isOffline = 1 AND \(db.dialect.isThisHost("host")) ORDER BY path", []
        ) { try $0.text(0) }
    }

    /// Every rejected file, by path; in a library several hosts share, another host's named by it
    /// (`nas:/srv/photos/bad.jpg`, ``RootHosts``).
    public func rejectedFiles() throws -> [RejectedFile] {
        try read { db in try Self.rejectedFiles(db, first: nil).files }
    }

    /// `limit` rejected files by path from the `offset`-th (0: the first), as ``rejectedFiles()``
    /// names them, and how many there are in all: for a page that shows some and counts the rest.
    public func rejectedFiles(from offset: Int = 0, first limit: Int) throws -> (files: [RejectedFile], total: Int) {
        try read { db in try Self.rejectedFiles(db, from: offset, first: limit) }
    }

    /// The rejected files by path on `db`, `limit` of them from the `offset`-th (all: nil), and how
    /// many in all.
    static func rejectedFiles(_ db: some StoreConnection, from offset: Int = 0, first limit: Int?) throws -> (
        files: [RejectedFile], total: Int
    ) {
        let columns = RejectedFile.columnNames.dropFirst().map { "rejected.\($0)" }.joined(separator: ", ")
        let window = limit.map { " LIMIT \(max(0, $0)) OFFSET \(max(0, offset))" } ?? ""
        let files = try db.rows(
            "SELECT \(db.dialect.hostedPath("rejected")) AS path, \(columns) FROM rejected ORDER BY 1, rejected.host"
                + window,
            [], RejectedFile.init(row:))
        // A short first window is all of them.
        guard let limit, offset > 0 || files.count == limit else { return (files, files.count) }
        return (files, Int(try db.scalarInt64("SELECT COUNT(*) FROM rejected") ?? 0))
    }
}

/// Content hashes and duplicates.
extension LibraryTransaction {
    /// Resources with no content hash yet whose size another resource shares: the ones worth hashing
    /// (in a library several hosts share, this host's: the others' files are on their disks).
    public func resourcesNeedingHash() throws -> [(id: Int64, path: String)] {
        try db.rows(
            """
            SELECT r.id, d.path || r.name FROM \(FileDirectories.join)
            WHERE r.contentHash IS NULL AND \(db.dialect.isThisHost("d.host"))
            AND r.fileSize IN (SELECT fileSize FROM resource GROUP BY fileSize HAVING COUNT(*) > 1)
            """, []
        ) { (id: try $0.int64(0), path: try $0.text(1)) }
    }

    /// Records a resource's content hash.
    public func setContentHash(_ hash: String, forResource id: Int64) throws {
        try db.execute("UPDATE resource SET contentHash = ? WHERE id = ?", [.text(hash), .int(id)])
    }
}

extension LibraryDatabase {
    /// Groups of assets whose files have identical content, each group ordered by path.
    public func duplicateGroups() throws -> [[(assetLocalIdentifier: String, path: String)]] {
        try read { db in
            let rows = try db.rows(
                """
                SELECT r.contentHash, \(FileDirectories.path(db.dialect)) AS path, a.localIdentifier
                FROM \(FileDirectories.join) JOIN asset a ON a.id = r.assetId
                WHERE r.contentHash IN (
                    SELECT contentHash FROM resource WHERE contentHash IS NOT NULL
                    GROUP BY contentHash HAVING COUNT(*) > 1)
                ORDER BY r.contentHash, path
                """, []
            ) { (hash: try $0.text(0), path: try $0.text(1), identifier: try $0.text(2)) }
            return Dictionary(grouping: rows, by: \.hash).values
                .map { group in group.map { (assetLocalIdentifier: $0.identifier, path: $0.path) } }
                .sorted { $0[0].path < $1[0].path }
        }
    }
}

/// Grouping files into assets (Live Photos, RAW+JPEG) and picking burst representatives.
extension LibraryTransaction {
    /// The resources at `paths` and those directly in `directory` that can pair with files of these
    /// pairing names (``PairingName``) or Apple content identifiers, and those that can pair with
    /// them in turn: what grouping new files needs to see of a directory, without reading all of it.
    public func resources(
        at paths: Set<String>, inDirectory directory: String, pairingWith names: Set<String>,
        contentIdentifiers: Set<String>
    ) throws -> [ResourceRecord] {
        let (condition, arguments) = FileDirectories.directlyIn(directory, db.dialect)
        let (atPaths, pathArguments) = FileDirectories.ids(at: paths, db.dialect)
        let sql = Self.pairingRowsSQL(atPaths: atPaths, directory: condition, db.dialect)
        var names = names
        var identifiers = contentIdentifiers
        var found: [String: ResourceRecord] = [:]
        // A file found may pair with others by its own name or identifier: look until none is new.
        var asked = (names: Set<String>(), identifiers: Set<String>())
        while names != asked.names || identifiers != asked.identifiers {
            asked = (names, identifiers)
            let rows = try db.rows(
                sql,
                pathArguments + arguments
                    + [.text(JSONText.array(Array(names))), .text(JSONText.array(Array(identifiers)))] + arguments,
                ResourceRecord.init(row:))
            for resource in rows where found[resource.path] == nil {
                found[resource.path] = resource
                names.insert(resource.pairingName)
                if let identifier = resource.contentIdentifier { identifiers.insert(identifier) }
            }
        }
        return found.values.sorted { $0.path < $1.path }
    }

    /// The query of ``resources(at:inDirectory:pairingWith:contentIdentifiers:)``: the rows of
    /// `atPaths` (a query of row ids), of the pairing names and of the content identifiers (two JSON
    /// arrays) in the directory (its path twice, for the names and for `directory`, the condition).
    /// Each of the three by its index, then each row found by its id (`CROSS JOIN` keeps SQLite
    /// from walking the directory's rows instead), and its directory checked: never a walk of the
    /// directory. Names are looked up in this directory alone (`resource_by_directory_pairing_name`):
    /// a name such as IMG_0001 recurs in thousands of others.
    static func pairingRowsSQL(atPaths: String, directory: String, _ dialect: SQLDialect) -> String {
        """
        SELECT \(FileDirectories.columns(dialect)) FROM resource r \(dialect.orderedJoin) directory d ON d.id = r.directoryId WHERE r.id IN (
            \(atPaths)
            UNION SELECT id FROM resource
            WHERE directoryId = (SELECT id FROM directory WHERE path = ? AND \(dialect.isThisHost("host")))
                AND pairingName IN (\(dialect.elementsOfJSONArray()))
            UNION SELECT id FROM resource WHERE contentIdentifier IN (\(dialect.elementsOfJSONArray())))
        AND \(directory)
        """
    }

    /// Makes the earliest member of each burst in each directory its representative, and the others
    /// not. A burst is a directory's: a folder of burst frames copied to another folder is two
    /// bursts of one identifier, each with its representative, so that neither folder's frames
    /// are all hidden from a fetch that shows only representatives. The library's own files
    /// (created assets, a folder each in the import folder) are one place.
    public func pickBurstRepresentatives(_ burstIdentifiers: Set<String>) throws {
        for burst in burstIdentifiers.sorted() {
            // Each member with the directory of its first original (photo before video, then the
            // oldest), -1 for the library's own.
            let members = try db.rows(
                """
                SELECT \(AssetRecord.selectionSQL), (SELECT CASE WHEN r.isLibraryOwned != 0 THEN -1 ELSE r.directoryId END
                    FROM resource r WHERE r.assetId = asset.id AND r.type IN (1, 2, 3, 4) ORDER BY r.type, r.id LIMIT 1)
                FROM asset WHERE burstIdentifier = ? ORDER BY creationDate, id
                """, [.text(burst)]
            ) { row in (try AssetRecord(row: row), row.optionalInt64(AssetRecord.columnNames.count)) }
            var represented = Set<Int64?>()
            for (var member, directory) in members {
                let represents = represented.insert(directory).inserted
                guard member.representsBurst != represents else { continue }
                member.representsBurst = represents
                try updateAsset(member, properties: ["representsBurst"])
            }
        }
    }
}

extension LibraryTransaction {
    /// Removes some of an asset's resources; the asset goes too when it has none left but its
    /// edit's files.
    ///
    /// `absorbedInto`: the asset those files joined (a scan grouped them with its files: a JPEG put
    /// beside its RAW, a Live Photo's movie brought back to its still). An asset left with nothing
    /// gives it what the user set first (``absorbUserState(of:into:)``), so joining two assets into
    /// one loses neither's favorite, stars or albums. Returns whether the asset went.
    @discardableResult
    public func removeResources(ofAsset assetID: Int64, atPaths paths: Set<String>, absorbedInto: Int64? = nil)
        throws -> Bool
    {
        let (removed, arguments) = FileDirectories.ids(at: paths, db.dialect)
        let kept = try db.scalarInt64(
            """
            SELECT COUNT(*) FROM resource WHERE assetId = ? AND id NOT IN (\(removed))
            AND type NOT IN \(PHAssetResourceType.editTypesSQL)
            """, [.int(assetID)] + arguments)
        // An asset left with nothing is deleted with its rows, which its tombstone describes.
        guard kept != 0 else {
            if let absorbedInto { try absorbUserState(of: assetID, into: absorbedInto) }
            try deleteAssets([assetID])
            return true
        }
        try db.execute("DELETE FROM resource WHERE assetId = ? AND id IN (\(removed))", [.int(assetID)] + arguments)
        return false
    }

    /// Gives asset `target` what the user set on asset `assetID`, which is about to go: its favorite
    /// and hidden flags where `target` lacks them, its stars where `target` has none, and its places
    /// in user albums `target` is not in (the same position; an album holding both keeps
    /// `target`'s). Each change is recorded: observers see `target` and the albums change.
    public func absorbUserState(of assetID: Int64, into target: Int64) throws {
        guard assetID != target, let absorbed = try asset(id: assetID), var kept = try asset(id: target) else { return }
        var properties: [String] = []
        if absorbed.isFavorite && !kept.isFavorite {
            kept.isFavorite = true
            properties.append("isFavorite")
        }
        if absorbed.isHidden && !kept.isHidden {
            kept.isHidden = true
            properties.append("isHidden")
        }
        if kept.rating == 0 && absorbed.rating != 0 {
            kept.rating = absorbed.rating
            properties.append("rating")
        }
        if !properties.isEmpty { try updateAsset(kept, properties: properties) }
        let albums = try db.rows(
            """
            SELECT c.id, c.localIdentifier FROM collection_asset ca JOIN collection c ON c.id = ca.collectionId
            WHERE ca.assetId = ? AND \(LibraryDatabase.userCollectionCondition)
            AND NOT EXISTS (SELECT 1 FROM collection_asset t WHERE t.collectionId = c.id AND t.assetId = ?)
            ORDER BY c.id
            """, [.int(assetID), .int(target)]
        ) { (id: try $0.int64(0), localIdentifier: try $0.text(1)) }
        for album in albums {
            try db.execute(
                "UPDATE collection_asset SET assetId = ? WHERE collectionId = ? AND assetId = ?",
                [.int(target), .int(album.id), .int(assetID)])
            changes.recorder.updated(.assetCollection, album.localIdentifier, properties: ["assets"])
        }
    }
}
