import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// The tests' own child process: what Foundation's `Process` does for them, and starting with thousands
/// of descriptors open, where Foundation's 6.3 releases crash.
@Suite struct TestProcessTests {
    /// Runs `/bin/sh -c script` to its end; its standard output, read through a pipe to EOF.
    static func shell(_ script: String, configure: (TestProcess) throws -> Void = { _ in }) throws -> (
        TestProcess, String
    ) {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let out = Pipe()
        process.standardOutput = out
        try configure(process)
        try process.run()
        // EOF comes only because run() closed this process's copy of the writing end.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process, String(decoding: output, as: UTF8.self))
    }

    @Test(arguments: [("exit 0", 0), ("exit 3", 3), ("exit 255", 255), ("false", 1)])
    func anExitIsItsCode(script: String, code: Int32) throws {
        let (process, _) = try Self.shell(script)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == code)
        #expect(!process.isRunning)
    }

    /// Runs `body` on a thread of its own with no signal blocked. A child keeps the signal mask of the
    /// thread that starts it, as with Foundation's `Process`, and the shared pool's threads block
    /// SIGTERM and SIGINT: a child started there would not die of them.
    static func unblocked<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            outcome.result = Result { try body() }
            done.signal()
        }.start()
        done.wait()
        return try outcome.result!.get()
    }

    @Test(arguments: [SIGTERM, SIGKILL, SIGINT])
    func aSignalIsItsNumber(signal: Int32) throws {
        let (process, _) = try Self.unblocked { try Self.shell("kill -\(signal) $$") }
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
    }

    @Test func terminateAndInterruptEndARunningChild() throws {
        for (stop, signal) in [({ (p: TestProcess) in p.terminate() }, SIGTERM), ({ $0.interrupt() }, SIGINT)] {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["300"]
            try Self.unblocked { try process.run() }
            defer { kill(process.processIdentifier, SIGKILL) }
            #expect(process.isRunning)
            // In a process group of its own, as Foundation's were (a hook test relies on it).
            #expect(getpgid(process.processIdentifier) == process.processIdentifier)
            stop(process)
            try blockUntil("sleep to end on signal \(signal)") { !process.isRunning }
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
        }
    }

    @Test func aSuspendedChildResumesAndExits() throws {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "read line; exit 7"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        #expect(process.suspend())
        #expect(process.isRunning)
        #expect(process.resume())
        input.fileHandleForWriting.write(Data("go\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 7)
    }

    @Test func standardInputFromAFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("input.txt")
        try Data("first\nsecond\n".utf8).write(to: file)
        let (process, output) = try Self.shell("wc -l") { process in
            process.standardInput = try FileHandle(forReadingFrom: file)
        }
        #expect(process.terminationStatus == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }

    @Test func aNilOrNullDeviceStreamIsDevNull() throws {
        let (withNil, nilOutput) = try Self.shell("readlink /proc/self/fd/0; readlink /proc/self/fd/2") { process in
            process.standardInput = nil
            process.standardError = nil
        }
        #expect(withNil.terminationStatus == 0)
        #expect(nilOutput == "/dev/null\n/dev/null\n")
        let (withNull, nullOutput) = try Self.shell("readlink /proc/self/fd/0") { process in
            process.standardInput = FileHandle.nullDevice
        }
        #expect(withNull.terminationStatus == 0)
        #expect(nullOutput == "/dev/null\n")
    }

    @Test func standardErrorThroughItsOwnPipe() throws {
        let errors = Pipe()
        let (process, output) = try Self.shell("echo out; echo err >&2") { $0.standardError = errors }
        let drained = PipeDrain(errors)
        #expect(process.terminationStatus == 0)
        #expect(output == "out\n")
        #expect(String(decoding: drained.wait(), as: UTF8.self) == "err\n")
    }

    @Test func environmentAndWorkingDirectory() throws {
        let directory = try TemporaryDirectory()
        let (process, output) = try Self.shell("echo \"$PHOTOS_TEST_VALUE|$HOME\"; pwd -P") { process in
            process.environment = ["PHOTOS_TEST_VALUE": "café"]
            process.currentDirectoryURL = directory.url
        }
        #expect(process.terminationStatus == 0)
        let real = try #require(realpath(directory.url.path, nil))
        defer { free(real) }
        #expect(output == "café|\n\(String(cString: real))\n")
    }

    @Test func aNilEnvironmentIsInherited() throws {
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        let (_, output) = try Self.shell("echo \"$PATH\"")
        #expect(output == path + "\n")
    }

    @Test func aMissingProgramThrowsNamingIt() {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/photos-test-program")
        let error = #expect(throws: TestProcess.LaunchError.self) { try process.run() }
        #expect(error?.errno == ENOENT)
        #expect(error?.description.contains("/nonexistent/photos-test-program") == true)
        #expect(!process.isRunning)
    }

    /// The reason for the type: Foundation's 6.3 `Process` crashed now and then with this many open.
    /// None of them, opened without close-on-exec, reaches the child.
    @Test func startsWithThousandsOfDescriptorsOpenAndPassesNoneOfThem() throws {
        let descriptors = (0..<2_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { descriptors.filter { $0 >= 0 }.forEach { close($0) } }
        try #require(descriptors.allSatisfy { $0 >= 0 })

        let (process, _) = try Self.shell("exec /bin/true")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)

        // `ls` lists its own descriptors: the three streams and the one it reads the directory with.
        let (listing, output) = try Self.shell("exec ls /proc/self/fd")
        #expect(listing.terminationStatus == 0)
        let listed = Set(output.split(separator: "\n").compactMap { Int32($0) })
        #expect(listed.isSuperset(of: [0, 1, 2]))
        #expect(listed.count <= 4, "inherited: \(listed.sorted())")
    }

    /// Threads of their own, not the shared pool: `waitUntilExit()` blocks.
    @Test func waitingAndAskingFromSeveralThreadsReapItOnce() throws {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 5"]
        try process.run()
        let done = DispatchSemaphore(value: 0)
        for index in 0..<4 {
            Thread {
                if index.isMultiple(of: 2) {
                    process.waitUntilExit()
                } else {
                    while process.isRunning { usleep(1_000) }
                }
                done.signal()
            }.start()
        }
        for _ in 0..<4 { done.wait() }
        #expect(process.terminationReason == .exit && process.terminationStatus == 5)
        // Reaped once: the identifier is no child of this process any more.
        #expect(waitpid(process.processIdentifier, nil, WNOHANG) == -1 && errno == ECHILD)
    }

    /// A child that exits is reaped at once, though nobody asks about it: no zombie is left for
    /// Swift Testing's exit-test monitor, which waits for any child without reaping and would spin
    /// on one for the rest of the run (a full run hung so).
    @Test func aChildNobodyAsksAboutLeavesNoZombie() throws {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let stat = "/proc/\(process.processIdentifier)/stat"
        try blockUntil("the child to be reaped without being asked about") {
            !FileManager.default.fileExists(atPath: stat)
        }
        #expect(!process.isRunning && process.terminationStatus == 0)
    }
}

/// What a thread of its own returned or threw; read once the thread signalled.
private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
