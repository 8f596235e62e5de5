import Foundation
import PhotosCore
import PhotosLinux

/// A deleted asset whose files went to the Trash ("Recently Deleted"), kept so that it can come
/// back as it was: the same local identifier, favorites and albums.
///
/// Its row is out of the `asset` table while it is trashed, so no fetch, count or smart album sees
/// it (observers saw it deleted); the `trashedAsset` table keeps the row, its resources and its album
/// memberships as JSON, and `trashedFile` where each of its files went. Restoring puts them back
/// (``LibraryTransaction/restoreTrashedAsset(_:)``); past its days it is erased for good
/// (``LibraryTransaction/eraseTrashedAsset(_:)``).
public struct TrashedAsset: Sendable, Hashable {
    /// The asset's row id (kept: the table never hands it out again).
    public var assetId: Int64
    /// Its local identifier.
    public var localIdentifier: String
    /// When it was deleted (seconds since 1970).
    public var trashedDate: Double
    /// Its files and where they went; in a library several hosts share, another host's named by
    /// it (`nas:/srv/photos/IMG_1.JPG`, ``RootHosts``).
    public var files: [TrashedFile]
    /// In a library several hosts share, the host whose Trash holds its files when it is not this
    /// one: it alone restores or erases them. Nil for this host's, or in a library file.
    public var host: String? = nil
}

extension TrashedAsset {
    /// The name ``rowsCTE`` gives the trashed assets' rows.
    static let rowsTable = "trashed_asset_row"

    /// Common table expressions that let an ``AssetQuery`` read the trashed assets as it reads the
    /// `asset` table: `trashed_asset_row` has every column of `asset` (the kept record's values,
    /// `isBurstVisible` derived as the table derives it) plus `trashedDate`; `resource` shadows the
    /// table of that name with the kept resources' type, original name and ownership, what a
    /// `filename` or `isLibraryOwned` predicate or sort key reads (``AssetQuery/column(for:)``). The statement reads nothing else
    /// of `resource`: a trashed asset has no row there.
    static func rowsCTE(_ dialect: SQLDialect) -> String {
        let columns = AssetRecord.columns(AssetRecord.columnNames.dropFirst(), fromJSON: "t.record", dialect)
        return """
            \(rowsTable) AS (
                SELECT *, \(AssetRecord.burstVisibility) AS isBurstVisible
                FROM (SELECT t.assetId AS id, t.trashedDate AS trashedDate, \(columns) FROM trashedAsset t) AS kept),
            resource AS (
                SELECT t.assetId AS assetId, \(dialect.field("id", of: "r.value", as: .integer)) AS id,
                    \(dialect.field("type", of: "r.value", as: .integer)) AS type,
                    \(dialect.field("originalFilename", of: "r.value", as: .text)) AS originalFilename, NULL AS name,
                    \(dialect.field("isLibraryOwned", of: "r.value", as: .flag)) AS isLibraryOwned
                FROM trashedAsset t, \(dialect.elements(ofJSONArray: "t.resources", as: "r")))
            """
    }
}

/// One file of a trashed asset: where it was, which file it was, and the Trash it goes to.
public struct TrashedFile: Sendable, Hashable, Codable {
    /// The row id; nil until inserted.
    public var id: Int64?
    /// The trashed asset.
    public var assetId: Int64
    /// Where the file was (and goes back to).
    public var path: String
    /// Its device when it was deleted.
    public var device: Int64
    /// Its inode: with the device, how the file is known in the Trash and when another tool restores it.
    public var inode: Int64
    /// The trash directory of its file system (`~/.local/share/Trash`, `$topdir/.Trash-$uid`…).
    public var trashDirectory: String
    /// That directory's kind (`home`, `shared`, `user`: PhotosLinux's `TrashDirectory.Kind`).
    public var trashKind: String
    /// The top directory of its mount (what `Path=` is relative to in a mount's trash).
    public var trashTop: String
    /// Its name in the trash's `files/`; nil until the file journal has moved it there.
    public var trashName: String?

    /// A file about to be trashed.
    public init(
        assetId: Int64, path: String, device: Int64, inode: Int64, trashDirectory: String, trashKind: String,
        trashTop: String, trashName: String? = nil
    ) {
        self.assetId = assetId
        self.path = path
        self.device = device
        self.inode = inode
        self.trashDirectory = trashDirectory
        self.trashKind = trashKind
        self.trashTop = trashTop
        self.trashName = trashName
    }
}

/// A trashed file's row, read and written through the engine-neutral ``StoreConnection``.
extension TrashedFile {
    /// The columns of a trashed file's row, in the order ``init(row:)`` reads them (the id first).
    static let columnNames = [
        "id", "assetId", "path", "device", "inode", "trashDirectory", "trashKind", "trashTop", "trashName",
    ]

    /// ``columnNames`` as a result list.
    static let columns = SQLText.list(columnNames)

    /// A trashed file from a row that selected ``columns``.
    init(row: StoreRow) throws {
        id = try row.int64(0)
        assetId = try row.int64(1)
        path = try row.text(2)
        device = try row.int64(3)
        inode = try row.int64(4)
        trashDirectory = try row.text(5)
        trashKind = try row.text(6)
        trashTop = try row.text(7)
        trashName = row.optionalText(8)
    }

    /// Adds the file's row (its id is the table's to give).
    func insert(in connection: some StoreConnection) throws {
        try connection.execute(
            SQLText.insert(into: "trashedFile", Self.columnNames.dropFirst()),
            [
                .int(assetId), .text(path), .int(device), .int(inode), .text(trashDirectory), .text(trashKind),
                .text(trashTop), trashName.map(SQLValue.text) ?? .null,
            ])
    }
}

/// What a scan makes of a file at a path where the store has none, when the path was a trashed
/// asset's file.
public enum TrashedFileMatch: Sendable, Hashable {
    /// The file is still to be moved to the Trash by a committed deletion: not a new file.
    case pending
    /// The same file (device and inode) is back at its path: the asset comes back once every
    /// photo and movie of it is back (`others`: the rest of them, where they were).
    case restored(assetId: Int64, others: [TrashedFilePlace])
}

/// Where a trashed asset's file was, and which file it was.
public struct TrashedFilePlace: Sendable, Hashable {
    public var path: String
    public var device: Int64
    public var inode: Int64
}

extension ScanReader {
    /// Whether the store holds any trashed asset's file (a scan asks before looking files up).
    public func holdsTrashedFiles() throws -> Bool {
        try db.scalarInt64("SELECT 1 FROM trashedFile LIMIT 1") != nil
    }

    /// Whether the file at `path` with this device and inode is a trashed asset's file (``TrashedFileMatch``,
    /// with the asset's other photos and movies when it is back); nil when it is not. A sidecar (`.xmp`) is never one: a sidecar back alone does not bring its
    /// photo back. In a library several hosts share, only this host's Trash is looked in: machines
    /// made from one disk image have the same devices and inodes, and another host's trashed file
    /// at the same path is not this one back.
    public func trashedFile(path: String, device: Int64, inode: Int64) throws -> TrashedFileMatch? {
        guard !path.lowercased().hasSuffix(".xmp"),
            let row = try db.firstRow(
                """
                SELECT f.assetId, f.trashName FROM trashedFile f JOIN trashedAsset t ON t.assetId = f.assetId
                WHERE f.inode = ? AND f.device = ? AND f.path = ? AND \(db.dialect.isThisHostOrNone("t.host"))
                """,
                [.int(inode), .int(device), .text(path)], { (assetId: try $0.int64(0), trashName: $0.optionalText(1)) })
        else { return nil }
        guard row.trashName != nil else { return .pending }
        let others = try db.rows(
            "SELECT path, device, inode FROM trashedFile WHERE assetId = ? AND path <> ? ORDER BY id",
            [.int(row.assetId), .text(path)]
        ) { TrashedFilePlace(path: try $0.text(0), device: try $0.int64(1), inode: try $0.int64(2)) }
        return .restored(assetId: row.assetId, others: others.filter { !$0.path.lowercased().hasSuffix(".xmp") })
    }
}

extension LibraryDatabase {
    /// The row ids of these assets' local identifiers, keyed by identifier; unknown ones are absent.
    public func assetIDs(forLocalIdentifiers identifiers: [String]) throws -> [String: Int64] {
        try read { db in try Self.ids(table: "asset", localIdentifiers: identifiers, db) }
    }

    /// The trashed assets, oldest deletion first, with their files.
    public func trashedAssets() throws -> [TrashedAsset] {
        try read { db in try Self.trashedAssets(where: "1 = 1", [], db) }
    }

    /// The kept records of the trashed assets among these row ids, keyed by id.
    static func trashedRecords(ids: [Int64], _ db: some StoreConnection) throws -> [Int64: AssetRecord] {
        let rows = try db.rows(
            """
            SELECT assetId, record FROM trashedAsset
            WHERE \(db.dialect.isInWholeNumberList("assetId"))
            """, [.text(JSONText.array(ids))]
        ) { (id: try $0.int64(0), json: try $0.text(1)) }
        let decoder = JSONDecoder()
        var records: [Int64: AssetRecord] = [:]
        for row in rows {
            var record = try decoder.decode(AssetRecord.self, from: Data(row.json.utf8))
            record.id = row.id
            records[row.id] = record
        }
        return records
    }

    /// How many assets are trashed: Recently Deleted's `estimatedAssetCount`.
    static func trashedAssetCount(_ db: some StoreConnection) throws -> Int {
        Int(try db.scalarInt64("SELECT COUNT(*) FROM trashedAsset") ?? 0)
    }

    /// The resources a trashed asset had, as kept for its restoring (their sizes and times among
    /// them: what tells its file from another made since with the inode it freed); empty for an
    /// asset not trashed.
    public func keptResources(ofTrashedAsset assetId: Int64) throws -> [ResourceRecord] {
        guard
            let text = try read({ db in
                try db.scalarText("SELECT resources FROM trashedAsset WHERE assetId = ?", [.int(assetId)])
            })
        else { return [] }
        return try JSONDecoder().decode([ResourceRecord].self, from: Data(text.utf8))
    }

    /// The trashed assets with these local identifiers (unknown ones are absent).
    public func trashedAssets(localIdentifiers: [String]) throws -> [TrashedAsset] {
        try read { db in
            try Self.trashedAssets(
                where: "localIdentifier IN (\(db.dialect.elementsOfJSONArray()))",
                [.text(JSONText.array(localIdentifiers))], db)
        }
    }

    /// The trashed assets deleted before `date` (seconds since 1970) whose files are in this host's
    /// Trash (or no host's: a library file's).
    public func trashedAssets(deletedBefore date: Double) throws -> [TrashedAsset] {
        try read { db in
            try Self.trashedAssets(
                where: "trashedDate < ? AND \(db.dialect.isThisHostOrNone("host"))", [.double(date)], db)
        }
    }

    static func trashedAssets(where condition: String, _ arguments: [SQLValue], _ db: some StoreConnection) throws
        -> [TrashedAsset]
    {
        let rows = try db.rows(
            """
            SELECT assetId, localIdentifier, trashedDate,
                CASE WHEN \(db.dialect.isThisHostOrNone("host")) THEN NULL ELSE host END
            FROM trashedAsset WHERE \(condition)
            ORDER BY trashedDate, assetId
            """, arguments
        ) {
            (id: try $0.int64(0), identifier: try $0.text(1), date: $0.optionalDouble(2) ?? 0, host: $0.optionalText(3))
        }
        return try rows.map { row in
            let id = row.id
            var files = try db.rows(
                "SELECT \(TrashedFile.columns) FROM trashedFile WHERE assetId = ? ORDER BY id", [.int(id)],
                TrashedFile.init(row:))
            if let host = row.host {
                for index in files.indices { files[index].path = host + ":" + files[index].path }
            }
            return TrashedAsset(
                assetId: id, localIdentifier: row.identifier, trashedDate: row.date, files: files, host: row.host)
        }
    }

    /// Records where the file journal moved a trashed file: its name in the `files/` of the trash
    /// `directory`.
    public func noteTrashed(_ fileID: Int64, name: String, in directory: TrashDirectory) throws {
        try noteTrashed([(fileID, name, directory)])
    }

    /// Records where the file journal moved each of a batch of trashed files, in one transaction.
    public func noteTrashed(_ moves: [(fileID: Int64, name: String, directory: TrashDirectory)]) throws {
        guard !moves.isEmpty else { return }
        _ = try bookkeeping { db in
            for move in moves {
                try db.execute(
                    "UPDATE trashedFile SET trashName = ?, trashDirectory = ?, trashKind = ?, trashTop = ? WHERE id = ?",
                    [
                        .text(move.name), .text(move.directory.path), .text(move.directory.kind.rawValue),
                        .text(move.directory.topDirectory), .int(move.fileID),
                    ])
            }
        }
    }

    /// The trashed file of an asset at `path`, if the asset is still trashed.
    public func trashedFile(assetId: Int64, path: String) throws -> TrashedFile? {
        try trashedFiles([(assetId, path)])[0]
    }

    /// The trashed file of each asset at each path (nil where the asset is no longer trashed), in
    /// order, read at once.
    public func trashedFiles(_ keys: [(assetId: Int64, path: String)]) throws -> [TrashedFile?] {
        try read { db in
            try keys.map { key in
                try db.firstRow(
                    "SELECT \(TrashedFile.columns) FROM trashedFile WHERE assetId = ? AND path = ?",
                    [.int(key.assetId), .text(key.path)], TrashedFile.init(row:))
            }
        }
    }
}
