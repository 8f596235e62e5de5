import Foundation
import PhotosCore

/// What a deleted object was, kept with the change-log entry that deleted it and pruned with it.
///
/// A consumer of the change log learns only a deleted object's identifier; this is the rest of
/// what it needs to clean up after it (a backup copy, a thumbnail, an index entry):
///
/// ```swift
/// let gone = try database.deletedObjects(localIdentifiers: entry.asset.deleted)
/// for object in gone.values { for resource in object.resources { forget(resource.path) } }
/// ```
public struct DeletedObject: Sendable, Hashable, Codable {
    /// One file a deleted asset had.
    public struct Resource: Sendable, Hashable, Codable {
        /// The PhotoKit resource type name (`photo`, `video`, `pairedVideo`, `alternatePhoto`, ...).
        public var type: String
        /// The file's absolute path when the asset was deleted (the file itself may be gone).
        public var path: String

        /// A resource of a deleted asset.
        public init(type: String, path: String) {
            self.type = type
            self.path = path
        }
    }

    /// The object's local identifier.
    public var localIdentifier: String
    /// Asset, album or folder.
    public var objectType: PHObjectType
    /// Assets: `image`, `video`, `audio` or `unknown`; nil for collections.
    public var mediaType: String?
    /// Collections: their title; nil for assets.
    public var title: String?
    /// Directory-backed collections: the directory; nil otherwise.
    public var path: String?
    /// Assets: the files it had, photo or video first; empty for collections.
    public var resources: [Resource]
    /// The token of the change-log entry that deleted it.
    public var token: Int64

    /// A description of a deleted object.
    public init(
        localIdentifier: String, objectType: PHObjectType, mediaType: String? = nil, title: String? = nil,
        path: String? = nil, resources: [Resource] = [], token: Int64
    ) {
        self.localIdentifier = localIdentifier
        self.objectType = objectType
        self.mediaType = mediaType
        self.title = title
        self.path = path
        self.resources = resources
        self.token = token
    }
}

extension DeletedObject {
    /// A deleted asset's file as its tombstone keeps it: the ``Resource`` a consumer reads (which
    /// ignores the rest), and what a hook's predicate reads of a deleted asset's files as it reads
    /// the `resource` table of a live one (``LibraryDatabase/deletedAssetIdentifiers(among:matching:inDirectories:)``).
    struct KeptResource: Codable {
        var type: String
        var path: String
        /// Its place among the asset's files, in type order (the `resource` table's `type, id` order).
        var order: Int
        /// The file's original name: the `filename` a predicate reads.
        var filename: String
        var isLibraryOwned: Bool

        /// The tombstones' files as rows of a table named `resource`, for the `asset` rows made of
        /// those tombstones (`tombstone` rows whose `localIdentifier` is in the JSON array bound
        /// first): what ``PhotosStore/AssetQuery/column(for:)`` reads for `filename` and `isLibraryOwned`.
        /// Tombstones kept before these fields were have none: no name to match, owned by nobody.
        static func rowsCTE(_ dialect: SQLDialect) -> String {
            """
            resource AS (
                SELECT t.rowId AS assetId, \(dialect.field("order", of: "r.value", as: .integer)) AS id,
                    \(dialect.field("order", of: "r.value", as: .integer)) AS type,
                    \(dialect.field("filename", of: "r.value", as: .text)) AS originalFilename, NULL AS name,
                    \(dialect.field("isLibraryOwned", of: "r.value", as: .flag)) AS isLibraryOwned
                FROM tombstone t, \(dialect.elements(ofJSONArray: "t.resources", as: "r"))
                WHERE t.isAsset = 1 AND t.resources IS NOT NULL
                    AND t.localIdentifier IN (\(dialect.elementsOfJSONArray())))
            """
        }
    }
}

extension LibraryDatabase {
    /// What the deleted objects with these identifiers were, keyed by identifier. Identifiers of
    /// objects never deleted, or whose deletion was pruned from the history, are absent.
    public func deletedObjects(localIdentifiers: [String]) throws -> [String: DeletedObject] {
        guard !localIdentifiers.isEmpty else { return [:] }
        return try read { db in try Self.deletedObjects(localIdentifiers: localIdentifiers, db) }
    }

    /// The same, within a read or a transaction already open (GRDB's reads do not nest).
    static func deletedObjects(localIdentifiers: [String], _ db: some StoreConnection) throws
        -> [String: DeletedObject]
    {
        let decoder = JSONDecoder()
        let objects = try db.rows(
            """
            SELECT isAsset, record, resources, token FROM tombstone
            WHERE localIdentifier IN (\(db.dialect.elementsOfJSONArray())) ORDER BY token
            """, [.text(JSONText.array(localIdentifiers))]
        ) { try Self.deletedObject($0, decoder) }
        var result: [String: DeletedObject] = [:]
        // Oldest first: should an identifier have been deleted twice, the latest deletion wins.
        for object in objects { result[object.localIdentifier] = object }
        return result
    }

    /// A row of `isAsset, record, resources, token` of the tombstones.
    private static func deletedObject(_ row: StoreRow, _ decoder: JSONDecoder) throws -> DeletedObject {
        let record = Data(try row.text(1).utf8)
        let token = try row.int64(3)
        guard try row.bool(0) else {
            let collection = try decoder.decode(CollectionRecord.self, from: record)
            return DeletedObject(
                localIdentifier: collection.localIdentifier,
                objectType: collection.isList ? .collectionList : .assetCollection, title: collection.title,
                path: collection.path, token: token)
        }
        let asset = try decoder.decode(AssetRecord.self, from: record)
        let resources = try row.optionalText(2).map {
            try decoder.decode([DeletedObject.Resource].self, from: Data($0.utf8))
        }
        return DeletedObject(
            localIdentifier: asset.localIdentifier, objectType: .asset,
            mediaType: (PHAssetMediaType(rawValue: asset.mediaType) ?? .unknown).name, resources: resources ?? [],
            token: token)
    }
}
