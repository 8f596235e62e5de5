import Foundation
import GRDB
import PhotosCore

/// What the asset JSON of some assets is made from, read in one snapshot with a few queries.
public struct AssetDescriptionRows: Sendable {
    /// The live assets asked for, in the order asked (absent ones left out).
    public var assets: [AssetRecord]
    /// Each asset's files, by asset row id, in type order (as ``LibraryDatabase/resources(assetIDs:)``).
    public var resources: [Int64: [ResourceRecord]]
    /// The row ids of the albums (not smart albums, not folders) holding each asset, by asset row id,
    /// in the order of a collection fetch: position, then row id.
    public var albumIDs: [Int64: [Int64]]
    /// Those albums, by row id.
    public var albums: [Int64: CollectionRecord]
    /// Offline roots and unreadable directories (``LibraryDatabase/unavailablePaths()``).
    public var unavailablePaths: [String]
}

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
    /// The rows behind the asset JSON of the assets with these row ids: a handful of queries
    /// whatever their number (never one per asset).
    public func assetDescriptionRows(ids: [Int64]) throws -> AssetDescriptionRows {
        try read { db in try Self.assetDescriptionRows(ids: ids, db) }
    }

    /// The rows behind the asset JSON of the assets with these local identifiers.
    public func assetDescriptionRows(localIdentifiers: [String]) throws -> AssetDescriptionRows {
        try read { db in
            let ids = try Self.ids(table: "asset", localIdentifiers: localIdentifiers, db)
            return try Self.assetDescriptionRows(ids: localIdentifiers.compactMap { ids[$0] }, db)
        }
    }

    /// The rows behind the collection JSON of the collections with these row ids.
    public func collectionDescriptionRows(ids: [Int64]) throws -> CollectionDescriptionRows {
        try read { db in try Self.collectionDescriptionRows(ids: ids, db) }
    }

    /// The rows behind the collection JSON of the collections with these local identifiers.
    public func collectionDescriptionRows(localIdentifiers: [String]) throws -> CollectionDescriptionRows {
        try read { db in
            let ids = try Self.ids(table: "collection", localIdentifiers: localIdentifiers, db)
            return try Self.collectionDescriptionRows(ids: localIdentifiers.compactMap { ids[$0] }, db)
        }
    }

    // MARK: Assets

    /// The asset columns in the order ``decodeAsset(_:)`` reads them.
    private static let assetColumns = """
        id, localIdentifier, mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight, creationDate, \
        creationDateOffset, creationDateIsFloating, modificationDate, addedDate, latitude, longitude, altitude, \
        duration, isFavorite, isHidden, burstIdentifier, burstSelectionTypes, representsBurst, \
        adjustmentFormatIdentifier, isRAW
        """

    private static func assetDescriptionRows(ids: [Int64], _ db: Database) throws -> AssetDescriptionRows {
        var rows = AssetDescriptionRows(assets: [], resources: [:], albumIDs: [:], albums: [:], unavailablePaths: [])
        guard !ids.isEmpty else { return rows }
        let list = JSONText.array(ids)

        // Rows are decoded by column index: the Codable path cost several microseconds an asset.
        var byID: [Int64: AssetRecord] = [:]
        byID.reserveCapacity(ids.count)
        let assets = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT \(assetColumns) FROM asset WHERE id IN (SELECT value FROM json_each(?))"),
            arguments: [list])
        while let row = try assets.next() {
            let asset = decodeAsset(row)
            byID[asset.id!] = asset
        }
        rows.assets = ids.compactMap { byID[$0] }

        let resources = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT r.id, r.assetId, r.type, r.path, r.uniformTypeIdentifier, r.mimeType, r.fileSize,
                        r.originalFilename
                    FROM json_each(?) AS j CROSS JOIN resource r ON r.assetId = j.value ORDER BY r.type, r.id
                    """),
            arguments: [list])
        while let row = try resources.next() {
            var resource = ResourceRecord(
                assetId: row[1], type: row[2], path: row[3], uniformTypeIdentifier: row[4], mimeType: row[5],
                fileSize: row[6], originalFilename: row[7])
            resource.id = row[0]
            rows.resources[resource.assetId, default: []].append(resource)
        }

        // PhotoKit's fetchAssetCollectionsContaining(_:with: .album) order: position, then id. CROSS
        // JOIN keeps SQLite's join order (asset, membership, album): left to itself it walked every
        // album and probed each for every asset, 15 µs an asset at 20 albums (photos-bench).
        let memberships = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT ca.assetId, c.id FROM json_each(?) AS j
                    CROSS JOIN collection_asset ca ON ca.assetId = j.value
                    CROSS JOIN collection c ON c.id = ca.collectionId
                    WHERE c.isList = 0 AND c.type = ? ORDER BY c.position, c.id
                    """),
            arguments: [list, PHAssetCollectionType.album.rawValue])
        var albumIDs = Set<Int64>()
        while let row = try memberships.next() {
            let album: Int64 = row[1]
            rows.albumIDs[row[0], default: []].append(album)
            albumIDs.insert(album)
        }
        if !albumIDs.isEmpty {
            let albums = try CollectionRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM collection WHERE id IN (SELECT value FROM json_each(?))"),
                arguments: [JSONText.array(Array(albumIDs))])
            rows.albums = Dictionary(uniqueKeysWithValues: albums.map { ($0.id!, $0) })
        }

        rows.unavailablePaths = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT path FROM root WHERE isOffline = 1 UNION SELECT path FROM unreadable_directory ORDER BY 1
                    """))
        return rows
    }

    private static func decodeAsset(_ row: Row) -> AssetRecord {
        var asset = AssetRecord(localIdentifier: row[1], mediaType: .unknown)
        asset.id = row[0]
        asset.mediaType = row[2]
        asset.mediaSubtypes = row[3]
        asset.sourceType = row[4]
        asset.pixelWidth = row[5]
        asset.pixelHeight = row[6]
        asset.creationDate = row[7]
        asset.creationDateOffset = row[8]
        asset.creationDateIsFloating = row[9]
        asset.modificationDate = row[10]
        asset.addedDate = row[11]
        asset.latitude = row[12]
        asset.longitude = row[13]
        asset.altitude = row[14]
        asset.duration = row[15]
        asset.isFavorite = row[16]
        asset.isHidden = row[17]
        asset.burstIdentifier = row[18]
        asset.burstSelectionTypes = row[19]
        asset.representsBurst = row[20]
        asset.adjustmentFormatIdentifier = row[21]
        asset.isRAW = row[22]
        return asset
    }

    // MARK: Collections

    private static func collectionDescriptionRows(ids: [Int64], _ db: Database) throws -> CollectionDescriptionRows {
        var rows = CollectionDescriptionRows(collections: [], smartAlbumCounts: [:], parentIdentifiers: [:])
        guard !ids.isEmpty else { return rows }
        let list = JSONText.array(ids)
        let records = try CollectionRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM collection WHERE id IN (SELECT value FROM json_each(?))"), arguments: [list])
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

        var parents = Set<Int64>()
        for id in ids {
            guard let record = byID[id] else { continue }
            var info = CollectionInfo(record: record)
            if let parent = record.parentId { parents.insert(parent) }
            if !record.isList && record.type == PHAssetCollectionType.smartAlbum.rawValue {
                if rows.smartAlbumCounts[record.subtype] == nil {
                    rows.smartAlbumCounts[record.subtype] = try smartAlbumCount(subtype: record.subtype, db)
                }
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

    /// What `PHAsset.fetchAssets(in: smartAlbum, options: nil).count` counts.
    private static func smartAlbumCount(subtype: Int, _ db: Database) throws -> Int {
        guard let subtype = PHAssetCollectionSubtype(rawValue: subtype) else { return 0 }
        let (sql, arguments) = AssetQuery(scope: .smartAlbum(subtype)).sql(selecting: "COUNT(*)")
        return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }
}
