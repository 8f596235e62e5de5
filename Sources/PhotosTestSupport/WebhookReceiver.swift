import Foundation
import Glibc

/// A webhook receiver written in Python (`http.server`, wrapped in `ssl` for https), standing for
/// the server another team would run, so that what photosd sends is checked by code that is not
/// this project's: each signature with Python's own `hmac`, each TLS handshake with Python's `ssl`.
///
/// It records each POST as `records/NNNN.json` (its path, its headers, its JSON body, whether its
/// `X-Photos-Signature` is HMAC-SHA256 of the body with the secret), each refused TLS handshake as
/// `records/handshake-NNNN.txt` (Python's reason: the client's alert), and answers 500 "failing on
/// purpose" while ``failing`` is set, else 200 "thanks".
///
/// ```swift
/// let receiver = try await WebhookReceiver(in: directory, secretFile: secret, tls: localhost)
/// defer { receiver.stop() }
/// // url = "https://localhost:\(receiver.port)/photos"
/// ```
public final class WebhookReceiver: Sendable {
    /// `python3` on the PATH.
    public static let python = executableOnPath("python3")

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Where it records what it received.
    public let records: URL
    private let process: TestProcess

    static let script = #"""
        import hashlib, hmac, http.server, json, os, sys
        secret = open(sys.argv[1], "rb").read().rstrip(b"\r\n")
        out = sys.argv[2]
        context = None
        if len(sys.argv) > 4:
            import ssl
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[3], sys.argv[4])
        count = 0
        refused = 0
        def record(name, text):
            path = os.path.join(out, name)
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.rename(path + ".tmp", path)
        class Hook(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                global count
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                expected = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
                failing = os.path.exists(os.path.join(out, "fail"))
                count += 1
                request = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                           "signatureValid": hmac.compare_digest(expected, self.headers.get("X-Photos-Signature", "")),
                           "answered": 500 if failing else 200, "payload": json.loads(body),
                           "tls": context is not None}
                record("%04d.json" % count, json.dumps(request))
                answer = b"failing on purpose" if failing else b"thanks"
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            def log_message(self, *args):
                pass
        class Server(http.server.HTTPServer):
            def get_request(self):
                connection, address = self.socket.accept()
                if context is None:
                    return connection, address
                global refused
                connection.settimeout(30)
                try:
                    connection = context.wrap_socket(connection, server_side=True)
                except OSError as error:
                    refused += 1
                    record("handshake-%04d.txt" % refused, str(error))
                    connection.close()
                    raise
                connection.settimeout(None)
                return connection, address
        server = Server(("127.0.0.1", 0), Hook)
        record("port", str(server.server_port))
        server.serve_forever()
        """#

    /// Starts the receiver, recording under `directory/records` (one receiver per directory), checking signatures with the
    /// secret in `secretFile` (a final newline dropped), over TLS with `tls`'s certificate.
    public init(in directory: URL, secretFile: URL, tls: TestCertificates.Server? = nil) async throws {
        records = directory.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("receiver.py")
        try Data(Self.script.utf8).write(to: script)
        guard let python = Self.python else { throw CocoaError(.executableNotLoadable) }
        process = TestProcess()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [script.path, secretFile.path, records.path] + (tls.map { [$0.certificate.path, $0.key.path] } ?? [])
        try process.run()
        let portFile = records.appendingPathComponent("port").path
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: portFile) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: portFile])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        port = try Int(String(contentsOfFile: portFile, encoding: .utf8)) ?? 0
    }

    /// Whether it answers 500 (while set) or 200.
    public func fail(_ failing: Bool) {
        let file = records.appendingPathComponent("fail").path
        if failing {
            _ = FileManager.default.createFile(atPath: file, contents: nil)
        } else {
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    /// The POSTs it received, in order.
    public func requests() throws -> [[String: Any]] {
        try FileManager.default.contentsOfDirectory(atPath: records.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { name in
                try JSONSerialization.jsonObject(with: Data(contentsOf: records.appendingPathComponent(name)))
                    as? [String: Any] ?? [:]
            }
    }

    /// Python's reasons for the TLS handshakes that failed, in order.
    public func refusedHandshakes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: records.path)
            .filter { $0.hasPrefix("handshake-") && $0.hasSuffix(".txt") }.sorted()
            .map { try String(contentsOf: records.appendingPathComponent($0), encoding: .utf8) }
    }

    /// Stops it with SIGKILL (the test process may ignore SIGTERM, a service group in another
    /// suite, and the receiver inherits that) and waits for it to go.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
