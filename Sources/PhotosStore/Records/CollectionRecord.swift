import GRDB

/// One row of the `collection` table: an album, a smart album, or a folder (collection list).
public struct CollectionRecord: Sendable, Hashable, Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    /// The table of albums, smart albums and folders.
    public static let databaseTableName = "collection"

    /// The row id; nil until inserted.
    public var id: Int64?
    /// The collection's local identifier.
    public var localIdentifier: String
    /// True for a collection list (folder), false for an asset collection (album).
    public var isList: Bool
    /// A `PHAssetCollectionType` or `PHCollectionListType` raw value.
    public var type: Int
    /// A `PHAssetCollectionSubtype` or `PHCollectionListSubtype` raw value.
    public var subtype: Int
    /// The collection's title.
    public var title: String?
    /// The folder holding this collection; nil at the top level.
    public var parentId: Int64?
    /// The order among the parent's children.
    public var position: Int
    /// The directory behind a directory-backed album or folder.
    public var path: String?
    /// When the collection was created, seconds since 1970.
    public var createdDate: Double
    /// The directory's device and inode, to follow a renamed directory.
    public var device: Int64? = nil
    /// The directory's inode (see `device`).
    public var inode: Int64? = nil
    /// Whether the library made the directory (an album created inside a directory-backed folder):
    /// the directory mirror keeps its album while the directory exists, even with no photo in it.
    public var madeDirectory: Bool? = nil

    /// Creates a collection row.
    public init(
        localIdentifier: String, isList: Bool, type: Int, subtype: Int, title: String?, parentId: Int64? = nil,
        position: Int = 0, path: String? = nil, createdDate: Double
    ) {
        self.id = nil
        self.localIdentifier = localIdentifier
        self.isList = isList
        self.type = type
        self.subtype = subtype
        self.title = title
        self.parentId = parentId
        self.position = position
        self.path = path
        self.createdDate = createdDate
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
