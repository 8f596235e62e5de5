import Foundation
import GRDB
import PhotosCore

/// What the collection JSON of some collections is made from, read in one snapshot.
public struct CollectionDescriptionRows: Sendable {
    /// The live collections asked for, in the order asked, with their derived figures as
    /// ``LibraryDatabase/collections(ids:)`` gives them.
    public var collections: [CollectionInfo]
    /// The number of assets a default fetch of each smart album selects (hidden assets and burst
    /// members left out, as PhotoKit counts them), by subtype raw value.
    public var smartAlbumCounts: [Int: Int]
    /// The local identifiers of the folders holding these collections, by folder row id.
    public var parentIdentifiers: [Int64: String]
}

extension LibraryDatabase {
    /// The rows behind the collection JSON of these albums and folders, in one read transaction.
    public func collectionDescriptionRows(_ keys: ObjectKeys) throws -> CollectionDescriptionRows {
        try read { db in try Self.collectionDescriptionRows(ids: keys.rowIDs(in: "collection", db), db) }
    }

    // MARK: Collections

    private static func collectionDescriptionRows(ids: [Int64], _ db: Database) throws -> CollectionDescriptionRows {
        var rows = CollectionDescriptionRows(collections: [], smartAlbumCounts: [:], parentIdentifiers: [:])
        guard !ids.isEmpty else { return rows }
        let list = JSONText.array(ids)
        let records = try db.rows(
            "SELECT \(CollectionRecord.columns()) FROM collection WHERE id IN (SELECT value FROM json_each(?))",
            [.text(list)], CollectionRecord.init(row:))
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id!, $0) })

        // The figures `info(for:)` derives one collection at a time, for all of them: members of the
        // collection itself, plus members of its direct children (a folder's albums).
        struct Figures {
            var count = 0
            var start: Double?
            var end: Double?

            mutating func add(count: Int, start: Double?, end: Double?) {
                self.count += count
                if let start { self.start = self.start.map { min($0, start) } ?? start }
                if let end { self.end = self.end.map { max($0, end) } ?? end }
            }
        }
        var figures: [Int64: Figures] = [:]
        // The kept figures (CollectionStats): a row per album. A figure left dirty by a write made
        // outside LibraryDatabase.write sends the listing back to reading the members.
        let own = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT collectionId, assetCount, startDate, endDate, dirty FROM collection_stats
                    WHERE collectionId IN (SELECT value FROM json_each(?))
                    """), arguments: [list])
        let children = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT child.parentId, SUM(s.assetCount), MIN(s.startDate), MAX(s.endDate), MAX(s.dirty)
                    FROM collection child JOIN collection_stats s ON s.collectionId = child.id
                    WHERE child.parentId IN (SELECT value FROM json_each(?)) GROUP BY child.parentId
                    """), arguments: [list])
        if (own + children).contains(where: { $0[4] == true }) {
            figures = try membersFigures(list, db)
        } else {
            for row in own + children {
                figures[row[0], default: Figures()].add(count: row[1], start: row[2], end: row[3])
            }
        }

        /// The same figures read from the members.
        func membersFigures(_ list: String, _ db: Database) throws -> [Int64: Figures] {
            var figures: [Int64: Figures] = [:]
            let own = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT ca.collectionId, COUNT(*), MIN(a.creationDate), MAX(a.creationDate)
                        FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                        WHERE ca.collectionId IN (SELECT value FROM json_each(?)) GROUP BY ca.collectionId
                        """), arguments: [list])
            let children = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT child.parentId, COUNT(*), MIN(a.creationDate), MAX(a.creationDate)
                        FROM collection child JOIN collection_asset ca ON ca.collectionId = child.id
                        JOIN asset a ON a.id = ca.assetId
                        WHERE child.parentId IN (SELECT value FROM json_each(?)) GROUP BY child.parentId
                        """), arguments: [list])
            for row in own + children {
                figures[row[0], default: Figures()].add(count: row[1], start: row[2], end: row[3])
            }
            return figures
        }

        // Every smart album listed: kept counts, a row each.
        let smartSubtypes = Set(
            records.filter { !$0.isList && $0.type == PHAssetCollectionType.smartAlbum.rawValue }.map(\.subtype))
        rows.smartAlbumCounts = try smartAlbumCounts(subtypes: smartSubtypes, db)

        var parents = Set<Int64>()
        for id in ids {
            guard let record = byID[id] else { continue }
            var info = CollectionInfo(record: record)
            if let parent = record.parentId { parents.insert(parent) }
            if !record.isList && record.type == PHAssetCollectionType.smartAlbum.rawValue {
                // Counted above.
            } else {
                let figure = figures[id] ?? Figures()
                if !record.isList { info.estimatedAssetCount = figure.count }
                info.startDate = figure.start
                info.endDate = figure.end
            }
            rows.collections.append(info)
        }

        if !parents.isEmpty {
            let folders = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, localIdentifier FROM collection
                        WHERE isList = 1 AND id IN (SELECT value FROM json_each(?))
                        """),
                arguments: [JSONText.array(Array(parents))])
            for row in folders { rows.parentIdentifiers[row[0]] = row[1] }
        }
        return rows
    }

    /// What `PHAsset.fetchAssets(in: smartAlbum, options: nil).count` counts, for each of these
    /// smart albums, by subtype: kept by triggers (``SmartAlbumCounts``), else counted in one pass
    /// over the assets (each album's query alone read the whole asset table for most albums: 1.4 s
    /// for the 15 of a million assets); Recently Added through its date index.
    static func smartAlbumCounts(subtypes: Set<Int>, _ db: Database) throws -> [Int: Int] {
        let kept = try SmartAlbumCounts.read(db) ?? SmartAlbumCounts.countedAgain(db)
        var counts: [Int: Int] = [:]
        for subtype in subtypes {
            counts[subtype] = try kept[subtype] ?? smartAlbumCount(subtype: subtype, db)
        }
        return counts
    }

    /// What `PHAsset.fetchAssets(in: smartAlbum, options: nil).count` counts.
    static func smartAlbumCount(subtype: Int, _ db: some StoreConnection) throws -> Int {
        guard let subtype = PHAssetCollectionSubtype(rawValue: subtype) else { return 0 }
        let (sql, arguments) = AssetQuery(scope: .smartAlbum(subtype)).sql(selecting: "COUNT(*)", dialect: db.dialect)
        return Int(try db.scalarInt64(sql, arguments) ?? 0)
    }
}
