import Foundation

/// What the daemon is doing, as `photos status` shows it. Written as JSON beside the library.
public struct DaemonStatus: Sendable, Codable, Hashable {
    /// How one root is followed.
    public struct Root: Sendable, Codable, Hashable {
        public var path: String
        /// `watching` (inotify), `polling` (crawled every `pollInterval`), or `offline`.
        public var state: String
        /// Why it is polled or offline, if it is.
        public var reason: String?
    }

    public var pid: Int32
    public var startedAt: Double
    public var updatedAt: Double
    public var roots: [Root]
    /// inotify watches held, and the most this daemon may hold.
    public var watches: Int
    public var watchBudget: Int
    /// Directories not watched for lack of budget (their roots are polled).
    public var unwatchedDirectories: Int
    /// Changes waiting for the tree to settle.
    public var queueDepth: Int
    /// Totals since the daemon started.
    public var ingested: Int
    public var updated: Int
    public var moved: Int
    public var removed: Int
    public var rejected: Int
    /// The most recent errors, newest last.
    public var lastErrors: [String]

    /// Writes the status atomically (a reader never sees half a file).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Reads a status file.
    public static func read(from path: String) throws -> DaemonStatus {
        try JSONDecoder().decode(DaemonStatus.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
