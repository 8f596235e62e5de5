import Logging
import PhotosCore
import PhotosIngest
import PhotosStore
import PhotosWire
import PhotosWatcher
import ServiceLifecycle

/// The daemon as services with one job each, wired together: the one place `photosd` builds
/// its ``ServiceGroup`` from.
///
/// ```
/// monitor ─events─▶ SettlingService (EventSettler) ─ScanWork─▶ ScanQueue ─▶ ScanRunner ─▶ library
///                        │ root notices                 ▲ startup, poll       │ outcomes
///                        ▼                              │                     ▼
///                   RootTracker ◀──────────────────────┴──── offline roots, unreadable dirs
///                                                           (still-changing files ▶ SettlingService)
/// every service ─update─▶ StatusBoard ─▶ StatusReporter (status file) · WatchdogService (READY, WATCHDOG)
/// startup scan ─progress─▶ StartupProgressReporter (LIBRARY.startup.json, STATUS=) ─totals─▶ StatusBoard
/// SIGHUP ─▶ ConfigReloader ─hooks─▶ HookRunner, ─roots─▶ RootTracker (watch, then crawl; WatchedRoots shared)
/// ```
///
/// More services join the same group without touching these, and may add a section to the
/// status file through ``board``:
///
/// ```swift
/// let daemon = DaemonServices(configuration: configuration, database: database, monitor: monitor, logger: logger)
/// let hooks = HookRunner(..., board: daemon.board)   // board.update { $0.sections["hooks"] = ... }
/// let group = ServiceGroup(configuration: .init(
///     services: daemon.services(adding: [hooks]), gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
public struct DaemonServices: Sendable {
    /// The shared status: services update it, the reporter writes it.
    public let board: StatusBoard
    /// Where scan work meets the scan runner.
    public let scans: ScanQueue
    /// Monitor events to settled scan work.
    public let settling: SettlingService
    /// Runs the scans.
    public let scanRunner: ScanRunner
    /// Watches, polls and marks roots offline.
    public let roots: RootTracker
    /// Writes the status file.
    public let reporter: StatusReporter
    /// systemd notification.
    public let watchdog: WatchdogService
    /// The roots, standardized.
    public let watchedRoots: WatchedRoots

    /// The daemon's services for `configuration`, on `database`, with events from `monitor`;
    /// `restoreEdits` gives a library made new its edits back after the startup scan.
    public init(
        configuration: DaemonConfiguration, database: LibraryDatabase, monitor: any FileMonitor, logger: Logger,
        notifier: SystemdNotifier = SystemdNotifier(), restoreEdits: EditRestorer? = nil
    ) {
        let roots = WatchedRoots(configuration.roots)
        let board = StatusBoard()
        let scans = ScanQueue()
        func named(_ name: String) -> Logger {
            var logger = logger
            logger[metadataKey: "service"] = "\(name)"
            return logger
        }
        // The roots' watch walks, going on while the startup scan lists what they watched.
        let walks = RootWalks()
        let tracker = RootTracker(
            roots: roots, monitor: monitor, board: board, scans: scans, pollInterval: configuration.pollInterval,
            logger: named("roots"), walks: walks)
        let settling = SettlingService(
            monitor: monitor,
            settler: EventSettler(roots: roots, rules: configuration.rules, settle: configuration.settle),
            scans: scans, board: board, logger: named("settling"), notify: { tracker.post(.event($0)) })
        // The daemon saw each file closed and waited for the settle period: no extra quiet time.
        let scanner = FolderScanner(
            database: database, timeZone: configuration.timeZone, rules: configuration.rules, quietTime: 0)
        let progress = StartupProgressReporter(
            path: StartupProgress.path(forLibrary: configuration.localPath), board: board, notifier: notifier,
            logger: named("scans"))
        scanRunner = ScanRunner(
            scanner: scanner, database: database, queue: scans, board: board, backoff: configuration.retryBackoff,
            libraryPath: LibraryDatabase.shown(configuration.libraryPath), logger: named("scans"),
            startupProgress: progress,
            policies: LibraryRoots(configuration.libraryRoots), restoresAlbums: configuration.restoresAlbums,
            restoreEdits: restoreEdits, walks: walks
        ) { outcome in
            tracker.post(.scanned(offlineRoots: outcome.offlineRoots, unreadable: outcome.unreadable))
            settling.recheck(roots: Array(Set(outcome.stillChanging.compactMap(roots.root(of:)))))
        }
        self.board = board
        self.scans = scans
        self.settling = settling
        self.roots = tracker
        watchedRoots = roots
        reporter = StatusReporter(
            board: board, roots: roots, policies: LibraryRoots(configuration.libraryRoots), monitor: monitor,
            path: configuration.statusPath, logger: named("status"))
        watchdog = WatchdogService(notifier: notifier, board: board, logger: logger)
    }

    /// The services in the order the group starts them; `extra` (a hook runner, a server) come
    /// after the daemon's own and before the watchdog. A graceful shutdown stops them in reverse:
    /// the watchdog says STOPPING first, then `extra`, then settling, roots, the scan in flight
    /// finishes, and the status file is written last.
    public func services(adding extra: [any Service] = []) -> [any Service] {
        [reporter, scanRunner, roots, settling] + extra + [watchdog]
    }

    /// The daemon's status now, as `photos status` shows it.
    public var status: DaemonStatus { reporter.status }

    /// The status the API tells: the status file's, as `read` reads it, unless it could not be
    /// written (``StatusReporter/status(readingFile:)``).
    public func status(readingFile read: () throws -> DaemonStatus?) throws -> DaemonStatus? {
        try reporter.status(readingFile: read)
    }
}
