import Foundation
import Glibc
import PhotosTestSupport
import Testing

extension HookDaemonTests {
    // Nested in HookDaemonTests so that `.serialized` runs these one at a time with its tests, not
    // beside them: two photosd daemons at once on 2 cores slow the in-process hook tests past their waits.
    /// Webhooks end to end: the real `photosd` POSTing to a server on loopback written in Python
    /// (``WebhookReceiver``), which checks each signature with Python's own `hmac` and, for https,
    /// makes the TLS handshake with Python's `ssl` (not this project's code).
    @Suite(.enabled(if: WebhookReceiver.python != nil, "needs python3"))
    struct WebhookDaemonTests: DaemonSuite {
        let fixture: DaemonFixture
        var secretFile: URL { directory.path("hook.secret") }

        static let secret = "correct horse battery staple"

        init() throws {
            fixture = try DaemonFixture(prefix: "photosd-webhooks")
            try Data((Self.secret + "\n").utf8).write(to: secretFile)
        }

        /// Starts the Python receiver, over TLS with `tls`'s certificate.
        func startServer(tls: TestCertificates.Server? = nil) async throws -> WebhookReceiver {
            try await WebhookReceiver(in: directory.url, secretFile: secretFile, tls: tls)
        }

        func writeConfig(port: Int, url: String? = nil, extra: String = "") throws {
            try writeConfig(
                """
                [[hooks]]
                name = "web"
                url = "\(url ?? "http://127.0.0.1:\(port)/photos?from=photosd")"
                secret_file = "hook.secret"
                \(extra)
                """)
        }

        static func payload(_ request: [String: Any]) -> [String: Any] { request["payload"] as? [String: Any] ?? [:] }

        /// Runs `photos` off the shared pool: a pool thread blocked on it is one the other suites
        /// (hooks run in process, waiting for their tasks) cannot have.
        func photos(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let arguments = arguments + ["--library", library, "--config", config.path]
            return try await offPool { try BuiltProducts.run("photos", arguments) }
        }

        /// Starts photosd and waits for its hooks' enrollment, off the shared pool.
        func startDaemon() async throws -> HookedDaemon {
            return try await offPool { [fixture] in try HookedDaemon(fixture) }
        }

        @Test func aCopiedFileIsPostedWithItsAlbumAndAValidSignature() async throws {
            let server = try await startServer()
            let port = server.port
            defer { server.stop() }
            try writeConfig(port: port)
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "Trips/Death Valley/inn.jpg")
            try await waitUntil("the POST with the asset") {
                try server.requests().contains { !HookDaemonTests.assets(Self.payload($0)).isEmpty }
            }
            let all = try server.requests()
            // Every POST, the startup scan's folder included, is signed and answered 200.
            for request in all {
                #expect(request["signatureValid"] as? Bool == true, "\(request)")
                #expect(request["path"] as? String == "/photos?from=photosd")
                let headers = request["headers"] as? [String: String] ?? [:]
                #expect(headers["content-type"] == "application/json")
                #expect(headers["x-photos-hook"] == "web")
                let payload = Self.payload(request)
                #expect(
                    headers["x-photos-since"] == "\(payload["since"] ?? "")"
                        && headers["x-photos-until"] == "\(payload["until"] ?? "")")
            }
            let request = try #require(all.first { !HookDaemonTests.assets(Self.payload($0)).isEmpty })
            let asset = try #require(HookDaemonTests.assets(Self.payload(request)).first)
            #expect(asset["mediaType"] as? String == "image")
            let resources = try #require(asset["resources"] as? [[String: Any]])
            #expect(
                resources.first?["path"] as? String == root.appendingPathComponent("Trips/Death Valley/inn.jpg").path)
            let albums = try #require(asset["albums"] as? [[String: Any]])
            #expect(albums.map { $0["path"] as? String } == [root.appendingPathComponent("Trips/Death Valley").path])
            try await offPool { try daemon.stop() }
            let status = try await photos(["hooks", "status", "--json"])
            #expect(
                status.stdout.contains("\"url\":\"http:\\/\\/127.0.0.1:\(port)\\/photos?from=photosd\"")
                    || status.stdout.contains("\"url\":\"http://127.0.0.1:\(port)/photos?from=photosd\""),
                "\(status.stdout)")
            #expect(
                status.stdout.contains("\"state\":\"ok\"") && status.stdout.contains("\"lastOutcome\":\"HTTP 200\""),
                "\(status.stdout)")
            let list = try await photos(["hooks", "list"])
            #expect(list.stdout.contains("POST http://127.0.0.1:\(port)/photos?from=photosd"), "\(list.stdout)")
        }

        @Test func aFailingServerParksTheHookAndResumeDelivers() async throws {
            let server = try await startServer()
            defer { server.stop() }
            server.fail(true)
            try writeConfig(port: server.port, extra: "objects = [\"asset\"]\nmax_failures = 2")
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "A/inn.jpg")
            try await waitUntil("parked") {
                try await photos(["hooks", "status", "--json"]).stdout.contains("\"state\":\"parked\"")
            }
            let parked = try await photos(["hooks", "status"])
            #expect(
                parked.stdout.contains(
                    "web is parked: HTTP 500 after 2 failed runs in a row; body: failing on purpose"),
                "\(parked.stdout)")
            let failed = try server.requests()
            #expect(
                failed.count == 2
                    && failed.allSatisfy { $0["answered"] as? Int == 500 && $0["signatureValid"] as? Bool == true })
            // Parked: nothing more is posted (kept: a quiet period, proving that nothing comes).
            try await Task.sleep(for: .milliseconds(500))
            #expect(try server.requests().count == 2)
            server.fail(false)
            let resumed = try await photos(["hooks", "resume", "web"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            try await waitUntil("delivered after resume") {
                try server.requests().contains {
                    $0["answered"] as? Int == 200 && !HookDaemonTests.assets(Self.payload($0)).isEmpty
                }
            }
            let delivered = try #require(try server.requests().last)
            // The same batch as the failed runs, from the same cursor.
            #expect("\(Self.payload(delivered)["since"] ?? "")" == "\(Self.payload(failed[0])["since"] ?? "")")
            #expect(delivered["signatureValid"] as? Bool == true)
            try await offPool { try daemon.stop() }
        }

        @Test func aServerThatIsNotThereParksTheHookWithTheConnectionError() async throws {
            // A port the Python server had, closed: nothing listens there.
            let server = try await startServer()
            let port = server.port
            server.stop()
            try writeConfig(port: port, extra: "objects = [\"asset\"]\nmax_failures = 1")
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "B/inn.jpg")
            try await waitUntil("parked") {
                try await photos(["hooks", "status", "--json"]).stdout.contains("\"state\":\"parked\"")
            }
            let parked = try await photos(["hooks", "status"])
            #expect(
                parked.stdout.contains("web is parked: cannot connect to 127.0.0.1:\(port): Connection refused"),
                "\(parked.stdout)")
            try await offPool { try daemon.stop() }
        }

        // MARK: https

        /// A test authority and a receiver serving a certificate it signed for `names`, over TLS.
        /// photosd with an https webhook to `server` for assets (and the `extra` hook keys), given
        /// a photo at `file`: waits until the hook is parked; returns the daemon and what
        /// `photos hooks status` says then.
        func parkedWebhook(to server: WebhookReceiver, extra: String, photoAt file: String) async throws
            -> (HookedDaemon, (status: Int32, stdout: String, stderr: String))
        {
            try writeConfig(
                port: server.port, url: "https://localhost:\(server.port)/photos",
                extra: "objects = [\"asset\"]\n" + extra)
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: file)
            try await waitUntil("parked") {
                try await photos(["hooks", "status", "--json"]).stdout.contains("\"state\":\"parked\"")
            }
            return (daemon, try await photos(["hooks", "status"]))
        }

        func startTLSServer(names: [String]) async throws -> (WebhookReceiver, TestCertificates) {
            let certificates = try await offPool { try TestCertificates() }
            let certificate = try await offPool { try certificates.server(names: names) }
            return (try await startServer(tls: certificate), certificates)
        }

        @Test(.enabled(if: TestCertificates.openssl != nil, "needs openssl"))
        func anHTTPSWebhookTrustingItsCAFileDeliversOverTLS() async throws {
            let (server, certificates) = try await startTLSServer(names: ["localhost"])
            defer { server.stop() }
            let url = "https://localhost:\(server.port)/photos?from=photosd"
            try writeConfig(port: server.port, url: url, extra: "ca_file = \"\(certificates.authority.path)\"")
            let daemon = try await startDaemon()
            try put(HookDaemonTests.photo, at: "Trips/inn.jpg")
            try await waitUntil("the POST with the asset") {
                try server.requests().contains { !HookDaemonTests.assets(Self.payload($0)).isEmpty }
            }
            for request in try server.requests() {
                #expect(request["tls"] as? Bool == true && request["signatureValid"] as? Bool == true, "\(request)")
                #expect((request["headers"] as? [String: String])?["host"] == "localhost:\(server.port)")
            }
            try #expect(server.refusedHandshakes().isEmpty)
            try await offPool { try daemon.stop() }
            let status = try await photos(["hooks", "status", "--json"])
            #expect(
                status.stdout.contains("\"state\":\"ok\"") && status.stdout.contains("\"lastOutcome\":\"HTTP 200\""),
                "\(status.stdout)")
            let list = try await photos(["hooks", "list"])
            #expect(list.stdout.contains("POST \(url)"), "\(list.stdout)")
        }

        @Test(.enabled(if: TestCertificates.openssl != nil, "needs openssl"))
        func withoutACAFileTheCertificateIsRefusedRetriedAndParked() async throws {
            let (server, _) = try await startTLSServer(names: ["localhost"])
            defer { server.stop() }
            let (daemon, parked) = try await parkedWebhook(to: server, extra: "max_failures = 2", photoAt: "C/inn.jpg")
            #expect(
                parked.stdout.contains(
                    "web is parked: TLS handshake with localhost:\(server.port) failed: certificate verify failed: "
                        + "unable to get local issuer certificate after 2 failed runs in a row"),
                "\(parked.stdout)")
            // Tried twice (the server saw both refusals), and no payload ever reached it.
            try await waitUntil("both refusals recorded") { try server.refusedHandshakes().count == 2 }
            #expect(try server.refusedHandshakes().allSatisfy { $0.contains("unknown ca") })
            #expect(try server.requests().isEmpty)
            try await offPool { try daemon.stop() }
        }

        @Test(.enabled(if: TestCertificates.openssl != nil, "needs openssl"))
        func aCertificateForAnotherHostIsRefusedAndParks() async throws {
            // The authority is trusted, but what it signed is for another name.
            let (server, certificates) = try await startTLSServer(names: ["photos.example.net"])
            defer { server.stop() }
            let (daemon, parked) = try await parkedWebhook(
                to: server, extra: "max_failures = 1\nca_file = \"\(certificates.authority.path)\"",
                photoAt: "D/inn.jpg")
            #expect(
                parked.stdout.contains(
                    "web is parked: TLS handshake with localhost:\(server.port) failed: certificate verify failed: "
                        + "hostname mismatch"),
                "\(parked.stdout)")
            #expect(try server.requests().isEmpty)
            try await offPool { try daemon.stop() }
        }
    }
}
