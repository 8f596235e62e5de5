import Foundation

/// What the daemon is doing, as `photos status` shows it. Written as JSON beside the library.
public struct DaemonStatus: Sendable, Codable, Hashable {
    /// How one root is followed.
    public struct Root: Sendable, Codable, Hashable {
        /// The root directory.
        public var path: String
        /// `watching` (inotify), `polling` (crawled every `pollInterval`), `offline`, or `waiting` (the
        /// library cannot be opened yet).
        public var state: String
        /// Why it is polled or offline, if it is.
        public var reason: String?
        /// What the library may write under it: `none`, `sidecars` or `files` (the config's `write`).
        public var write: String?
        /// Why the library cannot write there now although its policy allows it ("a read-only file
        /// system", "no permission to write"); nil when it can, or when the policy is `none`.
        public var writeRestriction: String?

        /// A root's state.
        public init(path: String, state: String, reason: String?, write: String? = nil, writeRestriction: String? = nil)
        {
            self.path = path
            self.state = state
            self.reason = reason
            self.write = write
            self.writeRestriction = writeRestriction
        }
    }

    /// Whether the daemon can use the library.
    public struct Library: Sendable, Codable, Hashable {
        /// `available`, or `unavailable` while scans fail (a full disk, a lock, a damaged file).
        public var state: String
        /// Why the last scan failed, while unavailable.
        public var reason: String?
        /// Scans failed in a row.
        public var consecutiveFailures: Int
        /// When the next try is due, seconds since 1970, while unavailable.
        public var retryAt: Double?

        /// A library state.
        public init(state: String, reason: String?, consecutiveFailures: Int, retryAt: Double?) {
            self.state = state
            self.reason = reason
            self.consecutiveFailures = consecutiveFailures
            self.retryAt = retryAt
        }
    }

    /// The daemon's process id.
    public var pid: Int32
    /// When the daemon started, seconds since 1970.
    public var startedAt: Double
    /// When this status was written, seconds since 1970.
    public var updatedAt: Double
    /// Each root and how it is followed.
    public var roots: [Root]
    /// inotify watches held, and the most this daemon may hold.
    public var watches: Int
    /// The system's inotify watch limit.
    public var watchBudget: Int
    /// Directories not watched for lack of budget (their roots are polled).
    public var unwatchedDirectories: Int
    /// Changes waiting for the tree to settle.
    public var queueDepth: Int
    /// Totals since the daemon started.
    public var ingested: Int
    /// Files read again because they changed.
    public var updated: Int
    /// Files found at a new path, identity kept.
    public var moved: Int
    /// Files that left, and their assets.
    public var removed: Int
    /// Files that could not be read.
    public var rejected: Int
    /// The most recent errors, newest last.
    public var lastErrors: [String]
    /// Whether the library can be used (absent in status files of older daemons).
    public var library: Library? = nil
    /// The exec hooks and where they stand, read from the library by `photos status` (the daemon's
    /// file does not carry them: their cursors live in the library).
    public var hooks: [HookStatus]? = nil
    /// The thumbnails photosd makes ahead, when its config names sizes (a section the daemon's
    /// thumbnail service adds to the file).
    public var thumbnails: ThumbnailStatus? = nil
    /// What the startup crawl did (a section the daemon adds once it is over).
    public var startup: StartupProgress? = nil
    /// The watched import folders (a section the daemon's import service adds, when the config has
    /// `[[imports]]`).
    public var imports: [ImportStatus]? = nil
    /// Whether the photosd that wrote this status still runs, as its reader found (`photos status`);
    /// not in the file photosd writes. A status of a photosd that stopped is its last: its roots'
    /// states are what they were.
    public var running: Bool? = nil

    /// A status with every value given.
    public init(
        pid: Int32, startedAt: Double, updatedAt: Double, roots: [Root], watches: Int, watchBudget: Int,
        unwatchedDirectories: Int, queueDepth: Int, ingested: Int, updated: Int, moved: Int, removed: Int,
        rejected: Int, lastErrors: [String], library: Library? = nil
    ) {
        self.pid = pid
        self.startedAt = startedAt
        self.updatedAt = updatedAt
        self.roots = roots
        self.watches = watches
        self.watchBudget = watchBudget
        self.unwatchedDirectories = unwatchedDirectories
        self.queueDepth = queueDepth
        self.ingested = ingested
        self.updated = updated
        self.moved = moved
        self.removed = removed
        self.rejected = rejected
        self.lastErrors = lastErrors
        self.library = library
    }

    /// The status while the library cannot be opened: nothing watched or counted yet.
    public static func waitingForLibrary(startedAt: Double, roots: [String], library: Library) -> DaemonStatus {
        DaemonStatus(
            pid: getpid(), startedAt: startedAt, updatedAt: Date().timeIntervalSince1970,
            roots: roots.map { Root(path: $0, state: "waiting", reason: "the library cannot be opened") },
            watches: 0, watchBudget: 0, unwatchedDirectories: 0, queueDepth: 0, ingested: 0, updated: 0, moved: 0,
            removed: 0, rejected: 0, lastErrors: library.reason.map { [$0] } ?? [], library: library)
    }

    /// Reads a status file.
    public static func read(from path: String) throws -> DaemonStatus {
        try JSONDecoder().decode(DaemonStatus.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
