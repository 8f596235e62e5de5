import Metrics
import Synchronization

/// The seam between those who ask for scans (settling, root tracking, retries) and the scan
/// runner: submitted ``ScanWork`` merges into one pending value, and ``wakes`` tells the runner
/// there is some.
///
/// Bounded without losing anything: the wake stream buffers one element, and work merges by
/// root and directory, so a burst of 10,000 files while a scan runs becomes one pending value
/// whose size is the number of directories touched.
///
/// ```swift
/// queue.submit(ScanWork(roots: ["/p"], reasons: ["poll"]))
/// for await _ in queue.wakes { while let work = queue.take() { run(work) } }
/// ```
public final class ScanQueue: Sendable {
    private let pending = Mutex(ScanWork())
    /// One element each time work was submitted since the last; the consumer takes all of it.
    public let wakes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    /// `photosd_scan_queue_depth`: the roots, directories and files waiting for the scanner.
    private let depthGauge = Gauge(label: "photosd_scan_queue_depth")

    /// An empty queue.
    public init() {
        (wakes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds work; the runner does it after what it is doing now.
    public func submit(_ work: ScanWork) {
        guard !work.isEmpty else { return }
        // Recorded under the lock: a take between the merge and the record would leave it stale.
        pending.withLock { pending in
            pending.merge(work)
            depthGauge.record(Self.size(of: pending))
        }
        continuation.yield()
    }

    /// Forgets the pending work on `roots` (roots a reload removed): they are no longer scanned.
    public func drop(roots: Set<String>) {
        guard !roots.isEmpty else { return }
        pending.withLock { $0 = $0.without(roots: roots) }
    }

    /// All pending work, or nil when there is none.
    public func take() -> ScanWork? {
        pending.withLock { pending in
            guard !pending.isEmpty else { return nil }
            defer {
                pending = ScanWork()
                depthGauge.record(0)
            }
            return pending
        }
    }

    /// What a pending value holds: its whole roots and its files.
    static func size(of work: ScanWork) -> Int {
        work.roots.count + work.files.values.reduce(0) { $0 + $1.count }
    }

    /// Ends ``wakes``: the runner stops after what it is doing.
    public func finish() { continuation.finish() }
}
