import Foundation
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 and a port the kernel picks, for webhook tests: it records
/// each request and answers with the reply it is set to, or never answers.
final class LoopbackHTTPServer: Sendable {
    /// One request as it arrived.
    struct Request: Sendable {
        var method: String
        var target: String
        /// Names in lower case.
        var headers: [String: String]
        var body: [UInt8]
        var receivedAt: ContinuousClock.Instant
    }

    /// How the server answers.
    enum Reply: Sendable {
        case status(Int, body: String)
        /// Reads the request and answers nothing, until the client closes the connection.
        case silence
        /// These bytes exactly, whatever they are (interim answers, a reply that is not HTTP).
        case raw(String)
    }

    let port: Int
    private let listener: Int32
    private let state:
        Mutex<
            (requests: [Request], reply: Reply, held: [Int32], closes: [ContinuousClock.Instant], connections: Int)
        >

    init(reply: Reply = .status(200, body: "ok")) throws {
        state = Mutex(([], reply, [], [], 0))
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                serve(connection)
            }
        }.start()
    }

    var requests: [Request] { state.withLock { $0.requests } }

    /// The connections accepted, requests or not (a TLS client's hello is no HTTP request).
    var connections: Int { state.withLock { $0.connections } }

    /// When clients closed the connections the server stayed silent on, or closed before a whole
    /// request (seen on this server's thread, not Swift's shared pool, so a busy pool does not delay it).
    var clientCloses: [ContinuousClock.Instant] { state.withLock { $0.closes } }

    /// A port where nothing listens (bound, not listening, so no other test takes it) while `body` runs.
    static func withRefusingPort<T>(_ body: (Int) async throws -> T) async throws -> T {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }

    func answer(_ reply: Reply) { state.withLock { $0.reply = reply } }

    /// Stops accepting and ends the connections it holds open. Their serving thread closes them:
    /// closing one here, while that thread may be about to read it again, would let the thread
    /// read whatever socket next gets the same number (another test's client, answers lost).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        state.withLock { state in
            for connection in state.held { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close(listener) }

    private func serve(_ connection: Int32) {
        state.withLock { $0.connections += 1 }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<($0 + 4)]) == separator }
            if headEnd == nil, !fill() {
                // The client went before a whole request's head (a TLS client, say, that gave up).
                state.withLock { $0.closes.append(.now) }
                close(connection)
                return
            }
        }
        let lines = String(decoding: buffer[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headEnd! + 4
        while buffer.count < bodyStart + length, fill() {}
        let body = Array(buffer[bodyStart..<min(buffer.count, bodyStart + length)])
        let reply = state.withLock { state in
            state.requests.append(
                Request(
                    method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body,
                    receivedAt: .now))
            return state.reply
        }
        switch reply {
        case .silence:
            state.withLock { $0.held.append(connection) }
            while fill() {}
            state.withLock { state in
                state.closes.append(.now)
                state.held.removeAll { $0 == connection }
                close(connection)
            }
        case .status(let status, let text):
            let answer = Array(
                "HTTP/1.1 \(status) Status\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)"
                    .utf8)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
        case .raw(let text):
            let answer = Array(text.utf8)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
        }
    }
}
