import Foundation
import Logging
import Photos
import PhotosClient
import PhotosStore
import PhotosTestSupport
import Testing

@testable import PhotosHooks

/// Webhooks: their URLs, their signatures, one POST against a server on loopback, and the runner
/// retrying, parking and resuming a webhook as it does an exec hook.
@Suite struct WebhookTests {
    // MARK: Signatures

    /// RFC 4231's HMAC-SHA256 test cases 1, 2 and 6 (a key longer than the block), and GitHub's
    /// documented example of its `X-Hub-Signature-256`.
    static let vectors: [(key: [UInt8], data: [UInt8], hex: String)] = [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            Array("It's a Secret to Everybody".utf8), Array("Hello, World!".utf8),
            "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
        ),
    ]

    @Test(arguments: vectors)
    func theSignatureIsHMACSHA256OfTheBody(key: [UInt8], data: [UInt8], hex: String) {
        #expect(WebhookSecret(key).signature(of: data) == "sha256=" + hex)
    }

    @Test func aSecretNeverShowsInDescriptions() {
        let hook = HookDefinition(
            name: "frame", url: try! WebhookURL("http://127.0.0.1:8080/x"), secret: WebhookSecret(Array("hunter2".utf8))
        )
        #expect(!"\(hook)".contains("hunter2") && !String(reflecting: hook).contains("hunter2"))
    }

    // MARK: URLs

    static let accepted:
        [(text: String, scheme: WebhookURL.Scheme, host: String, port: Int, target: String, header: String)] = [
            ("http://127.0.0.1:8080/photos", .http, "127.0.0.1", 8080, "/photos", "127.0.0.1:8080"),
            ("http://localhost/photos?from=photosd", .http, "127.0.0.1", 80, "/photos?from=photosd", "localhost"),
            ("HTTP://LOCALHOST:9", .http, "127.0.0.1", 9, "/", "LOCALHOST:9"),
            ("http://127.9.8.7:1?x=1#part", .http, "127.9.8.7", 1, "/?x=1", "127.9.8.7:1"),
            ("http://[::1]:8080/a/b%20c", .http, "::1", 8080, "/a/b%20c", "[::1]:8080"),
            // https: any host, names looked up when the POST is made; 443 by default.
            ("https://photos.example.net/hook", .https, "photos.example.net", 443, "/hook", "photos.example.net"),
            ("HTTPS://NAS.Home:8443", .https, "NAS.Home", 8443, "/", "NAS.Home:8443"),
            ("https://my_box.local./x?y=1#z", .https, "my_box.local.", 443, "/x?y=1", "my_box.local."),
            (
                "https://192.168.1.20:8123/api/webhook/x", .https, "192.168.1.20", 8123, "/api/webhook/x",
                "192.168.1.20:8123"
            ),
            ("https://127.0.0.1/photos", .https, "127.0.0.1", 443, "/photos", "127.0.0.1"),
            ("https://[2001:db8::7]:9443/p", .https, "2001:db8::7", 9443, "/p", "[2001:db8::7]:9443"),
            ("https://[::1]", .https, "::1", 443, "/", "[::1]"),
            ("https://[::ffff:192.0.2.1]/", .https, "::ffff:192.0.2.1", 443, "/", "[::ffff:192.0.2.1]"),
            ("https://xn--bcher-kva.example/", .https, "xn--bcher-kva.example", 443, "/", "xn--bcher-kva.example"),
        ]

    @Test(arguments: accepted)
    func loopbackHTTPAndAnyHTTPSURLsAreAccepted(
        text: String, scheme: WebhookURL.Scheme, host: String, port: Int, target: String, header: String
    ) throws {
        let url = try WebhookURL(text)
        #expect(url.scheme == scheme && url.host == host && url.port == port)
        #expect(url.target == target && url.hostHeader == header)
    }

    /// The name a certificate must carry: lower case, no final dot; an IP literal as it is.
    @Test(arguments: [
        ("https://NAS.Home:8443", "nas.home"), ("https://my_box.local./x", "my_box.local"),
        ("https://[2001:DB8::7]/", "2001:db8::7"), ("https://192.168.1.20/", "192.168.1.20"),
    ])
    func theServerNameIsTheHostInLowerCaseWithoutItsFinalDot(text: String, name: String) throws {
        #expect(try WebhookURL(text).serverName == name)
    }

    static let refused: [(text: String, reason: String)] = [
        ("ftp://127.0.0.1/photos", "must be an https:// URL such as"),
        ("127.0.0.1:8080/photos", "must be an https:// URL such as"),
        ("httpss://example.com/", "must be an https:// URL such as"),
        ("http://192.168.1.20:8123/api/webhook/x", "\"192.168.1.20\" is not a loopback host: plain http would send"),
        ("http://example.com/hook", "\"example.com\" is not a loopback host"),
        ("http://example.com/hook", "use https:// (photosd verifies the server's certificate)"),
        ("http://[fe80::1]/hook", "\"fe80::1\" is not a loopback host"),
        ("http://user:pw@127.0.0.1/hook", "must not carry a user or password"),
        ("https://user@photos.example.net/hook", "must not carry a user or password"),
        ("http://127.0.0.1:0/hook", "must name a port from 1 to 65535"),
        ("http://127.0.0.1:99999/hook", "must name a port from 1 to 65535"),
        ("http://127.0.0.1:http/hook", "must name a port from 1 to 65535"),
        ("https://photos.example.net:/hook", "must name a port from 1 to 65535"),
        ("https://photos.example.net:443x/hook", "must name a port from 1 to 65535"),
        ("http:///hook", "names no host"),
        ("https://:443/hook", "names no host"),
        ("http://127.0.0.1/a b", "printable ASCII without spaces"),
        ("http://127.0.0.1/a\r\nX-Evil: 1", "printable ASCII without spaces"),
        ("https://photos.example.net/a\r\nX-Evil: 1", "printable ASCII without spaces"),
        // A host goes into the Host header and the certificate check: a name or an IP literal only.
        ("https://[photos.example.net]/", "is not an IPv6 address"),
        ("https://[::1/", "has an unclosed ["),
        ("https://[::1]x/", "has a bad host"),
        ("https://photos example.net/", "is not a host name nor an IP address"),
        ("https://photos..example.net/", "is not a host name nor an IP address"),
        ("https://photos.example.net\r\nX-Evil:1/", "is not a host name nor an IP address"),
        ("https://%70hotos.example.net/", "is not a host name nor an IP address"),
        ("https://127.1/", "is not a host name nor an IP address"),
        ("https://999.0.0.1/", "is not a host name nor an IP address"),
        ("https://" + String(repeating: "a", count: 64) + ".example/", "is not a host name nor an IP address"),
        ("https://bücher.example/", "write an internationalized name in its xn-- (punycode) form"),
    ]

    @Test(arguments: refused)
    func otherURLsAreRefusedWithAReason(text: String, reason: String) {
        #expect(throws: WebhookURL.Problem.self) { try WebhookURL(text) }
        do {
            _ = try WebhookURL(text)
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    // MARK: One POST

    /// A POST to 127.0.0.1:`port`. The timeout is long: under a full test run on 2 cores the
    /// threads involved may wait seconds for a CPU, and a test about statuses must not time out.
    static func post(
        to port: Int, path: String = "/photos", secret: String? = "s3cret", timeout: Duration = .seconds(60)
    )
        throws -> HookPost
    {
        HookPost(
            url: try WebhookURL("http://127.0.0.1:\(port)\(path)"),
            secret: secret.map { WebhookSecret(Array($0.utf8)) },
            hook: "frame", timeout: timeout, logger: Logger(label: "webhook-test"))
    }

    @Test func aPostArrivesWithItsHeadersBodyAndSignature() async throws {
        let server = try LoopbackHTTPServer(reply: .status(204, body: ""))
        defer { server.stop() }
        let body = Array(#"{"hook":"frame","since":4,"until":9,"changes":[]}"#.utf8)
        let outcome = try await Self.post(to: server.port, path: "/photos?x=1").run(input: body, since: 4, until: 9)
        #expect(outcome.termination == .answered(204) && outcome.termination.isSuccess)
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST" && request.target == "/photos?x=1")
        #expect(request.body == body)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
        #expect(request.headers["x-photos-hook"] == "frame")
        #expect(request.headers["x-photos-since"] == "4" && request.headers["x-photos-until"] == "9")
        #expect(request.headers["x-photos-signature"] == WebhookSecret(Array("s3cret".utf8)).signature(of: body))
    }

    @Test func withoutASecretNothingIsSigned() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let outcome = try await Self.post(to: server.port, secret: nil).run(input: Array("{}".utf8), since: 0, until: 1)
        #expect(outcome.termination == .answered(200))
        #expect(server.requests.first.map { $0.headers["x-photos-signature"] == nil } == true)
    }

    @Test func aServerErrorIsAFailedRunWithItsStatusAndTheStartOfItsBody() async throws {
        let page = "database is locked; " + String(repeating: "x", count: 5000)
        let server = try LoopbackHTTPServer(reply: .status(500, body: page))
        defer { server.stop() }
        let outcome = try await Self.post(to: server.port).run(input: Array("{}".utf8), since: 0, until: 1)
        #expect(outcome.termination == .answered(500) && !outcome.termination.isSuccess)
        #expect(outcome.termination.description == "HTTP 500")
        #expect(
            outcome.errorTail.hasPrefix("database is locked") && outcome.errorTail.utf8.count == HookProcess.tailBytes)
    }

    @Test func aRedirectIsNotFollowedButFailed() async throws {
        let server = try LoopbackHTTPServer(reply: .status(302, body: ""))
        defer { server.stop() }
        let outcome = try await Self.post(to: server.port).run(input: Array("{}".utf8), since: 0, until: 1)
        #expect(outcome.termination == .answered(302) && !outcome.termination.isSuccess)
    }

    /// Interim answers (`100 Continue`, `103 Early Hints` with its headers) come before the real one.
    @Test func interimAnswersBeforeTheFinalOneAreSkipped() async throws {
        let server = try LoopbackHTTPServer(
            reply: .raw(
                "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        defer { server.stop() }
        let outcome = try await Self.post(to: server.port).run(input: Array("{}".utf8), since: 0, until: 1)
        #expect(outcome.termination == .answered(200) && outcome.termination.isSuccess, "\(outcome.termination)")
    }

    /// A reply that is not HTTP is no success, whatever number it holds: the run fails naming what came.
    @Test func aReplyThatIsNotHTTPIsAFailedRunNamingWhatCame() async throws {
        let server = try LoopbackHTTPServer(reply: .raw("NOTHTTP 200 yes\r\n\r\n"))
        defer { server.stop() }
        let outcome = try await Self.post(to: server.port).run(input: Array("{}".utf8), since: 0, until: 1)
        guard case .unreachable(let reason) = outcome.termination else {
            Issue.record("\(outcome.termination)")
            return
        }
        #expect(reason.contains(#"not an HTTP/1.x status line: "NOTHTTP 200 yes""#), "\(reason)")
    }

    @Test(
        arguments: [
            ("HTTP/1.1 200 OK", 200), ("HTTP/1.0 204", 204), ("HTTP/1.1 100 Continue", 100),
            ("HTTP/1.1 503 Service Unavailable", 503), ("NOTHTTP 200 yes", nil), ("HTTP/2 200", nil),
            ("HTTP/1.1 2000 OK", nil), ("HTTP/1.1 20 OK", nil), ("HTTP/1.1 abc", nil), ("http/1.1 200 OK", nil),
            ("HTTP/1.1 099 Low", nil), ("", nil),
        ] as [(String, Int?)])
    func aStatusLineIsHTTP1WithThreeDigits(line: String, status: Int?) {
        #expect(APIConnection.status(ofStatusLine: line) == status)
    }

    @Test func aRefusedConnectionIsAFailedRun() async throws {
        try await LoopbackHTTPServer.withRefusingPort { port in
            // The refusal comes at once; the long timeout covers a full `swift test` on 2 cores
            // keeping the shared pool, which makes the connection, busy for over a minute (CI).
            let outcome = try await Self.post(to: port, timeout: .seconds(600)).run(
                input: Array("{}".utf8), since: 0, until: 1)
            guard case .unreachable(let reason) = outcome.termination else {
                Issue.record("\(outcome.termination)")
                return
            }
            #expect(reason.contains("cannot connect to 127.0.0.1:\(port)") && reason.contains("refused"), "\(reason)")
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LoopbackHTTPServer(reply: .silence)
        defer { server.stop() }
        let outcome = try await Self.post(to: server.port, timeout: .milliseconds(300))
            .run(input: Array("{}".utf8), since: 0, until: 1)
        #expect(outcome.termination == .timedOut(.milliseconds(300)))
        // `.timedOut` comes from the run's timer only (the socket's own 1 s timeout would be
        // `.unreachable`), and it closed the connection: the server saw it go, on its own thread
        // (the test's task may wait longer for a busy shared pool).
        try await waitUntil("the server to see the connection close") { !server.clientCloses.isEmpty }
        let arrived = try #require(server.requests.first).receivedAt
        #expect(try #require(server.clientCloses.first) - arrived < .seconds(5))
    }

    @Test func aCancelledRunStopsWaitingAtOnce() async throws {
        let server = try LoopbackHTTPServer(reply: .silence)
        defer { server.stop() }
        let post = try Self.post(to: server.port, timeout: .seconds(60))
        let run = Task { await post.run(input: Array("{}".utf8), since: 0, until: 1) }
        try await waitUntil("the server to get the request") { !server.requests.isEmpty }
        let cancelled = ContinuousClock.now
        run.cancel()
        #expect(await run.value.termination == .cancelled)
        // Closed by the cancellation, not the 60 s timeout (seen on the server's thread).
        try await waitUntil("the server to see the connection close") { !server.clientCloses.isEmpty }
        #expect(try #require(server.clientCloses.first) - cancelled < .seconds(5))
    }

    // MARK: The runner

    @Test func aFailingWebhookIsRetriedThenParkedThenResumed() async throws {
        let fixture = try LibraryFixture()
        let database = fixture.library.database
        let server = try LoopbackHTTPServer(reply: .status(503, body: "try later"))
        defer { server.stop() }
        var hook = HookDefinition(
            name: "frame", url: try WebhookURL("http://127.0.0.1:\(server.port)/photos"),
            secret: WebhookSecret(Array("s3cret".utf8)))
        hook.maxFailures = 2
        try await HookRunnerTests.withRunner([hook], fixture: fixture) {
            let before = try database.hookState(named: "frame")!.cursor
            let asset = fixture.asset("secret.jpg")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
            try await waitUntil("hook frame to be parked", timeout: HookRunnerTests.bound) {
                try database.hookState(named: "frame")?.isParked == true
            }
            let parked = try #require(try database.hookState(named: "frame"))
            #expect(parked.failures == 2 && parked.cursor == before && server.requests.count == 2)
            #expect(parked.parkedReason == "HTTP 503 after 2 failed runs in a row; body: try later")
            // The same batch both times.
            #expect(Set(server.requests.map(\.body)).count == 1)
            server.answer(.status(200, body: ""))
            try database.resumeHook("frame")
            let token = try database.currentToken()
            try await waitUntil("hook frame's cursor at \(token)", timeout: HookRunnerTests.bound) {
                try database.hookState(named: "frame")?.cursor == token
            }
            let delivered = try #require(server.requests.last)
            #expect(delivered.headers["x-photos-since"] == "\(before)")
            #expect(
                delivered.headers["x-photos-signature"]
                    == WebhookSecret(Array("s3cret".utf8)).signature(of: delivered.body))
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(delivered.body)) as? [String: Any])
            #expect(HookRunnerTests.identifiers(payload, "assets", "updated") == [fixture.assets["secret.jpg"]!])
        }
    }
}
