import Dispatch
import Foundation
import Logging
import PhotosConfig
import PhotosHooks
import PhotosStore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Reloads the configuration file on SIGHUP (`systemctl --user reload photosd`), without a restart
/// and without losing a change.
///
/// The file is read again with the one config reader (``ConfigFile``) and checked whole, the hooks'
/// albums against the library, before anything changes: a file with a mistake is logged (its file,
/// line and key) and the daemon runs on with what it had. A good file is applied in this order:
///
/// 1. the hooks (``HookRunner/reload(_:)``): a new hook is enrolled first, so that it is given what
///    the new roots' crawl ingests; a removed one is disabled with its cursor kept; a changed one
///    starts again from its cursor; their API tokens follow (``HookTokens/reissue(for:renew:database:logger:)``);
/// 2. the roots (``RootTracker/replaceRoots(with:markOffline:)``): a new root is watched, then
///    crawled; a removed one stops being watched and its assets stay, as an offline root's do.
///    Roots given on the command line (`--watch`) override the file's, as at startup: then the
///    file's roots are not looked at.
///
/// Keys read only at startup (the library, the socket, settle and poll times, the watched import
/// folders…) are named in the log when they changed: they take effect at the next start. One line
/// says what changed.
///
/// ```swift
/// let reloader = ConfigReloader(path: configPath, rootsOverride: watch.isEmpty ? nil : watch, current: file, ...)
/// // services: [..., reloader]; `kill -HUP <pid>` reloads.
/// ```
public final class ConfigReloader: Service, Sendable {
    /// Where the configuration is read from.
    public let path: String
    /// Roots given on the command line, which the file does not change.
    let rootsOverride: [String]?
    let database: LibraryDatabase
    let roots: RootTracker
    let runner: HookRunner?
    let tokens: HookTokens
    let notifier: SystemdNotifier
    let logger: Logger
    private let signals: ReloadSignals
    /// The configuration applied last.
    private let current: Mutex<ConfigFile>
    /// Reloads run here, one at a time, off the cooperative pool (file and library reads).
    private let queue = DispatchQueue(label: "photosd.reload")

    /// A reloader of the file at `path`, trapping SIGHUP through `signals` (made at the start of
    /// the process, so that a SIGHUP sent while photosd starts is applied once it runs).
    public init(
        path: String, rootsOverride: [String]?, current: ConfigFile, database: LibraryDatabase, roots: RootTracker,
        runner: HookRunner?, tokens: HookTokens, signals: ReloadSignals,
        notifier: SystemdNotifier = SystemdNotifier(), logger: Logger
    ) {
        self.path = path
        self.rootsOverride = rootsOverride
        self.current = Mutex(current)
        self.database = database
        self.roots = roots
        self.runner = runner
        self.tokens = tokens
        self.signals = signals
        self.notifier = notifier
        self.logger = logger
    }

    /// Reloads the configuration at each SIGHUP, one reload at a time, until graceful shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { [signals] in
            for await _ in signals.sequence {
                await withCheckedContinuation { continuation in
                    self.queue.async {
                        self.reload()
                        continuation.resume()
                    }
                }
            }
        }
    }

    /// What a reload changed, for its log line.
    public struct Summary: Sendable, Hashable {
        /// Roots now watched that were not.
        public var rootsAdded: [String] = []
        /// Roots no longer watched (their assets kept, marked offline).
        public var rootsRemoved: [String] = []
        /// Hooks added, removed and changed.
        public var hooks = HookRunner.Changes()
        /// Keys that changed but are read only at startup.
        public var needRestart: [String] = []
    }

    /// Reads, checks and applies the file now; returns what changed, or nil when the file was
    /// refused (logged) and nothing changed. Blocking: file and library reads.
    @discardableResult
    public func reload() -> Summary? {
        notifier.send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())")
        defer { notifier.send("READY=1") }
        let file: ConfigFile
        let newRoots: [String]
        let hooks: [HookDefinition]
        do {
            file = try ConfigFile.read(path: path)
            newRoots = rootsOverride ?? file.roots
            guard !newRoots.isEmpty else {
                throw ConfigError(
                    .missingKey, path: path, line: nil, key: "roots",
                    message: "missing: name at least one directory to watch")
            }
            if rootsOverride == nil, !newRoots.contains(where: Self.isDirectory) {
                throw ConfigError(
                    .invalidValue, path: path, line: file.line(of: "roots"), key: "roots",
                    message: "no root to watch exists: \(newRoots.joined(separator: ", "))")
            }
            hooks = try file.hooksResolvingAlbums(in: database, watchedRoots: newRoots)
        } catch {
            logger.error(
                "configuration not reloaded: photosd runs on with the one it had",
                metadata: ["file.path": "\(path)", "error": "\(error)"])
            return nil
        }
        var summary = Summary()
        summary.needRestart = Self.startupKeys(from: current.withLock { $0 }, to: file)
        do {
            if let runner {
                summary.hooks = try runner.reload(hooks)
                let renewed = Set(summary.hooks.added + summary.hooks.changed)
                if !summary.hooks.isEmpty {
                    try tokens.reissue(for: hooks, renew: renewed, database: database, logger: logger)
                }
            }
        } catch {
            logger.error(
                "the hooks could not be reloaded: they run as they were",
                metadata: ["file.path": "\(path)", "error": "\(error)"])
        }
        let database = self.database
        let logger = self.logger
        (summary.rootsAdded, summary.rootsRemoved) = roots.replaceRoots(with: newRoots) { root in
            // As for a root that goes offline: its assets stay in the library, unavailable.
            do {
                _ = try database.write { try $0.setRoot(root, offline: true) }
            } catch {
                logger.error(
                    "cannot mark a removed root offline", metadata: ["root.path": "\(root)", "error": "\(error)"])
            }
        }
        current.withLock { $0 = file }
        logger.notice("configuration reloaded", metadata: Self.metadata(summary, path: path))
        return summary
    }

    /// The log line's metadata: only what changed.
    static func metadata(_ summary: Summary, path: String) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["file.path": "\(path)"]
        func add(_ key: String, _ values: [String]) {
            if !values.isEmpty { metadata[key] = "\(values.joined(separator: ", "))" }
        }
        add("roots.added", summary.rootsAdded)
        add("roots.removed", summary.rootsRemoved)
        add("hooks.added", summary.hooks.added)
        add("hooks.removed", summary.hooks.removed)
        add("hooks.changed", summary.hooks.changed)
        add("restart.needed", summary.needRestart)
        if metadata.count == 1 { metadata["changes"] = "none" }
        return metadata
    }

    /// The keys read only at startup whose values differ between `old` and `new`.
    static func startupKeys(from old: ConfigFile, to new: ConfigFile) -> [String] {
        var keys: [String] = []
        if old.library != new.library { keys.append("library") }
        if old.ignore != new.ignore { keys.append("ignore") }
        if old.settleMilliseconds != new.settleMilliseconds { keys.append("settle_ms") }
        if old.pollIntervalSeconds != new.pollIntervalSeconds { keys.append("poll_interval_s") }
        if old.timeZone != new.timeZone { keys.append("time_zone") }
        if old.hookHistoryLimit != new.hookHistoryLimit { keys.append("hook_history_limit") }
        if old.socket != new.socket { keys.append("socket") }
        if old.listen != new.listen { keys.append("listen") }
        if old.socketOptional != new.socketOptional { keys.append("socket_optional") }
        if old.listenOptional != new.listenOptional { keys.append("listen_optional") }
        if old.thumbnailSizes != new.thumbnailSizes { keys.append("thumbnail_sizes") }
        if old.thumbnailCacheMegabytes != new.thumbnailCacheMegabytes { keys.append("thumbnail_cache_mb") }
        if old.decodeMemoryMegabytes != new.decodeMemoryMegabytes { keys.append("decode_memory_mb") }
        if old.imports != new.imports { keys.append("imports") }
        // The API's library reads the roots' write policies when photosd starts.
        let oldPolicies = Dictionary(old.libraryRoots.map { ($0.path, $0.write) }) { first, _ in first }
        if new.libraryRoots.contains(where: { (oldPolicies[$0.path] ?? .none) != $0.write }) {
            keys.append("roots.write")
        }
        return keys
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `CLOCK_MONOTONIC` in microseconds, as systemd wants it beside `RELOADING=1`.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}

/// SIGHUP, trapped: made once, as early as the process can, so that a SIGHUP sent while photosd
/// starts waits for the ``ConfigReloader`` instead of ending the process (SIGHUP's default).
public struct ReloadSignals: Sendable {
    let sequence: UnixSignalsSequence

    /// Traps SIGHUP from now on.
    public static func trap() async -> ReloadSignals {
        ReloadSignals(sequence: await UnixSignalsSequence(trapping: .sighup))
    }
}
