import Foundation
import Glibc
import PhotosCore
import PhotosDaemon
import PhotosLinux
import PhotosTestSupport
import PhotosWire
import Testing

/// What a person meets when starting photosd: one daemon per library, roots that are not there
/// said at once, and `--version`.
@Suite(.serialized)
struct DaemonStartupTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-startup") }

    /// Runs photosd to its end (it is expected to stop by itself), with its standard error; without
    /// its API unless `arguments` name a `--socket`.
    func runToExit(_ arguments: [String], within seconds: Double = 20) throws -> (status: Int32, stderr: String) {
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        let socket = arguments.contains("--socket") ? [] : ["--socket", ""]
        process.arguments = arguments + socket + ["--log-level", "warning"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        do {
            try blockUntil("photosd \(arguments) to stop by itself", timeout: .seconds(seconds)) { !process.isRunning }
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    /// photosd on the test's library and root, started (its status file written).
    func daemon() throws -> PhotosdProcess {
        try fixture.start(["--watch", root.path])
    }

    @Test func aSecondDaemonOnTheSameLibraryIsRefusedNamingTheFirst() async throws {
        let first = try await offPool { try self.daemon() }
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        let before = try DaemonStatus.read(from: statusPath)

        let second = try await offPool { try self.runToExit(["--library", library, "--watch", directory.url.path]) }
        #expect(second.status == 75, "\(second.stderr)")
        #expect(
            second.stderr.contains("photosd (pid \(first.process.processIdentifier)) already serves the library"),
            "\(second.stderr)")
        // The first goes on, and the status file is still its own, with its roots.
        #expect(first.process.isRunning)
        let after = try DaemonStatus.read(from: statusPath)
        #expect(after.pid == first.process.processIdentifier && after.pid == before.pid)
        #expect(after.roots.map(\.path) == [root.path])
        try await offPool { try first.stop() }

        // Once the first has stopped, the lock is free: a new daemon starts (and stops cleanly).
        let next = try await offPool { try self.daemon() }
        try await offPool { try next.stop() }
    }

    /// `--watch` replacing the config's roots leaves a drop folder's destination under no root that
    /// allows files: refused at once, saying why (every import failed, naming a made-up path).
    @Test func aDropFolderWhoseDestinationWatchLeftOutIsRefusedAtOnce() async throws {
        let drop = directory.path("Drop").path
        let other = directory.path("Other").path
        for folder in [drop, other] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try writeConfig(
            """
            roots = [{ path = "\(root.path)", write = "files" }]
            [[imports]]
            from = "\(drop)"
            to = "\(root.path)"
            """)
        let refused = try await offPool {
            try self.runToExit(["--library", library, "--config", config.path, "--watch", other])
        }
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("[[imports]] \(drop) -> \(root.path): no watched root"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--watch replaces the config's roots"), "\(refused.stderr)")
        // Watching the destination's root too is enough.
        let daemon = try await offPool {
            try fixture.start(["--config", config.path, "--watch", other, "--watch", root.path])
        }
        try await offPool { try daemon.stop() }
    }

    /// A link to the library, or to its folder, or a hard link to its file, is the same library: the
    /// second photosd is refused (it ran beside the first, and every hook ran twice).
    @Test func aLinkToTheLibraryIsTheSameLibrary() async throws {
        let first = try await offPool { try self.daemon() }
        let link = directory.path("alias.sqlite").path
        let folderLink = directory.path("folder-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: library)
        try FileManager.default.createSymbolicLink(
            atPath: folderLink, withDestinationPath: (library as NSString).deletingLastPathComponent)
        // A hard link has a lock file of its own, but is the same file: SQLite, which names its
        // journal after the path, would have written two journals of one database.
        let hardLink = directory.path("hard.sqlite").path
        #expect(Glibc.link(library, hardLink) == 0)
        for path in [link, folderLink + "/" + (library as NSString).lastPathComponent, hardLink] {
            let second = try await offPool { try self.runToExit(["--library", path, "--watch", directory.url.path]) }
            #expect(second.status == 75, "\(path): \(second.stderr)")
            #expect(second.stderr.contains("already serves the library"), "\(second.stderr)")
        }
        #expect(first.process.isRunning)
        try await offPool { try first.stop() }
    }

    /// `photos rebuild` replaces the library file: refused while photosd serves it, found by its
    /// lock even where the command cannot reach its socket; and photosd does not start on a library
    /// being rebuilt (it would serve the file the rebuild puts aside).
    @Test func aRebuildAndPhotosdNeverHaveTheLibraryAtOnce() async throws {
        let first = try await offPool { try self.daemon() }
        let environment = ["XDG_RUNTIME_DIR": directory.path("elsewhere").path]
        let refused = try await offPool {
            try BuiltProducts.run(
                "photos", ["rebuild", "--library", self.library, self.root.path], environment: environment)
        }
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("photosd (pid \(first.process.processIdentifier)) is serving \(library)"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: library + ".before-rebuild"), "the library was not replaced")
        #expect(first.process.isRunning)
        try await offPool { try first.stop() }

        let rebuilding = try DaemonLock.acquire(forLibrary: library, holder: "photos rebuild")
        let second = try await offPool { try self.runToExit(["--library", library, "--watch", root.path]) }
        #expect(second.status == 75, "\(second.stderr)")
        #expect(
            second.stderr.contains("photos rebuild (pid \(getpid())) is rebuilding the library at \(library)"),
            "\(second.stderr)")
        withExtendedLifetime(rebuilding) {}
    }

    @Test func aDaemonKilledWithoutWarningLeavesNoStaleLock() async throws {
        let first = try await offPool { try self.daemon() }
        try await offPool { first.kill9() }
        #expect(FileManager.default.fileExists(atPath: DaemonLock.path(forLibrary: library)))
        let next = try await offPool { try self.daemon() }
        try await offPool { try next.stop() }
    }

    @Test func noRootThatExistsIsAConfigurationErrorAtOnce() async throws {
        let missing = directory.path("Picturs").path
        let file = directory.path("file.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await offPool {
            try self.runToExit(["--library", library, "--watch", missing, "--watch", file])
        }
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("no root to watch exists"), "\(result.stderr)")
        #expect(result.stderr.contains("\(missing) (no such file or directory)"), "\(result.stderr)")
        #expect(result.stderr.contains("\(file) (not a directory)"), "\(result.stderr)")
        // Refused before the library was made.
        #expect(!FileManager.default.fileExists(atPath: library))
    }

    @Test func aMissingRootBesideAnotherIsAWarningAndShownOffline() async throws {
        let missing = directory.path("Picturs").path
        let log = directory.path("photosd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        process.arguments = [
            "--library", library, "--watch", root.path, "--watch", missing, "--socket", "",
            "--log-level", "warning",
        ]
        process.standardError = handle
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        try await waitUntil("photosd to write its status file", whileRunning: process) {
            FileManager.default.fileExists(atPath: statusPath)
        }
        let status = try DaemonStatus.read(from: statusPath)
        let entry = try #require(status.roots.first { $0.path == missing })
        #expect(entry.state == "offline")
        #expect(entry.reason?.isEmpty == false)
        process.terminate()
        try await offPool { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("warning") && text.contains("root not watched") && text.contains(missing), "\(text)")
    }

    /// A Unix socket listening at `path`, as another program's would; closed by the caller.
    static func listeningUnixSocket(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else { throw DaemonError("cannot listen on \(path)") }
        return descriptor
    }

    /// A TCP socket listening on 127.0.0.1 at a port the kernel chose, and the port.
    static func listeningTCPSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw DaemonError("cannot listen on 127.0.0.1") }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func aListenerThatCannotBeHadStopsTheDaemonWithItsReason() async throws {
        // The socket's directory is not there: refused, and not made.
        let nowhere = directory.path("no/such/dir/photosd.sock").path
        let missing = try await offPool {
            try self.runToExit(["--library", library, "--watch", root.path, "--socket", nowhere])
        }
        #expect(missing.status == 78, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("the socket's directory \(directory.path("no/such/dir").path) does not exist"),
            "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("no").path))
        // A file of the user's at the socket's path: left alone.
        let file = directory.path("notes.sock").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: file))
        let taken = try await offPool {
            try self.runToExit(["--library", library, "--watch", root.path, "--socket", file])
        }
        #expect(taken.status == 78 && taken.stderr.contains("exists and is not a socket"), "\(taken.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine")
        // Another program's live socket.
        let served = directory.path("served.sock").path
        let other = try Self.listeningUnixSocket(served)
        defer { close(other) }
        let busy = try await offPool {
            try self.runToExit(["--library", library, "--watch", root.path, "--socket", served])
        }
        #expect(busy.status == 78 && busy.stderr.contains("another process serves \(served)"), "\(busy.stderr)")
        // A TCP port another program listens on.
        let (tcp, port) = try Self.listeningTCPSocket()
        defer { close(tcp) }
        let socket = directory.path("api.sock").path
        let inUse = try await offPool {
            try self.runToExit([
                "--library", library, "--watch", root.path, "--socket", socket, "--listen", "127.0.0.1:\(port)",
            ])
        }
        #expect(inUse.status == 78, "\(inUse.stderr)")
        #expect(inUse.stderr.contains("127.0.0.1:\(port) is taken: Address already in use"), "\(inUse.stderr)")
        // Nothing was started: no socket left behind, no status written.
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: DaemonConfiguration.statusPath(forLibrary: library)))
    }

    @Test func bothProgramsSayTheirVersion() async throws {
        for program in ["photos", "photosd"] {
            let result = try await offPool { try BuiltProducts.run(program, ["--version"]) }
            #expect(result.status == 0)
            #expect(result.stdout.trimmingCharacters(in: .newlines) == "\(program) \(PhotosVersion.current)")
        }
    }
}
