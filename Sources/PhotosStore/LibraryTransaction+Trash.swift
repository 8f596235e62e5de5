import Foundation
import PhotosCore

/// One album membership of a trashed asset, to put back when it is restored.
struct TrashedMembership: Codable {
    var collectionId: Int64
    var position: Int64

    /// Its JSON form as `JSONEncoder` writes it.
    func keptJSON() throws -> [UInt8] {
        var object = KeptJSON(capacity: 48)
        try object.add("collectionId", .int(collectionId))
        try object.add("position", .int(position))
        return object.finished
    }
}

extension LibraryTransaction {
    /// Deletes assets whose files go to the Trash, keeping each (``TrashedAsset``): its row, resources
    /// and album memberships are set aside, `files` records where each file goes, and the assets
    /// leave the `asset` table as a deletion does (observers see them deleted, tombstones are kept).
    /// Files the library placed for them (edits) stay until the asset is erased.
    public func trashAssets(_ ids: [Int64], files: [TrashedFile], date: Double) throws {
        guard !ids.isEmpty else { return }
        let records = try assets(ids: ids)
        let resources = try resources(assetIDs: ids)
        // Each asset's memberships, grouped once (filtered per asset, a thousand deletions read a
        // million rows).
        var memberships: [Int64: [TrashedMembership]] = [:]
        _ = try db.rows(
            """
            SELECT collectionId, assetId, position FROM collection_asset
            WHERE \(db.dialect.isInWholeNumberList("assetId"))
            """, [.text(JSONText.array(ids))]
        ) { row in
            memberships[try row.int64(1), default: []].append(
                TrashedMembership(collectionId: try row.int64(0), position: try row.int64(2)))
        }
        // The record's JSON is the tombstone's too.
        var encoded: [Int64: String] = [:]
        for id in ids {
            guard let record = records[id] else { continue }
            let kept = memberships[id] ?? []
            let json = try record.keptJSON()
            encoded[id] = json
            try db.execute(
                """
                INSERT INTO trashedAsset (assetId, localIdentifier, trashedDate, record, resources, memberships)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .int(id), .text(record.localIdentifier), .double(date),
                    .text(json), .text(KeptJSON.array(try (resources[id] ?? []).map { try $0.keptJSON() })),
                    .text(KeptJSON.array(try kept.map { try $0.keptJSON() })),
                ])
        }
        for file in files { try file.insert(in: db) }
        try deleteAssets(ids, removingLibraryFiles: false, encoded: encoded)
    }

    /// Puts a trashed asset back as it was: the same row id and local identifier, its properties,
    /// its resources at their paths and its memberships of the albums that still exist; of a
    /// directory's album only while it still mirrors a directory of the asset's files (one renamed
    /// away meanwhile is not the files' album: the caller places their directories). Observers
    /// see it inserted and its albums updated. Returns its local identifier; nil when it is not
    /// trashed (restored already, or erased).
    @discardableResult
    public func restoreTrashedAsset(_ assetId: Int64) throws -> String? {
        guard
            let row = try db.firstRow(
                "SELECT record, resources, memberships FROM trashedAsset WHERE assetId = ?", [.int(assetId)],
                { (record: try $0.text(0), resources: try $0.text(1), memberships: try $0.text(2)) })
        else { return nil }
        let decoder = JSONDecoder()
        let record = try decoder.decode(AssetRecord.self, from: Data(row.record.utf8))
        let resources = try decoder.decode([ResourceRecord].self, from: Data(row.resources.utf8))
        let memberships = try decoder.decode([TrashedMembership].self, from: Data(row.memberships.utf8))
        try db.execute(SQLText.insert(into: "asset", AssetRecord.columnNames), [.int(assetId)] + record.values)
        for var resource in resources {
            resource.assetId = assetId
            try insertResource(resource)
        }
        let directories = Set(resources.map { PathName.directory(of: $0.path) })
        for membership in memberships {
            guard let collection = try collection(id: membership.collectionId) else { continue }
            if let path = collection.path, !directories.contains(path) { continue }
            try db.execute(
                """
                INSERT INTO collection_asset (collectionId, assetId, position) VALUES (?, ?, ?)
                ON CONFLICT DO NOTHING
                """, [.int(membership.collectionId), .int(assetId), .int(membership.position)])
            changes.recorder.updated(.assetCollection, collection.localIdentifier, properties: ["assets"])
        }
        try db.execute("DELETE FROM tombstone WHERE isAsset = 1 AND rowId = ?", [.int(assetId)])
        try db.execute("DELETE FROM trashedAsset WHERE assetId = ?", [.int(assetId)])
        changes.recorder.inserted(.asset, record.localIdentifier)
        // Back as the representative it was, beside the one picked when it left: one of them stays.
        if let burst = record.burstIdentifier { try pickBurstRepresentatives([burst]) }
        return record.localIdentifier
    }

    /// Forgets a trashed asset for good (its files are erased from the Trash by the caller first):
    /// the files the library placed for it (edits) are journaled for removal, and its tombstone stays
    /// until the change log's history passes it. Returns whether it was trashed.
    @discardableResult
    public func eraseTrashedAsset(_ assetId: Int64) throws -> Bool {
        guard
            let text = try db.scalarText("SELECT resources FROM trashedAsset WHERE assetId = ?", [.int(assetId)])
        else { return false }
        let resources = try JSONDecoder().decode([ResourceRecord].self, from: Data(text.utf8))
        try journalRemoval(of: resources)
        try db.execute("DELETE FROM trashedAsset WHERE assetId = ?", [.int(assetId)])
        return true
    }
}
