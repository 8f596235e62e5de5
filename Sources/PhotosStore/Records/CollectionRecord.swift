import PhotosCore

/// One row of the `collection` table: an album, a smart album, or a folder (collection list).
public struct CollectionRecord: Sendable, Hashable, Codable, Identifiable {
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
    /// The directory behind a directory-backed album or folder; in a library several hosts share,
    /// another host's directory is named by its host, `nas:/srv/photos/2024` (``RootHosts``).
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
}

/// A collection's row, read and written through the engine-neutral ``StoreConnection``.
extension CollectionRecord {
    /// The columns of the `collection` table, the id first.
    static let columnNames = [
        "id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate",
        "device", "inode", "madeDirectory",
    ]

    /// The columns of a collection's row, in the order ``init(row:)`` reads them, each after
    /// `alias.` when a query names the table so; the path as the store gives it back
    /// (``SQLDialect/hostedPath(_:)``).
    static func columns(_ dialect: SQLDialect, alias: String? = nil) -> String {
        columnNames.map { name in
            name == "path" ? dialect.hostedPath(alias ?? "collection") : alias.map { "\($0).\(name)" } ?? name
        }.joined(separator: ", ")
    }

    /// A collection from a row that selected ``columns(_:)`` first.
    init(row: StoreRow) throws {
        id = try row.int64(0)
        localIdentifier = try row.text(1)
        isList = try row.bool(2)
        type = Int(try row.int64(3))
        subtype = Int(try row.int64(4))
        title = row.optionalText(5)
        parentId = row.optionalInt64(6)
        position = Int(try row.int64(7))
        path = row.optionalText(8)
        createdDate = row.optionalDouble(9) ?? 0
        device = row.optionalInt64(10)
        inode = row.optionalInt64(11)
        madeDirectory = row.optionalInt64(12).map { $0 != 0 }
    }

    /// The row's values but its id, in the order of ``columnNames`` after `id`: the path as it is
    /// on its host, whose name the row keeps (``RootHosts``).
    var values: [SQLValue] {
        [
            .text(localIdentifier), .int(isList ? 1 : 0), .int(Int64(type)), .int(Int64(subtype)),
            title.map(SQLValue.text) ?? .null, parentId.map(SQLValue.int) ?? .null, .int(Int64(position)),
            path.map { .text(RootHosts.pathOnItsHost($0)) } ?? .null, .double(createdDate),
            device.map(SQLValue.int) ?? .null,
            inode.map(SQLValue.int) ?? .null, madeDirectory.map { .int($0 ? 1 : 0) } ?? .null,
        ]
    }

    /// The row with its id, held to be inserted later (a folder before the collections in it, as
    /// one table's rows keep their order).
    private static let laterInsert = LaterInsert(
        table: "collection", columns: SQLText.list(columnNames), row: "(\(SQLText.placeholders(columnNames.count)))")

    /// Adds the row, with its id when it has one (a collection put back as it was); returns the id.
    func insert(in connection: some StoreConnection) throws -> Int64 {
        if id == nil, let key = try connection.reservedKey(of: "collection") {
            // Known by its key now, inserted with the transaction's next statement.
            try connection.insertLater(Self.laterInsert, [.int(key)] + values)
            return key
        }
        guard let id else { return try connection.insert(Self.insertSQL, values) }
        return try connection.insert(Self.insertWithIDSQL, [.int(id)] + values)
    }

    /// Writes the row's values (by its id); a row that is not there is a ``StoreError`` (`notFound`).
    func update(in connection: some StoreConnection) throws {
        guard let id, try connection.execute(Self.updateSQL, values + [.int(id)]) > 0
        else { throw StoreError(.notFound, "no collection \(localIdentifier) to update") }
    }

    // The statements, made once: a first scan inserts a row for each of thousands of folders.
    private static let insertSQL = SQLText.insert(into: "collection", columnNames.dropFirst())
    private static let insertWithIDSQL = SQLText.insert(into: "collection", columnNames)
    private static let updateSQL = "UPDATE collection SET \(SQLText.assignments(columnNames.dropFirst())) WHERE id = ?"
}
