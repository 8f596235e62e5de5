import Foundation
import Glibc
import PhotosDaemon
import PhotosTestSupport
import Testing

/// Whether this test can run here.
private var rootWithSetpriv: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
}

/// The fallback socket directory (`/tmp/photosd-UID` without `$XDG_RUNTIME_DIR`) with the real
/// `photosd`: another user's, open to others, or a link is refused with the reason; a missing one
/// is made the user's alone.
///
/// The daemon runs as a uid of its own (setpriv), so that its fallback directory is one no other
/// test or daemon on the machine uses; making a directory another user's takes root.
@Suite(.serialized, .enabled(if: rootWithSetpriv, "needs root and setpriv"))
struct SocketDirectoryDaemonTests {
    /// The daemon's user: a uid no account has, different in each run.
    let uid = uid_t.random(in: 40_000..<60_000)
    /// The squatter: user nobody.
    static let other: uid_t = 65534
    let directory: TemporaryDirectory
    var fallback: String { SocketDirectory.fallback(uid: uid) }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photosd-socket-dir")
        for name in ["Pictures", "home"] {
            try FileManager.default.createDirectory(at: directory.path(name), withIntermediateDirectories: true)
        }
        for path in [directory.url.path, directory.path("Pictures").path, directory.path("home").path] {
            chown(path, uid, uid)
        }
        removeFallback()
    }

    func removeFallback() {
        var info = stat()
        if lstat(fallback, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            unlink(fallback)
        } else {
            try? FileManager.default.removeItem(atPath: fallback)
        }
    }

    /// `photosd` as `uid`, without `$XDG_RUNTIME_DIR`, on an empty root; `untilReady` waits for
    /// its socket and stops it with SIGTERM, else it is waited for (it should refuse at once).
    func runDaemon(untilReady: Bool = false) throws -> (status: Int32, stderr: String, served: Bool) {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
            BuiltProducts.directory.appendingPathComponent("photosd").path,
            "--library", directory.path("library.sqlite").path, "--watch", directory.path("Pictures").path,
            "--log-level", "warning",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = nil
        let home = directory.path("home").path
        environment["HOME"] = home
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_DATA_HOME"] = home + "/data"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var served = false
        if untilReady {
            // Whether it serves is what the caller checks: a wait that fails leaves `served` false.
            try? blockUntil("photosd's socket in \(fallback)", whileRunning: process) {
                FileManager.default.fileExists(atPath: fallback + "/photosd.sock")
            }
            served = FileManager.default.fileExists(atPath: fallback + "/photosd.sock")
            if process.isRunning { process.terminate() }
        } else {
            // It should refuse at once; one that does not is killed, and its status says so.
            try? blockUntil("photosd to refuse and exit", timeout: .seconds(20)) { !process.isRunning }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, served)
    }

    @Test func aFallbackDirectoryOfAnotherUserIsRefusedWithItsOwner() async throws {
        defer { removeFallback() }
        #expect(mkdir(fallback, 0o700) == 0)
        #expect(chown(fallback, Self.other, Self.other) == 0)
        let run = try await offPool { try self.runDaemon() }
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("\(fallback): it is owned by uid \(Self.other), not by this user (uid \(uid))"))
        // Nothing of the daemon's went in it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fallback).isEmpty)
    }

    @Test func aFallbackDirectoryOthersMayEnterIsRefusedWithItsMode() async throws {
        defer { removeFallback() }
        #expect(mkdir(fallback, 0o700) == 0)
        #expect(chown(fallback, uid, uid) == 0)
        #expect(chmod(fallback, 0o755) == 0)
        let run = try await offPool { try self.runDaemon() }
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("\(fallback): its mode is 0755, not 0700"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fallback).isEmpty)
    }

    @Test func aLinkAtTheFallbackDirectoryIsRefusedNotFollowed() async throws {
        defer { removeFallback() }
        // A private directory of the daemon's user, linked: still refused, since whoever made the
        // link decides where it points.
        let target = directory.path("elsewhere").path
        #expect(mkdir(target, 0o700) == 0)
        #expect(chown(target, uid, uid) == 0)
        #expect(symlink(target, fallback) == 0)
        let run = try await offPool { try self.runDaemon() }
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("\(fallback): it is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)
    }

    @Test func aMissingFallbackDirectoryIsMadeTheUsersAlone() async throws {
        defer { removeFallback() }
        let run = try await offPool { try self.runDaemon(untilReady: true) }
        #expect(run.served, "\(run.stderr)")
        #expect(run.status == 0, "\(run.stderr)")
        var info = stat()
        #expect(lstat(fallback, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        #expect(info.st_uid == uid)
        #expect(info.st_mode & 0o7777 == 0o700)
    }

    @Test func anOwnPrivateFallbackDirectoryIsUsed() async throws {
        defer { removeFallback() }
        #expect(mkdir(fallback, 0o700) == 0)
        #expect(chown(fallback, uid, uid) == 0)
        let run = try await offPool { try self.runDaemon(untilReady: true) }
        #expect(run.served, "\(run.stderr)")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("photosd does not put its socket there"))
    }
}
