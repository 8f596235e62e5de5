import Dispatch
import Foundation
import Logging
import PhotosCore
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

    /// A summary.
    public init(
        imported: Int = 0, files: Int = 0, duplicates: Int = 0, rejected: Int = 0, left: Int = 0, waiting: Int = 0,
        failed: [String] = []
    ) {
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
/// starts: what arrived while photosd was stopped.
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
    /// How often due folders are looked for: a bound on how late past its quiet time a run starts.
    let tick: Duration
    /// When each import is due (by its index), if it is.
    private let due = Mutex<[Int: ContinuousClock.Instant]>([:])
    /// Runs go here, one at a time.
    private let queue = DispatchQueue(label: "photosd.imports")

    /// A service for `imports`, watching with `monitor` (its own), importing with `importer`.
    public init(
        imports: [ImportDefinition], monitor: any FileMonitor, importer: @escaping FolderImporter, logger: Logger,
        tick: Duration = .milliseconds(20)
    ) {
        self.imports = imports
        self.monitor = monitor
        self.importer = importer
        self.logger = logger
        self.tick = tick
    }

    public func run() async throws {
        guard !imports.isEmpty else { return }
        for definition in imports {
            do {
                try monitor.addRoot(definition.from)
            } catch {
                logger.warning(
                    "cannot watch an import's drop folder; it is imported when photosd starts only",
                    metadata: ["from": "\(definition.from)", "error": "\(error)"])
            }
        }
        // What arrived while photosd was stopped.
        let now = ContinuousClock.now
        due.withLock { due in for index in imports.indices { due[index] = now } }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                for await event in monitor.events.cancelOnGracefulShutdown() {
                    guard
                        let index = imports.firstIndex(where: {
                            event.path == $0.from || event.path.hasPrefix($0.from + "/")
                        })
                    else {
                        continue
                    }
                    let at = ContinuousClock.now + imports[index].settle
                    due.withLock { $0[index] = at }
                }
            }
            group.addTask { [self] in
                while !Task.isCancelled, !Task.isShuttingDownGracefully {
                    let now = ContinuousClock.now
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

    /// One run of the import at `index`, on the service's queue; logs what it did.
    private func runImport(_ index: Int) async {
        let definition = imports[index]
        let outcome: Result<ImportRunSummary, any Error> = await withCheckedContinuation { continuation in
            queue.async { [importer] in
                continuation.resume(returning: Result { try importer(definition, definition.settle) })
            }
        }
        switch outcome {
        case .success(let summary):
            if summary.waiting > 0 {
                // Still being written: looked at again once quiet.
                let at = ContinuousClock.now + definition.settle
                due.withLock { due in due[index] = min(due[index] ?? at, at) }
            }
            for failure in summary.failed {
                logger.error("a photo could not be imported; its files stay", metadata: ["reason": "\(failure)"])
            }
            // A run that only finds what earlier runs left says so quietly.
            logger.log(
                level: summary.imported + summary.duplicates > 0 ? .notice : .debug,
                "imported from a drop folder",
                metadata: [
                    "from": "\(definition.from)", "to": "\(definition.to)", "imported": "\(summary.imported)",
                    "files": "\(summary.files)", "duplicates": "\(summary.duplicates)",
                    "rejected": "\(summary.rejected)", "left": "\(summary.left)",
                ])
        case .failure(let error):
            logger.error(
                "an import from a drop folder failed; it is tried again at its next change",
                metadata: ["from": "\(definition.from)", "error": "\(error)"])
        }
    }
}
