import Dispatch
import Foundation
import Logging
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosStore
import ServiceLifecycle
import Synchronization

/// Gives a library made new the edits kept in the library's folder: how many came back, and the
/// folders passed over with why.
public typealias EditRestorer = @Sendable () throws -> (edits: Int, skipped: [String])

/// Runs the ``FolderScanner`` over the work in a ``ScanQueue``, one scan at a time, off the
/// cooperative pool (scans block on file reads and SQLite), and records what each did.
///
/// A scan that fails (a full disk, a locked or damaged library) makes the library unavailable
/// on the ``StatusBoard``; it is tried again as whole-root rescans after the ``RetryBackoff``
/// delay, merged with whatever arrived meanwhile. On a graceful shutdown the scan in flight
/// finishes (its batch commits or rolls back whole) and no other starts.
public final class ScanRunner: Service, Sendable {
    /// What one successful scan found, for the root tracker and the settler.
    public struct Outcome: Sendable, Hashable {
        /// Roots that could not be read.
        public var offlineRoots: [String]
        /// Every unreadable directory the library knows.
        public var unreadable: [UnreadableDirectoryRecord]
        /// Files that kept changing while read: still being written.
        public var stillChanging: [String]

        /// An outcome.
        public init(offlineRoots: [String], unreadable: [UnreadableDirectoryRecord], stillChanging: [String]) {
            self.offlineRoots = offlineRoots
            self.unreadable = unreadable
            self.stillChanging = stillChanging
        }
    }

    let scanner: FolderScanner
    let database: LibraryDatabase
    let queue: ScanQueue
    let board: StatusBoard
    let backoff: RetryBackoff
    let libraryPath: String
    let logger: Logger
    let report: @Sendable (Outcome) -> Void
    /// Hears the startup crawl's progress, and its end.
    let startupProgress: StartupProgressReporter?
    /// The watch walks going on in roots just followed: a whole-root scan lists each of their
    /// directories once it is watched.
    let walks: RootWalks
    /// Scans run here, one at a time.
    private let scanQueue = DispatchQueue(label: "photosd.scan")
    /// Whether the last look at the library found unreadable directories.
    private let knowsUnreadable = Mutex(false)
    /// What may be written under each root: a sidecar another tool changed is merged into the
    /// library, and written back (the library's fields it lacks) only where its root allows.
    let policies: LibraryRoots
    /// Whether the startup scan is followed by bringing back the user albums and folders of the
    /// roots' album manifests (a library made new: ``DaemonConfiguration/restoresAlbums``).
    let restoresAlbums: Bool
    /// Gives a library made new the edits its photos had, once their identifiers and albums are
    /// back (the executable passes the library's own, which lives above this module).
    let restoreEdits: EditRestorer?
    /// Whether the roots' identifier logs may be caught up: not before a library made new has taken
    /// its identifiers back from them (a catch-up would write the new library's identifiers over).
    private let logsMayBeWritten: Mutex<Bool>

    /// A runner taking work from `queue`; `report` hears what each successful scan found.
    public init(
        scanner: FolderScanner, database: LibraryDatabase, queue: ScanQueue, board: StatusBoard,
        backoff: RetryBackoff, libraryPath: String, logger: Logger, startupProgress: StartupProgressReporter? = nil,
        policies: LibraryRoots = LibraryRoots([]), restoresAlbums: Bool = false, restoreEdits: EditRestorer? = nil,
        walks: RootWalks = RootWalks(), report: @escaping @Sendable (Outcome) -> Void = { _ in }
    ) {
        self.walks = walks
        self.policies = policies
        self.restoresAlbums = restoresAlbums
        self.restoreEdits = restoreEdits
        self.logsMayBeWritten = Mutex(!restoresAlbums)
        self.startupProgress = startupProgress
        self.scanner = scanner
        self.database = database
        self.queue = queue
        self.board = board
        self.backoff = backoff
        self.libraryPath = libraryPath
        self.logger = logger
        self.report = report
    }

    public func run() async throws {
        // Graceful shutdown ends the wakes, and stops the scan in flight at its next batch (a
        // startup crawl of a million files would otherwise hold the stop for minutes).
        await withGracefulShutdownHandler {
            await runScans()
        } onGracefulShutdown: { [queue, scanner] in
            queue.finish()
            scanner.requestStop()
        }
    }

    private func runScans() async {
        var backoff = self.backoff
        var wakes = queue.wakes.makeAsyncIterator()
        while true {
            guard let work = queue.take() else {
                guard await wakes.next() != nil else { return }
                continue
            }
            if let failed = await perform(work) {
                if failed.error is ScanStopped {
                    logger.info("scan stopped: photosd is stopping", metadata: ["scan.reason": "\(failed.reason)"])
                    return
                }
                let delay = backoff.failed()
                let failures = backoff.failures
                board.update { board in
                    board.retryAt = .now + delay
                    board.libraryFailure = "\(failed.error)"
                    board.consecutiveFailures = failures
                    board.append(error: "\(Date()): scan failed: \(failed.error)")
                }
                // One log line per try: the backoff spaces the tries, 0.5 s doubling to a minute.
                logger.error(
                    "scan failed; the library cannot be used",
                    metadata: [
                        "scan.reason": "\(failed.reason)", "error": "\(failed.error)",
                        "retry.seconds": "\(delay.seconds)",
                        "failures": "\(failures)", "library.path": "\(libraryPath)",
                    ])
                if work.isStartup {
                    startupProgress?.finish(totals: board.read(\.totals))
                    board.update { $0.isReady = true }
                }
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                queue.submit(failed.retry)
            } else {
                if backoff.failures > 0 {
                    logger.info("the library can be used again", metadata: ["scan.reason": "\(Self.reason(work))"])
                }
                backoff.succeeded()
                await catchUpIdentifierLogs()
                // The crawl's totals (and systemd's last STATUS=) before READY=1.
                if work.isStartup { startupProgress?.finish(totals: board.read(\.totals)) }
                board.update { board in
                    board.retryAt = nil
                    board.libraryFailure = nil
                    board.consecutiveFailures = 0
                    if work.isStartup { board.isReady = true }
                }
            }
        }
    }

    private struct Failure {
        var error: any Error
        var reason: String
        var retry: ScanWork
    }

    /// Scans the roots of `work` whole, then the files of the others, as one scan (a photo moved
    /// from one root to another keeps its asset whichever of the two is rescanned whole); nil when
    /// all went well.
    private func perform(_ work: ScanWork) async -> Failure? {
        let reason = Self.reason(work)
        var files: [String: Set<String>] = [:]
        // Sidecars are no media: another tool's edit is merged into their assets, after the scan
        // of the files that changed with them: a photo renamed with its sidecar (names swapped)
        // is at its new path by then, and the sidecar meets its own asset.
        var sidecars: [String] = []
        for (root, changed) in work.partialFiles.sorted(by: { $0.key < $1.key }) {
            let changedSidecars = changed.filter { $0.lowercased().hasSuffix(".xmp") }
            sidecars += changedSidecars.sorted()
            if changed.count > changedSidecars.count { files[root] = changed.subtracting(changedSidecars) }
        }
        let roots = work.roots.sorted()
        guard !roots.isEmpty || !files.isEmpty else {
            if !sidecars.isEmpty { await merge(sidecars: sidecars) }
            return nil
        }
        let scanner = self.scanner
        var onProgress: (@Sendable (ScanProgress) -> Void)?
        if work.isStartup, let reporter = startupProgress { onProgress = { reporter.report($0) } }
        let progress = onProgress
        let watching = walks.going(in: roots)
        switch await scan(
            reason: reason, wholeRoots: !roots.isEmpty,
            { [files] in
                try scanner.scan(roots: roots, files: files, progress: progress, watching: watching)
            })
        {
        case .failure(let error):
            // What was not done yet is done again whole.
            return Failure(error: error, reason: reason, retry: work.wholeRoots)
        case .success(let report):
            // With the sidecars that changed, those other tools wrote or changed while photosd did
            // not watch, and those a directory that arrived whole (moved in) brought.
            let changed = Set(sidecars)
            let toSync = sidecars + report.sidecarsToSync.filter { !changed.contains($0) }
            if !toSync.isEmpty || !report.movedFiles.isEmpty || !report.joinedPhotos.isEmpty {
                await merge(sidecars: toSync, movedFiles: report.movedFiles, joinedPhotos: report.joinedPhotos)
            }
        }
        if work.isStartup, restoresAlbums, !roots.isEmpty {
            await onScanQueue {
                self.restoreIdentifiers(from: roots)
                self.restoreAlbums(from: roots)
                self.restoreEditsIfAny()
            }
        }
        return nil
    }

    /// Gives the photos of a library made new the identifiers the roots' identifier logs name for
    /// their paths (those whose sidecar gave none), before the album manifests are read. A log that
    /// cannot be read is logged and left alone.
    private func restoreIdentifiers(from roots: [String]) {
        do {
            let restored = try IdentifierLogSync(database: database).restore(from: roots)
            logger.notice(
                "identifiers brought back from the roots' identifier logs",
                metadata: ["identifiers": "\(restored.identifiers)"])
            for problem in restored.unreadable {
                logger.error("cannot read an identifier log; it is left as it is", metadata: ["error": "\(problem)"])
            }
            logsMayBeWritten.withLock { $0 = true }
        } catch {
            logger.error("cannot bring back identifiers from the identifier logs", metadata: ["error": "\(error)"])
        }
    }

    /// Appends what the last scan placed or moved to the identifier log of each root that keeps user
    /// state, on the scan queue, after the scan committed (never in its transaction).
    private func catchUpIdentifierLogs() async {
        guard logsMayBeWritten.withLock({ $0 }) else { return }
        let sync = IdentifierLogSync(database: database)
        let policies = self.policies
        let logger = self.logger
        await onScanQueue {
            for outcome in sync.catchUp(policies) {
                if let error = outcome.error {
                    logger.warning(
                        "cannot write the identifier log; it is left as it is",
                        metadata: ["root": "\(outcome.root)", "error": "\(error)"])
                } else if outcome.rewritten {
                    logger.info(
                        "identifier log written whole",
                        metadata: ["root": "\(outcome.root)", "entries": "\(outcome.entries)"])
                }
            }
        }
    }

    /// Runs `body` on the scan queue (file and SQLite work stays off the cooperative pool).
    private func onScanQueue(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scanQueue.async {
                body()
                continuation.resume()
            }
        }
    }

    /// Brings back the user albums and folders of the roots' album manifests into a library made new
    /// (an ordinary commit: observers and hooks see them arrive). A manifest that cannot be read is
    /// logged and left alone.
    private func restoreAlbums(from roots: [String]) {
        do {
            let restored = try ManifestSync(database: database).restore(from: roots)
            if restored.albums + restored.folders > 0 {
                logger.notice(
                    "user albums and folders brought back from the roots' album manifests",
                    metadata: [
                        "albums": "\(restored.albums)", "folders": "\(restored.folders)",
                        "missingAssets": "\(restored.missingAssets)",
                    ])
            }
        } catch {
            logger.error("cannot bring back the user albums from the album manifests", metadata: ["error": "\(error)"])
        }
    }

    /// Re-attaches the edits kept in the library's folder to the assets whose identifiers came
    /// back (an ordinary commit). A folder passed over, or a failure, is logged.
    private func restoreEditsIfAny() {
        guard let restoreEdits else { return }
        do {
            let restored = try restoreEdits()
            if restored.edits > 0 {
                logger.notice(
                    "edits brought back from the library's folder", metadata: ["edits": "\(restored.edits)"])
            }
            for folder in restored.skipped {
                logger.warning(
                    "an edit's folder cannot be read; it is left as it is", metadata: ["folder": "\(folder)"])
            }
        } catch {
            logger.error("cannot bring back the edits from the library's folder", metadata: ["error": "\(error)"])
        }
    }

    /// Merges sidecars other tools changed into their assets (``PhotosIngest/SidecarSync``), on the
    /// scan queue; each applied field is an ordinary change, each conflict a log line. Then writes
    /// the sidecars of moved photos whose state never reached one (`movedFiles`), and of photos
    /// whose assets took another in (`joinedPhotos`).
    private func merge(sidecars: [String], movedFiles: [String] = [], joinedPhotos: [String] = []) async {
        let sync = SidecarSync(database: database, timeZone: scanner.timeZone).batched()
        let policies = self.policies
        let logger = self.logger
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scanQueue.async {
                for path in sidecars {
                    do {
                        let outcomes = try sync.syncChangedSidecar(at: path) { policies.policy(for: $0) != .none }
                        for outcome in outcomes {
                            if !outcome.taken.isEmpty {
                                logger.info(
                                    "took a sidecar's changes",
                                    metadata: [
                                        "sidecar": "\(outcome.sidecar)",
                                        "fields": "\(outcome.taken.map(\.rawValue).sorted().joined(separator: ","))",
                                    ])
                            }
                            for conflict in outcome.conflicts {
                                logger.warning(
                                    "sidecar conflict",
                                    metadata: ["sidecar": "\(outcome.sidecar)", "conflict": "\(conflict)"])
                            }
                        }
                    } catch {
                        logger.error("cannot merge a sidecar", metadata: ["sidecar": "\(path)", "error": "\(error)"])
                    }
                }
                let mayWrite = { (path: String) in policies.policy(for: path) != .none }
                let written =
                    sync.syncMovedPhotos(at: movedFiles, mayWrite: mayWrite).map { ($0, $1, "moved") }
                    + sync.syncJoinedPhotos(at: joinedPhotos, mayWrite: mayWrite).map { ($0, $1, "took another in") }
                for (file, outcome, how) in written {
                    switch outcome {
                    case .success(let outcome?) where outcome.wrote:
                        logger.info(
                            "wrote the sidecar of a photo that \(how)", metadata: ["sidecar": "\(outcome.sidecar)"])
                    case .success: break
                    case .failure(let error):
                        logger.error(
                            "cannot write the sidecar of a photo that \(how)",
                            metadata: ["photo": "\(file)", "error": "\(error)"])
                    }
                }
                continuation.resume()
            }
        }
    }

    private static func reason(_ work: ScanWork) -> String { work.reasons.sorted().joined(separator: ",") }

    /// Runs one scan on the scan queue and records what it did; its report, or the error when it failed.
    private func scan(reason: String, wholeRoots: Bool, _ body: @escaping @Sendable () throws -> ScanReport) async
        -> Result<ScanReport, any Error>
    {
        let outcome: Result<ScanReport, any Error> = await withCheckedContinuation { continuation in
            scanQueue.async {
                let result = Result { try body() }
                // A whole-root scan reads the tree and what the library holds of it; glibc keeps
                // the freed memory in its arenas, so a daemon that reconciled a large tree at
                // start would sit at the scan's peak. Given back, it idles at its working set.
                if wholeRoots { ReleasedMemory.giveBack() }
                continuation.resume(returning: result)
            }
        }
        let report: ScanReport
        switch outcome {
        case .failure: return outcome
        case .success(let value): report = value
        }
        // The library's unreadable directories change only in scans that find some, clear some
        // (the directory's root is then scanned whole) or cover whole roots: the others, a file
        // arriving in a known directory, do not read them again.
        var unreadable: [UnreadableDirectoryRecord] = []
        if wholeRoots || !report.unreadableDirectories.isEmpty || knowsUnreadable.withLock({ $0 }) {
            do {
                unreadable = try database.unreadableDirectories()
                knowsUnreadable.withLock { $0 = !unreadable.isEmpty }
            } catch {
                logger.error("cannot read the unreadable directories", metadata: ["error": "\(error)"])
            }
        }
        // Published with the library's state once the whole work is done: one status write.
        board.update(publish: false) { board in
            board.totals.ingested += report.ingested
            board.totals.updated += report.updated
            board.totals.moved += report.moved
            board.totals.removed += report.removed
            board.totals.rejected += report.rejected - report.rejectedBefore
        }
        self.report(
            Outcome(offlineRoots: report.offlineRoots, unreadable: unreadable, stillChanging: report.stillChanging))
        logger.debug(
            "scanned",
            metadata: [
                "scan.reason": "\(reason)", "scan.whole": "\(wholeRoots)", "seen": "\(report.seen)",
                "unchanged": "\(report.unchanged)",
            ])
        if report.ingested + report.updated + report.moved + report.removed + report.rejected - report.rejectedBefore
            > 0
        {
            logger.info(
                "applied changes",
                metadata: [
                    "scan.reason": "\(reason)", "ingested": "\(report.ingested)", "updated": "\(report.updated)",
                    "moved": "\(report.moved)", "removed": "\(report.removed)",
                    "rejected": "\(report.rejected - report.rejectedBefore)",
                ])
        }
        return .success(report)
    }
}

/// Memory the process freed, given back to the system.
enum ReleasedMemory {
    /// `malloc_trim(0)`: releases the free memory at the top of the heap and whole free pages in
    /// every arena.
    static func giveBack() {
        Syscall.releaseFreeMemory()
    }
}
