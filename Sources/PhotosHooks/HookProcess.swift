import CPhotosLinux
import Dispatch
import Foundation
import Logging
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// One run of a hook's program: its payload on standard input, its output to the log (capped),
/// a timeout, and a process group of its own so that whatever it starts goes with it.
///
/// A program that never reads its input, writes megabytes, exits at once or hangs costs the
/// daemon nothing but this task: the payload is an in-memory file on its standard input (written
/// before the start, so nothing waits on the hook to read it; the hook reads it as any stdin, and
/// may also seek or map it), the output is drained on a thread of the run's own (``HookOutput``:
/// a shared pool kept busy elsewhere does not slow the hook), and a run that outlives its timeout
/// (or the daemon) gets SIGTERM, then SIGKILL, sent to its group, even one that closed its output. When the hook's own process has ended,
/// however it ended, whatever is left in its group is killed (SIGKILL): a background job a hook
/// started does not outlive its run. If photosd itself is killed (SIGKILL, a crash), the group is
/// killed by ``HookGroupReaper``: nothing of the run outlives photosd either.
struct HookProcess: Sendable {
    /// How a run ended.
    enum Termination: Sendable, Hashable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed after its timeout.
        case timedOut(Duration)
        /// Stopped because the daemon is stopping (or the hook's cursor was moved).
        case cancelled
        /// The program could not be started (not found, not executable).
        case cannotStart(String)
        /// A webhook's server answered with this HTTP status.
        case answered(Int)
        /// A webhook's request failed below HTTP (connection refused, closed mid-reply...).
        case unreachable(String)

        var isSuccess: Bool {
            switch self {
            case .exited(0): true
            case .answered(let status): (200..<300).contains(status)
            default: false
            }
        }

        /// `exit 0`, `signal 9`, `timed out after 60 s`...
        var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signaled(let signal): "signal \(signal)"
            case .timedOut(let limit): "timed out after \(limit.formatted(.units(allowed: [.seconds, .milliseconds])))"
            case .cancelled: "stopped with the daemon"
            case .cannotStart(let reason): "cannot start: \(reason)"
            case .answered(let status): "HTTP \(status)"
            case .unreachable(let reason): reason
            }
        }
    }

    /// What one run did.
    struct Outcome: Sendable {
        var termination: Termination
        /// The end of its standard error (at most ``HookProcess/tailBytes``), for the parked reason;
        /// for a webhook, the start of the answer's body.
        var errorTail: String
        /// Bytes written to stdout and stderr, all of them (only the first ``HookProcess/logBytes`` are logged).
        var outputBytes: Int
        /// When the process was started, and how long the run took.
        var startedAt: Date
        var duration: Duration
    }

    /// Output logged per run and stream; the rest is counted and dropped.
    static let logBytes = 64 * 1024
    /// Bytes of stderr kept for the parked reason.
    static let tailBytes = 2048
    /// The wait between SIGTERM and SIGKILL.
    static let killGrace: Duration = .seconds(5)

    var command: [String]
    var environment: [String: String]
    var timeout: Duration
    var logger: Logger
    /// Added to the daemon's nice value for the hook's process group (``HookDefinition/nice``).
    var niceness: Int = 0

    /// Runs the program with `input` on its standard input. `started` is called once it runs.
    func run(input: [UInt8], started: @Sendable () -> Void = {}) async -> Outcome {
        _ = Self.ignoringBrokenPipes
        let startedAt = Date()
        let clock = ContinuousClock()
        let begin = clock.now
        guard let program = command.first, !program.isEmpty else {
            return Outcome(
                termination: .cannotStart("the command is empty"), errorTail: "", outputBytes: 0, startedAt: startedAt,
                duration: .zero)
        }
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        var options = PlatformOptions()
        // Its own group: SIGTERM and SIGKILL reach what it forked too.
        options.processGroupID = 0
        // Cancelled (the daemon stopping): SIGTERM, and SIGKILL if it has not exited after the grace.
        options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: Self.killGrace)]
        let environment = Environment.custom(
            Dictionary(
                uniqueKeysWithValues: self.environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
        let capture = Capture()
        let timeout = self.timeout
        let niceness = self.niceness
        let logger = self.logger
        do {
            let payload = try Self.payloadFile(holding: input)
            // The output's pipes, made here and read on a thread of the run's own (HookOutput), not
            // by Subprocess's streams, whose reads wait for the shared pool.
            let pipes: HookOutput.Pipes
            do { pipes = try HookOutput.Pipes() } catch {
                try? payload.close()
                throw error
            }
            defer { capture.cancelTimer() }
            let result = try await Subprocess.run(
                executable, arguments: Arguments(Array(command.dropFirst())), environment: environment,
                platformOptions: options, input: .fileDescriptor(payload, closeAfterSpawningProcess: true),
                output: .fileDescriptor(FileDescriptor(rawValue: pipes.outputWriting), closeAfterSpawningProcess: true),
                error: .fileDescriptor(FileDescriptor(rawValue: pipes.errorWriting), closeAfterSpawningProcess: true)
            ) { execution in
                let group = execution.processIdentifier.value
                // Killed with photosd if photosd is killed (SIGKILL) before the run ends.
                if let error = HookGroupReaper.watch(group) {
                    logger.warning(
                        "the hook would outlive photosd if photosd were killed: its reaper is missing",
                        metadata: ["error": "\(error)"])
                }
                capture.group.store(group, ordering: .relaxed)
                Self.lowerPriority(of: group, by: niceness, logger: logger)
                // The timer runs on a dispatch queue of its own, not the shared pool: a pool kept
                // busy elsewhere must not let a hook outlive its timeout. It stays armed until the
                // hook has exited (after this body), so that a hook that closed its output and runs
                // on is stopped too.
                // Marked before the signal: the hook may end, and the run read the mark, before
                // stopIfRunning returns (a timeout was reported as "signal 15").
                capture.arm(
                    DispatchWorkItem {
                        capture.timedOut.store(true, ordering: .sequentiallyConsistent)
                        if !Self.stopIfRunning(group: group) {
                            capture.timedOut.store(false, ordering: .sequentiallyConsistent)
                        }
                    }, at: .now() + timeout.timeInterval)
                started()
                // Not stopped by a cancelled run: it still reads what the hook writes as it stops,
                // to its exit.
                return await withTaskCancellationHandler {
                    await HookOutput.read(pipes, process: group)
                } onCancel: {
                    Self.stop(group: group)
                }
            }
            let written = result.closureResult
            written.log(to: logger)
            if let failure = written.failure {
                logger.warning("the hook's output was not read to its end", metadata: ["error": "\(failure)"])
            }
            capture.cancelTimer()
            // The hook has exited or been killed: what it left in its group (`sleep 300 &`) goes
            // too, however the run ended, so nothing it started outlives it or the daemon.
            Self.killGroup(capture.group.load(ordering: .relaxed))
            let termination: Termination
            if Task.isCancelled {
                termination = .cancelled
            } else if capture.timedOut.load(ordering: .sequentiallyConsistent) {
                termination = .timedOut(timeout)
            } else {
                switch result.terminationStatus {
                case .exited(let code): termination = .exited(code)
                case .signaled(let signal): termination = .signaled(signal)
                }
            }
            return Outcome(
                termination: termination, errorTail: String(decoding: written.errorTail, as: UTF8.self),
                outputBytes: written.bytes, startedAt: startedAt, duration: clock.now - begin)
        } catch {
            Self.killGroup(capture.group.load(ordering: .relaxed))
            let reason = (error as? SubprocessError).map { "\($0)" } ?? "\(error)"
            return Outcome(
                termination: Task.isCancelled ? .cancelled : .cannotStart(reason), errorTail: "", outputBytes: 0,
                startedAt: startedAt, duration: clock.now - begin)
        }
    }

    /// The payload in an anonymous in-memory file, at offset 0, or where the kernel has no memfd in
    /// a temporary file this creates (`mkstemp`: never an existing file) and unlinks at once, so
    /// nothing is left behind whether the write succeeds or not. A hook that exits without reading
    /// it is its own business: its exit status says how it went.
    static func payloadFile(holding bytes: [UInt8], inMemory: Bool = true) throws -> FileDescriptor {
        var raw = inMemory ? cphotos_memory_file("photosd-hook-payload") : -1
        if raw < 0 {
            var template = Array(
                (NSTemporaryDirectory() as NSString).appendingPathComponent("photosd-hook-XXXXXX").utf8CString)
            raw = mkstemp(&template)
            guard raw >= 0 else { throw Errno(rawValue: errno) }
            _ = fcntl(raw, F_SETFD, FD_CLOEXEC)
            unlink(template)
        }
        let file = FileDescriptor(rawValue: raw)
        do {
            _ = try file.writeAll(bytes)
            try file.seek(offset: 0, from: .start)
        } catch {
            try? file.close()
            throw error
        }
        return file
    }

    /// SIGKILL to what is left of a hook's process group, which the reaper then no longer watches.
    static func killGroup(_ group: pid_t) {
        guard group > 0 else { return }
        kill(-group, SIGKILL)
        HookGroupReaper.forget(group)
    }

    /// What the run's body and its timer record.
    private final class Capture: Sendable {
        let group = Atomic<pid_t>(0)
        let timedOut = Atomic<Bool>(false)
        private let timer = Mutex<Timer?>(nil)

        /// A work item may be cancelled from any thread; Dispatch does not mark it `Sendable`.
        private struct Timer: @unchecked Sendable {
            let item: DispatchWorkItem
        }

        /// Runs `timer` on ``HookProcess/signals`` at `deadline` unless ``cancelTimer()`` comes first.
        func arm(_ timer: DispatchWorkItem, at deadline: DispatchTime) {
            let armed = Timer(item: timer)
            self.timer.withLock { $0 = armed }
            HookProcess.signals.asyncAfter(deadline: deadline, execute: timer)
        }

        /// The hook has exited: no timeout is due.
        func cancelTimer() {
            timer.withLock { $0?.item.cancel() }
        }
    }

    /// A hook that exits before reading all its input closes the pipe under our writer: that must be
    /// an error of the write (EPIPE), not SIGPIPE killing the daemon. Set once, for the process.
    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Timeouts and the SIGKILL after the grace: a serial queue has a thread of its own.
    static let signals = DispatchQueue(label: "photosd.hooks.signals")

    /// Lowers the scheduling priority of the hook's process group, just started, by `increment`
    /// below the daemon's own (at most to 19).
    ///
    /// Subprocess spawns with `posix_spawn`, which has no priority attribute, so the value is set
    /// from here, as soon as the run's body starts: everything in the group then gets it, and what
    /// starts later inherits it. Only what the hook runs and ends in its first moments (before this
    /// task is scheduled, milliseconds on a busy machine) may run at the daemon's priority; a hook
    /// that works for long does not.
    static func lowerPriority(of group: pid_t, by increment: Int, logger: Logger) {
        guard increment > 0 else { return }
        errno = 0
        let daemon = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
        guard daemon != -1 || errno == 0 else { return }
        let value = min(Int(daemon) + increment, 19)
        if setpriority(__priority_which_t(PRIO_PGRP.rawValue), id_t(group), Int32(value)) != 0, errno != ESRCH {
            logger.warning("cannot lower the hook's priority", metadata: ["errno": "\(errno)"])
        }
    }

    /// The timeout: stops the hook (its group led by `group`) if it is still running, and says
    /// whether it did. A hook that exited in time is not timed out because this process was slow to
    /// read its end (a pool kept busy elsewhere): only a running one is.
    static func stopIfRunning(group: pid_t) -> Bool {
        guard cphotos_child_has_exited(group) != 1 else { return false }
        stop(group: group)
        return true
    }

    /// SIGTERM to the hook's process group now, SIGKILL after the grace period (if anything is left).
    static func stop(group: pid_t) {
        kill(-group, SIGTERM)
        signals.asyncAfter(deadline: .now() + killGrace.timeInterval) { kill(-group, SIGKILL) }
    }
}

extension Duration {
    /// Seconds, for Dispatch.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
