import PhotosCore

/// What a scan asks of the library as it places thousands of directories' collections in a few
/// transactions: the same writes and the same recorded changes as the general methods, without
/// reading back rows the scan has just written.
extension LibraryTransaction {
    /// The token of the newest change-log entry (0 for a library never written to).
    ///
    /// A scan that finds its own last entry the newest knows that no other writer, in this process
    /// or another, has committed since: what it remembers of the library is still true.
    public func newestChangeToken() throws -> Int64 {
        try LibraryDatabase.newestToken(db)
    }

    /// Whether the store has a file under `directory`, at any depth: one probe of the index on
    /// directory paths (a directory's row lives as long as a file is in it).
    /// A directory it has nothing under has no rows for a new file there to pair with.
    public func hasFiles(under directory: String) throws -> Bool {
        try Self.hasFiles(db, under: directory)
    }

    static func hasFiles(_ db: some StoreConnection, under directory: String) throws -> Bool {
        let (condition, arguments) = FileDirectories.under(directory, db.dialect)
        return try db.scalarInt64("SELECT 1 FROM directory d WHERE \(condition) LIMIT 1", arguments) != nil
    }

    /// Inserts a collection into `folder`, as ``insertCollection(_:)`` does, given the folder
    /// (`collection.parentId`'s row, nil at the top level) instead of reading it: a scan holds
    /// every folder it places. The folder is recorded as updated (`collections`).
    @discardableResult
    public func insertCollection(_ collection: CollectionRecord, in folder: CollectionRecord?) throws -> Int64 {
        precondition(collection.parentId == folder?.id, "the folder is the collection's parent")
        var collection = collection
        collection.id = try collection.insert(in: db)
        changes.recorder.inserted(collection.isList ? .collectionList : .assetCollection, collection.localIdentifier)
        if let folder {
            changes.recorder.updated(.collectionList, folder.localIdentifier, properties: ["collections"])
        }
        return collection.id!
    }

    /// The members of the directory albums at or under `root`, each album's in its order, by album
    /// row id (an album with none is absent): ``members(ofCollection:)`` for a whole tree in one query.
    public func membersOfDirectoryAlbums(under root: String) throws -> [Int64: [Int64]] {
        let (condition, arguments) = Self.under(root, column: "c.path")
        var members: [Int64: [Int64]] = [:]
        _ = try db.rows(
            """
            SELECT ca.collectionId, ca.assetId FROM collection c JOIN collection_asset ca ON ca.collectionId = c.id
            WHERE c.isList = 0 AND (c.path = ? OR (\(condition))) AND \(db.dialect.isThisHost("c.host"))
            ORDER BY ca.collectionId, ca.position
            """, [.text(root)] + arguments
        ) { members[try $0.int64(0), default: []].append(try $0.int64(1)) }
        return members
    }

    /// Gives an album inserted in this transaction its members, in order: what
    /// ``setMembers(ofCollection:to:)`` does for an album that has none, without reading them.
    public func setMembers(ofNewCollection collection: CollectionRecord, to assetIDs: [Int64]) throws {
        guard let id = collection.id, !assetIDs.isEmpty else { return }
        try insertMembers(assetIDs, into: id, from: 0)
        changes.recorder.updated(.assetCollection, collection.localIdentifier, properties: ["assets"])
    }
}
