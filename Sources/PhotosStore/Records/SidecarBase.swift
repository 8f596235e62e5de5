import GRDB
import PhotosCore

/// What the library last wrote to, or read from, an asset's XMP sidecar: the base of the three-way
/// merge when the sidecar or the asset changes next (a field only one side changed since is that
/// side's). Bookkeeping, not library content: written outside the change log.
public struct SidecarBase: Sendable, Hashable, Codable {
    /// The asset (its row is deleted with it).
    public var assetId: Int64
    /// The sidecar's absolute path when it was synced.
    public var path: String
    /// The sidecar state as the library encodes it (JSON, opaque to the store).
    public var state: String
    /// The sidecar's modification time after the sync (seconds since 1970), or nil when there was no
    /// file: a sidecar whose time is still this one has not changed since.
    public var modificationTime: Double?

    /// A base for an asset.
    public init(assetId: Int64, path: String, state: String, modificationTime: Double?) {
        self.assetId = assetId
        self.path = path
        self.state = state
        self.modificationTime = modificationTime
    }

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE sidecarBase (
                    assetId INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE,
                    path TEXT NOT NULL,
                    state TEXT NOT NULL,
                    modificationTime REAL
                );
                CREATE INDEX sidecarBase_by_path ON sidecarBase(path);
                """)
    }
}

/// A merge base's row, read and written through the engine-neutral ``StoreConnection``.
extension SidecarBase {
    /// The columns of a merge base's row, in the order ``init(row:)`` reads them and ``values`` gives them.
    static let columnNames = ["assetId", "path", "state", "modificationTime"]

    /// ``columnNames`` as a result list.
    static let columns = SQLText.list(columnNames)

    /// A merge base from a row that selected ``columns``.
    init(row: StoreRow) throws {
        assetId = try row.int64(0)
        path = try row.text(1)
        state = try row.text(2)
        modificationTime = row.optionalDouble(3)
    }

    /// The row's values, in the order of ``columns``.
    var values: [SQLValue] {
        [.int(assetId), .text(path), .text(state), modificationTime.map(SQLValue.double) ?? .null]
    }

    /// Stores the base, replacing the asset's one before: an UPDATE, then an INSERT when there was none.
    func save(in connection: some StoreConnection) throws {
        let updated = try connection.execute(
            "UPDATE sidecarBase SET \(SQLText.assignments(Self.columnNames.dropFirst())) WHERE assetId = ?",
            Array(values.dropFirst()) + [.int(assetId)])
        guard updated == 0 else { return }
        try connection.execute(SQLText.insert(into: "sidecarBase", Self.columnNames), values)
    }
}

extension LibraryDatabase {
    /// The merge base of an asset's sidecar, if the library ever synced it.
    public func sidecarBase(ofAsset assetID: Int64) throws -> SidecarBase? {
        try read { db in
            try db.firstRow(
                "SELECT \(SidecarBase.columns) FROM sidecarBase WHERE assetId = ?", [.int(assetID)],
                SidecarBase.init(row:))
        }
    }

    /// Stores an asset's merge base, replacing the one before; nothing when the asset is gone.
    public func setSidecarBase(_ base: SidecarBase) throws {
        try bookkeeping { db in
            guard try db.firstRow("SELECT id FROM asset WHERE id = ?", [.int(base.assetId)], { _ in true }) != nil
            else { return }
            try base.save(in: db)
        }
    }
}

extension LibraryTransaction {
    /// Stores an asset's merge base in this transaction (an asset made from a file and its sidecar).
    public func setSidecarBase(_ base: SidecarBase) throws {
        try base.save(in: db)
    }
}

/// A library file in a directory, as ``LibraryDatabase/sidecarNeighbours(inDirectory:)`` lists it:
/// what decides which sidecar belongs to which file.
public struct SidecarNeighbour: Sendable, Hashable {
    /// The asset the file belongs to.
    public var assetId: Int64
    /// A `PHAssetResourceType` raw value.
    public var type: Int
    /// The file's name in the directory.
    public var name: String
    /// The file's uniform type identifier.
    public var uniformTypeIdentifier: String?
}

extension LibraryDatabase {
    /// The originals (not edits) the library has directly in `directory`, in type order per asset.
    public func sidecarNeighbours(inDirectory directory: String) throws -> [SidecarNeighbour] {
        try read { db in
            let (condition, arguments) = FileDirectories.directlyIn(directory, db.dialect)
            return try db.rows(
                """
                SELECT r.assetId, r.type, r.name, r.uniformTypeIdentifier FROM \(FileDirectories.join)
                WHERE \(condition) AND r.type NOT IN \(PHAssetResourceType.editTypesSQL)
                ORDER BY r.assetId, r.type
                """, arguments
            ) { row in
                SidecarNeighbour(
                    assetId: try row.int64(0), type: Int(try row.int64(1)), name: try row.text(2),
                    uniformTypeIdentifier: row.optionalText(3))
            }
        }
    }
}

extension ScanReader {
    /// The sidecars directly in `directory` whose merge base the library holds, each with its
    /// modification time at the last sync (nil: there was no file then): what a scan compares the
    /// `.xmp` files it lists with.
    public func sidecarTimes(inDirectory directory: String) throws -> [String: Double?] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        // Paths directly in the directory and below it sort between "dir/" and "dir0" ("0" follows "/").
        var times: [String: Double?] = [:]
        // In a library several hosts share, the bases of this host's photos (a sidecar is beside
        // its photo): another host's sidecar at the same path is another file (``RootHosts``).
        var (onThisHost, hostArguments) = ("", [SQLValue]())
        if db.dialect != .sqlite {
            let (condition, arguments) = FileDirectories.directlyIn(directory, db.dialect)
            onThisHost = " AND assetId IN (SELECT r.assetId FROM \(FileDirectories.join) WHERE \(condition))"
            hostArguments = arguments
        }
        _ = try db.rows(
            "SELECT path, modificationTime FROM sidecarBase WHERE path >= ? AND path < ?\(onThisHost)",
            [.text(prefix), .text(String(prefix.dropLast()) + "0")] + hostArguments
        ) { row in
            let path = try row.text(0)
            guard !path.utf8.dropFirst(prefix.utf8.count).contains(UInt8(ascii: "/")) else { return }
            times[path] = row.optionalDouble(1)
        }
        return times
    }
}
