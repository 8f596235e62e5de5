import Foundation
import Logging
import PhotosIngest
import PhotosWire
import Synchronization

/// Tells how the startup crawl goes while it runs: `<library>.startup.json` for `photos status`
/// (the status file appears only once the crawl is done) and `STATUS=` lines to systemd, at most
/// one of each every ``interval`` (the first at once), then a last `STATUS=` with the totals, which
/// stay in the status file's `startup` section.
///
/// ```swift
/// let progress = StartupProgressReporter(path: StartupProgress.path(forLibrary: library), board: board, notifier: notifier)
/// scanner.scan(roots: roots) { progress.report($0) }   // on the scan's thread
/// progress.finish()                                     // before READY=1
/// ```
public final class StartupProgressReporter: Sendable {
    let path: String
    let board: StatusBoard
    let notifier: SystemdNotifier
    let logger: Logger
    /// The least time between two reports.
    let interval: Duration

    private struct State {
        var started = ContinuousClock.now
        var startedAt = Date().timeIntervalSince1970
        var lastReport: ContinuousClock.Instant?
        /// Each root's directories: compared, found.
        var directories: [String: (done: Int, total: Int)] = [:]
        var seen = 0
        var ingested = 0
        var rejected = 0
        var finished = false
    }

    private let state = Mutex(State())

    /// A reporter writing `path` and telling `notifier`.
    public init(
        path: String, board: StatusBoard, notifier: SystemdNotifier, logger: Logger, interval: Duration = .seconds(1)
    ) {
        self.path = path
        self.board = board
        self.notifier = notifier
        self.logger = logger
        self.interval = interval
    }

    /// Takes in a scan's progress; reports it when the last report is ``interval`` old.
    public func report(_ scan: ScanProgress) {
        let progress: StartupProgress? = state.withLock { state in
            guard !state.finished else { return nil }
            state.directories[scan.root] = (scan.directoriesDone, scan.directories)
            state.seen = scan.seen
            state.ingested = scan.ingested
            state.rejected = scan.rejected
            let now = ContinuousClock.now
            if let last = state.lastReport, now - last < interval { return nil }
            state.lastReport = now
            return Self.progress(state, done: false)
        }
        guard let progress else { return }
        do {
            try progress.write(to: path)
        } catch {
            logger.debug("cannot write the startup progress", metadata: ["file.path": "\(path)", "error": "\(error)"])
        }
        notifier.send("STATUS=\(progress.summary)")
    }

    /// Ends the crawl's reports: the progress file goes, the totals (`totals`, the crawl's whole
    /// report) go to the status file's `startup` section and to systemd.
    public func finish(totals: ScanReport?) {
        let progress: StartupProgress? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            if let totals {
                state.seen = max(state.seen, totals.seen)
                state.ingested = totals.ingested
                state.rejected = totals.rejected
            }
            return Self.progress(state, done: true)
        }
        guard let progress else { return }
        try? FileManager.default.removeItem(atPath: path)
        board.update(publish: false) { $0.sections["startup"] = progress }
        notifier.send("STATUS=\(progress.summary)")
        logger.info(
            "startup crawl done",
            metadata: [
                "directories": "\(progress.directoriesDone)", "files.seen": "\(progress.filesSeen)",
                "ingested": "\(progress.ingested)", "rejected": "\(progress.rejected)",
                "seconds": "\(progress.seconds)",
            ])
    }

    private static func progress(_ state: State, done: Bool) -> StartupProgress {
        let elapsed = ContinuousClock.now - state.started
        let found = state.directories.values.reduce(0) { $0 + $1.total }
        let compared = state.directories.values.reduce(0) { $0 + $1.done }
        return StartupProgress(
            pid: getpid(), startedAt: state.startedAt, updatedAt: Date().timeIntervalSince1970, done: done,
            directoriesDone: compared, directories: found, filesSeen: state.seen, ingested: state.ingested,
            rejected: state.rejected, seconds: elapsed.seconds)
    }
}
