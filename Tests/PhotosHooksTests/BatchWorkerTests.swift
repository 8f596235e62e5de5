import Foundation
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
