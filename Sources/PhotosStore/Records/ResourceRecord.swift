import GRDB

/// One row of the `resource` table: a file behind an asset (its photo, paired video, RAW...).
public struct ResourceRecord: Sendable, Hashable, Codable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "resource"

    public var id: Int64?
    public var assetId: Int64
    /// A `PHAssetResourceType` raw value.
    public var type: Int
    /// The absolute path of the file.
    public var path: String
    public var uniformTypeIdentifier: String?
    public var mimeType: String?
    public var fileSize: Int64
    public var originalFilename: String
    /// The file's device and inode when it was last seen, to recognise it after a move.
    public var device: Int64? = nil
    public var inode: Int64? = nil
    /// The file's modification time (seconds since 1970) when it was last read.
    public var modificationTime: Double? = nil
    /// A hash of the whole content, where another file of the same size made it worth computing.
    public var contentHash: String? = nil
    /// Apple's content identifier (Live Photo pairing), when the file has one.
    public var contentIdentifier: String? = nil

    /// Creates a resource row for an asset.
    public init(
        assetId: Int64, type: Int, path: String, uniformTypeIdentifier: String?, mimeType: String?,
        fileSize: Int64, originalFilename: String
    ) {
        self.id = nil
        self.assetId = assetId
        self.type = type
        self.path = path
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.mimeType = mimeType
        self.fileSize = fileSize
        self.originalFilename = originalFilename
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
