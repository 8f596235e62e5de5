import PhotosCore

/// One row of the `resource` table: a file behind an asset (its photo, paired video, RAW...).
///
/// The table keeps a file's directory and name apart (``FileDirectories``): rows are read with
/// their path joined (`FileDirectories.columns(db.dialect)`) and written by ``LibraryTransaction/insertResource(_:)``.
public struct ResourceRecord: Sendable, Hashable, Codable {
    /// The row id; nil until inserted.
    public var id: Int64?
    /// The asset this file belongs to.
    public var assetId: Int64
    /// A `PHAssetResourceType` raw value.
    public var type: Int
    /// The absolute path of the file.
    public var path: String
    /// The file's uniform type identifier.
    public var uniformTypeIdentifier: String?
    /// The file's MIME type.
    public var mimeType: String?
    /// The file's size in bytes.
    public var fileSize: Int64
    /// The file's name.
    public var originalFilename: String
    /// The file's device and inode when it was last seen, to recognise it after a move.
    public var device: Int64? = nil
    /// The file's inode (see `device`).
    public var inode: Int64? = nil
    /// The file's modification time (seconds since 1970) when it was last read.
    public var modificationTime: Double? = nil
    /// The file's birth time (nanoseconds since 1970) when it was last seen: with the device and
    /// inode, what tells it from a file given its inode number later; nil where the file system
    /// keeps none.
    public var birthTime: Int64? = nil
    /// A hash of the whole content, where another file of the same size made it worth computing.
    public var contentHash: String? = nil
    /// Apple's content identifier (Live Photo pairing), when the file has one.
    public var contentIdentifier: String? = nil
    /// Whether the library itself put this file in its import folder (a creation request's copy
    /// or move): only such files are ever removed when their asset is deleted.
    public var isLibraryOwned = false
    /// The file's picture or movie width in pixels as displayed (orientation applied); nil when
    /// not known (a file that is no picture, or one stored before sizes were kept per file).
    public var pixelWidth: Int64? = nil
    /// The file's displayed height in pixels (see ``pixelWidth``).
    public var pixelHeight: Int64? = nil

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

    // Written out rather than derived from Codable: the daemon reads a directory's resources for
    // each file that arrives, and the derived decoder cost ten times as much as the query.

    /// The name that pairs its file with others of its directory (``PairingName``), stored beside
    /// it so that the store can look a file's partners up by index.
    public var pairingName: String { PairingName.of(originalFilename) }

    /// A resource from a row that selected ``FileDirectories/columns`` first (its `originalFilename`
    /// the file's name where the row keeps NULL for it).
    package init(row: StoreRow) throws {
        try row.expectColumns(17, of: "a resource")
        id = try row.int64(0)
        assetId = try row.int64(1)
        type = Int(try row.int64(2))
        path = try row.text(3)
        uniformTypeIdentifier = row.optionalText(4)
        mimeType = row.optionalText(5)
        fileSize = try row.int64(6)
        originalFilename = try row.text(7)
        device = row.optionalInt64(8)
        inode = row.optionalInt64(9)
        modificationTime = row.optionalDouble(10)
        contentHash = row.optionalText(11)
        contentIdentifier = row.optionalText(12)
        isLibraryOwned = try row.bool(13)
        pixelWidth = row.optionalInt64(14)
        pixelHeight = row.optionalInt64(15)
        birthTime = row.optionalInt64(16)
    }
}
