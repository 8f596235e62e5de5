import Foundation
import PhotosCore

/// The writes one change block may make, inside one SQLite transaction.
///
/// Every method records what it changed, so that ``LibraryDatabase/write(_:)`` can append the
/// transaction's change-log entry. Obtain one only through ``LibraryDatabase/write(_:)``.
public final class LibraryTransaction {
    let db: any StoreConnection
    var changes = ChangeLogWriter()
    /// Whether this transaction journaled file work that any process may do once it commits
    /// (``FileJournalEntry/anyOwner``): the files of deleted assets and of dropped edits.
    public internal(set) var owesFileWork = false
    /// The host writing, in a library several hosts share (``LibraryDatabase/host``): the roots it
    /// scans are its own.
    let host: String?

    init(db: any StoreConnection, host: String? = nil) {
        self.db = db
        self.host = host
    }

    // MARK: Assets

    /// The insert of an asset row, every column of ``AssetRecord/columnNames`` but the row id; on
    /// SQLite without the statement journal its smart album counts' trigger would need
    /// (``SQLDialect/insertFailingTransaction``).
    private static func insertAssetSQL(_ dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: insertAssetSQLite
        case .postgreSQL: insertAssetPostgreSQL
        }
    }
    private static let insertAssetSQLite = SQLText.insert(
        into: "asset", AssetRecord.columnNames.dropFirst(), verb: SQLDialect.sqlite.insertFailingTransaction)
    private static let insertAssetPostgreSQL = SQLText.insert(
        into: "asset", AssetRecord.columnNames.dropFirst(), verb: SQLDialect.postgreSQL.insertFailingTransaction)
    /// The same with the row id, for a key taken ahead.
    private static let laterAssetInsert = LaterInsert(
        table: "asset", columns: SQLText.list(AssetRecord.columnNames),
        row: "(\(SQLText.placeholders(AssetRecord.columnNames.count)))")

    /// Inserts an asset and its resources, returning the asset's row id. A failed insert fails the
    /// block, whose transaction the engine has already undone: let the error end the block.
    @discardableResult
    public func insertAsset(_ asset: AssetRecord, resources: [ResourceRecord] = []) throws -> Int64 {
        let id: Int64
        if let key = try db.reservedKey(of: "asset") {
            // Known by its key before it is inserted: inserted with the transaction's next
            // statement, beside the other rows held until then (a scan's batch, many to a statement).
            id = key
            try db.insertLater(Self.laterAssetInsert, [.int(key)] + asset.values)
        } else {
            id = try db.insert(Self.insertAssetSQL(db.dialect), asset.values)
        }
        for var resource in resources {
            resource.assetId = id
            try insertResource(resource)
        }
        changes.recorder.inserted(.asset, asset.localIdentifier)
        return id
    }

    /// Saves a changed asset, recording which PhotoKit properties changed.
    public func updateAsset(_ asset: AssetRecord, properties: [String]) throws {
        try asset.update(in: db)
        changes.recorder.updated(.asset, asset.localIdentifier, properties: properties)
    }

    /// Sets some columns of the asset with a local identifier, recording which PhotoKit properties
    /// changed; throws `identifierNotFound` when there is no such asset.
    ///
    /// One UPDATE of the named columns, without reading the row: an edit request's way, ten times
    /// cheaper than a record's full-row update when a block edits thousands of assets.
    ///
    /// ```swift
    /// try transaction.updateAsset(
    ///     localIdentifier: id, setting: [("isFavorite", .int(1)), ("modificationDate", .double(now))], properties: ["isFavorite"])
    /// ```
    public func updateAsset(
        localIdentifier: String, setting columns: [(column: String, value: SQLValue)],
        properties: [String]
    ) throws {
        let assignments = SQLText.assignments(columns.map(\.column))
        let changed = try db.execute(
            "UPDATE asset SET \(assignments) WHERE localIdentifier = ?", columns.map(\.value) + [.text(localIdentifier)]
        )
        guard changed == 1 else {
            throw PHPhotosError(.identifierNotFound, "no asset \(localIdentifier)", localIdentifiers: [localIdentifier])
        }
        changes.recorder.updated(.asset, localIdentifier, properties: properties)
    }

    /// Records conflicts a sidecar merge settled, for this transaction's change-log entry.
    public func noteSidecarConflicts(_ conflicts: [SidecarConflict]) {
        changes.sidecarConflicts += conflicts
    }

    /// Records where an asset this transaction inserted was imported from, for its change-log entry.
    public func noteImport(_ origin: ImportOrigin) {
        changes.imports.append(origin)
    }

    /// Deletes assets by row id; their resources and album memberships go with them. The files the
    /// library placed for them are journaled for removal unless `removingLibraryFiles` is false (a
    /// trashed asset keeps them until it is erased: ``trashAssets(_:files:date:)``).
    public func deleteAssets(_ ids: [Int64], removingLibraryFiles: Bool = true) throws {
        try deleteAssets(ids, removingLibraryFiles: removingLibraryFiles, encoded: [:])
    }

    /// ``deleteAssets(_:removingLibraryFiles:)`` with the JSON of some of the assets' records made
    /// already (`encoded`, by row id), for their tombstones.
    func deleteAssets(_ ids: [Int64], removingLibraryFiles: Bool, encoded: [Int64: String]) throws {
        guard !ids.isEmpty else { return }
        let list: [SQLValue] = [.text(JSONText.array(ids))]
        let listed = db.dialect.elementsOfJSONArray(wholeNumbers: true)
        let identifiers = try db.rows(
            "SELECT localIdentifier FROM asset WHERE id IN (\(listed)) ORDER BY id", list
        ) { try $0.text(0) }
        // Albums that lose members change too.
        let albums = try db.rows(
            """
            SELECT DISTINCT c.localIdentifier FROM collection_asset ca JOIN collection c ON c.id = ca.collectionId
            WHERE ca.assetId IN (\(listed))
            """, list
        ) { try $0.text(0) }
        let records = try db.rows(
            "SELECT \(AssetRecord.selectionSQL) FROM asset WHERE id IN (\(listed))", list, AssetRecord.init(row:))
        try keepTombstones(of: records, isAsset: true, encoded: encoded)
        // Files the library placed for these assets (imported copies, edits) go after the commit,
        // whoever deletes them: a change block, or the scanner when an edited photo's file is gone.
        if removingLibraryFiles {
            try journalRemoval(
                of: db.rows(
                    """
                    SELECT \(FileDirectories.columns(db.dialect)) FROM \(FileDirectories.join)
                    WHERE r.assetId IN (\(listed)) AND r.isLibraryOwned = 1
                    """, list, ResourceRecord.init(row:)))
        }
        try db.execute("DELETE FROM asset WHERE id IN (\(listed))", list)
        for identifier in identifiers { changes.recorder.deleted(.asset, identifier) }
        for album in albums { changes.recorder.updated(.assetCollection, album, properties: ["assets"]) }
        // A burst whose representative went is represented by its earliest frame left: else a
        // default fetch, which shows representatives only, would show none of the burst.
        try pickBurstRepresentatives(Set(records.filter(\.representsBurst).compactMap(\.burstIdentifier)))
    }

    /// The asset with a local identifier, if it exists.
    public func asset(withLocalIdentifier identifier: String) throws -> AssetRecord? {
        try db.firstRow(
            "SELECT \(AssetRecord.selectionSQL) FROM asset WHERE localIdentifier = ?", [.text(identifier)],
            AssetRecord.init(row:))
    }

    /// The assets with these row ids, keyed by id.
    public func assets(ids: [Int64]) throws -> [Int64: AssetRecord] {
        try LibraryDatabase.assets(ids: ids, db)
    }

    /// The row ids of these local identifiers, keyed by identifier; unknown ones are absent.
    public func assetIDs(forLocalIdentifiers identifiers: [String]) throws -> [String: Int64] {
        try LibraryDatabase.ids(table: "asset", localIdentifiers: identifiers, db)
    }

    /// The resources of these assets, keyed by asset id, each list in type order.
    public func resources(assetIDs: [Int64]) throws -> [Int64: [ResourceRecord]] {
        try LibraryDatabase.resources(assetIDs: assetIDs, db)
    }

    /// Adds a resource to an existing asset.
    public func insertResource(_ resource: ResourceRecord) throws {
        let (directory, name) = FileDirectories.split(resource.path)
        let rest: [SQLValue] = [
            .text(name), .text(resource.uniformTypeIdentifier), .text(resource.mimeType), .int(resource.fileSize),
            .text(resource.originalFilename == name ? nil : resource.originalFilename),
            .text(resource.pairingName), .int(resource.device), .int(resource.inode),
            .double(resource.modificationTime), .text(resource.contentHash), .text(resource.contentIdentifier),
            .flag(resource.isLibraryOwned), .int(resource.pixelWidth), .int(resource.pixelHeight),
            .int(resource.birthTime),
        ]
        let columns = """
            assetId, type, directoryId, name, uniformTypeIdentifier, mimeType, fileSize, originalFilename,
            pairingName, device, inode, modificationTime, contentHash, contentIdentifier, isLibraryOwned,
            pixelWidth, pixelHeight, birthTime
            """
        let values = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
        guard db.dialect.statementsAreRoundTrips else {
            let directoryID = try FileDirectories.id(of: directory, db)
            try db.execute(
                "INSERT INTO resource (\(columns)) VALUES (?, ?, ?, \(values), ?)",
                [.int(resource.assetId), .int(Int64(resource.type)), .int(directoryID)] + rest)
            return
        }
        // Where each statement is a round trip, the resource's row is held and inserted with the
        // transaction's next statement, a batch's many to a statement that finds or makes their
        // directories' rows by path.
        try db.insertLater(
            Self.laterResourceInsert, [.int(resource.assetId), .int(Int64(resource.type)), .text(directory)] + rest)
    }

    /// A resource's row, held, with its directory's path where its directory's id goes: the
    /// statement makes the directories that have no row (one per path), finds the others, and
    /// inserts the resources in the order they came. Each value is cast in its row, for a column of
    /// NULLs alone still has a type.
    private static let laterResourceInsert = LaterInsert(
        table: "resource",
        columns: "assetId, type, directory, name, uniformTypeIdentifier, mimeType, fileSize, originalFilename, "
            + "pairingName, device, inode, modificationTime, contentHash, contentIdentifier, isLibraryOwned, "
            + "pixelWidth, pixelHeight, birthTime",
        row: "(?::bigint, ?::bigint, ?::text, ?::text, ?::text, ?::text, ?::bigint, ?::text, ?::text, ?::bigint, "
            + "?::bigint, ?::float8, ?::text, ?::text, ?::bigint, ?::bigint, ?::bigint, ?::bigint)",
        dependsOn: ["asset"],
        statement: """
            WITH v (position, assetId, type, directory, name, uniformTypeIdentifier, mimeType, fileSize,
                originalFilename, pairingName, device, inode, modificationTime, contentHash, contentIdentifier,
                isLibraryOwned, pixelWidth, pixelHeight, birthTime) AS ({rows}),
            made AS (
                INSERT INTO directory (path) SELECT DISTINCT directory FROM v ON CONFLICT (path, host) DO NOTHING
                RETURNING id, path),
            found AS (
                SELECT id, path FROM made
                UNION ALL SELECT d.id, d.path FROM directory d
                WHERE d.path IN (SELECT directory FROM v) AND \(SQLDialect.postgreSQL.isThisHost("d.host")))
            INSERT INTO resource (assetId, type, directoryId, name, uniformTypeIdentifier, mimeType, fileSize,
                originalFilename, pairingName, device, inode, modificationTime, contentHash, contentIdentifier,
                isLibraryOwned, pixelWidth, pixelHeight, birthTime)
            SELECT v.assetId, v.type, found.id, v.name, v.uniformTypeIdentifier, v.mimeType, v.fileSize,
                v.originalFilename, v.pairingName, v.device, v.inode, v.modificationTime, v.contentHash,
                v.contentIdentifier, v.isLibraryOwned, v.pixelWidth, v.pixelHeight, v.birthTime
            FROM v JOIN found ON found.path = v.directory ORDER BY v.position
            """)

    // MARK: Collections

    /// Inserts a collection (album or folder), returning its row id. The folder it is put in is
    /// recorded as updated (`collections`): its children changed.
    @discardableResult
    public func insertCollection(_ collection: CollectionRecord) throws -> Int64 {
        var collection = collection
        collection.id = try collection.insert(in: db)
        changes.recorder.inserted(collection.isList ? .collectionList : .assetCollection, collection.localIdentifier)
        if let parentId = collection.parentId { try touchParent(parentId) }
        return collection.id!
    }

    /// Saves a changed collection, recording which of its properties changed (none: a change no
    /// PhotoKit property shows, such as the inode of its directory). A collection that moves to
    /// another folder or to another place among its siblings changes its folders' `collections`,
    /// which are recorded too.
    public func updateCollection(_ collection: CollectionRecord, properties: [String]) throws {
        let before = try collection.id.flatMap { try self.collection(id: $0) }
        try collection.update(in: db)
        if let before, before.parentId != collection.parentId || before.position != collection.position {
            if let old = before.parentId { try touchParent(old) }
            if let new = collection.parentId, new != before.parentId { try touchParent(new) }
        }
        guard !properties.isEmpty else { return }
        changes.recorder.updated(
            collection.isList ? .collectionList : .assetCollection, collection.localIdentifier,
            properties: properties)
    }

    /// Deletes a collection; a folder's descendants go with it. Returns the local identifiers deleted.
    @discardableResult
    public func deleteCollection(_ collection: CollectionRecord) throws -> [String] {
        guard let id = collection.id else { return [] }
        let descendants = try db.rows(
            """
            WITH RECURSIVE tree(id) AS (SELECT id FROM collection WHERE parentId = ?
                UNION ALL SELECT c.id FROM collection c JOIN tree ON c.parentId = tree.id)
            SELECT c.localIdentifier, c.isList FROM collection c JOIN tree ON c.id = tree.id
            """, [.int(id)]
        ) { (identifier: try $0.text(0), isList: try $0.bool(1)) }
        if let parentId = collection.parentId {
            try touchParent(parentId)
        }
        try keepTombstones(
            of: try db.rows(
                """
                WITH RECURSIVE tree(id) AS (SELECT CAST(? AS BIGINT) UNION ALL SELECT c.id FROM collection c JOIN tree ON c.parentId = tree.id)
                SELECT \(CollectionRecord.columns(db.dialect, alias: "collection")) FROM collection JOIN tree ON collection.id = tree.id
                """, [.int(id)], CollectionRecord.init(row:)),
            isAsset: false)
        try db.execute("DELETE FROM collection WHERE id = ?", [.int(id)])
        changes.recorder.deleted(collection.isList ? .collectionList : .assetCollection, collection.localIdentifier)
        for descendant in descendants {
            changes.recorder.deleted(descendant.isList ? .collectionList : .assetCollection, descendant.identifier)
        }
        return [collection.localIdentifier] + descendants.map(\.identifier)
    }

    /// The collection with a local identifier, if it exists.
    public func collection(withLocalIdentifier identifier: String) throws -> CollectionRecord? {
        try db.firstRow(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE localIdentifier = ?",
            [.text(identifier)],
            CollectionRecord.init(row:))
    }

    /// The collection with a row id, if it exists.
    public func collection(id: Int64) throws -> CollectionRecord? {
        try db.firstRow(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE id = ?", [.int(id)],
            CollectionRecord.init(row:)
        )
    }

    /// The asset row ids of an album, in the album's order.
    public func members(ofCollection id: Int64) throws -> [Int64] {
        try db.rows("SELECT assetId FROM collection_asset WHERE collectionId = ? ORDER BY position", [.int(id)]) {
            try $0.int64(0)
        }
    }

    /// Replaces an album's members with `assetIDs`, in that order.
    ///
    /// Only the rows that differ are written: a photo added to the end of an album of 10,000 is
    /// one insert, not 10,000.
    public func setMembers(ofCollection collection: CollectionRecord, to assetIDs: [Int64]) throws {
        guard let id = collection.id else { return }
        let before = try members(ofCollection: id)
        guard before != assetIDs else { return }
        var positions = Dictionary(before.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (position, assetID) in assetIDs.enumerated() {
            switch positions.removeValue(forKey: assetID) {
            case position?: continue
            case nil: try insertMember(assetID, into: id, at: position)
            case _?:
                try db.execute(
                    "UPDATE collection_asset SET position = ? WHERE collectionId = ? AND assetId = ?",
                    [.int(Int64(position)), .int(id), .int(assetID)])
            }
        }
        // What is left in `positions` is no longer a member.
        for assetID in positions.keys {
            try db.execute(
                "DELETE FROM collection_asset WHERE collectionId = ? AND assetId = ?", [.int(id), .int(assetID)])
        }
        changes.recorder.updated(.assetCollection, collection.localIdentifier, properties: ["assets"])
    }

    /// Appends the assets of files that just arrived to their directory's album, when the album
    /// needs nothing else: each is a photo or video's asset, none is a member yet, and all sort
    /// after the album's last member (by creation date, then id: new photos are the newest). Then
    /// the album is changed by a few inserts, whatever its size, and true is returned; otherwise
    /// nothing is changed and false says to set the members from the directory (`setMembers`).
    public func appendArrivals(atPaths paths: [String], toAlbum album: CollectionRecord) throws -> Bool {
        guard let id = album.id, !paths.isEmpty else { return false }
        let (arrived, arrivedArguments) = FileDirectories.ids(at: paths, db.dialect)
        let rows = try db.rows(
            """
            SELECT a.id, coalesce(a.creationDate, 0),
                CASE WHEN EXISTS (SELECT 1 FROM collection_asset ca WHERE ca.collectionId = ? AND ca.assetId = a.id)
                THEN 1 ELSE 0 END
            FROM asset a WHERE a.id IN (
                SELECT assetId FROM resource WHERE id IN (\(arrived)) AND type IN (?, ?))
            ORDER BY 2, 1
            """,
            [.int(id)] + arrivedArguments
                + [.int(Int64(PHAssetResourceType.photo.rawValue)), .int(Int64(PHAssetResourceType.video.rawValue))]
        ) { (id: try $0.int64(0), date: $0.optionalDouble(1) ?? 0, isMember: try $0.bool(2)) }
        // A file that joined an asset as its paired video or RAW, or a member's file that changed
        // (its date may move it): the directory decides.
        guard !rows.isEmpty, rows.allSatisfy({ !$0.isMember }) else { return false }
        let last = try db.firstRow(
            """
            SELECT ca.position, coalesce(a.creationDate, 0), a.id
            FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
            WHERE ca.collectionId = ? ORDER BY ca.position DESC
            """, [.int(id)]
        ) { (position: try $0.int64(0), date: $0.optionalDouble(1) ?? 0, id: try $0.int64(2)) }
        // An empty album is new or emptied: the directory decides.
        guard let last, let first = rows.first else { return false }
        guard (last.date, last.id) < (first.date, first.id) else { return false }
        let start = Int(last.position) + 1
        try insertMembers(rows.map(\.id), into: id, from: start)
        changes.recorder.updated(.assetCollection, album.localIdentifier, properties: ["assets"])
        return true
    }

    /// Inserts one membership.
    private func insertMember(_ assetID: Int64, into collectionID: Int64, at position: Int) throws {
        try db.execute(
            "INSERT INTO collection_asset (collectionId, assetId, position) VALUES (?, ?, ?)",
            [.int(collectionID), .int(assetID), .int(Int64(position))])
    }

    /// Inserts the memberships of `assetIDs` in `collectionID`, at positions from `start` on: one row
    /// a statement on SQLite, whose statements run in the process; held where each statement is a
    /// round trip to a server, and inserted with the next statement, many to a statement (a first
    /// scan's new albums' members are one or two statements, not one a photo).
    func insertMembers(_ assetIDs: [Int64], into collectionID: Int64, from start: Int) throws {
        guard db.dialect.statementsAreRoundTrips else {
            for (offset, assetID) in assetIDs.enumerated() {
                try insertMember(assetID, into: collectionID, at: start + offset)
            }
            return
        }
        for (offset, assetID) in assetIDs.enumerated() {
            try db.insertLater(
                Self.laterMemberInsert, [.int(collectionID), .int(assetID), .int(Int64(start + offset))])
        }
    }

    /// A membership, held to be inserted with the transaction's next statement.
    private static let laterMemberInsert = LaterInsert(
        table: "collection_asset", columns: "collectionId, assetId, position", row: "(?, ?, ?)",
        dependsOn: ["collection", "asset"])

    /// The child collection row ids of a folder (nil: the top level of user collections), in order.
    public func children(ofList id: Int64?) throws -> [Int64] {
        if let id {
            return try db.rows("SELECT id FROM collection WHERE parentId = ? ORDER BY position, id", [.int(id)]) {
                try $0.int64(0)
            }
        }
        return try db.rows(
            "SELECT id FROM collection WHERE parentId IS NULL AND (isList = 1 OR type = ?) ORDER BY position, id",
            [.int(Int64(PHAssetCollectionType.album.rawValue))]
        ) { try $0.int64(0) }
    }

    /// Makes `childIDs` the children of a folder (nil: the top level), in that order.
    ///
    /// A collection has one parent: a child taken from another folder leaves it. A folder whose
    /// children change is updated with `collections`; the top level is no object that could be, so
    /// there each child that changes its place among the others is updated with `position`.
    public func setChildren(ofList list: CollectionRecord?, to childIDs: [Int64]) throws {
        let parentId = list?.id
        let before = try children(ofList: parentId)
        guard before != childIDs else { return }
        let reordered =
            list == nil ? Set(OrderedDiff(from: before, to: childIDs).moves.map { before[$0.from] }) : []
        let kept = Set(childIDs)
        for removed in before where !kept.contains(removed) {
            guard var child = try collection(id: removed) else { continue }
            child.parentId = nil
            child.position = Int.max / 2
            try child.update(in: db)
            changes.recorder.updated(
                child.isList ? .collectionList : .assetCollection, child.localIdentifier,
                properties: ["parent"])
        }
        for (position, childID) in childIDs.enumerated() {
            guard var child = try collection(id: childID) else { continue }
            if child.parentId != parentId, let oldParent = child.parentId {
                try touchParent(oldParent)
            }
            let moved = child.parentId != parentId
            child.parentId = parentId
            child.position = position
            try child.update(in: db)
            if moved {
                changes.recorder.updated(
                    child.isList ? .collectionList : .assetCollection, child.localIdentifier,
                    properties: ["parent"])
            } else if reordered.contains(childID) {
                changes.recorder.updated(
                    child.isList ? .collectionList : .assetCollection, child.localIdentifier,
                    properties: ["position"])
            }
        }
        if let list { changes.recorder.updated(.collectionList, list.localIdentifier, properties: ["collections"]) }
    }

    /// Keeps the last state of objects about to be deleted, with an asset's files (their rows go
    /// with it): what ``LibraryDatabase/deletedObjects(localIdentifiers:)`` tells. The token is the
    /// one this transaction's change-log entry will get, so tombstones can be pruned with the log.
    private func keepTombstones<Record: Encodable & Identifiable>(
        of records: [Record], isAsset: Bool, encoded: [Int64: String] = [:]
    ) throws where Record.ID == Int64? {
        guard !records.isEmpty else { return }
        let token = (try db.scalarInt64(db.dialect.lastIssuedChangeToken) ?? 0) + 1
        let encoder = JSONEncoder()
        let files = isAsset ? try resources(assetIDs: records.compactMap(\.id)) : [:]
        for record in records {
            guard let id = record.id else { continue }
            let json =
                try encoded[id] ?? (record as? AssetRecord)?.keptJSON()
                ?? String(decoding: encoder.encode(record), as: UTF8.self)
            let identifier = (record as? AssetRecord)?.localIdentifier ?? (record as? CollectionRecord)?.localIdentifier
            var resources: String?
            if isAsset {
                // In type order: the photo or video first.
                let described = (files[id] ?? []).enumerated().map { order, file in
                    DeletedObject.KeptResource(
                        type: PHAssetResourceType(rawValue: file.type)?.name ?? "\(file.type)", path: file.path,
                        order: order, filename: file.originalFilename, isLibraryOwned: file.isLibraryOwned)
                }
                resources = String(decoding: try encoder.encode(described), as: UTF8.self)
            }
            try db.execute(
                """
                INSERT INTO tombstone (rowId, isAsset, localIdentifier, record, token, resources)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (isAsset, rowId) DO UPDATE SET localIdentifier = excluded.localIdentifier,
                    record = excluded.record, token = excluded.token, resources = excluded.resources
                """,
                [.int(id), .flag(isAsset), .text(identifier), .text(json), .int(token), .text(resources)])
        }
    }

    private func touchParent(_ id: Int64) throws {
        if let parent = try collection(id: id) {
            changes.recorder.updated(.collectionList, parent.localIdentifier, properties: ["collections"])
        }
    }
}

/// Turns a transaction's recorded changes into its change-log row: the one writer of the `change`
/// table's rows, which SQL written elsewhere (a benchmark's floor) uses too rather than a copy.
///
/// ```swift
/// var log = ChangeLogWriter()
/// log.recorder.updated(.asset, identifier, properties: ["isFavorite"])
/// try pool.write { db in _ = try log.append(to: db) }
/// ```
public struct ChangeLogWriter: Sendable {
    /// What the transaction changed.
    public var recorder = ChangeRecorder()
    /// The sidecar conflicts the transaction's merge settled (kept only when it changed something).
    public var sidecarConflicts: [SidecarConflict] = []
    /// Where the assets an import inserted in the transaction came from.
    public var imports: [ImportOrigin] = []

    /// A writer with nothing recorded.
    public init() {}

    /// Appends the entry, if anything changed, and returns it with its token.
    package func append(to db: some StoreConnection) throws -> LibraryChange? {
        guard !recorder.isEmpty else { return nil }
        let timestamp = Date().timeIntervalSince1970
        var entry = LibraryChange(
            token: 0, timestamp: timestamp, asset: recorder.changes(for: .asset),
            assetCollection: recorder.changes(for: .assetCollection),
            collectionList: recorder.changes(for: .collectionList))
        if !sidecarConflicts.isEmpty { entry.sidecarConflicts = sidecarConflicts }
        if !imports.isEmpty { entry.imports = imports }
        let payload = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        entry.token = try db.insert(
            "INSERT INTO change (timestamp, payload) VALUES (?, ?)", [.double(timestamp), .text(payload)], key: "token")
        return entry
    }
}
