import Foundation
import Glibc
import PhotosLinux
import Synchronization

/// A child process for tests: the part of Foundation's `Process` the tests use, with the same names and
/// meanings, started with `posix_spawn` so that the child inherits only its standard input, output and
/// error.
///
/// Not Foundation's `Process`: on Linux it lists `/proc/self/fd` before every start to close what the
/// child must not inherit, and the 6.3 releases read past the end of their directory buffer once a
/// process holds about 1,340 descriptors (a full test run holds more), which crashes the test process
/// now and then. Here the child closes every descriptor from 3 up itself (`closefrom`), nothing is
/// listed.
///
/// ```swift
/// let process = TestProcess()
/// process.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
/// process.arguments = ["--library", library, "list"]
/// let out = Pipe()
/// process.standardOutput = out
/// try process.run()
/// let output = out.fileHandleForReading.readDataToEndOfFile()
/// process.waitUntilExit()
/// #expect(process.terminationStatus == 0)
/// ```
///
/// Like Foundation's, the child leads a process group of its own, keeps the signal mask of the thread
/// that started it, and inherits the test process's standard streams unless told otherwise; `nil` for a
/// stream (or `FileHandle.nullDevice`) is `/dev/null`. Unlike Foundation's, nothing reaps the child in the
/// background: `isRunning`, `waitUntilExit()` and `terminationStatus` do, each at most once. And the child
/// has ended when its own process has: Foundation's counted it running while any process it forked was
/// alive, so a program that forks and exits (`setsid` as a group leader) needs `setsid --wait` here.
public final class TestProcess: @unchecked Sendable {
    /// Why a process ended, as Foundation's `Process.TerminationReason`.
    public enum TerminationReason: Sendable {
        /// It exited; ``TestProcess/terminationStatus`` is its exit code.
        case exit
        /// A signal ended it; ``TestProcess/terminationStatus`` is the signal's number.
        case uncaughtSignal
    }

    /// A child that could not be started: names the executable and the system's error number.
    public struct LaunchError: Error, CustomStringConvertible {
        /// The executable's path.
        public let executable: String
        /// The error number of `posix_spawn` or of the call that prepared it.
        public let errno: Int32

        /// `"cannot start /usr/bin/missing: No such file or directory (errno 2)"`.
        public var description: String {
            "cannot start \(executable): \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }

    /// The program to run. Set before ``run()``.
    public var executableURL: URL?
    /// The program's arguments (its name, `argv[0]`, is the executable's path and not among them).
    public var arguments: [String]?
    /// The program's whole environment; `nil` passes on the test process's own.
    public var environment: [String: String]?
    /// The program's working directory; `nil` keeps the test process's.
    public var currentDirectoryURL: URL?
    /// A `FileHandle` or a `Pipe` (whose reading end the child gets) for standard input; `nil` is `/dev/null`.
    public var standardInput: Any? = FileHandle.standardInput
    /// A `FileHandle` or a `Pipe` (whose writing end the child gets) for standard output; `nil` is `/dev/null`.
    public var standardOutput: Any? = FileHandle.standardOutput
    /// A `FileHandle` or a `Pipe` (whose writing end the child gets) for standard error; `nil` is `/dev/null`.
    public var standardError: Any? = FileHandle.standardError

    private struct State {
        var pid: pid_t = 0
        /// Set once the child was reaped: never reaped twice, never signalled after (its number may be reused).
        var ended: (reason: TerminationReason, status: Int32)?
        var suspendCount = 0
    }

    /// The child's state and its end, shared with the thread that reaps it (which outlives this
    /// object when the child does).
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Left once the child is reaped; ``TestProcess/waitUntilExit()`` waits for it.
        let reaped = DispatchGroup()
    }

    private let shared = Shared()

    /// A process not yet started: set its executable (and what else it needs), then ``run()``.
    public init() {}

    /// The child's process identifier once started, 0 before.
    public var processIdentifier: Int32 { shared.state.withLock { $0.pid } }

    /// Whether the child was started and has not been reaped yet.
    public var isRunning: Bool {
        shared.state.withLock { $0.pid > 0 && $0.ended == nil }
    }

    /// The exit code, or the number of the signal that ended the child (see ``terminationReason``).
    /// The child must have ended: read it after ``waitUntilExit()`` or once ``isRunning`` is false.
    public var terminationStatus: Int32 { ended().status }

    /// Whether the child exited or a signal ended it. The child must have ended.
    public var terminationReason: TerminationReason { ended().reason }

    /// Starts the child: `posix_spawn` of ``executableURL`` with ``arguments``, ``environment`` and
    /// ``currentDirectoryURL``, its standard streams as set, every other descriptor closed in the child,
    /// in a process group of its own. The test process then closes its copies of the pipe ends it handed
    /// over (so a reader sees the end of output when the child exits). Throws ``LaunchError``.
    public func run() throws {
        precondition(shared.state.withLock { $0.pid } == 0, "TestProcess.run() called twice")
        guard let executableURL else { throw LaunchError(executable: "(no executableURL)", errno: ENOENT) }
        let path = executableURL.path
        func check(_ result: Int32) throws {
            if result != 0 { throw LaunchError(executable: path, errno: result) }
        }

        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        try check(posix_spawnattr_setpgroup(&attributes, 0))
        try check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP)))

        var handedOver: [FileHandle] = []
        for (target, stream, childReads) in [
            (STDIN_FILENO, standardInput, true), (STDOUT_FILENO, standardOutput, false),
            (STDERR_FILENO, standardError, false),
        ] {
            let source: FileHandle?
            switch stream {
            case let pipe as Pipe:
                source = childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                handedOver.append(source!)
            case let handle as FileHandle where handle !== FileHandle.nullDevice && handle.fileDescriptor >= 0:
                source = handle
            default:
                source = nil
            }
            if let source {
                if source.fileDescriptor != target {
                    try check(posix_spawn_file_actions_adddup2(&actions, source.fileDescriptor, target))
                }
            } else {
                try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0))
            }
        }
        if let directory = currentDirectoryURL {
            try check(Self.addChdir(&actions, directory.path))
        }
        try check(Self.addClosefrom(&actions, 3))

        let argv = ([path] + (arguments ?? [])).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }

        var pid: pid_t = 0
        let result =
            if let envp {
                posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, path, &actions, &attributes, argv, environ)
            }
        try check(result)
        shared.state.withLock { $0.pid = pid }
        // Reaped as soon as it exits, as Foundation's `Process` reaps: a zombie left for a later
        // question would be found by Swift Testing's exit-test monitor, which waits for any child
        // without reaping it and then spins on that zombie for the rest of the run.
        let (shared, child) = (self.shared, pid)
        shared.reaped.enter()
        do {
            try SystemThread(name: "test-reaper") { Self.reap(child, into: shared) }.detach()
        } catch {
            shared.reaped.leave()
            throw LaunchError(executable: path, errno: error.errno)
        }

        var closed: Set<ObjectIdentifier> = []
        for handle in handedOver where closed.insert(ObjectIdentifier(handle)).inserted {
            try? handle.close()
        }
    }

    /// Blocks until the child has ended and been reaped (returns at once when it was never started).
    public func waitUntilExit() {
        guard shared.state.withLock({ $0.pid }) > 0 else { return }
        shared.reaped.wait()
    }

    /// Sends SIGTERM (nothing once the child was reaped, whose number may belong to another process by then).
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGINT (nothing once the child was reaped).
    public func interrupt() { signal(SIGINT) }

    /// Stops the child with SIGSTOP; whether the signal was sent. Each call needs a ``resume()``.
    @discardableResult
    public func suspend() -> Bool {
        shared.state.withLock { state in
            guard Self.send(SIGSTOP, to: state) else { return false }
            state.suspendCount += 1
            return true
        }
    }

    /// Balances a ``suspend()``: the last one sends SIGCONT. Whether that worked.
    @discardableResult
    public func resume() -> Bool {
        shared.state.withLock { state in
            if state.suspendCount == 1, !Self.send(SIGCONT, to: state) { return false }
            state.suspendCount -= 1
            return true
        }
    }

    private func signal(_ number: Int32) {
        shared.state.withLock { state in _ = Self.send(number, to: state) }
    }

    private static func send(_ number: Int32, to state: State) -> Bool {
        precondition(state.pid > 0, "TestProcess not started")
        guard state.ended == nil else { return false }
        return kill(state.pid, number) == 0
    }

    private func ended() -> (reason: TerminationReason, status: Int32) {
        shared.state.withLock { state in
            precondition(state.pid > 0, "TestProcess not started")
            guard let ended = state.ended else { preconditionFailure("TestProcess still running") }
            return ended
        }
    }

    /// The reaper thread's body: waits for the child to exit without reaping it, outside the lock
    /// (so that `isRunning` and signals are not held up), then reaps it under the lock, once, so that
    /// no signal can reach another process that got its number.
    private static func reap(_ pid: pid_t, into shared: Shared) {
        var info = siginfo_t()
        var waited: Int32
        repeat {
            waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        } while waited == -1 && errno == EINTR
        shared.state.withLock { state in
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, 0)
            } while result == -1 && errno == EINTR
            if result == pid {
                // WIFSIGNALED / WTERMSIG / WEXITSTATUS are macros Swift does not import.
                let signal = status & 0x7f
                state.ended = signal != 0 ? (.uncaughtSignal, signal) : (.exit, (status >> 8) & 0xff)
            } else {
                state.ended = (.exit, -1)  // Something else reaped it; its status is lost.
            }
        }
        shared.reaped.leave()
    }

    // Glibc's Swift module leaves out the GNU extensions of <spawn.h>; they are in glibc (2.29 and 2.34 on).
    private typealias FileAction =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
    private typealias FileActionFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static let chdirAction: FileAction? = symbol("posix_spawn_file_actions_addchdir_np")
    private static let closefromAction: FileActionFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    /// `posix_spawn_file_actions_addchdir_np`: the child changes to `directory` before it executes.
    private static func addChdir(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Int32 {
        guard let chdirAction else { return ENOSYS }
        return chdirAction(&actions, directory)
    }

    /// `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor from `lowest` up.
    private static func addClosefrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        guard let closefromAction else { return ENOSYS }
        return closefromAction(&actions, lowest)
    }
}

extension TestProcess {
    /// Runs `executable` to its end and returns its exit status, standard output and standard error
    /// (blocking: call it through ``offPool(_:)`` from async code). Both pipes are read while it runs,
    /// standard error on a thread of its own, so that a full one cannot stop it. `environment` is its
    /// whole environment (nil: the test's); `input`, when given, its standard input (else the test's).
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = TestProcess()
        if let input {
            // A file rather than a pipe: nothing to write while the output is read.
            let path = NSTemporaryDirectory() + "photos-test-input-\(getpid())-\(UUID().uuidString)"
            try Data(input.utf8).write(to: URL(fileURLWithPath: path))
            // Removed once opened: the open handle keeps the file's content for the process.
            defer { try? FileManager.default.removeItem(atPath: path) }
            process.standardInput = FileHandle(forReadingAtPath: path)
        }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errorDrain = PipeDrain(err)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errorDrain.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
