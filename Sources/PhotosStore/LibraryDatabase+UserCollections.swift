import PhotosCore

/// A user album or folder as the disk keeps it (the album manifest): what makes it, by local
/// identifiers rather than row ids.
public struct UserCollection: Sendable, Hashable {
    /// The collection row (its `id` and `parentId` are this library's).
    public var record: CollectionRecord
    /// The local identifier of the folder holding it; nil at the top level.
    public var parent: String?
    /// An album's assets, in its order (empty for a folder).
    public var assets: [Member]

    /// An album's asset: its local identifier and the path of its first original (its photo),
    /// by which a rebuild finds it when no sidecar gave it its identifier back.
    public struct Member: Sendable, Hashable {
        public var localIdentifier: String
        public var file: String?

        public init(localIdentifier: String, file: String?) {
            self.localIdentifier = localIdentifier
            self.file = file
        }
    }

    public init(record: CollectionRecord, parent: String?, assets: [Member]) {
        self.record = record
        self.parent = parent
        self.assets = assets
    }
}

extension LibraryDatabase {
    /// How many assets there are, and how many carry each kind of user state: a rebuild's summary.
    public func userStateCounts() throws -> (
        assets: Int, withSidecars: Int, favorites: Int, hidden: Int, rated: Int
    ) {
        try read { db in
            // Counted with CASE, not by summing a comparison: PostgreSQL sums no booleans.
            let counts =
                try db.rows(
                    """
                    SELECT COUNT(*), (SELECT COUNT(DISTINCT assetId) FROM sidecarBase), COALESCE(SUM(isFavorite), 0),
                        COALESCE(SUM(isHidden), 0), COALESCE(SUM(CASE WHEN rating <> 0 THEN 1 ELSE 0 END), 0)
                    FROM asset
                    """, []
                ) { row in (0..<5).map { Int(row.optionalInt64($0) ?? 0) } }.first ?? [0, 0, 0, 0, 0]
            return (counts[0], counts[1], counts[2], counts[3], counts[4])
        }
    }

    /// The SQL condition that selects user albums and user folders among `collection` rows: made
    /// through the library (no directory behind them), not smart.
    static let userCollectionCondition = """
        c.path IS NULL AND ((c.isList = 1 AND c.type = \(PHCollectionListType.folder.rawValue) \
        AND c.subtype = \(PHCollectionListSubtype.regularFolder.rawValue)) \
        OR (c.isList = 0 AND c.type = \(PHAssetCollectionType.album.rawValue) \
        AND c.subtype = \(PHAssetCollectionSubtype.albumRegular.rawValue)))
        """

    /// Every user album and folder, folders first and each after its parent, then albums, each
    /// level in its order, with their assets in album order.
    public func userCollections() throws -> [UserCollection] {
        try read { db in
            let parentColumn = CollectionRecord.columnNames.count
            let rows = try db.rows(
                """
                SELECT \(CollectionRecord.columns(db.dialect, alias: "c")), p.localIdentifier AS parentIdentifier FROM collection c
                LEFT JOIN collection p ON p.id = c.parentId
                WHERE \(Self.userCollectionCondition)
                ORDER BY c.isList DESC, c.position, c.id
                """, []
            ) { (record: try CollectionRecord(row: $0), parent: $0.optionalText(parentColumn)) }
            let members = try db.rows(
                """
                SELECT ca.collectionId, a.localIdentifier,
                    (SELECT \(FileDirectories.path(db.dialect)) FROM \(FileDirectories.join)
                        WHERE r.assetId = a.id AND r.type IN (1, 2, 3, 4) ORDER BY r.type, r.id LIMIT 1) AS file
                FROM collection_asset ca
                JOIN asset a ON a.id = ca.assetId
                JOIN collection c ON c.id = ca.collectionId
                WHERE \(Self.userCollectionCondition)
                ORDER BY ca.collectionId, ca.position
                """, []
            ) { (try $0.int64(0), UserCollection.Member(localIdentifier: try $0.text(1), file: $0.optionalText(2))) }
            var assets: [Int64: [UserCollection.Member]] = [:]
            for (collection, member) in members { assets[collection, default: []].append(member) }
            let collections = rows.map { row in
                UserCollection(
                    record: row.record, parent: row.parent, assets: row.record.id.flatMap { assets[$0] } ?? [])
            }
            return Self.parentsFirst(collections)
        }
    }

    /// Folders ordered so that each comes after the folder holding it (albums after every folder).
    static func parentsFirst(_ collections: [UserCollection]) -> [UserCollection] {
        var placed: Set<String> = []
        var ordered: [UserCollection] = []
        var waiting = collections.filter(\.record.isList)
        let folders = Set(waiting.map(\.record.localIdentifier))
        while !waiting.isEmpty {
            let ready = waiting.filter { $0.parent.map { !folders.contains($0) || placed.contains($0) } ?? true }
            // A cycle cannot be in the table (a folder has one parent, checked at every move); were one
            // there, its folders come last rather than never.
            let next = ready.isEmpty ? waiting : ready
            ordered += next
            placed.formUnion(next.map(\.record.localIdentifier))
            let taken = Set(next.map(\.record.localIdentifier))
            waiting.removeAll { taken.contains($0.record.localIdentifier) }
        }
        return ordered + collections.filter { !$0.record.isList }
    }
}

extension LibraryTransaction {
    /// Brings back a user album or folder with its identifier, title, place and assets (a library
    /// rebuilt from the disk). A collection with that identifier already there is left as it is;
    /// a parent that is not there puts it at the top level; assets that are not there are passed
    /// over. Returns whether it was made.
    @discardableResult
    public func restoreUserCollection(_ collection: UserCollection) throws -> Bool {
        guard try self.collection(withLocalIdentifier: collection.record.localIdentifier) == nil else { return false }
        var record = collection.record
        record.id = nil
        record.path = nil
        record.device = nil
        record.inode = nil
        record.parentId = try collection.parent.flatMap { try self.collection(withLocalIdentifier: $0) }?.id
        let id = try insertCollection(record)
        if !record.isList, !collection.assets.isEmpty {
            var members: [Int64] = []
            var seen: Set<Int64> = []
            for member in collection.assets {
                guard let assetID = try restoredAsset(member), seen.insert(assetID).inserted else { continue }
                members.append(assetID)
            }
            record.id = id
            try setMembers(ofCollection: record, to: members)
        }
        return true
    }

    /// The asset an album member names: the asset with its identifier, else the asset of its file,
    /// which then takes the identifier back (its photo had no sidecar to keep it). Nil when neither
    /// is in the library (its photo gone from disk).
    func restoredAsset(_ member: UserCollection.Member) throws -> Int64? {
        if let id = try assetIDs(forLocalIdentifiers: [member.localIdentifier])[member.localIdentifier] {
            return id
        }
        guard let file = member.file else { return nil }
        let (directory, name) = FileDirectories.split(file)
        guard
            let id = try db.scalarInt64(
                """
                SELECT r.assetId FROM \(FileDirectories.join)
                WHERE d.path = ? AND \(db.dialect.isThisHost("d.host")) AND r.name = ? LIMIT 1
                """,
                [.text(directory), .text(name)])
        else { return nil }
        try db.execute("UPDATE asset SET localIdentifier = ? WHERE id = ?", [.text(member.localIdentifier), .int(id)])
        return id
    }
}
