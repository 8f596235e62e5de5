import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PhotosHooks

/// The payloads' thread: below ingest's priority, and nothing lost on the way back.
@Suite struct BatchWorkerTests {
    struct Refused: Error, Equatable {}

    @Test func jobsRunOnOneNicedThreadAndTheirResultsOrErrorsComeBack() async throws {
        let worker = BatchWorker(name: "test-batches")
        let daemon = Self.threadNiceness(Int32(getpid())).niceness
        let first = try await worker.perform { Self.threadNiceness() }
        #expect(first.niceness == min(19, daemon + BatchWorker.niceness))
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
        let worker = BatchWorker(name: "test-resumes")
        let daemon = Self.threadNiceness(Int32(getpid())).niceness
        let executor = RecordingExecutor()
        try await withTaskExecutorPreference(executor) {
            for index in 0..<20 {
                // (A moment's work, so that the task waits for it and is resumed.)
                let answer = try await worker.perform { usleep(2_000); return index * 2 }
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
            enqueuers.withLock { $0.append(BatchWorkerTests.threadNiceness().niceness) }
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
    }

    /// A thread's id and nice value (the calling thread's by default), from /proc (field 19 of its stat).
    static func threadNiceness(_ thread: Int32? = nil) -> (thread: Int32, niceness: Int32) {
        // /proc/thread-self is "PID/task/TID" for the calling thread.
        let thread = thread
            ?? Int32((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))?
                .split(separator: "/").last ?? "") ?? -1
        let stat = (try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8)) ?? ""
        let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
        // After ")": state is field 3, so the nice value (field 19) is the 17th.
        return (thread, fields.count > 17 ? Int32(fields[17]) ?? -99 : -99)
    }
}
