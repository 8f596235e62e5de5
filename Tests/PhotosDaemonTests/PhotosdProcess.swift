import Foundation
import Glibc
import PhotosDaemon
import PhotosTestSupport

/// The built `photosd` run as a child process: started and ready once its startup scan wrote the
/// status file, stopped with SIGTERM (exit 0 expected) or killed with SIGKILL by the test, and
/// killed anyway when the test drops it.
final class PhotosdProcess {
    let process = Process()

    /// Starts `photosd` with `arguments` (at warning level, without its API unless they name a
    /// `--socket`) and waits for the status file of `library`. Its standard error goes to `log`
    /// when given; `arguments` may name another `--log-level`.
    /// Its cache home (`XDG_CACHE_HOME`, the thumbnail cache's) is the test run's own
    /// (``BuiltProducts/cacheHome``) unless `environment` names one.
    init(arguments: [String], library: String, environment: [String: String] = [:], log: URL? = nil) throws {
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        try? FileManager.default.removeItem(atPath: statusPath)
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        process.environment = ProcessInfo.processInfo.environment
            .merging(["XDG_CACHE_HOME": BuiltProducts.cacheHome]) { $1 }.merging(environment) { $1 }
        // No API unless the test asks for one: parallel daemons would all want the default socket.
        let socket = arguments.contains("--socket") ? [] : ["--socket", ""]
        let level = arguments.contains("--log-level") ? [] : ["--log-level", "warning"]
        process.arguments = arguments + socket + level
        if let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        }
        try process.run()
        try waitWhileRunning(upTo: 20, "photosd did not start") { FileManager.default.fileExists(atPath: statusPath) }
    }

    /// Polls `condition` while the daemon runs; throws `failure` after `seconds` or when it exits.
    func waitWhileRunning(upTo seconds: Double, _ failure: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline, process.isRunning else { throw DaemonError(failure) }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// SIGTERM; the exit status must be 0 within `seconds`.
    func stop(within seconds: Double = 10) throws {
        process.terminate()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else { throw DaemonError("photosd did not stop on SIGTERM") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard process.terminationStatus == 0 else {
            throw DaemonError("photosd exited with \(process.terminationStatus) on SIGTERM")
        }
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill9() }
    }
}

struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
