import Foundation
import Glibc
import Photos
import PhotosTestSupport
import Testing

/// What a hook forks goes with it, under the real photosd: after the hook's run, at the daemon's
/// SIGTERM, and when the daemon is killed with SIGKILL.
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

    /// The runs the ledger holds: each `start` line's hook pid, job pid and `since`, and the pids
    /// of the runs that ended.
    func ledger() throws -> (starts: [(hook: Int32, job: Int32, since: String)], ends: [Int32]) {
        let text = (try? String(contentsOf: output.appendingPathComponent("ledger"), encoding: .utf8)) ?? ""
        var starts: [(hook: Int32, job: Int32, since: String)] = []
        var ends: [Int32] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 4, words[0] == "start", let hook = Int32(words[1]), let job = Int32(words[2]) {
                starts.append((hook, job, words[3]))
            } else if words.count == 2, words[0] == "end", let hook = Int32(words[1]) {
                ends.append(hook)
            }
        }
        return (starts, ends)
    }

    @Test func aHookAndItsJobDieWithAKilledPhotosdAndTheRestartRunsTheBatchAlone() async throws {
        // The hook starts a job that ignores SIGTERM, notes both pids, and runs until OUTPUT/release
        // exists. (Its sleeps are kept: a job left running, and a hook that is still running when
        // photosd dies, are what is tested; a shell has nothing to block on until a file comes but a poll.)
        let script = """
            (trap '' TERM; exec sleep 300) >/dev/null 2>&1 &
            echo "start $$ $! $PHOTOS_SINCE" >> "$0/ledger"
            while [ ! -e "$0/release" ]; do sleep 0.05; done
            echo "end $$" >> "$0/ledger"
            """
        try writeConfig(
            """
            [[hooks]]
            name = "held"
            command = ["/bin/sh", "-c", \(Self.tomlString(script)), "\(output.path)"]
            timeout_s = 600
            """)
        var daemon = try startDaemon()
        var pids: [Int32] = []
        defer { for pid in pids { kill(pid, SIGKILL) } }
        try put(Self.photo, at: "Family/inn.jpg")
        try await waitUntil("the hook running") { try !ledger().starts.isEmpty }
        let first = try #require(try ledger().starts.first)
        pids = [first.hook, first.job]
        #expect(pids.allSatisfy(Self.isAlive), "the hook and its job should run until released")
        daemon.kill9()
        // Gone with photosd, before anything could start it again.
        try await waitUntil("the hook and its job to die with photosd", timeout: .seconds(20)) {
            !pids.contains(where: Self.isAlive)
        }
        _ = FileManager.default.createFile(atPath: output.appendingPathComponent("release").path, contents: nil)
        daemon = try startDaemon()
        try await waitUntil("the batch given again, to completion", timeout: .seconds(60)) {
            try ledger().starts.count >= 2 && !ledger().ends.isEmpty
        }
        let runs = try ledger()
        pids += runs.starts.flatMap { [$0.hook, $0.job] }
        #expect(runs.starts[1].since == first.since, "the unacknowledged batch is given again")
        #expect(!runs.ends.contains(first.hook), "the killed run never finished")
        #expect(!pids.prefix(2).contains(where: Self.isAlive))
        try await offPool { try daemon.stop() }
        #expect(!pids.contains(where: Self.isAlive))
    }
}
