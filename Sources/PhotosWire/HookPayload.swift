import Foundation
import PhotosCore

/// What a deleted object was, as a hook's payload tells it (`"deleted": [TOMBSTONE...]`): enough
/// to clean up after it (its files' paths, its album's directory).
public struct DeletedObjectDescription: Codable, Sendable, Hashable {
    /// One file the deleted asset had.
    public struct Resource: Codable, Sendable, Hashable {
        /// The PhotoKit resource type name (`photo`, `video`, `pairedVideo`, ...).
        public var type: String
        /// Its absolute path (the file may still be there: the library deletes only files it made).
        public var path: String

        /// A file with every value given.
        public init(type: String, path: String) {
            self.type = type
            self.path = path
        }
    }

    /// The object's local identifier.
    public var localIdentifier: String
    /// `asset`, `assetCollection` or `collectionList`.
    public var objectType: String
    /// For assets: `image`, `video`, `audio` or `unknown`.
    public var mediaType: String?
    /// For collections: the title.
    public var title: String?
    /// For directory-backed collections: the directory.
    public var path: String?
    /// For assets: the files it had, photo or video first.
    public var resources: [Resource]

    /// A description with every value given (`PhotosStore` makes one from a tombstone).
    public init(
        localIdentifier: String, objectType: PHObjectType, mediaType: String?, title: String?, path: String?,
        resources: [Resource]
    ) {
        self.localIdentifier = localIdentifier
        self.objectType = objectType.hookName
        self.mediaType = mediaType
        self.title = title
        self.path = path
        self.resources = resources
    }

    /// An object deleted with no tombstone left (pruned): its identifier alone.
    public init(localIdentifier: String, objectType: PHObjectType) {
        self.localIdentifier = localIdentifier
        self.objectType = objectType.hookName
        resources = []
    }
}

/// The JSON document an exec hook reads on standard input:
///
/// ```json
/// {"hook": "backup", "since": 41, "until": 43, "expired": false,
///  "changes": [{"token": 42,
///    "assets": {"inserted": [ASSET...], "updated": [ASSET + "changedProperties"...], "deleted": [TOMBSTONE...]},
///    "assetCollections": {...}, "collectionLists": {...}}]}
/// ```
///
/// ASSET is the asset JSON of `photos assets --json` (with `albums`), a collection the JSON of
/// `photos albums --json`; an updated object also carries `changedProperties`.
public struct HookPayload: Sendable {
    /// What happened to the objects of one type in one change-log entry.
    public struct Objects<Object: Sendable>: Sendable {
        /// Objects created, as they are now.
        public var inserted: [Object] = []
        /// Objects changed, as they are now, with the names of the properties that changed.
        public var updated: [(object: Object, changedProperties: [String])] = []
        /// What deleted objects were.
        public var deleted: [DeletedObjectDescription] = []

        /// No objects.
        public init() {}
    }

    /// One change-log entry, as the hook is told it.
    public struct Change: Sendable {
        /// The entry's token.
        public var token: Int64
        /// What happened to assets: their JSON as the store wrote it.
        public var assets = Objects<AssetJSON>()
        /// What happened to albums.
        public var assetCollections = Objects<CollectionDescription>()
        /// What happened to folders.
        public var collectionLists = Objects<CollectionDescription>()
        /// The sidecar conflicts the entry settled (`sidecarConflicts`, written only when there are some).
        public var sidecarConflicts: [SidecarConflict] = []
        /// Where the assets the entry imported came from (`imports`, written only when there are some).
        public var imports: [ImportOrigin] = []

        /// An entry with nothing in it yet.
        public init(token: Int64) { self.token = token }
    }

    /// The hook's name.
    public var hook: String
    /// The token after which these changes come (the hook's cursor).
    public var since: Int64
    /// The last token of the run: the cursor once the hook exits 0.
    public var until: Int64
    /// True when the changes after `since` are no longer kept: `changes` is empty, re-enumerate.
    public var expired: Bool
    /// The entries, oldest first.
    public var changes: [Change]

    /// A payload.
    public init(hook: String, since: Int64, until: Int64, expired: Bool = false, changes: [Change] = []) {
        self.hook = hook
        self.since = since
        self.until = until
        self.expired = expired
        self.changes = changes
    }

    /// The document's bytes (asset JSON as the store wrote it from its rows, collections through
    /// ``WireJSONWriter``: a batch of thousands costs milliseconds).
    public func encoded() throws -> [UInt8] {
        let encoder = WireJSON.makeEncoder()
        var out: [UInt8] = []
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func list<Object>(_ objects: [Object], _ write: (Object) throws -> Void) rethrows {
            raw("[")
            for (index, object) in objects.enumerated() {
                if index > 0 { raw(",") }
                try write(object)
            }
            raw("]")
        }
        /// An object's JSON with `changedProperties` added before its closing brace.
        func updated(_ json: [UInt8], _ properties: [String]) throws {
            out.append(contentsOf: json.dropLast())
            raw(",\"changedProperties\":")
            out.append(contentsOf: JSONText.array(properties).utf8)
            raw("}")
        }
        func objects<Object>(_ objects: Objects<Object>, _ json: (Object) throws -> [UInt8]) throws {
            raw("{\"inserted\":")
            try list(objects.inserted) { out.append(contentsOf: try json($0)) }
            raw(",\"updated\":")
            try list(objects.updated) { try updated(try json($0.object), $0.changedProperties) }
            raw(",\"deleted\":")
            try list(objects.deleted) { out.append(contentsOf: try encoder.encode($0)) }
            raw("}")
        }
        func asset(_ asset: AssetJSON) -> [UInt8] { asset.bytes }
        func collection(_ collection: CollectionDescription) -> [UInt8] {
            var writer = WireJSONWriter()
            writer.append(collection)
            return writer.bytes
        }
        raw("{\"hook\":")
        JSONText.appendString(hook, to: &out)
        raw(",\"since\":\(since),\"until\":\(until),\"expired\":\(expired),\"changes\":")
        try list(changes) { change in
            raw("{\"token\":\(change.token),\"assets\":")
            try objects(change.assets, asset)
            raw(",\"assetCollections\":")
            try objects(change.assetCollections, collection)
            raw(",\"collectionLists\":")
            try objects(change.collectionLists, collection)
            if !change.sidecarConflicts.isEmpty {
                raw(",\"sidecarConflicts\":")
                out.append(contentsOf: try encoder.encode(change.sidecarConflicts))
            }
            if !change.imports.isEmpty {
                raw(",\"imports\":")
                out.append(contentsOf: try encoder.encode(change.imports))
            }
            raw("}")
        }
        raw("}")
        return out
    }
}

extension PHObjectType {
    /// The name payloads and a hook's `objects` use: `asset`, `assetCollection`, `collectionList`.
    public var hookName: String {
        switch self {
        case .asset: "asset"
        case .assetCollection: "assetCollection"
        case .collectionList: "collectionList"
        }
    }
}
