import Foundation
import Logging
import PhotosClient
import PhotosTestSupport
import Testing

@testable import PhotosHooks

/// https webhooks, one POST at a time: against a TLS server in Python (its `ssl` module) on
/// 127.0.0.1 showing certificates a test authority signed, made with the openssl command line.
/// The system's store trusts none of them; `ca_file` trusts the test authority.
@Suite(.enabled(if: WebhookReceiver.python != nil && TestCertificates.openssl != nil, "needs python3 and openssl"))
struct HTTPSWebhookTests {
    let directory: TemporaryDirectory
    let certificates: TestCertificates
    let secretFile: URL
    static let secret = "s3cret over TLS"

    init() async throws {
        directory = try TemporaryDirectory(prefix: "https-webhook")
        certificates = try await offPool { try TestCertificates() }
        secretFile = directory.path("hook.secret")
        try Data((Self.secret + "\n").utf8).write(to: secretFile)
    }

    /// A receiver serving a certificate for `names` and `addresses`, recording in a folder of its own.
    func receiver(names: [String], addresses: [String] = []) async throws -> WebhookReceiver {
        let certificates = certificates
        let server = try await offPool { try certificates.server(names: names, addresses: addresses) }
        let folder = directory.path("receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try await WebhookReceiver(in: folder, secretFile: secretFile, tls: server)
    }

    /// A POST to `url`, trusting `caFile`. The timeout is long: under a full test run on 2 cores
    /// the threads involved may wait seconds for a CPU.
    func post(_ url: String, caFile: URL?, timeout: Duration = .seconds(60)) throws -> HookPost {
        HookPost(
            url: try WebhookURL(url), secret: WebhookSecret(Array(Self.secret.utf8)),
            caFile: try caFile.map { try WebhookCAFile($0.path) }, hook: "nas", timeout: timeout,
            logger: Logger(label: "https-webhook-test"))
    }

    static let body = Array(#"{"hook":"nas","since":4,"until":9,"changes":[]}"#.utf8)

    /// The reason of a run that failed below HTTP.
    static func reason(_ outcome: HookProcess.Outcome) -> String? {
        guard case .unreachable(let reason) = outcome.termination else { return nil }
        return reason
    }

    /// Waits (on the receiver's files) until it has recorded a refused handshake.
    static func refusedHandshake(_ receiver: WebhookReceiver) async throws -> String {
        try await waitUntil("the receiver to record a refused handshake") { try !receiver.refusedHandshakes().isEmpty }
        return try #require(try receiver.refusedHandshakes().first)
    }

    @Test func withTheCAFileThePostArrivesOverTLSSigned() async throws {
        let receiver = try await receiver(names: ["localhost"])
        defer { receiver.stop() }
        let outcome = try await post("https://localhost:\(receiver.port)/photos?x=1", caFile: certificates.authority)
            .run(input: Self.body, since: 4, until: 9)
        #expect(outcome.termination == .answered(200) && outcome.termination.isSuccess, "\(outcome.termination)")
        let request = try #require(try receiver.requests().first)
        #expect(try receiver.requests().count == 1)
        #expect(request["tls"] as? Bool == true && request["path"] as? String == "/photos?x=1")
        // Python's hmac agrees with the signature over the body that arrived.
        #expect(request["signatureValid"] as? Bool == true)
        let headers = try #require(request["headers"] as? [String: String])
        #expect(headers["host"] == "localhost:\(receiver.port)" && headers["x-photos-hook"] == "nas")
        #expect(headers["x-photos-since"] == "4" && headers["x-photos-until"] == "9")
        let payload = try #require(request["payload"] as? [String: Any])
        #expect(payload["until"] as? Int == 9)
    }

    @Test func withoutTheCAFileTheSystemStoreRefusesTheCertificate() async throws {
        let receiver = try await receiver(names: ["localhost"])
        defer { receiver.stop() }
        let outcome = try await post("https://localhost:\(receiver.port)/photos", caFile: nil)
            .run(input: Self.body, since: 4, until: 9)
        let reason = try #require(Self.reason(outcome), "\(outcome.termination)")
        #expect(
            reason == "TLS handshake with localhost:\(receiver.port) failed: "
                + "certificate verify failed: unable to get local issuer certificate")
        #expect(!outcome.termination.isSuccess)
        // The client refused: the server saw its alert, and no request.
        #expect(try await Self.refusedHandshake(receiver).contains("unknown ca"))
        #expect(try receiver.requests().isEmpty)
    }

    @Test func aSelfSignedCertificateIsTrustedAsItsOwnCAFile() async throws {
        let certificates = certificates
        let server = try await offPool { try certificates.selfSigned(name: "localhost") }
        let folder = directory.path("self-signed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let receiver = try await WebhookReceiver(in: folder, secretFile: secretFile, tls: server)
        defer { receiver.stop() }
        let outcome = try await post("https://localhost:\(receiver.port)/photos", caFile: server.certificate)
            .run(input: Self.body, since: 4, until: 9)
        #expect(outcome.termination == .answered(200), "\(outcome.termination)")
        #expect(try receiver.requests().first?["signatureValid"] as? Bool == true)
        // Trusted only as that file: the test authority's file does not cover it.
        let refused = try await post("https://localhost:\(receiver.port)/photos", caFile: certificates.authority)
            .run(input: Self.body, since: 4, until: 9)
        #expect(Self.reason(refused)?.contains("certificate verify failed: ") == true, "\(refused.termination)")
    }

    @Test func aCertificateFromAnotherAuthorityIsRefused() async throws {
        let receiver = try await receiver(names: ["localhost"])
        defer { receiver.stop() }
        let other = try await offPool { try TestCertificates(name: "someone else's CA") }
        let outcome = try await post("https://localhost:\(receiver.port)/photos", caFile: other.authority)
            .run(input: Self.body, since: 4, until: 9)
        let reason = try #require(Self.reason(outcome), "\(outcome.termination)")
        #expect(reason.hasSuffix("certificate verify failed: unable to get local issuer certificate"), "\(reason)")
        #expect(try receiver.requests().isEmpty)
    }

    @Test func aCertificateForAnotherHostNameIsRefused() async throws {
        let receiver = try await receiver(names: ["photos.example.net"])
        defer { receiver.stop() }
        let outcome = try await post("https://localhost:\(receiver.port)/photos", caFile: certificates.authority)
            .run(input: Self.body, since: 4, until: 9)
        let reason = try #require(Self.reason(outcome), "\(outcome.termination)")
        #expect(
            reason
                == "TLS handshake with localhost:\(receiver.port) failed: certificate verify failed: hostname mismatch")
        #expect(try await !Self.refusedHandshake(receiver).isEmpty)
        #expect(try receiver.requests().isEmpty)
    }

    @Test func anIPAddressURLIsCheckedAgainstTheCertificatesAddresses() async throws {
        let named = try await receiver(names: ["localhost"], addresses: ["127.0.0.1"])
        let outcome = try await post("https://127.0.0.1:\(named.port)/photos", caFile: certificates.authority)
            .run(input: Self.body, since: 4, until: 9)
        named.stop()
        #expect(outcome.termination == .answered(200), "\(outcome.termination)")
        #expect(try named.requests().first?["signatureValid"] as? Bool == true)

        // A certificate for the name only does not cover the address.
        let nameOnly = try await receiver(names: ["localhost"])
        defer { nameOnly.stop() }
        let refused = try await post("https://127.0.0.1:\(nameOnly.port)/photos", caFile: certificates.authority)
            .run(input: Self.body, since: 4, until: 9)
        let reason = try #require(Self.reason(refused), "\(refused.termination)")
        #expect(reason.hasSuffix("certificate verify failed: IP address mismatch"), "\(reason)")
    }

    @Test func aNameThatDoesNotResolveIsAFailedRunWithTheResolversReason() async throws {
        // .invalid never resolves (RFC 6761).
        let outcome = try await post("https://photos.invalid/hook", caFile: nil).run(
            input: Self.body, since: 4, until: 9)
        let reason = try #require(Self.reason(outcome), "\(outcome.termination)")
        #expect(reason.hasPrefix("cannot look up photos.invalid: "), "\(reason)")
    }

    // MARK: A handshake that never ends

    /// A server that accepts and never answers: the client's hello waits for a server hello.
    @Test func aStalledHandshakeTimesOut() async throws {
        let server = try LoopbackHTTPServer(reply: .silence)
        defer { server.stop() }
        let outcome = try await post(
            "https://localhost:\(server.port)/", caFile: certificates.authority,
            timeout: .milliseconds(300)
        )
        .run(input: Self.body, since: 4, until: 9)
        #expect(outcome.termination == .timedOut(.milliseconds(300)))
        // The run's timer ended the handshake (the socket's own 1 s timeout would be `.unreachable`),
        // and the connection closed: the server saw it go.
        try await waitUntil("the server to see the connection close") { !server.clientCloses.isEmpty }
        #expect(server.connections == 1 && server.requests.isEmpty)
    }

    @Test func aCancelledHandshakeStopsAtOnce() async throws {
        let server = try LoopbackHTTPServer(reply: .silence)
        defer { server.stop() }
        let post = try post("https://localhost:\(server.port)/", caFile: certificates.authority, timeout: .seconds(60))
        let run = Task { await post.run(input: Self.body, since: 4, until: 9) }
        try await waitUntil("a connection to the server") { server.connections > 0 }
        let cancelled = ContinuousClock.now
        run.cancel()
        #expect(await run.value.termination == .cancelled)
        // Closed by the cancellation, not the 60 s timeout (seen on the server's thread).
        try await waitUntil("the server to see the connection close") { !server.clientCloses.isEmpty }
        #expect(try #require(server.clientCloses.first) - cancelled < .seconds(5))
    }

    // MARK: The CA file

    @Test func aCAFileMustHoldACertificate() throws {
        #expect(throws: WebhookURL.Problem.self) { try WebhookCAFile(secretFile.path) }
        do {
            _ = try WebhookCAFile(directory.path("absent.pem").path)
            Issue.record("a missing CA file should be refused")
        } catch {
            #expect(error.description.hasPrefix("cannot load the CA file \(directory.path("absent.pem").path): "))
        }
        #expect(try WebhookCAFile(certificates.authority.path).path == certificates.authority.path)
    }
}

/// The cancellation a webhook's connection is handed before it exists.
@Suite struct ConnectionCancellationTests {
    @Test func aCancellationBeforeTheConnectionStopsItBeforeItConnects() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let cancellation = APIConnection.Cancellation()
        cancellation.cancel()
        let port = server.port
        let error = try await offPool {
            do {
                _ = try APIConnection(host: "127.0.0.1", port: port, timeout: 5, cancellation: cancellation)
                return nil as String?
            } catch {
                return "\(error)"
            }
        }
        #expect(error?.contains("stopped") == true, "\(error ?? "connected")")
        // Nothing reached the server (kept: a quiet period, proving that nothing comes).
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.connections == 0)
    }
}
