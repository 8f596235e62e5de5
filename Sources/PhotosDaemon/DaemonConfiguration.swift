import Foundation
import PhotosConfig
import PhotosCore
import PhotosHooks
import PhotosIngest
import PhotosStore

/// What the daemon watches and how: from the command line and the config file.
public struct DaemonConfiguration: Sendable {
    /// The library file, or a `postgresql://` URL.
    public var libraryPath: String
    /// Where this host keeps its own files of the library, named after it (the lock, the startup
    /// progress; the status file by default): the library file, or for a library kept in PostgreSQL
    /// a stand-in under `$XDG_DATA_HOME/photosd/postgresql/` (`LibraryDatabase.localPath(forLibrary:)`).
    public var localPath: String { LibraryDatabase.localPath(forLibrary: libraryPath) }
    /// The directories to watch.
    public var roots: [String]
    /// What the library may write under each root (the config's `write`); a root not here writes nothing.
    public var libraryRoots: [LibraryRoot] = []
    /// Whether the library did not exist when photosd started: its user albums and folders are then
    /// brought back from the roots' album manifests after the startup scan (the sidecars give the
    /// photos their identifiers back during it), as `photos rebuild` does.
    public var restoresAlbums = false
    /// How long the tree must be quiet after a change before it is applied.
    public var settle: Duration = .milliseconds(200)
    /// How often roots that cannot be watched (network file systems, no watch budget left,
    /// offline) are crawled instead.
    public var pollInterval: Duration = .seconds(60)
    /// The zone for file dates with no UTC offset.
    public var timeZone: TimeZone = .current
    /// Names to ignore, and marker files that exclude a directory.
    public var rules = IgnoreRules()
    /// How long to wait before trying a failed scan again (0.5 s doubling to 60 s).
    public var retryBackoff = RetryBackoff()
    /// Where the daemon writes its status for `photos status` (default: beside the library).
    public var statusPath: String
    /// The exec hooks, as the config file declares them (`[[hooks]]`).
    public var hooks: [HookDefinition] = []
    /// The most change-log entries kept for hooks that lag behind (`hook_history_limit`).
    public var hookHistoryLimit: Int = DaemonConfiguration.defaultHookHistoryLimit

    /// `hook_history_limit` when the config file does not give it.
    public static let defaultHookHistoryLimit = 1_000_000

    /// A configuration with defaults for everything but the library and roots.
    public init(libraryPath: String, roots: [String]) {
        self.libraryPath = libraryPath
        self.roots = roots
        statusPath = Self.statusPath(forLibrary: libraryPath)
    }

    /// The status file of a library: `<library>.status.json` beside its local path
    /// (``LibraryLocation/statusPath(forLibrary:)``).
    public static func statusPath(forLibrary libraryPath: String) -> String {
        LibraryLocation.statusPath(forLibrary: LibraryDatabase.localPath(forLibrary: libraryPath))
    }
}
