import CPhotosLinux
import Dispatch
import Synchronization

/// A thread of its own, at a lower scheduling priority than the daemon's, running one job at a
/// time for async callers: what the hooks' payloads (nice +10) and the thumbnails (`SCHED_IDLE`)
/// are made on.
///
/// On the shared pool such work competes with ingest on equal terms. Here the kernel gives the
/// daemon's other threads the CPU first when both want it, and the worker catches up in the gaps;
/// on an idle machine the priority changes nothing.
///
/// Linux keeps a priority per thread, and a thread starts with its creator's. The worker therefore
/// never calls into the executor: resuming a task there could make the shared pool start a thread
/// from it, and that thread (and every process later spawned from it) would keep the worker's
/// priority for good. A second thread, at the creator's priority (named `name-back`), resumes the
/// callers.
///
/// ```swift
/// let worker = WorkerThread(name: "photosd-thumbs", priority: .idle)
/// defer { worker.stop() }
/// let size = try await worker.run { isStopping in try render(path, until: isStopping) }
/// ```
public final class WorkerThread: Sendable {
    /// How far below the creating thread's priority the worker runs.
    public enum Priority: Sendable, Hashable {
        /// The nice value raised by this much (at most to 19), for the worker thread only.
        case lowered(by: Int32)
        /// `SCHED_IDLE`, the lowest Linux has: the worker runs only when nothing else wants the
        /// processor. Where it is refused, the worker runs at its creator's priority.
        case idle
    }

    /// Thrown by ``run(first:_:)`` for a job given after ``stop()``: nothing runs it.
    public struct Stopped: Error, Sendable, CustomStringConvertible {
        /// The worker's name.
        public let name: String
        /// `"the worker photosd-thumbs is stopped"`.
        public var description: String { "the worker \(name) is stopped" }
    }

    /// The worker's name; its threads are `name` and `name-back` (15 bytes of each show in `top -H`).
    public let name: String
    /// The worker's priority.
    public let priority: Priority
    /// The jobs, for the worker thread.
    private let work = JobQueue()
    /// The callers to resume, for the thread at the creator's priority.
    private let answers = JobQueue()

    /// Starts the two threads. They end after ``stop()`` (or when the worker is released), once
    /// the jobs already given have run.
    ///
    /// A process that cannot start a thread stops here (`pthread_create` failing is the kernel
    /// out of memory or of its thread limit, as for any thread the runtime starts).
    public init(name: String, priority: Priority) {
        self.name = name
        self.priority = priority
        let (work, answers) = (self.work, self.answers)
        Self.start("\(name)-back") {
            while let job = answers.next() { job() }
        }
        Self.start(name) {
            switch priority {
            case .lowered(let increment): _ = cphotos_lower_thread_priority(increment)
            case .idle: _ = cphotos_idle_this_thread()
            }
            while let job = work.next() { job() }
            // The last answer is queued: the other thread ends once it is given.
            answers.stop()
        }
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        do {
            try SystemThread(name: name, body).detach()
        } catch {
            fatalError("cannot start the thread \(name): \(error)")
        }
    }

    deinit { stop() }

    /// Runs `body` on the worker thread and returns what it returns (or throws what it throws).
    /// `body` is told whether ``stop()`` was called, so that a long job can end early.
    ///
    /// A job given `first` runs before every job not given first that waits (after those given
    /// first before it). After ``stop()``, a job is not run: this throws ``Stopped``.
    public func run<T: Sendable>(
        first: Bool = false, _ body: @escaping @Sendable (_ isStopping: () -> Bool) throws -> T
    ) async throws -> T {
        let (work, answers, name) = (self.work, self.answers, self.name)
        return try await withCheckedThrowingContinuation { continuation in
            let queued = work.add(first: first) {
                let result = Result { try body { work.isStopped } }
                _ = answers.add(first: false) { continuation.resume(with: result) }
            }
            if !queued { continuation.resume(throwing: Stopped(name: name)) }
        }
    }

    /// Runs `body` on the worker thread and returns what it returns (``run(first:_:)`` for a job
    /// that need not know of ``stop()``).
    public func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run { _ in try body() }
    }

    /// Whether ``stop()`` was called.
    public var isStopping: Bool { work.isStopped }

    /// How many jobs wait for the thread (not counting the one it runs).
    var waitingJobs: Int { work.count }

    /// Lets the threads end after the jobs already given (which run, told to stop); a job given
    /// later is refused. Calling it again does nothing.
    public func stop() { work.stop() }
}

/// A thread's jobs, in order (those given first at the head), and whether to stop.
private final class JobQueue: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// How many of `jobs`, at their head, were given first.
        var first = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// One signal per job and one for the stop: the thread waits here.
    private let available = DispatchSemaphore(value: 0)

    /// Queues `job` and wakes the thread; false (and nothing queued) once stopped.
    func add(first: Bool, _ job: @escaping @Sendable () -> Void) -> Bool {
        let added = state.withLock { state in
            guard !state.stopped else { return false }
            if first {
                state.jobs.insert(job, at: state.first)
                state.first += 1
            } else {
                state.jobs.append(job)
            }
            return true
        }
        if added { available.signal() }
        return added
    }

    /// The next job, waiting for one; nil once stopped with nothing left.
    func next() -> (@Sendable () -> Void)? {
        while true {
            available.wait()
            let (job, stopped) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
                guard !state.jobs.isEmpty else { return (nil, state.stopped) }
                state.first = max(0, state.first - 1)
                return (state.jobs.removeFirst(), state.stopped)
            }
            if let job { return job }
            if stopped { return nil }
        }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// How many jobs are queued.
    var count: Int { state.withLock { $0.jobs.count } }

    /// Refuses further jobs and wakes the thread, which ends once the queued ones have run.
    func stop() {
        let changed = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if changed { available.signal() }
    }
}
