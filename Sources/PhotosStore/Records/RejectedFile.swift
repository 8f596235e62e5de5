import PhotosCore

/// A file that looked like media but could not be read: its path and the reason.
public struct RejectedFile: Sendable, Hashable, Codable {
    /// The file's absolute path.
    public var path: String
    /// A short machine-readable code (`truncated`, `notMedia`, `corrupt`...).
    public var code: String
    /// What is wrong, for people.
    public var reason: String
    /// The file's size when it was rejected.
    public var fileSize: Int64
    /// Seconds since 1970; a file rejected at this size and time is not read again.
    public var modificationTime: Double
    /// When it was rejected, seconds since 1970.
    public var rejectedDate: Double

    /// Creates a rejection record.
    public init(
        path: String, code: String, reason: String, fileSize: Int64, modificationTime: Double, rejectedDate: Double
    ) {
        self.path = path
        self.code = code
        self.reason = reason
        self.fileSize = fileSize
        self.modificationTime = modificationTime
        self.rejectedDate = rejectedDate
    }
}

/// A rejection's row, read and written through the engine-neutral ``StoreConnection``.
extension RejectedFile {
    /// The columns of a rejection's row, in the order ``init(row:)`` reads them and ``values`` gives them.
    static let columnNames = ["path", "code", "reason", "fileSize", "modificationTime", "rejectedDate"]

    /// ``columnNames`` as a result list.
    static let columns = SQLText.list(columnNames)

    /// A rejection from a row that selected ``columns``.
    init(row: StoreRow) throws {
        path = try row.text(0)
        code = try row.text(1)
        reason = try row.text(2)
        fileSize = try row.int64(3)
        modificationTime = row.optionalDouble(4) ?? 0
        rejectedDate = row.optionalDouble(5) ?? 0
    }

    /// The row's values, in the order of ``columns``.
    var values: [SQLValue] {
        [.text(path), .text(code), .text(reason), .int(fileSize), .double(modificationTime), .double(rejectedDate)]
    }
}
