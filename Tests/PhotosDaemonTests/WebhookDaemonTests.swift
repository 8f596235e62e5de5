import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// python3 on the PATH.
let webhookPython: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }

extension HookDaemonTests {
    // Nested in HookDaemonTests so that `.serialized` runs these one at a time with its tests, not
    // beside them: two photosd daemons at once on 2 cores slow the in-process hook tests past their waits.
    /// Webhooks end to end: the real `photosd` POSTing to a server on loopback written in Python,
    /// which checks each signature with Python's own `hmac` (not this project's code).
    @Suite(.enabled(if: webhookPython != nil, "needs python3"))
    struct WebhookDaemonTests {
        let directory: TemporaryDirectory
        var root: URL { directory.path("Pictures") }
        var libraryURL: URL { directory.path("library.sqlite") }
        var received: URL { directory.path("received") }
        var configURL: URL { directory.path("config.toml") }

        static let secret = "correct horse battery staple"

        /// Records each POST as RECEIVED/NNNN.json (its headers, its JSON body, and whether its
        /// signature is HMAC-SHA256 of the body with the secret in SECRET_FILE); answers 500 with
        /// "failing on purpose" while RECEIVED/fail exists, else 200. Writes its port to RECEIVED/port.
        static let server = #"""
            import hashlib, hmac, http.server, json, os, sys
            secret = open(sys.argv[1], "rb").read().rstrip(b"\r\n")
            out = sys.argv[2]
            count = 0
            class Hook(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    global count
                    body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                    expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
                    failing = os.path.exists(os.path.join(out, "fail"))
                    count += 1
                    record = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                              "signatureValid": hmac.compare_digest(expected, self.headers.get("X-Photos-Signature", "")),
                              "answered": 500 if failing else 200, "payload": json.loads(body)}
                    name = os.path.join(out, "%04d.json" % count)
                    with open(name + ".tmp", "w") as f:
                        json.dump(record, f)
                    os.rename(name + ".tmp", name)
                    answer = b"failing on purpose" if failing else b"thanks"
                    self.send_response(500 if failing else 200)
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Hook)
            with open(os.path.join(out, "port.tmp"), "w") as f:
                f.write(str(server.server_port))
            os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
            server.serve_forever()
            """#

        init() throws {
            directory = try TemporaryDirectory(prefix: "photosd-webhooks")
            for folder in [root, received] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            try Data((Self.secret + "\n").utf8).write(to: directory.path("hook.secret"))
        }

        /// Starts the Python server; returns it and its port.
        func startServer() async throws -> (Process, Int) {
            let script = directory.path("server.py")
            try Data(Self.server.utf8).write(to: script)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(webhookPython))
            process.arguments = [script.path, directory.path("hook.secret").path, received.path]
            try process.run()
            let portFile = received.appendingPathComponent("port").path
            try await HookDaemonTests.eventually("the server's port", seconds: 20) {
                FileManager.default.fileExists(atPath: portFile)
            }
            return (process, try #require(Int(try String(contentsOfFile: portFile, encoding: .utf8))))
        }

        /// SIGKILL: the test process may ignore SIGTERM (a service group in another suite), and the
        /// server inherits that.
        static func stop(_ server: Process) {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }

        func writeConfig(port: Int, extra: String = "") throws {
            try Data(
                """
                [[hooks]]
                name = "web"
                url = "http://127.0.0.1:\(port)/photos?from=photosd"
                secret_file = "hook.secret"
                \(extra)
                """.utf8
            ).write(to: configURL)
        }

        func put(_ corpusPath: String, at relative: String) throws {
            let destination = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try #require(Corpus.file(corpusPath)), to: destination)
        }

        /// The requests the server recorded, in order.
        func requests() throws -> [[String: Any]] {
            try FileManager.default.contentsOfDirectory(atPath: received.path).filter { $0.hasSuffix(".json") }.sorted()
                .map { name in
                    try #require(
                        try JSONSerialization.jsonObject(with: Data(contentsOf: received.appendingPathComponent(name)))
                            as? [String: Any])
                }
        }

        static func payload(_ request: [String: Any]) -> [String: Any] { request["payload"] as? [String: Any] ?? [:] }

        /// Runs `photos` off the shared pool: a pool thread blocked on it is one the other suites
        /// (hooks run in process, waiting for their tasks) cannot have.
        func photos(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let arguments = arguments + ["--library", libraryURL.path, "--config", configURL.path]
            return try await offPool { try BuiltProducts.run("photos", arguments) }
        }

        /// Starts photosd and waits for its hooks' enrollment, off the shared pool.
        func startDaemon() async throws -> HookedDaemon {
            let (library, root, config) = (libraryURL, root, configURL)
            return try await offPool { try HookedDaemon(library: library, root: root, config: config) }
        }

        /// Polls `condition` (which may run `photos`) until it holds, for up to `seconds`.
        static func until(_ what: String, seconds: Double = 30, _ condition: () async throws -> Bool) async throws {
            let deadline = Date().addingTimeInterval(seconds)
            while try await !condition() {
                guard Date() < deadline else { throw DaemonError("timed out waiting for: \(what)") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }

        @Test func aCopiedFileIsPostedWithItsAlbumAndAValidSignature() async throws {
            let (server, port) = try await startServer()
            defer { Self.stop(server) }
            try writeConfig(port: port)
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "Trips/Death Valley/inn.jpg")
            try await HookDaemonTests.eventually("the POST with the asset") {
                try requests().contains { !HookDaemonTests.assets(Self.payload($0)).isEmpty }
            }
            let all = try requests()
            // Every POST, the startup scan's folder included, is signed and answered 200.
            for request in all {
                #expect(request["signatureValid"] as? Bool == true, "\(request)")
                #expect(request["path"] as? String == "/photos?from=photosd")
                let headers = request["headers"] as? [String: String] ?? [:]
                #expect(headers["content-type"] == "application/json")
                #expect(headers["x-photos-hook"] == "web")
                let payload = Self.payload(request)
                #expect(headers["x-photos-since"] == "\(payload["since"] ?? "")" && headers["x-photos-until"] == "\(payload["until"] ?? "")")
            }
            let request = try #require(all.first { !HookDaemonTests.assets(Self.payload($0)).isEmpty })
            let asset = try #require(HookDaemonTests.assets(Self.payload(request)).first)
            #expect(asset["mediaType"] as? String == "image")
            let resources = try #require(asset["resources"] as? [[String: Any]])
            #expect(resources.first?["path"] as? String == root.appendingPathComponent("Trips/Death Valley/inn.jpg").path)
            let albums = try #require(asset["albums"] as? [[String: Any]])
            #expect(albums.map { $0["path"] as? String } == [root.appendingPathComponent("Trips/Death Valley").path])
            try await offPool { try daemon.stop() }
            let status = try await photos(["hooks", "status", "--json"])
            #expect(status.stdout.contains("\"url\":\"http:\\/\\/127.0.0.1:\(port)\\/photos?from=photosd\"")
                        || status.stdout.contains("\"url\":\"http://127.0.0.1:\(port)/photos?from=photosd\""), "\(status.stdout)")
            #expect(status.stdout.contains("\"state\":\"ok\"") && status.stdout.contains("\"lastOutcome\":\"HTTP 200\""), "\(status.stdout)")
            let list = try await photos(["hooks", "list"])
            #expect(list.stdout.contains("POST http://127.0.0.1:\(port)/photos?from=photosd"), "\(list.stdout)")
        }

        @Test func aFailingServerParksTheHookAndResumeDelivers() async throws {
            let (server, port) = try await startServer()
            defer { Self.stop(server) }
            _ = FileManager.default.createFile(atPath: received.appendingPathComponent("fail").path, contents: nil)
            try writeConfig(port: port, extra: "objects = [\"asset\"]\nmax_failures = 2")
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "A/inn.jpg")
            try await Self.until("parked") {
                try await photos(["hooks", "status", "--json"]).stdout.contains("\"state\":\"parked\"")
            }
            let parked = try await photos(["hooks", "status"])
            #expect(
                parked.stdout.contains("web is parked: HTTP 500 after 2 failed runs in a row; body: failing on purpose"),
                "\(parked.stdout)")
            let failed = try requests()
            #expect(failed.count == 2 && failed.allSatisfy { $0["answered"] as? Int == 500 && $0["signatureValid"] as? Bool == true })
            // Parked: nothing more is posted.
            try await Task.sleep(for: .milliseconds(500))
            #expect(try requests().count == 2)
            try FileManager.default.removeItem(at: received.appendingPathComponent("fail"))
            let resumed = try await photos(["hooks", "resume", "web"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            try await HookDaemonTests.eventually("delivered after resume") {
                try requests().contains { $0["answered"] as? Int == 200 && !HookDaemonTests.assets(Self.payload($0)).isEmpty }
            }
            let delivered = try #require(try requests().last)
            // The same batch as the failed runs, from the same cursor.
            #expect("\(Self.payload(delivered)["since"] ?? "")" == "\(Self.payload(failed[0])["since"] ?? "")")
            #expect(delivered["signatureValid"] as? Bool == true)
            try await offPool { try daemon.stop() }
        }

        @Test func aServerThatIsNotThereParksTheHookWithTheConnectionError() async throws {
            // A port the Python server had, closed: nothing listens there.
            let (server, port) = try await startServer()
            Self.stop(server)
            try writeConfig(port: port, extra: "objects = [\"asset\"]\nmax_failures = 1")
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "B/inn.jpg")
            try await Self.until("parked") {
                try await photos(["hooks", "status", "--json"]).stdout.contains("\"state\":\"parked\"")
            }
            let parked = try await photos(["hooks", "status"])
            #expect(parked.stdout.contains("web is parked: cannot connect to 127.0.0.1:\(port): Connection refused"), "\(parked.stdout)")
            try await offPool { try daemon.stop() }
        }
    }
}
