import Foundation

/// One watched import folder and where it stands, as `photos imports status`, `photos status` and
/// `GET /v1/imports` show it (a section the daemon's import service adds to its status file).
public struct ImportStatus: Codable, Sendable, Hashable {
    /// The drop folder.
    public var from: String
    /// The root its photos are filed under.
    public var to: String
    /// `move` or `copy`.
    public var mode: String
    /// `watching`, or `unwatched` (the folder is not there, or cannot be watched: it is looked at
    /// again every poll interval and imported once it is back).
    public var state: String
    /// Why it is not watched, when it is not.
    public var reason: String?
    /// Photos imported since photosd started.
    public var imported: Int
    /// Their files.
    public var files: Int
    /// Photos left in the folder at the last run as duplicates of the library's.
    public var duplicates: Int
    /// Files left at the last run that cannot be read whole.
    public var rejected: Int
    /// Other files left at the last run (not photos or videos, sidecars of nothing).
    public var left: Int
    /// Files the last run found still being written: taken once quiet.
    public var pending: Int
    /// When the last run ended, seconds since 1970; nil before the first.
    public var lastRun: Double?
    /// What went wrong at the last run that failed (a photo that could not be placed, a folder that
    /// could not be read); nil when the last run did all it could.
    public var lastError: String?

    /// A status with every value given.
    public init(
        from: String, to: String, mode: String, state: String, reason: String? = nil, imported: Int = 0,
        files: Int = 0, duplicates: Int = 0, rejected: Int = 0, left: Int = 0, pending: Int = 0,
        lastRun: Double? = nil, lastError: String? = nil
    ) {
        self.from = from
        self.to = to
        self.mode = mode
        self.state = state
        self.reason = reason
        self.imported = imported
        self.files = files
        self.duplicates = duplicates
        self.rejected = rejected
        self.left = left
        self.pending = pending
        self.lastRun = lastRun
        self.lastError = lastError
    }
}

/// `GET /v1/imports`: each watched import folder.
public struct ImportListing: Codable, Sendable, Hashable {
    /// The imports, in the configuration's order.
    public var imports: [ImportStatus]

    /// A listing of these imports.
    public init(imports: [ImportStatus]) {
        self.imports = imports
    }
}
