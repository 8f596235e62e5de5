import Logging
import Metrics
import PhotosWatcher
import ServiceLifecycle
import Synchronization

/// Feeds the monitor's events to an ``EventSettler`` and hands the work it settles to the
/// ``ScanQueue`` as soon as the tree has been quiet for the settle period.
///
/// It sleeps until the settler's ``EventSettler/dueAt`` (no ticking); work already due when an
/// event is recorded (`--settle 0`) is handed on by the event's own task. While a scan runs, what
/// settles meanwhile merges in the queue. On a graceful shutdown it stops the monitor; what was
/// not yet settled is found by the next startup scan.
public final class SettlingService: Service, Sendable {
    let monitor: any FileMonitor
    let scans: ScanQueue
    let board: StatusBoard
    let notify: @Sendable (EventSettler.Notice) -> Void
    let logger: Logger
    private let settler: Mutex<EventSettler>
    /// One element when the settler's due time may have moved.
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// `photosd_ingest_queue_depth`: the status file's `queueDepth`, for the process's metrics.
    private let depthGauge = Gauge(label: "photosd_ingest_queue_depth")

    /// A service settling `monitor`'s events with `settler` into `scans`; `notify` hears what
    /// events say about whole roots.
    public init(
        monitor: any FileMonitor, settler: EventSettler, scans: ScanQueue, board: StatusBoard, logger: Logger,
        notify: @escaping @Sendable (EventSettler.Notice) -> Void
    ) {
        self.monitor = monitor
        self.settler = Mutex(settler)
        self.scans = scans
        self.board = board
        self.logger = logger
        self.notify = notify
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for roots to be rescanned once the tree is quiet again (files still being written).
    public func recheck(roots: [String]) {
        guard !roots.isEmpty else { return }
        settler.withLock { $0.recheck(roots: roots, at: .now) }
        wake.yield()
    }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await cancelWhenGracefulShutdown { for await event in self.monitor.events { self.record(event) } }
                }
                group.addTask { try await self.settle() }
                _ = try await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.monitor.stop()
        }
    }

    private func record(_ event: FileEvent) {
        logger.debug("event", metadata: ["file.path": "\(event.path)", "event.kind": "\(event.kind)"])
        let (notice, work, depth) = settler.withLock { settler in
            let notice = settler.record(event, at: .now)
            // Due at once (`--settle 0`, the file closed): handed on from here, not after a hop
            // through the sleeper.
            let work = settler.dueAt.flatMap { $0 <= .now ? settler.take(at: .now) : nil }
            return (notice, work, settler.queueDepth)
        }
        report(depth: depth)
        if let notice { notify(notice) }
        if let work { submit(work) }
        wake.yield()
    }

    /// Tells the status board and the metrics how many changes wait for the tree to settle.
    private func report(depth: Int) {
        board.update(publish: false) { $0.queueDepth = depth }
        depthGauge.record(depth)
    }

    /// Hands on what is due whenever it is due; ends when cancelled.
    private func settle() async throws {
        var wakes = self.wakes.makeAsyncIterator()
        while !Task.isCancelled {
            if let (due, awaiting) = settler.withLock({ s in s.dueAt.map { ($0, s.isAwaitingEvents) } }) {
                // A due time only moves later, except when the close of a file being written or a
                // move's arrival brings it forward: then look again every millisecond (writes close
                // within one, and a move's arrival follows its departure).
                let until = awaiting ? min(due, .now + .milliseconds(1)) : due
                if until > .now { try await Task.sleep(until: until, clock: .continuous) }
                if until < due { continue }
            } else {
                guard await wakes.next() != nil else { return }
                continue
            }
            let (work, depth) = settler.withLock { settler in (settler.take(at: .now), settler.queueDepth) }
            report(depth: depth)
            if let work { submit(work) }
        }
    }

    private func submit(_ work: ScanWork) {
        logger.debug(
            "changes settled",
            metadata: [
                "roots": "\(work.roots.sorted())", "files": "\(work.files.values.reduce(0) { $0 + $1.count })",
            ])
        scans.submit(work)
    }
}
