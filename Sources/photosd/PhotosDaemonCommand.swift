import ArgumentParser
import Foundation
import Logging
import Photos
import PhotosConfig
import PhotosDaemon
import PhotosHooks
import PhotosImaging
import PhotosIngest
import PhotosLinux
import PhotosServer
import PhotosWire
import PhotosStore
import PhotosWatcher
import ServiceLifecycle

/// `photosd`: watch directories and keep a photo library true to them.
@main
struct PhotosDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photosd",
        abstract: "Watch directories with inotify and keep a photo library true to them.",
        discussion: """
            Runs in the foreground, logs on standard error, and stops gracefully on SIGTERM or SIGINT \
            (the batch in flight commits or rolls back whole). Changes made while it was stopped are \
            found at startup. The library is --library, else $PHOTOS_LIBRARY, else the config's library, \
            else $XDG_DATA_HOME/photosd/library.sqlite. SIGHUP reloads the config file: its roots and hooks \
            are applied without a restart (roots given with --watch stay). Under systemd (Type=notify) it \
            reports the startup crawl's progress (STATUS=), READY, RELOADING, STOPPING and watchdog pings. \
            `photos status` shows what it is doing.
            """,
        version: "photosd \(PhotosVersion.current)")

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library file, or a postgresql:// URL for one several hosts share (created if missing).",
            valueName: "file"))
    var library: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The configuration file (default: $XDG_CONFIG_HOME/photosd/config.toml, if present).", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("A directory to watch. Repeatable.", valueName: "root"))
    var watch: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Quiet time before changes are applied, in milliseconds (default 200).", valueName: "ms"))
    var settle: Int?

    @Option(
        name: .customLong("poll-interval"),
        help: ArgumentHelp(
            "How often unwatchable roots (network, over budget, offline) are crawled, in seconds.",
            valueName: "seconds"))
    var pollInterval: Int?

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("The zone for file dates with no UTC offset (default: the system's).", valueName: "id"))
    var timeZone: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The API's Unix socket (default: $XDG_RUNTIME_DIR/photosd.sock); \"\" turns the API off.",
            valueName: "path"))
    var socket: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also serve the API on TCP at this loopback address (127.0.0.1:PORT or [::1]:PORT); every TCP client "
                + "sends a token (photos token create). Off by default.",
            valueName: "host:port"))
    var listen: String?

    @Option(
        name: .customLong("max-upload"),
        help: ArgumentHelp(
            "The largest file a client may send to POST /v1/uploads, in bytes (default 1073741824, 1 GiB); a larger "
                + "body is refused with 413.",
            valueName: "bytes"))
    var maximumUpload: Int64?

    @Option(
        name: .long, help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: String = "info"

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "How log records are written on standard error, one a line: text (default) or json (one object a line: "
                + "time, level, label, message, metadata, source).",
            valueName: "format"))
    var logFormat: String = "text"

    func validate() throws {
        // An empty path (a variable never set) would be read as the working directory.
        for (name, value) in [("--library", library), ("--config", config)] where value == "" {
            throw ValidationError("\(name) is an empty path (an unset variable?): name a file")
        }
        if let settle, settle < 0 { throw ValidationError("--settle must be 0 or more") }
        if let pollInterval, pollInterval <= 0 { throw ValidationError("--poll-interval must be more than 0") }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("unknown time zone '\(timeZone)'")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json, not '\(logFormat)'")
        }
        if let socket, !socket.isEmpty, !socket.hasPrefix("/") {
            throw ValidationError("--socket must be an absolute path, or \"\" to turn the API off")
        }
        if let listen {
            do {
                _ = try ListenAddress(listen)
            } catch {
                throw ValidationError("--listen: \(error)")
            }
        }
    }

    func run() async throws {
        // SIGHUP reloads the configuration: trapped first, so that one sent while photosd starts
        // waits for the reloader rather than ending the process.
        let reloadSignals = await ReloadSignals.trap()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let format = LogFormat(rawValue: logFormat) ?? .text
        LoggingSystem.bootstrap { label in DaemonLogHandler(label: label, format: format, level: level) }
        let logger = Logger(label: "photosd")
        // Metrics (GET /metrics): bootstrapped before any service makes its counters.
        let metrics = DaemonMetrics.bootstrap()
        // The file gives defaults; the command line overrides them.
        let (found, configPath) = try Self.readingConfig { try ConfigFile.load(named: config) }
        let file = found ?? ConfigFile()
        // The rule every `photos` command follows too (LibraryLocation).
        let path =
            (LibraryLocation.named(option: library, config: found, configPath: configPath)
            ?? LibraryLocation(path: PHPhotoLibrary.defaultLibraryURL().path, source: .standard)).path
        let roots = watch.isEmpty ? file.roots : watch
        guard !roots.isEmpty else {
            throw ValidationError(
                "name at least one directory with --watch, or roots in \(config ?? ConfigFile.defaultPath())")
        }
        // A root that is not there is watched for (offline) with a warning; none there at all is
        // a mistake to say at once, not a daemon that watches nothing for ever.
        let present = roots.filter { root in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if present.isEmpty {
            let listed = roots.map { "\($0) (\(Self.missing($0)))" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("photosd: no root to watch exists: \(listed)\n".utf8))
            throw ExitCode(78)
        }
        var configuration = DaemonConfiguration(libraryPath: path, roots: roots)
        configuration.settle = .milliseconds(settle ?? file.settleMilliseconds ?? 200)
        configuration.pollInterval = .seconds(pollInterval ?? file.pollIntervalSeconds ?? 60)
        if let zone = (timeZone ?? file.timeZone).flatMap(TimeZone.init(identifier:)) { configuration.timeZone = zone }
        configuration.rules.patterns = file.ignore
        configuration.libraryRoots = Self.libraryRoots(watch: watch, file: file)
        // A drop folder files what arrives under a root that allows files; --watch replaces the
        // config's roots, and may leave one without: said now, not at every arrival.
        let policies = LibraryRoots(configuration.libraryRoots)
        let stranded = file.imports.filter { policies.policy(for: $0.to) != .files }
        if !stranded.isEmpty {
            let listed = stranded.map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")
            FileHandle.standardError.write(
                Data(
                    ("photosd: [[imports]] \(listed): no watched root with write = \"files\" holds the destination"
                        + " (--watch replaces the config's roots: watch the destination's root too)\n").utf8))
            throw ExitCode(78)
        }
        configuration.hookHistoryLimit = file.hookHistoryLimit ?? DaemonConfiguration.defaultHookHistoryLimit

        // One photosd per library (per host, for a library kept in PostgreSQL): a second one stops
        // here, before its status file or hooks could stand in for the first's. A library whose
        // directory is not there yet (a volume not mounted) is locked once it opens.
        let local = configuration.localPath
        let localDirectory = (local as NSString).deletingLastPathComponent
        if LibraryDatabase.isPostgreSQL(path) {
            do {
                try PrivateFiles.makeDirectory(localDirectory)
            } catch {
                FileHandle.standardError.write(Data("photosd: cannot make \(localDirectory): \(error)\n".utf8))
                throw ExitCode(73)
            }
        }
        var lock = FileManager.default.fileExists(atPath: localDirectory) ? try Self.locking(local) : nil
        // A library that cannot be opened yet (volume not mounted, disk full, server down) is waited for.
        let database = try await LibraryOpener(configuration: configuration, logger: logger).open()
        if lock == nil { lock = try Self.locking(local) }
        // A library made now is locked under every name it has from now on.
        do {
            try lock?.lockLibraryFile()
        } catch {
            FileHandle.standardError.write(Data("photosd: \(error)\n".utf8))
            throw ExitCode(75)
        }
        // A library made now takes its albums back from the roots' manifests.
        configuration.restoresAlbums = database.isNew
        // The hooks' albums need the library: checked (and named by identifier) before any service starts.
        configuration.hooks = try Self.readingConfig {
            try file.hooksResolvingAlbums(in: database, watchedRoots: roots)
        }
        let monitor = try InotifyMonitor()
        // The daemon's services (settling, scans, roots, status, watchdog), and the hooks' runner.
        // A library made new takes back the edits its photos had from the library's folder, as `photos rebuild` does.
        let importDirectory = PHPhotoLibrary.defaultImportDirectory(forLibraryAt: path)
        let timeZone = configuration.timeZone
        let daemon = DaemonServices(
            configuration: configuration, database: database, monitor: monitor, logger: logger,
            restoreEdits: {
                let restored = try EditRestore.restore(
                    into: database, importDirectory: importDirectory, timeZone: timeZone)
                return (restored.edits, restored.skipped)
            })
        var services: [any Service] = []
        let configuredSocket = socket ?? file.socket ?? APIServer.defaultSocketPath()
        // Before any token is made for it: a socket in a directory another user holds would hand
        // them the hooks' tokens and the clients' too.
        do {
            if !configuredSocket.isEmpty { try SocketDirectory.claim(forSocket: configuredSocket) }
        } catch {
            FileHandle.standardError.write(Data("photosd: \(error)\n".utf8))
            throw ExitCode(77)
        }
        // The API's listeners, checked before any hook's token is made for them.
        let configuredListen = try Self.readingConfig { () throws -> ListenAddress? in
            guard let text = listen ?? file.listen else { return nil }
            do {
                return try ListenAddress(text)
            } catch {
                let path = config ?? ConfigFile.defaultPath()
                throw ConfigError(
                    .invalidValue, path: path, line: file.line(of: "listen"), key: "listen", message: "\(error)")
            }
        }
        // A listener that cannot be had (its directory missing, the socket another program's, the
        // port taken) stops photosd here, before any service starts: never a daemon without its API,
        // unless the config marks that listener optional (then a warning, and photosd runs without it).
        var socketPath = configuredSocket
        var listenAddress = configuredListen
        do {
            try APIServer.checkListeners(socket: socketPath, listen: nil)
        } catch {
            guard file.socketOptional else {
                FileHandle.standardError.write(Data("photosd: the API cannot start: \(error)\n".utf8))
                throw ExitCode(78)
            }
            logger.warning(
                "the API's socket is optional and cannot be had: photosd runs without it",
                metadata: ["socket": "\(socketPath)", "reason": "\(error)"])
            socketPath = ""
        }
        do {
            try APIServer.checkListeners(socket: "", listen: listenAddress)
        } catch {
            guard file.listenOptional else {
                FileHandle.standardError.write(Data("photosd: the API cannot start: \(error)\n".utf8))
                throw ExitCode(78)
            }
            logger.warning(
                "the API's TCP listener is optional and cannot be had: photosd runs without it",
                metadata: ["address": "\(listenAddress.map { "\($0)" } ?? "")", "reason": "\(error)"])
            listenAddress = nil
        }
        // Each hook's API token, of the level its config names, made anew at each start: the last
        // start's are revoked, so a token a hook leaked lives no longer than the daemon.
        let hookTokens = try HookTokens.mint(
            for: configuration.hooks, socketPath: socketPath, database: database, logger: logger)
        // Always there, even with no hook: a reload may bring some.
        let runner = HookRunner(
            hooks: configuration.hooks, database: database, libraryPath: path,
            historyLimit: configuration.hookHistoryLimit, timeZone: configuration.timeZone,
            logger: Logger(label: "photosd.hooks"), tokens: hookTokens)
        // Before the services start: a new hook is given the startup scan's changes too.
        try runner.enroll()
        services.append(runner)
        // SIGHUP: the config file read again, its roots and hooks applied (``ConfigReloader``).
        services.append(
            ConfigReloader(
                path: configPath, rootsOverride: watch.isEmpty ? nil : watch, current: file, database: database,
                roots: daemon.roots, runner: runner, tokens: hookTokens, signals: reloadSignals,
                logger: Logger(label: "photosd.reload")))
        // The drop folders of `[[imports]]`: what settles in them is filed under their roots.
        if !file.imports.isEmpty {
            var importing = PHPhotoLibrary.Configuration()
            importing.timeZone = configuration.timeZone
            importing.roots = configuration.libraryRoots
            importing.ignore = file.ignore
            let library = PHPhotoLibrary(database: database, configuration: importing)
            // An import a killed photosd left halfway lands now: its groups whole, its originals removed.
            do {
                try library.finishStoppedFileWork()
            } catch {
                logger.warning("cannot finish the file work a stopped process left", metadata: ["error": "\(error)"])
            }
            let zone = configuration.timeZone
            services.append(
                ImportFolderService(
                    imports: file.imports, monitor: try InotifyMonitor(),
                    importer: { definition, quiet in
                        let importer = FolderImport(library: library, definition: definition, timeZone: zone)
                        let (plan, report) = try importer.importFiles([definition.from], quiet: quiet)
                        return ImportRunSummary(
                            imported: plan.groups.count - report.failed.count, files: report.placed.count,
                            duplicates: plan.duplicates.count, rejected: plan.rejected.count, left: plan.left.count,
                            waiting: plan.waiting.count,
                            failed: report.failed.map { "\($0.path): \($0.reason)" }
                                + report.untrashed.map { "\($0.path) (a duplicate, not trashed): \($0.reason)" },
                            keptOriginals: report.keptOriginals.map { "\($0.path): \($0.reason)" })
                    }, logger: Logger(label: "photosd.imports"), board: daemon.board))
        }
        // What image decodes may take at once, for every renderer of the process.
        DecodeMemory.shared.budget = min(file.decodeMemoryMegabytes ?? DecodeMemory.defaultBudget >> 20, 1 << 24) << 20
        // The thumbnail cache, and the thumbnails made ahead when the config names sizes.
        let thumbnailBytes = (file.thumbnailCacheMegabytes ?? 512) << 20
        if !file.thumbnailSizes.isEmpty, thumbnailBytes > 0 {
            services.append(
                ThumbnailService(
                    database: database,
                    cache: .shared(directory: ThumbnailDiskCache.defaultDirectory(), maximumBytes: thumbnailBytes),
                    sizes: file.thumbnailSizes, board: daemon.board, logger: Logger(label: "photosd.thumbnails")))
        }
        if !socketPath.isEmpty || listenAddress != nil {
            var libraryConfiguration = PHPhotoLibrary.Configuration()
            libraryConfiguration.timeZone = configuration.timeZone
            libraryConfiguration.thumbnailCacheBytes = thumbnailBytes
            libraryConfiguration.roots = configuration.libraryRoots
            libraryConfiguration.trashDays = file.trashDays ?? libraryConfiguration.trashDays
            libraryConfiguration.ignore = file.ignore
            let statusPath = configuration.statusPath
            let startupPath = StartupProgress.path(forLibrary: configuration.localPath)
            let library = PHPhotoLibrary(database: database, configuration: libraryConfiguration)
            let statusFile = StatusFileReader(path: statusPath) { try DaemonStatus.read(from: $0) }
            // A deletion a killed photosd or photos left halfway has its files moved to the Trash now, and
            // deleted assets past trash_days are erased.
            do {
                try library.finishStoppedFileWork()
            } catch {
                logger.warning("cannot finish the file work a stopped process left", metadata: ["error": "\(error)"])
            }
            // And while the daemon runs: the expiry every hour, another process's stopped work (a
            // `photos rm` killed halfway) within half a minute.
            services.append(
                PacedService.trashExpiry(logger: Logger(label: "photosd.trash")) { library.eraseExpiredTrash() })
            services.append(
                PacedService.stoppedFileWork(logger: Logger(label: "photosd.journal")) {
                    library.finishOtherProcessesStoppedFileWork()
                })
            services.append(
                APIServer(
                    socketPath: socketPath,
                    library: library,
                    // The file, unless the daemon could not write it (a full disk): then the status now.
                    status: { try daemon.status(readingFile: statusFile.value) },
                    startup: { [pid = getpid()] in
                        // This process's crawl only: a file a killed photosd left says nothing of this one.
                        (try? StartupProgress.read(from: startupPath)).flatMap { $0.pid == pid ? $0 : nil }
                    },
                    logger: Logger(label: "photosd.api"), listen: listenAddress,
                    maximumUploadSize: max(1, maximumUpload ?? APIServer.defaultMaximumUploadSize), metrics: metrics))
        }
        let group = ServiceGroup(
            configuration: .init(
                services: daemon.services(adding: services), gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        logger.info("starting", metadata: ["library.path": "\(path)", "roots": "\(roots.joined(separator: ", "))"])
        try await group.run()
        withExtendedLifetime(lock) {}
    }

    /// The roots with what the library may write under each: the config's; a `--watch` directory takes
    /// the policy the config gives the same directory, else none (read-only).
    static func libraryRoots(watch: [String], file: ConfigFile) -> [LibraryRoot] {
        guard !watch.isEmpty else { return file.libraryRoots }
        return watch.map { path in
            let root = LibraryRoot(path: path)
            return file.libraryRoots.first { $0.path == root.path } ?? root
        }
    }

    /// Why a root is not a directory photosd can watch: "does not exist", "is not a directory".
    private static func missing(_ root: String) -> String {
        var info = stat()
        guard stat(root, &info) == 0 else { return String(cString: strerror(errno)).lowercased() }
        return info.st_mode & S_IFMT == S_IFDIR ? "cannot be read" : "not a directory"
    }

    /// Takes the library's lock (``DaemonLock``); another photosd holding it is printed on standard
    /// error with its PID, and photosd exits with status 75 (EX_TEMPFAIL: once that one stops, this
    /// one can start).
    private static func locking(_ library: String) throws -> DaemonLock {
        do {
            return try DaemonLock.acquire(forLibrary: library)
        } catch {
            FileHandle.standardError.write(Data("photosd: \(error)\n".utf8))
            throw ExitCode(75)
        }
    }

    /// Runs a step of reading the configuration. A problem in it is printed on standard error and
    /// photosd exits with status 78 (EX_CONFIG) before starting anything: never half-configured.
    private static func readingConfig<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ConfigError {
            FileHandle.standardError.write(Data("photosd: \(error)\n".utf8))
            throw ExitCode(78)
        }
    }

}
