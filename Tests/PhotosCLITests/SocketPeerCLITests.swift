import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// Whether this test can run here.
private var rootWithSetprivAndPython: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
}

/// The built `photos` against a program of another user serving on photosd's socket path (as a
/// user who made `/tmp/photosd-UID` first could): it refuses before sending a byte, so the token
/// in `$PHOTOS_TOKEN` never reaches that program and its forged answer is never printed.
@Suite(.serialized, .enabled(if: rootWithSetprivAndPython, "needs root, setpriv and /usr/bin/python3"))
struct SocketPeerCLITests {
    static let token = "photos-test-secret-token"
    static let forged = "FORGED-BY-ANOTHER-USER"

    /// A fake photosd: accepts connections, appends what each sends to `log`, answers a forged listing.
    static let fakeServer = """
        import os, socket, sys
        path, log = sys.argv[1], sys.argv[2]
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        os.chmod(path, 0o777)
        server.listen(16)
        while True:
            connection, _ = server.accept()
            connection.settimeout(2)
            data = b""
            try:
                while b"\\r\\n\\r\\n" not in data:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            with open(log, "ab") as f:
                f.write(data)
            body = b'{"localIdentifier": "\(forged)", "status": "ok"}\\n'
            try:
                connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: "
                    + str(len(body)).encode() + b"\\r\\nConnection: close\\r\\n\\r\\n" + body)
            except OSError:
                pass
            connection.close()
        """

    let directory: TemporaryDirectory
    /// Where the fake listens: a directory of the other user's, as the squatted fallback is.
    var run: URL { directory.path("run") }
    var socket: String { run.appendingPathComponent("photosd.sock").path }
    var log: String { run.appendingPathComponent("received").path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-socket-peer")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        chmod(directory.url.path, 0o755)
    }

    /// Starts the fake as `uid` and waits for its socket.
    func startFake(as uid: uid_t) throws -> TestProcess {
        chown(run.path, uid, uid)
        FileManager.default.createFile(atPath: log, contents: nil)
        chown(log, uid, uid)
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c", Self.fakeServer,
            socket, log,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try blockUntil("the fake server to make its socket", whileRunning: process) {
            FileManager.default.fileExists(atPath: socket)
        }
        return process
    }

    func stop(_ process: TestProcess) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var received: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func photos(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try BuiltProducts.run(
            "photos", arguments,
            environment: ["PHOTOS_TOKEN": Self.token, "XDG_DATA_HOME": directory.path("data").path].merging(environment)
            {
                $1
            })
    }

    @Test func aSocketServedByAnotherUserGetsNoTokenAndItsAnswerIsNotPrinted() async throws {
        let fake = try await offPool { try self.startFake(as: 65534) }
        defer { stop(fake) }
        let result = try await offPool { try self.photos(["assets", "--socket", socket, "--json"]) }
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(socket) is served by a process of uid 65534, not by you (uid 0) or root"))
        #expect(result.stderr.contains("nothing was sent"))
        #expect(!result.stdout.contains(Self.forged))
        // The fake saw connections, maybe, but not one byte: no request line, no token.
        #expect(received.isEmpty, "\(received)")
    }

    @Test func theUsualSocketServedByAnotherUserIsRefusedNotSilentlySkipped() async throws {
        let fake = try await offPool { try self.startFake(as: 65534) }
        defer { stop(fake) }
        // The usual socket: $XDG_RUNTIME_DIR/photosd.sock, here the fake's.
        let result = try await offPool {
            try self.photos(["assets", "--json"], environment: ["XDG_RUNTIME_DIR": run.path])
        }
        #expect(result.status != 0)
        #expect(result.stderr.contains("is served by a process of uid 65534"))
        #expect(!result.stdout.contains(Self.forged))
        #expect(received.isEmpty, "\(received)")
    }

    @Test func aLiveQueryOnASocketOfAnotherUserSendsNothing() async throws {
        let fake = try await offPool { try self.startFake(as: 65534) }
        defer { stop(fake) }
        let result = try await offPool { try self.photos(["watch-query", "--socket", socket, "--json"]) }
        #expect(result.status != 0)
        #expect(result.stderr.contains("is served by a process of uid 65534"))
        #expect(received.isEmpty, "\(received)")
    }

    /// The control: the same fake, named with --socket-owner, is talked to (and gets the token):
    /// what the refusals above hold back is real.
    @Test func aSocketOwnerNamedByTheUserIsTrusted() async throws {
        let fake = try await offPool { try self.startFake(as: 65534) }
        defer { stop(fake) }
        _ = try await offPool { try self.photos(["assets", "--socket", socket, "--socket-owner", "65534", "--json"]) }
        #expect(received.contains("Authorization: Bearer \(Self.token)"))
    }

    /// A photosd of the user's own uid (or root's) is trusted as before.
    @Test func aSocketServedByTheOwnUserIsUsed() async throws {
        let fake = try await offPool { try self.startFake(as: getuid()) }
        defer { stop(fake) }
        _ = try await offPool { try self.photos(["assets", "--socket", socket, "--json"]) }
        #expect(received.contains("GET /v1/health"))
    }
}

struct FakeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
