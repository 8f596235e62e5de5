import Foundation
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

    static func collectionDescriptionRows(ids: [Int64], _ db: any StoreConnection) throws
        -> CollectionDescriptionRows
    {
        var rows = CollectionDescriptionRows(collections: [], smartAlbumCounts: [:], parentIdentifiers: [:])
        guard !ids.isEmpty else { return rows }
        let list: [SQLValue] = [.text(JSONText.array(ids))]
        let listed = db.dialect.elementsOfJSONArray(wholeNumbers: true)
        let records = try db.rows(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE id IN (\(listed))", list,
            CollectionRecord.init(row:))
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.id!, $0) })

        // The figures `info(for:)` derives one collection at a time, for all of them: members of the
        // collection itself, plus members of its direct children (a folder's albums).
        struct Figures {
            var count = 0
            var start: Double?
            var end: Double?

            /// Adds a row of collection id, count, first date, last date (and dirty flag).
            mutating func add(_ row: StoreRow) {
                let (count, start, end) = (Int(row.optionalInt64(1) ?? 0), row.optionalDouble(2), row.optionalDouble(3))
                self.count += count
                if let start { self.start = self.start.map { min($0, start) } ?? start }
                if let end { self.end = self.end.map { max($0, end) } ?? end }
            }
        }
        var figures: [Int64: Figures] = [:]
        // The kept figures (CollectionStats): a row per album. A figure left dirty by a write made
        // outside LibraryDatabase.write sends the listing back to reading the members.
        let own = try db.rows(
            """
            SELECT collectionId, assetCount, startDate, endDate, dirty FROM collection_stats
            WHERE collectionId IN (\(listed))
            """, list, \.self)
        let children = try db.rows(
            """
            SELECT child.parentId, SUM(s.assetCount), MIN(s.startDate), MAX(s.endDate), MAX(s.dirty)
            FROM collection child JOIN collection_stats s ON s.collectionId = child.id
            WHERE child.parentId IN (\(listed)) GROUP BY child.parentId
            """, list, \.self)
        if (own + children).contains(where: { ($0.optionalInt64(4) ?? 0) != 0 }) {
            // The same figures read from the members.
            let own = try db.rows(
                """
                SELECT ca.collectionId, COUNT(*), MIN(a.creationDate), MAX(a.creationDate)
                FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                WHERE ca.collectionId IN (\(listed)) GROUP BY ca.collectionId
                """, list, \.self)
            let children = try db.rows(
                """
                SELECT child.parentId, COUNT(*), MIN(a.creationDate), MAX(a.creationDate)
                FROM collection child JOIN collection_asset ca ON ca.collectionId = child.id
                JOIN asset a ON a.id = ca.assetId
                WHERE child.parentId IN (\(listed)) GROUP BY child.parentId
                """, list, \.self)
            for row in own + children { figures[try row.int64(0), default: Figures()].add(row) }
        } else {
            for row in own + children { figures[try row.int64(0), default: Figures()].add(row) }
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
            let folders = try db.rows(
                "SELECT id, localIdentifier FROM collection WHERE isList = 1 AND id IN (\(listed))",
                [.text(JSONText.array(Array(parents)))]
            ) { (try $0.int64(0), try $0.text(1)) }
            for (id, identifier) in folders { rows.parentIdentifiers[id] = identifier }
        }
        return rows
    }

    /// What `PHAsset.fetchAssets(in: smartAlbum, options: nil).count` counts, for each of these
    /// smart albums, by subtype: kept by triggers (``SmartAlbumCounts``), else counted in one pass
    /// over the assets (each album's query alone read the whole asset table for most albums: 1.4 s
    /// for the 15 of a million assets); Recently Added through its date index.
    static func smartAlbumCounts(subtypes: Set<Int>, _ db: some StoreConnection) throws -> [Int: Int] {
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
        let (sql, arguments) = AssetQuery(scope: .smartAlbum(subtype)).countSQL(dialect: db.dialect)
        return Int(try db.scalarInt64(sql, arguments) ?? 0)
    }
}
