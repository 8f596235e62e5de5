import Foundation
import GRDB
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
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT a.latitude, a.longitude FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                        WHERE ca.collectionId = ? AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL
                        """), arguments: [id])
            return rows.map { (latitude: $0[0], longitude: $0[1]) }
        }
    }

    /// Where the assets of a folder's albums were taken (row `id`), those with a position, through
    /// its folders at every depth; an asset in two of its albums counts once.
    public func memberPositions(ofFolder id: Int64) throws -> [(latitude: Double, longitude: Double)] {
        try read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        WITH RECURSIVE tree(id) AS (
                            SELECT id FROM collection WHERE parentId = ?
                            UNION SELECT c.id FROM collection c JOIN tree ON c.parentId = tree.id)
                        SELECT a.latitude, a.longitude FROM asset a
                        WHERE a.id IN (SELECT assetId FROM collection_asset WHERE collectionId IN tree)
                          AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL
                        """), arguments: [id])
            return rows.map { (latitude: $0[0], longitude: $0[1]) }
        }
    }

    /// The row ids an asset query selects, in order: the snapshot behind a fetch result.
    public func assetIDs(matching query: AssetQuery) throws -> [Int64] {
        let (sql, arguments) = query.sql()
        return try read { db in try Self.fetchIDs(db, sql: sql, arguments: arguments) }
    }

    /// The number of assets an asset query selects.
    public func countAssets(matching query: AssetQuery) throws -> Int {
        var query = query
        query.sort = []
        let (sql, arguments) = query.sql(selecting: "COUNT(*)")
        return try read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    /// The row ids a collection query selects, in order.
    public func collectionIDs(matching query: CollectionQuery) throws -> [Int64] {
        let (sql, arguments) = query.sql()
        return try read { db in try Self.fetchIDs(db, sql: sql, arguments: arguments) }
    }

    /// The assets with these row ids, keyed by id; deleted ones are absent.
    public func assets(ids: [Int64]) throws -> [Int64: AssetRecord] {
        try read { db in try Self.assets(ids: ids, db) }
    }

    /// The resources of these assets, keyed by asset id, each list in type order.
    public func resources(assetIDs: [Int64]) throws -> [Int64: [ResourceRecord]] {
        try read { db in try Self.resources(assetIDs: assetIDs, db) }
    }

    static func resources(assetIDs: [Int64], _ db: Database) throws -> [Int64: [ResourceRecord]] {
        let rows = try ResourceRecord.fetchAll(
            db,
            sql: """
                SELECT \(FileDirectories.columns) FROM \(FileDirectories.join)
                WHERE r.assetId IN (SELECT value FROM json_each(?)) ORDER BY r.type, r.id
                """,
            arguments: [JSONText.array(assetIDs)])
        return Dictionary(grouping: rows, by: \.assetId)
    }

    /// The collections with these row ids, with their derived figures, keyed by id.
    public func collections(ids: [Int64]) throws -> [Int64: CollectionInfo] {
        try read { db in
            let records = try db.rows(
                "SELECT \(CollectionRecord.columns()) FROM collection WHERE id IN (SELECT value FROM json_each(?))",
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
            try Int64.fetchOne(db, sql: "SELECT id FROM collection WHERE localIdentifier = ?", arguments: [identifier])
        }
    }

    /// The oldest token still in the change log (nil when the log is empty).
    public func oldestToken() throws -> Int64? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MIN(token) FROM change") }
    }

    // MARK: Shared with transactions

    static func fetchIDs(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Int64] {
        let statement = try db.cachedStatement(sql: sql)
        var ids: [Int64] = []
        let cursor = try Int64.fetchCursor(statement, arguments: arguments)
        while let id = try cursor.next() { ids.append(id) }
        return ids
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

    static func assets(ids: [Int64], _ db: Database) throws -> [Int64: AssetRecord] {
        let records = try AssetRecord.fetchAll(
            db,
            sql: "SELECT * FROM asset WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [JSONText.array(ids)])
        return Dictionary(uniqueKeysWithValues: records.map { ($0.id!, $0) })
    }

    static func tombstones<Record: Decodable>(_ type: Record.Type, isAsset: Bool, ids: [Int64], _ db: Database) throws
        -> [Int64: Record]
    {
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT rowId, record FROM tombstone WHERE isAsset = ? AND rowId IN (SELECT value FROM json_each(?))",
            arguments: [isAsset, JSONText.array(ids)])
        let decoder = JSONDecoder()
        var result: [Int64: Record] = [:]
        for row in rows {
            let json: String = row["record"]
            result[row["rowId"]] = try decoder.decode(Record.self, from: Data(json.utf8))
        }
        return result
    }

    static func ids(table: String, localIdentifiers: [String], _ db: Database) throws -> [String: Int64] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT localIdentifier, id FROM \(table) WHERE localIdentifier IN (SELECT value FROM json_each(?))"
            ),
            arguments: [JSONText.array(localIdentifiers)])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
    }

    static func info(for record: CollectionRecord, _ db: Database) throws -> CollectionInfo {
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
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COALESCE(SUM(assetCount), 0) AS count, MIN(startDate) AS start, MAX(endDate) AS end,
                        MAX(dirty) AS dirty
                    FROM collection_stats
                    WHERE collectionId = ?1 OR collectionId IN (SELECT id FROM collection WHERE parentId = ?1)
                    """), arguments: [record.id])
        if row?["dirty"] == true {
            let members = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS count, MIN(a.creationDate) AS start, MAX(a.creationDate) AS end
                    FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                    WHERE ca.collectionId = ?1
                       OR ca.collectionId IN (SELECT id FROM collection WHERE parentId = ?1)
                    """, arguments: [record.id])
            if !record.isList { info.estimatedAssetCount = members?["count"] }
            info.startDate = members?["start"]
            info.endDate = members?["end"]
            return info
        }
        if !record.isList { info.estimatedAssetCount = row?["count"] }
        info.startDate = row?["start"]
        info.endDate = row?["end"]
        return info
    }
}

extension CollectionInfo {
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
    package static func rowIDs(localIdentifiers: [String], assets: Bool, _ db: Database) throws -> [Int64] {
        guard !localIdentifiers.isEmpty else { return [] }
        return Array(try ids(table: assets ? "asset" : "collection", localIdentifiers: localIdentifiers, db).values)
    }
}
