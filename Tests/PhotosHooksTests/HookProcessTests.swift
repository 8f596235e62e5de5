import Foundation
import Logging
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosHooks

/// The hook process alone: what a badly behaved program does to a run.
@Suite struct HookProcessTests {
    let logger = Logger(label: "test")

    func process(_ script: String, timeout: Duration = .seconds(30), logger: Logger? = nil) -> HookProcess {
        HookProcess(
            command: ["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"], timeout: timeout,
            logger: logger ?? self.logger)
    }

    @Test func exitStatusAndInputArrive() async throws {
        let directory = try TemporaryDirectory(prefix: "hook-process")
        defer { withExtendedLifetime(directory) {} }
        let copy = directory.path("payload").path
        let outcome = await process("cat > '\(copy)'; exit 3").run(input: Array("{\"hello\":1}".utf8))
        #expect(outcome.termination == .exited(3))
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "{\"hello\":1}")
    }

    /// The payload is a file at offset 0 holding the bytes, in memory or (where the kernel has no
    /// memfd) a deleted temporary file.
    @Test(arguments: [true, false])
    func thePayloadFileHoldsTheBytesFromTheStart(inMemory: Bool) throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let file = try HookProcess.payloadFile(holding: bytes, inMemory: inMemory)
        defer { try? file.close() }
        var read: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            if count == 0 { break }
            read += chunk[..<count]
        }
        #expect(read == bytes)
        // Nothing left behind: no name in any directory, whatever the run does.
        var status = stat()
        #expect(fstat(file.rawValue, &status) == 0)
        #expect(status.st_nlink == 0)
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(file.rawValue)")
        #expect(link.contains("photosd-hook"), "\(link)")
    }

    /// The hook, and what it starts, run below the daemon's priority by the hook's `nice`, set as
    /// soon as the run's task gets to it (the hook waits for that: on a busy machine it is late).
    @Test func theHookAndItsChildrenRunAtTheirNiceness() async throws {
        let directory = try TemporaryDirectory(prefix: "hook-process")
        defer { withExtendedLifetime(directory) {} }
        let own = directory.path("own").path
        let child = directory.path("child").path
        errno = 0
        let daemon = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid())))
        #expect(errno == 0)
        let expected = min(daemon + 7, 19)
        // `nice` with no arguments prints the niceness it runs at. The hook waits up to 300 s (the
        // tests' usual wait) for its run's task, which needs a thread of the shared pool: a full
        // `swift test` on 2 cores keeps them busy.
        // (Kept: the script's own poll; a shell has nothing to block on until its niceness changes.)
        var hook = process(
            """
            i=0; while [ "$(nice)" = \(daemon) ] && [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done
            nice > '\(own)'; sh -c "nice > '\(child)'"
            """)
        hook.niceness = 7
        let outcome = await hook.run(input: [])
        #expect(outcome.termination == .exited(0))
        #expect(try String(contentsOfFile: own, encoding: .utf8) == "\(expected)\n")
        #expect(try String(contentsOfFile: child, encoding: .utf8) == "\(expected)\n")
        // Without it, the daemon's own, even after a while (kept: time for a renice that must not come).
        let plain = await process("sleep 0.2; nice > '\(own)'").run(input: [])
        #expect(plain.termination == .exited(0))
        #expect(try String(contentsOfFile: own, encoding: .utf8) == "\(daemon)\n")
    }

    @Test func aHookThatNeverReadsAMegabytePayloadStillFinishes() async {
        let outcome = await process("exit 0").run(input: [UInt8](repeating: 65, count: 4 << 20))
        #expect(outcome.termination == .exited(0))
    }

    /// Every byte is read and counted, the log keeps the first 64 KB of each stream and the parked
    /// reason the last 2 KB of standard error.
    @Test func megabytesOfOutputAreDrainedAndCapped() async throws {
        // `tr '\0' x` in the shell: NULs become x. (Written `'\\\\0'` here, the shell got `'\\0'`,
        // which tr reads as a backslash and a 0: the NULs went through untranslated.)
        let records = LogRecords()
        let outcome = await process(
            "head -c 8000000 /dev/zero | tr '\\0' x; head -c 5000 /dev/zero | tr '\\0' e >&2",
            timeout: .seconds(30), logger: records.logger
        )
        .run(input: [])
        #expect(outcome.termination == .exited(0))
        #expect(outcome.outputBytes == 8_005_000)
        #expect(outcome.errorTail == String(repeating: "e", count: HookProcess.tailBytes))
        let output = try #require(records.first { $0.metadata["hook.stdout"] != nil })
        #expect(output.metadata["hook.stdout"] == "\(String(repeating: "x", count: HookProcess.logBytes))")
        #expect(output.metadata["hook.dropped.bytes"] == "\(8_000_000 - HookProcess.logBytes)")
        let errors = try #require(records.first { $0.metadata["hook.stderr"] != nil })
        #expect(errors.metadata["hook.stderr"] == "\(String(repeating: "e", count: 5000))")
        #expect(errors.metadata["hook.dropped.bytes"] == nil)
    }

    /// The output is read on a thread of the run's own: a shared pool kept busy by other work (a
    /// scan, a full test run) does not stop the hook. Read on the pool, every 64 KB waited for a
    /// thread: with the pool held for 6 s, the hook took those 6 s to write its 4 MB (see the commit).
    @Test func aHookIsNotSlowedByABusySharedPool() async throws {
        let directory = try TemporaryDirectory(prefix: "hook-process")
        defer { withExtendedLifetime(directory) {} }
        let (go, began, ended) = (directory.path("go").path, directory.path("began").path, directory.path("ended").path)
        // (The hook's wait is kept: it writes once the pool is held, not before.) Its 64 KB of log
        // go to a logger that keeps them, not to the test's output.
        let hook = process(
            """
            while [ ! -e '\(go)' ]; do sleep 0.01; done
            date +%s%N > '\(began)'; head -c 4000000 /dev/zero; date +%s%N > '\(ended)'
            """, logger: LogRecords().logger)
        let running = Atomic<Bool>(false)
        let run = Task { await hook.run(input: []) { running.store(true, ordering: .relaxed) } }
        try await waitUntil("the hook to start") { running.load(ordering: .relaxed) }
        Self.holdTheSharedPool(until: .now + .seconds(6))
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        let outcome = await run.value
        #expect(outcome.termination == .exited(0))
        #expect(outcome.outputBytes == 4_000_000)
        let nanoseconds = try [began, ended].map { path in
            try #require(
                Int(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let took = Duration.nanoseconds(nanoseconds[1] - nanoseconds[0])
        #expect(took < .seconds(3), "the hook took \(took) to write its output")
    }

    /// Holds every thread of the shared pool until `deadline`: tasks that never suspend, twice as
    /// many as the pool has threads. They wait in a system call rather than spin: a pool held is
    /// what is tested, and spinning both cores for seconds slowed the other suites' processes (a
    /// daemon test of a photosd killed with -9 failed beside it).
    static func holdTheSharedPool(until deadline: ContinuousClock.Instant) {
        for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
            Task.detached(priority: Task.currentPriority) {
                while ContinuousClock.now < deadline { usleep(10_000) }
            }
        }
    }

    /// A hook that closes its standard output and error, then hangs: its output is at its end, its
    /// run is not, and the timeout still stops it. (The timer used to go with the output's end: the
    /// run waited for the hook to end by itself.) No time limit: a full test run can hold the shared
    /// pool that resumes this test for minutes.
    @Test func aHookThatClosesItsOutputAndHangsIsKilledAtTheTimeout() async throws {
        let pidFile = "/tmp/photos-hook-closed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(pidFile) }
        // (The sleep is kept: a hook that hangs is what is tested.)
        let outcome = await process(
            "echo $$ > \(pidFile); exec >&- 2>&-; exec sleep 600", timeout: .milliseconds(300)
        ).run(input: [])
        #expect(outcome.termination == .timedOut(.milliseconds(300)))
        let hook = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        try await Self.waitForDeath(of: hook)
    }

    /// Without a pidfd for the process (here: no such child), the reader asks whether it has
    /// exited instead; it has, so the reader takes what the pipes hold and ends, writers open or not.
    @Test func theOutputReaderWithoutAPidfdEndsWhenTheProcessIsGone() async throws {
        let pipes = try HookOutput.Pipes()
        defer {
            close(pipes.outputWriting)
            close(pipes.errorWriting)
        }
        #expect(write(pipes.errorWriting, "last words", 10) == 10)
        let written = await HookOutput.read(pipes, process: Int32.max)
        #expect(written.bytes == 10)
        #expect(written.errorTail == Array("last words".utf8))
        #expect(written.failure == nil)
    }

    /// Told to stop, the reader reads what the pipes hold and ends, though their writers are open.
    @Test func theOutputReaderStopsWithWhatThePipesHold() async throws {
        let pipes = try HookOutput.Pipes()
        defer {
            close(pipes.outputWriting)
            close(pipes.errorWriting)
        }
        #expect(write(pipes.outputWriting, "out\n", 4) == 4)
        #expect(write(pipes.errorWriting, "err", 3) == 3)
        pipes.stopReading()
        // This process never exits: only the stop ends the read.
        let written = await HookOutput.read(pipes, process: getpid())
        #expect(written.bytes == 7)
        #expect(written.standardOutput.kept == Array("out\n".utf8))
        #expect(written.errorTail == Array("err".utf8))
        #expect(written.failure == nil)
    }

    @Test func aHangingHookAndWhatItForkedAreKilledAtTheTimeout() async throws {
        let pidFile = "/tmp/photos-hook-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(pidFile) }
        // Both ignore SIGTERM; the child outlives its parent unless the whole group gets the SIGKILL.
        // (The hook's sleeps are kept: a hook that hangs is what is tested.)
        // They hang for 10 minutes, not one: the timer is armed once the run's body starts on the
        // shared pool, which a full `swift test` on 2 cores kept busy for over a minute (CI), and a
        // hook that had finished by then exited on its own.
        let outcome = await process(
            "trap '' TERM; (trap '' TERM; sleep 600) & echo $! > \(pidFile); sleep 600", timeout: .milliseconds(300)
        ).run(input: [])
        #expect(outcome.termination == .timedOut(.milliseconds(300)))
        // (No bound on the run's duration here: under a full test run the shared pool that resumes
        // this test can be busy for a minute. The processes' deaths are what the timeout owes.)
        let child = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        try await Self.waitForDeath(of: child)
    }

    /// Waits until a process the hook started is gone. The hooks here start children that would
    /// live for 5 minutes or more unless the run kills them, so a child still there after the wait's
    /// minute was not killed (the deadline must stay well below their 5 minutes).
    static func waitForDeath(of child: Int32) async throws {
        try await waitUntil("the hook's child \(child) to be killed", timeout: .seconds(60)) { !isRunning(child) }
    }

    /// The timeout stops a hook that still runs, and leaves alone one that exited in time (whose
    /// end this process may only be slow to read).
    @Test func theTimeoutStopsOnlyAHookStillRunning() throws {
        let exited = TestProcess()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        #expect(!HookProcess.stopIfRunning(group: exited.processIdentifier))

        // TestProcess starts it leading a group of its own, as a hook does.
        let running = TestProcess()
        running.executableURL = URL(fileURLWithPath: "/bin/sleep")  // Kept: a process that still runs.
        running.arguments = ["30"]
        try running.run()
        defer { kill(running.processIdentifier, SIGKILL) }
        try #require(getpgid(running.processIdentifier) == running.processIdentifier)
        #expect(HookProcess.stopIfRunning(group: running.processIdentifier))
        running.waitUntilExit()
        // SIGTERM, or SIGKILL after the grace where the test runner's blocked signals were inherited.
        #expect(running.terminationReason == .uncaughtSignal)
    }

    /// Whether a process exists and is not a zombie waiting to be reaped.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    @Test func aMissingProgramCannotStart() async {
        let outcome = await HookProcess(
            command: ["/nonexistent/hook"], environment: [:], timeout: .seconds(5), logger: logger
        ).run(input: [])
        guard case .cannotStart = outcome.termination else {
            Issue.record("expected cannotStart, got \(outcome.termination)")
            return
        }
    }

    /// Cancelled once the hook is running (its trap set): the hook gets SIGTERM, and what it forked
    /// goes with it. No bound on durations: a busy shared pool can delay the test, never the signal.
    @Test func cancellingTheRunStopsTheProcess() async throws {
        let readyFile = "/tmp/photos-hook-cancel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(readyFile) }
        // (The hook's sleep is kept: a hook still running is what is cancelled.)
        let task = Task {
            await process("trap 'echo got TERM >&2; exit 143' TERM; sleep 300 & echo $! > \(readyFile); wait").run(
                input: [])
        }
        var started: Int32?
        try await waitUntil("the hook to start") {
            started = (try? String(contentsOfFile: readyFile, encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return started != nil
        }
        let child = try #require(started)
        task.cancel()
        let outcome = await task.value
        #expect(outcome.termination == .cancelled)
        #expect(outcome.errorTail.contains("got TERM"), "the hook ended without SIGTERM: \(outcome.errorTail)")
        try await Self.waitForDeath(of: child)
    }
}

extension HookProcessTests {
    /// A hook that starts a background job and exits: the job goes with the run, whether it kept
    /// the hook's output open or not, and the run ends when the hook does, not when the job would.
    @Test(arguments: [" >/dev/null 2>&1", ""])
    func whatAHookLeftRunningIsKilledWhenItExits(redirect: String) async throws {
        let pidFile = "/tmp/photos-hook-left-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(pidFile) }
        let clock = ContinuousClock()
        let start = clock.now
        // (The job's sleep is kept: a job left running is what is tested.) A run that waited for the
        // job would be stopped by the timeout, long before the job ends: `timedOut`, not `exited(0)`.
        // The bound is generous: a full `swift test` on 2 cores was seen to take 330 s for this run.
        // What the hook wrote before it exited is read, though the job may hold the pipes open.
        let outcome = await process(
            "sleep 3600\(redirect) & echo $! > \(pidFile); echo bye >&2; exit 0", timeout: .seconds(1200)
        )
        .run(input: [])
        #expect(outcome.termination == .exited(0))
        #expect(outcome.errorTail == "bye\n")
        #expect(clock.now - start < .seconds(1200))
        let child = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        try await Self.waitForDeath(of: child)
    }
}

/// The records a logger was given, for tests that read what a run logged.
final class LogRecords: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private struct Handler: LogHandler {
        let records: LogRecords
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
            function: String, line: UInt
        ) {
            let record = Record(
                level: level, message: "\(message)", metadata: self.metadata.merging(metadata ?? [:]) { $1 })
            records.all.withLock { $0.append(record) }
        }
    }

    private let all = Mutex<[Record]>([])

    /// A logger that records here.
    var logger: Logger { Logger(label: "test", factory: { [self] _ in Handler(records: self) }) }

    /// The first record that matches.
    func first(where matches: (Record) -> Bool) -> Record? { all.withLock { $0.first(where: matches) } }
}
