import Foundation
import Glibc
import PhotosDaemon
import PhotosTestSupport
import Testing

/// The real `photosd` on a temporary library, watching `root` with settle 0, its API on a socket
/// of the test's; started and ready (its startup scan done, its socket answering).
final class APIDaemon: @unchecked Sendable {
    let process = TestProcess()
    let socket: String
    let log: URL

    /// `arguments` go on photosd's command line after the test's own (`--listen 127.0.0.1:PORT`);
    /// `environment` is added to the test's (`XDG_DATA_HOME` for a Trash of the test's own).
    init(
        directory: TemporaryDirectory, root: URL, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws {
        let library = directory.path("library.sqlite").path
        socket = directory.path("run/photosd.sock").path
        log = directory.path("photosd.log")
        // photosd makes no socket directory but its fallback's: a missing one is a mistyped path.
        try FileManager.default.createDirectory(
            atPath: directory.path("run").path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        process.arguments =
            [
                "--library", library, "--watch", root.path, "--settle", "0", "--socket", socket, "--log-level",
                "warning",
            ] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardError = logHandle
        process.standardOutput = logHandle
        try process.run()
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        try await waitUntil("photosd to start its API; its log:\n\(self.logText)", whileRunning: process) { [socket] in
            guard FileManager.default.fileExists(atPath: statusPath) else { return false }
            return try await offPool { (try? UnixHTTPClient.request(socket, "GET", "/v1/health").status) == 200 }
        }
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// What photosd logged so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}

/// Lines a child process writes to a pipe, read with a deadline (blocking: call through ``offPool(_:)``).
final class LineReader: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(_ pipe: Pipe) { descriptor = pipe.fileHandleForReading.fileDescriptor }

    /// The next line without its newline; nil at the end of the output or after `timeout` seconds.
    func next(timeout: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(left * 1000)) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Lines up to and including the first that `matches`; the test fails if it does not come.
    func lines(until matches: (String) -> Bool, timeout: Double = 30) throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try #require(next(timeout: timeout), "no line matched; got:\n\(lines.joined(separator: "\n"))")
            lines.append(line)
            if matches(line) { return lines }
        }
    }
}
