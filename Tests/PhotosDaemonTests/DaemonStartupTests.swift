import Foundation
import Glibc
import PhotosCore
import PhotosDaemon
import PhotosTestSupport
import PhotosWire
import Testing

/// What a person meets when starting photosd: one daemon per library, roots that are not there
/// said at once, and `--version`.
@Suite(.serialized)
struct DaemonStartupTests {
    let directory: TemporaryDirectory
    var library: String { directory.path("library.sqlite").path }
    var root: String { directory.path("Pictures").path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photosd-startup")
        try FileManager.default.createDirectory(atPath: directory.path("Pictures").path, withIntermediateDirectories: true)
    }

    /// Runs photosd to its end (it is expected to stop by itself), with its standard error.
    func runToExit(_ arguments: [String], within seconds: Double = 20) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        process.arguments = arguments + ["--socket", "", "--log-level", "warning"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw DaemonError("photosd \(arguments) did not stop by itself")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    @Test func aSecondDaemonOnTheSameLibraryIsRefusedNamingTheFirst() throws {
        let first = try PhotosdProcess(arguments: ["--library", library, "--watch", root], library: library)
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        let before = try DaemonStatus.read(from: statusPath)

        let second = try runToExit(["--library", library, "--watch", directory.url.path])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("photosd (pid \(first.process.processIdentifier)) already serves the library"),
                "\(second.stderr)")
        // The first goes on, and the status file is still its own, with its roots.
        #expect(first.process.isRunning)
        let after = try DaemonStatus.read(from: statusPath)
        #expect(after.pid == first.process.processIdentifier && after.pid == before.pid)
        #expect(after.roots.map(\.path) == [root])
        try first.stop()

        // Once the first has stopped, the lock is free: a new daemon starts (and stops cleanly).
        let next = try PhotosdProcess(arguments: ["--library", library, "--watch", root], library: library)
        try next.stop()
    }

    @Test func aDaemonKilledWithoutWarningLeavesNoStaleLock() throws {
        let first = try PhotosdProcess(arguments: ["--library", library, "--watch", root], library: library)
        first.kill9()
        #expect(FileManager.default.fileExists(atPath: DaemonLock.path(forLibrary: library)))
        let next = try PhotosdProcess(arguments: ["--library", library, "--watch", root], library: library)
        try next.stop()
    }

    @Test func noRootThatExistsIsAConfigurationErrorAtOnce() throws {
        let missing = directory.path("Picturs").path
        let file = directory.path("file.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try runToExit(["--library", library, "--watch", missing, "--watch", file])
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("no root to watch exists"), "\(result.stderr)")
        #expect(result.stderr.contains("\(missing) (no such file or directory)"), "\(result.stderr)")
        #expect(result.stderr.contains("\(file) (not a directory)"), "\(result.stderr)")
        // Refused before the library was made.
        #expect(!FileManager.default.fileExists(atPath: library))
    }

    @Test func aMissingRootBesideAnotherIsAWarningAndShownOffline() throws {
        let missing = directory.path("Picturs").path
        let log = directory.path("photosd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        process.arguments = ["--library", library, "--watch", root, "--watch", missing, "--socket", "",
                             "--log-level", "warning"]
        process.standardError = handle
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: statusPath), process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let status = try DaemonStatus.read(from: statusPath)
        let entry = try #require(status.roots.first { $0.path == missing })
        #expect(entry.state == "offline")
        #expect(entry.reason?.isEmpty == false)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("warning") && text.contains("root not watched") && text.contains(missing), "\(text)")
    }

    @Test func bothProgramsSayTheirVersion() throws {
        for program in ["photos", "photosd"] {
            let result = try BuiltProducts.run(program, ["--version"])
            #expect(result.status == 0)
            #expect(result.stdout.trimmingCharacters(in: .newlines) == "\(program) \(PhotosVersion.current)")
        }
    }
}
