import Dispatch
import Foundation
import Logging
import PhotosCore
import PhotosLinux
import PhotosWire
import PhotosWatcher
import ServiceLifecycle
import Synchronization

/// What one run of a watched import did, for the log and the status.
public struct ImportRunSummary: Sendable, Hashable {
    /// Photos placed and in the library.
    public var imported = 0
    /// Their files.
    public var files = 0
    /// Photos whose content the library has, left in the drop folder.
    public var duplicates = 0
    /// Media files that cannot be read whole, left.
    public var rejected = 0
    /// Other files left (not media, sidecars of nothing).
    public var left = 0
    /// Files still being written, taken at a later run.
    public var waiting = 0
    /// Photos that could not be placed, with why; their files stay.
    public var failed: [String] = []
    /// Originals of a move the system would not let go (a read-only card), with why: imported, and
    /// still in the drop folder.
    public var keptOriginals: [String] = []

    /// A summary.
    public init(
        imported: Int = 0, files: Int = 0, duplicates: Int = 0, rejected: Int = 0, left: Int = 0, waiting: Int = 0,
        failed: [String] = [], keptOriginals: [String] = []
    ) {
        self.keptOriginals = keptOriginals
        self.imported = imported
        self.files = files
        self.duplicates = duplicates
        self.rejected = rejected
        self.left = left
        self.waiting = waiting
        self.failed = failed
    }
}

/// Runs one import of a drop folder now: files quiet for at least `quiet` are taken. The executable
/// passes the library's importer (`FolderImport`, which lives above this module).
public typealias FolderImporter =
    @Sendable (_ definition: ImportDefinition, _ quiet: Duration) throws -> ImportRunSummary

/// Watches the drop folders of the configuration's `[[imports]]` and files what settles in them.
///
/// Each drop folder is a root of its own inotify monitor (not the roots' one: a drop folder is no
/// part of the library's tree). Any event under it starts its quiet time (`settle_ms`) again; once
/// the folder has been quiet that long, its import runs on a queue of its own (file reads, copies and
/// SQLite stay off the cooperative pool), taking only files themselves quiet that long, so a file
/// still being written waits for the next round. Each folder is also imported when the service
/// starts: what arrived while photosd was stopped. A drop folder that is not there (a card not
/// inserted, a volume not mounted) is looked for every poll interval, and imported when it comes;
/// one that goes is no longer watched until it is back.
///
/// | event | then |
/// |---|---|
/// | a file written, moved in, closed | the folder is due `settle` after the last event |
/// | the folder quiet for `settle` | one import run; files it found still changing make it due again |
/// | a graceful shutdown | the run in flight finishes its group; no other starts |
public final class ImportFolderService: Service, Sendable {
    let imports: [ImportDefinition]
    let monitor: any FileMonitor
    let importer: FolderImporter
    let logger: Logger
    /// Where `photos status`, `photos imports status` and `GET /v1/imports` read how each import stands.
    let board: StatusBoard?
    /// How often due folders are looked for: a bound on how late past its quiet time a run starts.
    let tick: Duration
    /// How often a drop folder that is not there (a card not inserted) is looked for again.
    let pollInterval: Duration
    /// When each import is due (by its index), if it is.
    private let due = Mutex<[Int: ContinuousClock.Instant]>([:])
    /// Each watched folder's device and inode when its watch was added: a folder that shows others
    /// since (a card mounted there, or unmounted from it) is watched again, and imported.
    private let watchedAs = Mutex<[Int: [Int64]]>([:])
    /// How each import stands, by index.
    private let statuses: Mutex<[ImportStatus]>
    /// Runs go here, one at a time.
    private let queue = DispatchQueue(label: "photosd.imports")

    /// A service for `imports`, watching with `monitor` (its own), importing with `importer`, its
    /// state on `board`.
    public init(
        imports: [ImportDefinition], monitor: any FileMonitor, importer: @escaping FolderImporter, logger: Logger,
        board: StatusBoard? = nil, tick: Duration = .milliseconds(20), pollInterval: Duration = .seconds(5)
    ) {
        self.imports = imports
        self.monitor = monitor
        self.importer = importer
        self.logger = logger
        self.board = board
        self.tick = tick
        self.pollInterval = pollInterval
        statuses = Mutex(
            imports.map { definition in
                ImportStatus(
                    from: definition.from, to: definition.to, mode: definition.mode.rawValue, state: "unwatched",
                    reason: "not looked at yet")
            })
    }

    /// The imports' statuses now.
    public var status: [ImportStatus] { statuses.withLock { $0 } }

    public func run() async throws {
        guard !imports.isEmpty else { return }
        // Each folder there is watched and imported now (what arrived while photosd was stopped);
        // the others are looked for every poll interval.
        watchFolders()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                // Its own stream ends when the task is cancelled: at graceful shutdown.
                await cancelWhenGracefulShutdown { for await event in self.monitor.events { self.handle(event) } }
            }
            group.addTask { [self] in
                var lookedFor = ContinuousClock.now
                while !Task.isCancelled, !Task.isShuttingDownGracefully {
                    let now = ContinuousClock.now
                    if now - lookedFor >= pollInterval {
                        lookedFor = now
                        watchFolders()
                    }
                    let ready = due.withLock { due in
                        let ready = due.filter { $0.value <= now }.map(\.key).sorted()
                        for index in ready { due[index] = nil }
                        return ready
                    }
                    for index in ready { await runImport(index) }
                    try? await Task.sleep(for: tick)
                }
                monitor.stop()
            }
        }
    }

    /// Makes the import of a drop folder due, after its settle time, when something changed in it;
    /// a drop folder whose file system went is watched again once it is back.
    private func handle(_ event: FileEvent) {
        guard
            let index = imports.firstIndex(where: {
                event.path == $0.from || event.path.hasPrefix($0.from + "/")
            })
        else {
            return
        }
        if event.path == imports[index].from, event.kind == .rootUnmounted || event.kind == .watchRemoved {
            // Its file system went (a card pulled out), or the folder did: looked for
            // again at the next poll, and imported when it is back.
            monitor.removeRoot(imports[index].from)
            watchedAs.withLock { $0[index] = nil }
            setState(index, "unwatched", reason: "the folder's file system was unmounted, or it went")
            logger.info(
                "an import's drop folder went away; it is looked for again",
                metadata: ["from": "\(imports[index].from)"])
            return
        }
        let at = ContinuousClock.now + imports[index].settle
        due.withLock { $0[index] = at }
    }

    /// Watches each drop folder that is there and not yet watched (and makes it due: what is in it
    /// now is imported), and stops watching those that went (a card taken out).
    private func watchFolders() {
        let now = ContinuousClock.now
        for (index, definition) in imports.enumerated() {
            var isDirectory: ObjCBool = false
            let present =
                FileManager.default.fileExists(atPath: definition.from, isDirectory: &isDirectory)
                && isDirectory.boolValue
            let identity = present ? (try? FileOperations.identity(definition.from, followingLinks: true)) ?? nil : nil
            let key = identity.map { [$0.device, $0.inode] }
            var watching = statuses.withLock { $0[index].state == "watching" }
            if present, watching, watchedAs.withLock({ $0[index] }) != key {
                // Another file system at its path since it was watched (a card mounted there, or
                // unmounted from it): the watch is on what is no longer there.
                monitor.removeRoot(definition.from)
                watching = false
                logger.info(
                    "an import's drop folder is another file system now; watching it again",
                    metadata: ["from": "\(definition.from)"])
            }
            if present, !watching {
                do {
                    try monitor.addRoot(definition.from)
                    watchedAs.withLock { $0[index] = key }
                    setState(index, "watching", reason: nil)
                    due.withLock { $0[index] = now }
                    logger.info("watching an import's drop folder", metadata: ["from": "\(definition.from)"])
                } catch {
                    setState(index, "unwatched", reason: "\(error)")
                    logger.warning(
                        "cannot watch an import's drop folder; it is looked for again",
                        metadata: ["from": "\(definition.from)", "error": "\(error)"])
                }
            } else if !present {
                if watching { monitor.removeRoot(definition.from) }
                let reason = "the folder is not there (a card or volume not mounted?)"
                if watching || statuses.withLock({ $0[index].reason != reason }) {
                    logger.info("an import's drop folder is not there", metadata: ["from": "\(definition.from)"])
                }
                setState(index, "unwatched", reason: reason)
            }
        }
    }

    private func setState(_ index: Int, _ state: String, reason: String?) {
        updateStatus { statuses in
            statuses[index].state = state
            statuses[index].reason = reason
        }
    }

    /// Changes the statuses and puts them on the board.
    private func updateStatus(_ body: (inout [ImportStatus]) -> Void) {
        let now = statuses.withLock { statuses in
            body(&statuses)
            return statuses
        }
        board?.update { $0.sections["imports"] = now }
    }

    /// One run of the import at `index`, on the service's queue; logs what it did.
    private func runImport(_ index: Int) async {
        let definition = imports[index]
        let outcome: Result<ImportRunSummary, any Error> = await withCheckedContinuation { continuation in
            queue.async { [importer] in
                continuation.resume(returning: Result { try importer(definition, definition.settle) })
            }
        }
        let finished = Date().timeIntervalSince1970
        switch outcome {
        case .success(let summary):
            updateStatus { statuses in
                statuses[index].imported += summary.imported
                statuses[index].files += summary.files
                statuses[index].duplicates = summary.duplicates
                statuses[index].rejected = summary.rejected
                statuses[index].left = summary.left
                statuses[index].pending = summary.waiting
                statuses[index].lastRun = finished
                statuses[index].lastError = summary.failed.last
            }
            if summary.waiting > 0 {
                // Still being written: looked at again once quiet.
                let at = ContinuousClock.now + definition.settle
                due.withLock { due in due[index] = min(due[index] ?? at, at) }
            }
            for failure in summary.failed {
                logger.error("a photo could not be imported; its files stay", metadata: ["reason": "\(failure)"])
            }
            for kept in summary.keptOriginals {
                logger.warning(
                    "an imported photo's original cannot be removed from the drop folder; it stays there",
                    metadata: ["reason": "\(kept)"])
            }
            // A run that only finds what earlier runs left says so quietly; one whose photos could
            // not be placed says how many (each was logged above) beside what it did.
            logger.log(
                level: !summary.failed.isEmpty
                    ? .warning : summary.imported + summary.duplicates > 0 ? .notice : .debug,
                "imported from a drop folder",
                metadata: [
                    "from": "\(definition.from)", "to": "\(definition.to)", "imported": "\(summary.imported)",
                    "files": "\(summary.files)", "duplicates": "\(summary.duplicates)",
                    "rejected": "\(summary.rejected)", "left": "\(summary.left)", "failed": "\(summary.failed.count)",
                ])
        case .failure(let error):
            updateStatus { statuses in
                statuses[index].lastRun = finished
                statuses[index].lastError = "\(error)"
            }
            logger.error(
                "an import from a drop folder failed; it is tried again at its next change",
                metadata: ["from": "\(definition.from)", "error": "\(error)"])
        }
    }
}
