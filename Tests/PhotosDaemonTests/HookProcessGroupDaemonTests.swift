import Foundation
import Glibc
import Photos
import PhotosTestSupport
import Testing

/// What a hook forks goes with it, under the real photosd: after the hook's run, and at the
/// daemon's SIGTERM.
extension HookDaemonTests {
    /// Whether a process exists and is not a zombie waiting to be reaped.
    static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    /// The pids the hooks wrote to OUTPUT/*.pid.
    func recordedPIDs() throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".pid") }.compactMap {
            Int32(
                try String(contentsOf: output.appendingPathComponent($0), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test func aJobAHookLeftRunningEndsWithTheRunAndStaysGoneAfterShutdown() async throws {
        // The job ignores SIGTERM, and keeps no pipe of the hook's open. (Its sleep is kept: a job
        // left running is what is tested.)
        let script = "(trap '' TERM; exec sleep 300) >/dev/null 2>&1 & echo $! > \"$0/job-$PHOTOS_UNTIL.pid\"; exit 0"
        try writeConfig(
            """
            [[hooks]]
            name = "leaves-a-job"
            command = ["/bin/sh", "-c", \(Self.tomlString(script)), "\(output.path)"]
            """)
        let daemon = try startDaemon()
        var jobs: [Int32] = []
        defer { for job in jobs { kill(job, SIGKILL) } }
        try put(Self.photo, at: "Family/inn.jpg")
        try await waitUntil("the hook ran") {
            jobs = try recordedPIDs()
            return !jobs.isEmpty
        }
        // After the run, while photosd goes on.
        try await waitUntil("the job ended with the hook's run", timeout: .seconds(20)) {
            !jobs.contains(where: Self.isAlive)
        }
        try await offPool { try daemon.stop() }
        #expect(!jobs.contains(where: Self.isAlive))
    }

    @Test func aJobOfAHookStoppedByShutdownGoesWithIt() async throws {
        // The hook leaves at SIGTERM at once; its job ignores SIGTERM (its sleep is kept: a job left
        // running is what is tested).
        let script = """
            trap 'exit 0' TERM
            (trap '' TERM; exec sleep 300) >/dev/null 2>&1 &
            echo $! > "$0/job-$PHOTOS_UNTIL.pid"
            wait
            """
        try writeConfig(
            """
            [[hooks]]
            name = "waits-on-a-job"
            command = ["/bin/sh", "-c", \(Self.tomlString(script)), "\(output.path)"]
            timeout_s = 600
            """)
        let daemon = try startDaemon()
        var jobs: [Int32] = []
        defer { for job in jobs { kill(job, SIGKILL) } }
        try put(Self.photo, at: "Family/inn.jpg")
        try await waitUntil("the hook ran") {
            jobs = try recordedPIDs()
            return !jobs.isEmpty
        }
        #expect(jobs.allSatisfy(Self.isAlive), "the job should run while its hook does")
        try daemon.stop(within: 20)
        // The job would sleep for 5 minutes: still there after the wait's minute, it outlived photosd
        // (the deadline must stay well below those 5 minutes).
        try await waitUntil("the hook's job to go with photosd", timeout: .seconds(60)) {
            !jobs.contains(where: Self.isAlive)
        }
    }
}
