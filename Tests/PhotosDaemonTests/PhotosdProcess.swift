import Foundation
import Glibc
import PhotosDaemon
import PhotosStore
import PhotosTestSupport

/// The built `photosd` run as a child process: started and ready once its startup scan wrote the
/// status file, stopped with SIGTERM (exit 0 expected) or killed with SIGKILL by the test, and
/// killed anyway when the test drops it.
final class PhotosdProcess {
    let process = TestProcess()
    /// Where its standard error goes, if anywhere.
    let log: URL?

    /// Starts `photosd` with `arguments` (at warning level, without its API unless they name a
    /// `--socket`) and waits for the status file of `library` (a file, or a `postgresql://` URL). Its standard error goes to `log`
    /// when given; `arguments` may name another `--log-level`.
    /// Its cache home (`XDG_CACHE_HOME`, the thumbnail cache's) is the test run's own
    /// (``BuiltProducts/cacheHome``) unless `environment` names one.
    ///
    /// `isolatedNetwork` runs it in a network namespace of its own (`unshare --net`, where
    /// ``networkNamespacesWork``): no interface but a loopback of its own, as on another machine.
    /// `disk` gives it a mount namespace of its own too, where the directory `disk.source` is
    /// bind-mounted at `disk.at`: another machine's disk at a path this one has too.
    init(
        arguments: [String], library: String, environment: [String: String] = [:], log: URL? = nil,
        isolatedNetwork: Bool = false, disk: (source: String, at: String)? = nil
    ) throws {
        self.log = log
        let merged = ProcessInfo.processInfo.environment
            .merging(["XDG_CACHE_HOME": BuiltProducts.cacheHome]) { $1 }.merging(environment) { $1 }
        // Beside the library file, or for a library kept in PostgreSQL in the daemon's data home.
        let statusPath = DaemonConfiguration.statusPath(
            forLibrary: LibraryDatabase.localPath(forLibrary: library, environment: merged))
        try? FileManager.default.removeItem(atPath: statusPath)
        let photosd = BuiltProducts.directory.appendingPathComponent("photosd")
        process.environment = merged
        // No API unless the test asks for one: parallel daemons would all want the default socket.
        let socket = arguments.contains("--socket") ? [] : ["--socket", ""]
        let level = arguments.contains("--log-level") ? [] : ["--log-level", "warning"]
        if let disk {
            // The shell mounts the disk in the new namespaces, then execs photosd: the same pid.
            process.executableURL = URL(fileURLWithPath: Self.unshare)
            process.arguments =
                ["--net", "--mount", "--", "/bin/sh", "-c", #"mount --bind "$1" "$2" && shift 2 && exec "$@""#, "sh"]
                + [disk.source, disk.at, photosd.path] + arguments + socket + level
        } else if isolatedNetwork {
            // unshare execs photosd in the new namespace: the process is photosd's, the same pid.
            process.executableURL = URL(fileURLWithPath: Self.unshare)
            process.arguments = ["--net", "--", photosd.path] + arguments + socket + level
        } else {
            process.executableURL = photosd
            process.arguments = arguments + socket + level
        }
        if let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        }
        try process.run()
        let logged = { log.map { "; its log:\n" + ((try? String(contentsOf: $0, encoding: .utf8)) ?? "") } ?? "" }
        try waitWhileRunning("photosd to write its status file (its startup scan done)" + logged()) {
            FileManager.default.fileExists(atPath: statusPath)
        }
    }

    private static let unshare = "/usr/bin/unshare"

    /// Whether this machine lets the tests make network namespaces (util-linux's `unshare --net`,
    /// as root or where unprivileged user namespaces are allowed).
    static let networkNamespacesWork: Bool = {
        guard FileManager.default.isExecutableFile(atPath: unshare) else { return false }
        let probe = TestProcess()
        probe.executableURL = URL(fileURLWithPath: unshare)
        probe.arguments = ["--net", "--", "/bin/true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// Whether this machine lets the tests give a process a mount namespace of its own with a
    /// directory bind-mounted in it (`unshare --mount` and `mount --bind`, as root).
    static let mountNamespacesWork: Bool = {
        guard networkNamespacesWork, let directory = try? TemporaryDirectory(prefix: "mount-probe") else {
            return false
        }
        let probe = TestProcess()
        probe.executableURL = URL(fileURLWithPath: unshare)
        probe.arguments = [
            "--net", "--mount", "--", "/bin/sh", "-c", #"mount --bind "$1" "$2""#, "sh", directory.url.path,
            directory.url.path,
        ]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// The network namespace the process is in (`net:[inode]`), or nil once it has exited.
    var networkNamespace: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/ns/net")
    }

    /// Waits (blocking: call it off the shared pool) until `condition` holds; throws naming `what`
    /// after `timeout`, or at once when the daemon exits.
    func waitWhileRunning(
        _ what: @autoclosure () -> String, timeout: Duration = defaultWaitTimeout, _ condition: () throws -> Bool
    ) throws {
        try blockUntil(what(), timeout: timeout, whileRunning: process, condition)
    }

    /// SIGTERM; the exit status must be 0 within `seconds`.
    /// Sends SIGTERM and waits for a clean exit. The bound is a minute: full runs stall the test
    /// process's threads 10 to 30 s at a time (dozens of cases at once on two cores), which a 10 s
    /// bound took for a photosd that did not stop; one that hangs still fails.
    func stop(within seconds: Double = 60) throws {
        process.terminate()
        do {
            try blockUntil("photosd to stop on SIGTERM", timeout: .seconds(seconds)) { !process.isRunning }
        } catch {
            throw DaemonError("\(error)\(stacks())")
        }
        guard process.terminationStatus == 0 else {
            throw DaemonError("photosd exited with \(process.terminationStatus) on SIGTERM")
        }
    }

    /// Its threads' stacks, from gdb where the machine has it (CI installs it), and its log: what a
    /// photosd that does not stop was waiting on.
    private func stacks() -> String {
        let logged = log.map { "; its log:\n" + ((try? String(contentsOf: $0, encoding: .utf8)) ?? "").suffix(20_000) }
        let debuggers = ["/usr/bin/gdb", "/bin/gdb"]
        guard process.isRunning, let gdb = debuggers.first(where: FileManager.default.isExecutableFile) else {
            return logged ?? ""
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("photosd-stacks-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output) }
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let debugger = TestProcess()
        debugger.executableURL = URL(fileURLWithPath: gdb)
        debugger.arguments = ["-p", "\(process.processIdentifier)", "-batch", "-nx", "-ex", "thread apply all bt 30"]
        debugger.standardInput = FileHandle.nullDevice
        debugger.standardOutput = try? FileHandle(forWritingTo: output)
        debugger.standardError = FileHandle.nullDevice
        guard (try? debugger.run()) != nil else { return logged ?? "" }
        debugger.waitUntilExit()
        let stacks = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (logged ?? "") + "\nits threads (gdb):\n" + stacks.suffix(200_000)
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
