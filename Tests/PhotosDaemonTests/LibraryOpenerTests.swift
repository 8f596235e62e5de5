import Foundation
import Glibc
import PhotosDaemon
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// The real `photosd` binary with a library it cannot open yet: it says so in its log and its
/// status, and opens the library once it can, without being restarted.
@Suite struct LibraryOpenerTests {
    @Test(arguments: [
        (StoreError.Code.unreachable, true), (.full, true), (.busy, true), (.permissionDenied, true),
        (.corrupt, false), (.newerSchema, false), (.other, false),
    ])
    func onlyWhatWaitingCanMendIsRetried(code: StoreError.Code, retried: Bool) {
        #expect(LibraryOpener.isWorthRetrying(StoreError(code, "x")) == retried)
    }

    @Test func photosdWaitsForALibraryItCannotOpenYet() throws {
        let directory = try TemporaryDirectory(prefix: "photosd-opener")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // A directory where the library file should be: it cannot be opened until it goes.
        let library = directory.path("library.sqlite")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library.path)
        let log = directory.path("photosd.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        process.arguments = ["--library", library.path, "--watch", root.path, "--settle", "50", "--socket", ""]
        process.standardError = logHandle
        process.standardOutput = logHandle
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
        }

        // A bound on waiting, not a timing goal: the first try writes the status at once.
        var status: DaemonStatus?
        try blockUntil("the status to say the library is unavailable", whileRunning: process) {
            status = try? DaemonStatus.read(from: statusPath)
            return status?.library?.state == "unavailable"
        }
        #expect(process.isRunning, "photosd keeps trying instead of exiting")
        let waiting = try #require(status?.library)
        #expect(waiting.state == "unavailable")
        #expect(waiting.reason?.contains("cannot be opened") == true, "\(waiting.reason ?? "")")
        let cli = try BuiltProducts.run("photos", ["status", "--library", library.path])
        #expect(cli.status != 0)
        #expect(cli.stdout.contains("library: unavailable"), "\(cli.stdout)")

        try FileManager.default.removeItem(at: library)
        try blockUntil("the status to say the library is available", whileRunning: process) {
            (try? DaemonStatus.read(from: statusPath))?.library?.state == "available"
        }
        #expect((try? DaemonStatus.read(from: statusPath))?.library?.state == "available")
        #expect(FileManager.default.fileExists(atPath: library.path))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let output = try String(contentsOf: log, encoding: .utf8)
        #expect(output.contains("cannot open the library; trying again"), "\(output)")
    }
}
