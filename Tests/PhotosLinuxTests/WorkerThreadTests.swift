import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PhotosLinux

/// A worker thread: below the daemon's priority, nothing lost on the way back, urgent jobs first,
/// and a stop that ends it between jobs.
@Suite struct WorkerThreadTests {
    struct Refused: Error, Equatable {}

    @Test func jobsRunOnOneNicedThreadAndTheirResultsOrErrorsComeBack() async throws {
        let worker = WorkerThread(name: "test-batches", priority: .lowered(by: 10))
        let daemon = Self.threadNiceness(Int32(getpid())).niceness
        let first = try await worker.perform { Self.threadNiceness() }
        #expect(first.niceness == min(19, daemon + 10))
        // Many at once: each gets its own answer, all from the one thread.
        let answers = try await withThrowingTaskGroup(of: (Int, Int32).self) { group in
            for index in 0..<50 {
                group.addTask { try await worker.perform { (index, Self.threadNiceness().thread) } }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 50)
        #expect(Set(answers.values) == [first.thread])
        await #expect(throws: Refused.self) { try await worker.perform { () throws -> Int in throw Refused() } }
        // The daemon's own threads keep their priority.
        #expect(Self.threadNiceness().niceness == daemon)
    }

    /// The callers are resumed from a thread at the daemon's priority, never from the niced one: a
    /// thread the executor started from there would keep the hooks' priority for good (Linux gives a
    /// new thread its creator's), and so would each hook spawned from it. The executor here notes
    /// the priority of every thread that hands it the test's task.
    @Test func callersAreResumedAtTheDaemonsPriority() async throws {
        let worker = WorkerThread(name: "test-resumes", priority: .lowered(by: 10))
        let daemon = Self.threadNiceness(Int32(getpid())).niceness
        let executor = RecordingExecutor()
        try await withTaskExecutorPreference(executor) {
            for index in 0..<20 {
                // (A moment's work, so that the task waits for it and is resumed: kept, it is the work.)
                let answer = try await worker.perform {
                    usleep(2_000)
                    return index * 2
                }
                #expect(answer == index * 2)
            }
        }
        let enqueuers = executor.enqueuers.withLock { $0 }
        #expect(enqueuers.count >= 20)
        #expect(enqueuers.allSatisfy { $0 == daemon }, "niceness of the threads resuming: \(enqueuers)")
    }

    /// Runs jobs on the global queue, noting the nice value of each thread that enqueues one.
    final class RecordingExecutor: TaskExecutor {
        let enqueuers = Mutex<[Int32]>([])

        func enqueue(_ job: consuming ExecutorJob) {
            enqueuers.withLock { $0.append(WorkerThreadTests.threadNiceness().niceness) }
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
    }

    /// A thread's id and nice value (the calling thread's by default), from /proc (field 19 of its stat).
    static func threadNiceness(_ thread: Int32? = nil) -> (thread: Int32, niceness: Int32) {
        // /proc/thread-self is "PID/task/TID" for the calling thread.
        let thread =
            thread
            ?? Int32(
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))?
                    .split(separator: "/").last ?? "") ?? -1
        let stat = (try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8)) ?? ""
        let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
        // After ")": state is field 3, so the nice value (field 19) is the 17th.
        return (thread, fields.count > 17 ? Int32(fields[17]) ?? -99 : -99)
    }

    /// The thumbnails' worker: `SCHED_IDLE` (policy 5, field 41 of the thread's stat), where the
    /// kernel allows it; the caller's thread keeps its policy.
    @Test func anIdleWorkerRunsItsJobsInSchedIdle() async throws {
        let worker = WorkerThread(name: "test-idle", priority: .idle)
        defer { worker.stop() }
        let policy = try await worker.perform { Self.schedulingPolicy() }
        #expect(policy == 5)
        #expect(Self.schedulingPolicy() == 0, "the caller's thread stays SCHED_OTHER")
    }

    /// A job given first runs before those not given first that wait, after those given first
    /// before it.
    @Test func jobsGivenFirstOvertakeTheWaitingOnes() async throws {
        let worker = WorkerThread(name: "test-order", priority: .lowered(by: 0))
        defer { worker.stop() }
        let order = Order()
        let gate = DispatchSemaphore(value: 0)
        // The thread is held in a first job while the others queue up.
        let held = try await hold(worker, until: gate)
        var tasks: [Task<Void, any Error>] = []
        for (index, (name, first)) in [("later-1", false), ("later-2", false), ("first-1", true), ("first-2", true)]
            .enumerated()
        {
            tasks.append(Task { try await worker.run(first: first) { _ in order.names.withLock { $0.append(name) } } })
            // Each is queued before the next is given.
            try await waitFor { worker.waitingJobs == index + 1 }
        }
        gate.signal()
        try await held.value
        for task in tasks { try await task.value }
        #expect(order.names.withLock { $0 } == ["first-1", "first-2", "later-1", "later-2"])
    }

    /// After stop, the jobs already given still run (told to stop); new ones are refused.
    @Test func aStoppedWorkerFinishesWhatItWasGivenAndRefusesMore() async throws {
        let worker = WorkerThread(name: "test-stop", priority: .lowered(by: 0))
        let gate = DispatchSemaphore(value: 0)
        let held = try await hold(worker, until: gate)
        let waiting = Task { try await worker.run { isStopping in isStopping() } }
        try await waitFor { worker.waitingJobs == 1 }
        worker.stop()
        #expect(worker.isStopping)
        gate.signal()
        try await held.value
        #expect(try await waiting.value == true, "the waiting job ran, told to stop")
        await #expect(throws: WorkerThread.Stopped.self) { try await worker.perform { 1 } }
    }

    /// The names of the jobs, in the order they ran.
    final class Order: Sendable {
        let names = Mutex<[String]>([])
    }

    /// Gives the worker a job that waits for `gate`, and returns once the thread runs it.
    func hold(_ worker: WorkerThread, until gate: DispatchSemaphore) async throws -> Task<Void, any Error> {
        let (started, running) = AsyncStream<Void>.makeStream()
        let held = Task {
            try await worker.perform {
                running.yield()
                gate.wait()
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        return held
    }

    /// Waits up to ten seconds for `condition` (a job queued by another task). (This target's one
    /// polling wait: it does not link PhotosTestSupport, whose `waitUntil` does the same.)
    func waitFor(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        try #require(condition())
    }

    /// The calling thread's scheduling policy (field 41 of its stat; 0 is SCHED_OTHER, 5 SCHED_IDLE).
    static func schedulingPolicy() -> Int32 {
        let stat = (try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)) ?? ""
        let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
        // After ")": state is field 3, so the policy (field 41) is the 39th.
        return fields.count > 39 ? Int32(fields[39]) ?? -1 : -1
    }
}
