/// What one committed change did to the objects of one type: their local identifiers, by kind of change.
///
/// This is the per-type part of a change-log entry, and of `PHPersistentObjectChangeDetails`.
public struct ObjectChanges: Sendable, Hashable, Codable {
    /// Objects created, in creation order.
    public var inserted: [String]
    /// Objects that existed before and after and whose properties or content changed.
    public var updated: [String]
    /// Objects deleted.
    public var deleted: [String]
    /// For updated objects, the names of the properties that changed (PhotoKit names).
    public var changedProperties: [String: [String]]

    /// No changes.
    public init(
        inserted: [String] = [], updated: [String] = [], deleted: [String] = [],
        changedProperties: [String: [String]] = [:]
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.changedProperties = changedProperties
    }

    /// True when nothing was inserted, updated or deleted.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// How many objects were inserted, updated or deleted.
    public var count: Int { inserted.count + updated.count + deleted.count }
}

/// One entry of the change log: everything one committed transaction changed.
///
/// Its JSON shape is stable (docs/architecture.md, "JSON shapes"): `token`, `timestamp`, and `asset`,
/// `assetCollection`, `collectionList`, each with `inserted`, `updated`, `deleted` and
/// `changedProperties`; `sidecarConflicts` only on an entry that settled some, `imports` only on one
/// that imported assets.
public struct LibraryChange: Sendable, Hashable, Codable {
    /// The entry's position in the log; tokens only grow.
    public var token: Int64
    /// When the transaction committed.
    public var timestamp: Double
    /// What happened to assets.
    public var asset: ObjectChanges
    /// What happened to albums.
    public var assetCollection: ObjectChanges
    /// What happened to folders.
    public var collectionList: ObjectChanges
    /// Fields of assets that the library and another tool both changed in a sidecar, settled by
    /// this change (nil, and absent from the JSON, when there were none).
    public var sidecarConflicts: [SidecarConflict]?
    /// Where the assets an import inserted came from (nil, and absent from the JSON, for a change
    /// that imported nothing).
    public var imports: [ImportOrigin]?

    /// Creates an entry.
    public init(
        token: Int64, timestamp: Double, asset: ObjectChanges = .init(),
        assetCollection: ObjectChanges = .init(), collectionList: ObjectChanges = .init()
    ) {
        self.token = token
        self.timestamp = timestamp
        self.asset = asset
        self.assetCollection = assetCollection
        self.collectionList = collectionList
    }

    /// How many objects the entry names, of every type.
    public var objectCount: Int { asset.count + assetCollection.count + collectionList.count }

    /// The changes to objects of one type.
    public func changes(for type: PHObjectType) -> ObjectChanges {
        switch type {
        case .asset: asset
        case .assetCollection: assetCollection
        case .collectionList: collectionList
        }
    }
}
