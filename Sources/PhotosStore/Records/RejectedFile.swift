import GRDB

/// A file that looked like media but could not be read: its path and the reason.
public struct RejectedFile: Sendable, Hashable, Codable, FetchableRecord, PersistableRecord {
    /// The table of rejected files.
    public static let databaseTableName = "rejected"

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
