import Foundation
import PhotosCore

/// A collection row with the figures PhotoKit derives from its members.
public struct CollectionInfo: Sendable, Hashable {
    /// The collection row.
    public var record: CollectionRecord
    /// Members of an album; nil where PhotoKit reports `NSNotFound` (smart albums, folders).
    public var estimatedAssetCount: Int?
    /// The earliest member creation date, seconds since 1970.
    public var startDate: Double?
    /// The latest member creation date, seconds since 1970.
    public var endDate: Double?
}

extension LibraryDatabase {
    /// Where the members of an album (row `id`) were taken, those with a position: what its
    /// approximate location is the centre of.
    public func memberPositions(ofCollection id: Int64) throws -> [(latitude: Double, longitude: Double)] {
        try read { db in
            try db.rows(
                """
                SELECT a.latitude, a.longitude FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                WHERE ca.collectionId = ? AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL
                """, [.int(id)], Self.position)
        }
    }

    /// Where the assets of a folder's albums were taken (row `id`), those with a position, through
    /// its folders at every depth; an asset in two of its albums counts once.
    public func memberPositions(ofFolder id: Int64) throws -> [(latitude: Double, longitude: Double)] {
        try read { db in
            try db.rows(
                """
                WITH RECURSIVE tree(id) AS (
                    SELECT id FROM collection WHERE parentId = ?
                    UNION SELECT c.id FROM collection c JOIN tree ON c.parentId = tree.id)
                SELECT a.latitude, a.longitude FROM asset a
                WHERE a.id IN (SELECT assetId FROM collection_asset WHERE collectionId IN (SELECT id FROM tree))
                  AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL
                """, [.int(id)], Self.position)
        }
    }

    /// A member's position from a row of its latitude and longitude.
    private static func position(_ row: StoreRow) -> (latitude: Double, longitude: Double) {
        (row.optionalDouble(0) ?? 0, row.optionalDouble(1) ?? 0)
    }

    /// The row ids an asset query selects, in order: the snapshot behind a fetch result.
    public func assetIDs(matching query: AssetQuery) throws -> [Int64] {
        try read { db in
            let (sql, arguments) = query.sql(dialect: db.dialect)
            return try Self.fetchIDs(db, sql: sql, arguments: arguments)
        }
    }

    /// The number of assets an asset query selects.
    public func countAssets(matching query: AssetQuery) throws -> Int {
        var query = query
        query.sort = []
        return try read { db in
            let (sql, arguments) = query.countSQL(dialect: db.dialect)
            return Int(try db.scalarInt64(sql, arguments) ?? 0)
        }
    }

    /// The row ids a collection query selects, in order.
    public func collectionIDs(matching query: CollectionQuery) throws -> [Int64] {
        try read { db in
            let (sql, arguments) = query.sql(dialect: db.dialect)
            return try Self.fetchIDs(db, sql: sql, arguments: arguments)
        }
    }

    /// The assets with these row ids, keyed by id; deleted ones are absent.
    public func assets(ids: [Int64]) throws -> [Int64: AssetRecord] {
        try read { db in try Self.assets(ids: ids, db) }
    }

    /// The resources of these assets, keyed by asset id, each list in type order.
    public func resources(assetIDs: [Int64]) throws -> [Int64: [ResourceRecord]] {
        try read { db in try Self.resources(assetIDs: assetIDs, db) }
    }

    static func resources(assetIDs: [Int64], _ db: some StoreConnection) throws -> [Int64: [ResourceRecord]] {
        let rows = try db.rows(
            """
            SELECT \(FileDirectories.columns(db.dialect)) FROM \(FileDirectories.join)
            WHERE \(db.dialect.isInWholeNumberList("r.assetId")) ORDER BY r.type, r.id
            """, [.text(JSONText.array(assetIDs))], ResourceRecord.init(row:))
        return Dictionary(grouping: rows, by: \.assetId)
    }

    /// The collections with these row ids, with their derived figures, keyed by id.
    public func collections(ids: [Int64]) throws -> [Int64: CollectionInfo] {
        try read { db in
            let records = try db.rows(
                "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE \(db.dialect.isInWholeNumberList("id"))",
                [.text(JSONText.array(ids))], CollectionRecord.init(row:))
            var result: [Int64: CollectionInfo] = [:]
            for record in records {
                result[record.id!] = try Self.info(for: record, db)
            }
            if result.count < ids.count {
                let missing = ids.filter { result[$0] == nil }
                for (id, record) in try Self.tombstones(CollectionRecord.self, isAsset: false, ids: missing, db) {
                    result[id] = CollectionInfo(record: record)
                }
            }
            return result
        }
    }

    /// The row id of the collection with a local identifier.
    public func collectionID(forLocalIdentifier identifier: String) throws -> Int64? {
        try read { db in
            try db.scalarInt64("SELECT id FROM collection WHERE localIdentifier = ?", [.text(identifier)])
        }
    }

    /// The members (asset row ids) of the albums an asset's JSON names (`albums`: the regular albums,
    /// directory-backed and user ones), by the album's local identifier: of the albums `identifiers`
    /// names, or of every one (nil). An album with no member has an empty set.
    ///
    /// A live query of assets keeps them, to tell which assets' `albums` a change of albums altered.
    public func albumMembers(_ identifiers: [String]? = nil) throws -> [String: Set<Int64>] {
        try read { db in
            var albums = "isList = 0 AND type = \(PHAssetCollectionType.album.rawValue)"
            var arguments: [SQLValue] = []
            if let identifiers {
                albums += " AND localIdentifier IN (\(db.dialect.elementsOfJSONArray()))"
                arguments.append(.text(JSONText.array(identifiers)))
            }
            let ids = try db.rows("SELECT id, localIdentifier FROM collection WHERE \(albums)", arguments) {
                (try $0.int64(0), try $0.text(1))
            }
            var members = Dictionary(uniqueKeysWithValues: ids.map { ($0.0, Set<Int64>()) })
            // Row ids only: a library's every membership is read when a query starts.
            let pairs = try db.rows(
                """
                SELECT collectionId, assetId FROM collection_asset
                WHERE collectionId IN (SELECT id FROM collection WHERE \(albums))
                """, arguments
            ) { (try $0.int64(0), try $0.int64(1)) }
            for (album, asset) in pairs { members[album]?.insert(asset) }
            return Dictionary(uniqueKeysWithValues: ids.map { ($0.1, members[$0.0] ?? []) })
        }
    }

    /// The oldest token still in the change log (nil when the log is empty).
    public func oldestToken() throws -> Int64? {
        try read { db in try db.scalarInt64("SELECT MIN(token) FROM change") }
    }

    // MARK: Shared with transactions

    static func fetchIDs(_ db: some StoreConnection, sql: String, arguments: [SQLValue]) throws -> [Int64] {
        try db.integers(sql, arguments)
    }

    /// The assets with these row ids, keyed by id; trashed ones (Recently Deleted) come from their
    /// kept records, deleted ones from their tombstones.
    public func assetsIncludingDeleted(ids: [Int64]) throws -> [Int64: AssetRecord] {
        try read { db in
            var records = try Self.assets(ids: ids, db)
            if records.count < ids.count {
                let missing = ids.filter { records[$0] == nil }
                records.merge(try Self.trashedRecords(ids: missing, db)) { live, _ in live }
            }
            if records.count < ids.count {
                let missing = ids.filter { records[$0] == nil }
                for (id, record) in try Self.tombstones(AssetRecord.self, isAsset: true, ids: missing, db) {
                    records[id] = record
                }
            }
            return records
        }
    }

    static func assets(ids: [Int64], _ db: some StoreConnection) throws -> [Int64: AssetRecord] {
        let records = try db.rows(
            """
            SELECT \(AssetRecord.selectionSQL) FROM asset
            WHERE \(db.dialect.isInWholeNumberList("id"))
            """, [.text(JSONText.array(ids))], AssetRecord.init(row:))
        return Dictionary(uniqueKeysWithValues: records.map { ($0.id!, $0) })
    }

    static func tombstones<Record: Decodable>(
        _ type: Record.Type, isAsset: Bool, ids: [Int64], _ db: some StoreConnection
    ) throws -> [Int64: Record] {
        let rows = try db.rows(
            """
            SELECT rowId, record FROM tombstone
            WHERE isAsset = ? AND \(db.dialect.isInWholeNumberList("rowId"))
            """, [.flag(isAsset), .text(JSONText.array(ids))]
        ) { (id: try $0.int64(0), json: try $0.text(1)) }
        let decoder = JSONDecoder()
        var result: [Int64: Record] = [:]
        for row in rows {
            result[row.id] = try decoder.decode(Record.self, from: Data(row.json.utf8))
        }
        return result
    }

    static func ids(table: String, localIdentifiers: [String], _ db: some StoreConnection) throws -> [String: Int64] {
        let rows = try db.rows(
            "SELECT localIdentifier, id FROM \(table) WHERE localIdentifier IN (\(db.dialect.elementsOfJSONArray()))",
            [.text(JSONText.array(localIdentifiers))]
        ) { (try $0.text(0), try $0.int64(1)) }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    static func info(for record: CollectionRecord, _ db: some StoreConnection) throws -> CollectionInfo {
        var info = CollectionInfo(record: record)
        if record.type == PHAssetCollectionType.smartAlbum.rawValue && !record.isList {
            // PhotoKit counts no smart album (NSNotFound); Recently Deleted, this library's own, is
            // counted, a row of the trash each.
            if record.subtype == PHAssetCollectionSubtype.smartAlbumRecentlyDeleted.rawValue {
                info.estimatedAssetCount = try trashedAssetCount(db)
            }
            return info
        }
        // An album's kept figures (CollectionStats), a folder's from its albums' figures: a row or a
        // few, never a read of the members, unless a figure was left dirty by a write made outside
        // LibraryDatabase.write.
        let figures = try db.firstRow(
            """
            SELECT COALESCE(SUM(assetCount), 0), MIN(startDate), MAX(endDate), MAX(dirty)
            FROM collection_stats
            WHERE collectionId = ?1 OR collectionId IN (SELECT id FROM collection WHERE parentId = ?1)
            """, [.int(record.id)], Figures.init(row:))
        if let figures, figures.dirty {
            let members = try db.firstRow(
                """
                SELECT COUNT(*), MIN(a.creationDate), MAX(a.creationDate), 0
                FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                WHERE ca.collectionId = ?1
                   OR ca.collectionId IN (SELECT id FROM collection WHERE parentId = ?1)
                """, [.int(record.id)], Figures.init(row:))
            return info.with(members, isList: record.isList)
        }
        return info.with(figures, isList: record.isList)
    }

    /// An album's or folder's figures as a row of count, first date, last date and dirty flag.
    fileprivate struct Figures {
        var count: Int?
        var start: Double?
        var end: Double?
        var dirty: Bool

        init(row: StoreRow) {
            count = row.optionalInt64(0).map(Int.init)
            start = row.optionalDouble(1)
            end = row.optionalDouble(2)
            dirty = (row.optionalInt64(3) ?? 0) != 0
        }
    }
}

extension CollectionInfo {
    /// The collection with these figures (a folder counts no assets of its own).
    fileprivate func with(_ figures: LibraryDatabase.Figures?, isList: Bool) -> CollectionInfo {
        var info = self
        if !isList { info.estimatedAssetCount = figures?.count }
        info.startDate = figures?.start
        info.endDate = figures?.end
        return info
    }

    /// A collection with no derived figures yet.
    public init(record: CollectionRecord) {
        self.record = record
        estimatedAssetCount = nil
        startDate = nil
        endDate = nil
    }
}

extension LibraryDatabase {
    /// The row ids of objects by local identifier, assets or collections, in one read (those not
    /// in the library are left out).
    public func rowIDs(localIdentifiers: [String], assets: Bool) throws -> [Int64] {
        guard !localIdentifiers.isEmpty else { return [] }
        return try read { db in try Self.rowIDs(localIdentifiers: localIdentifiers, assets: assets, db) }
    }

    /// The row ids of objects by local identifier, in a transaction of the caller's.
    package static func rowIDs(localIdentifiers: [String], assets: Bool, _ db: some StoreConnection) throws -> [Int64] {
        guard !localIdentifiers.isEmpty else { return [] }
        return Array(try ids(table: assets ? "asset" : "collection", localIdentifiers: localIdentifiers, db).values)
    }
}
