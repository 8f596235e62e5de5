import CPhotosLinux
import Dispatch
import Foundation
import Synchronization

/// The thread that reads the hooks' batches and builds their payloads: one of its own, at a lower
/// scheduling priority (nice +10) than the daemon's ingest.
///
/// Building a payload is the runner's only real work (a few milliseconds per few hundred assets,
/// in reads and JSON). On the shared pool it competes with ingest on equal terms, so a burst of new
/// files would be ingested more slowly for the hooks' sake. Here the kernel gives ingest the CPU
/// first when both want it, and the hooks catch up in the gaps and as soon as the burst ends; on an
/// idle machine the priority changes nothing (a single new file reaches its hook as fast).
///
/// Linux keeps a nice value per thread, and a thread starts with its creator's. The niced thread
/// therefore never calls into the executor: resuming a task there could make the shared pool
/// start a worker thread from it, and that thread (and every hook later spawned from it) would run
/// at the hooks' priority for good. A second thread, at the daemon's priority, hands the results
/// back.
final class BatchWorker: Sendable {
    /// What the thread and the worker share: the jobs, and whether to stop.
    fileprivate final class Jobs: Sendable {
        let queue = Mutex<(jobs: [@Sendable () -> Void], stopped: Bool)>(([], false))
        let available = DispatchSemaphore(value: 0)

        /// The next job; nil when stopped with nothing left.
        func next() -> (@Sendable () -> Void)? {
            while true {
                available.wait()
                let (job, stopped) = queue.withLock { queue in
                    (queue.jobs.isEmpty ? nil : queue.jobs.removeFirst(), queue.stopped)
                }
                if let job { return job }
                if stopped { return nil }
            }
        }
    }
    /// The work, for the niced thread.
    private let jobs = Jobs()
    /// The callers to resume, for the thread at the daemon's priority.
    private let answers = Jobs()

    /// How much higher the worker thread's nice value is than the daemon's.
    static let niceness: Int32 = 10

    /// Starts the threads, named `name` and `name`-back; they end when the worker is released.
    init(name: String) {
        Self.start(name: name, niceness: Self.niceness, running: jobs)
        Self.start(name: "\(name)-back", niceness: 0, running: answers)
    }

    private static func start(name: String, niceness: Int32, running jobs: Jobs) {
        Thread {
            // Named from inside: Foundation names the system's thread only from the thread itself.
            Thread.current.name = name
            if niceness > 0 { _ = cphotos_lower_thread_priority(niceness) }
            while let job = jobs.next() { job() }
        }.start()
    }

    deinit {
        for jobs in [jobs, answers] {
            jobs.queue.withLock { $0.stopped = true }
            jobs.available.signal()
        }
    }

    /// Runs `body` on the worker's thread and returns what it returns.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let answers = self.answers
            jobs.add {
                let result = Result { try body() }
                answers.add { continuation.resume(with: result) }
            }
        }
    }
}

extension BatchWorker.Jobs {
    /// Queues `job` and wakes the thread.
    func add(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        available.signal()
    }
}
