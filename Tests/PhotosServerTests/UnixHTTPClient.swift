import Foundation
import Glibc
import Testing

/// A small HTTP/1.1 client over a Unix socket, for the tests: one request per connection, bodies
/// by Content-Length or chunked, and streams read a line at a time. Reads time out (no test hangs).
///
/// Its calls block: from async code go through ``offPool(_:)``, or a test holding the shared pool's
/// threads could starve the server it is waiting for.
final class UnixHTTPClient: @unchecked Sendable {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body)) }
        func object() throws -> [String: Any] { try #require(try json() as? [String: Any]) }
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var chunked = false
    private var chunkLeft = 0
    private var ended = false

    /// Connects to the socket at `path`.
    init(socket path: String, timeout: Int = 30) throws {
        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError(description: "socket: \(errno)") }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw ClientError(description: "connect \(path): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// One request; the connection closes after the reply.
    static func request(
        _ socket: String, _ method: String = "GET", _ target: String, headers: [String: String] = [:], body: [UInt8] = []
    ) throws -> Reply {
        let client = try UnixHTTPClient(socket: socket)
        let head = try client.send(method, target, headers: headers, body: body)
        return Reply(status: head.status, headers: head.headers, body: try client.readAll())
    }

    /// Sends a request and reads the reply's status and headers.
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) throws
        -> (status: Int, headers: [String: String])
    {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: photosd\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        let request = Array((text + "\r\n").utf8) + body
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw ClientError(description: "write: errno \(errno)") }
            sent += count
        }
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError(description: "bad status line \(statusLine)") }
        var fields: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        chunked = fields["transfer-encoding"]?.lowercased() == "chunked"
        if !chunked, let length = fields["content-length"].flatMap(Int.init) { chunkLeft = length }
        else if !chunked { chunkLeft = Int.max }
        if !chunked, chunkLeft == 0 { ended = true }
        return (status, fields)
    }

    /// The rest of the body.
    func readAll() throws -> [UInt8] {
        var body: [UInt8] = []
        while let bytes = try readBody() { body += bytes }
        return body
    }

    /// The body's next line (without its newline), nil at its end.
    func nextLine() throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard let bytes = try readBody() else {
                if pending.isEmpty { return nil }
                defer { pending = [] }
                return String(decoding: pending, as: UTF8.self)
            }
            pending += bytes
        }
    }
    private var pending: [UInt8] = []

    /// The next piece of the body, decoding chunks; nil at its end.
    private func readBody() throws -> [UInt8]? {
        if ended { return nil }
        if chunked {
            if chunkLeft == 0 {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw ClientError(description: "bad chunk size \(sizeLine)")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    ended = true
                    return nil
                }
                chunkLeft = size
            }
            let bytes = try readUpTo(chunkLeft)
            chunkLeft -= bytes.count
            if chunkLeft == 0 { _ = try readLine() }
            return bytes
        }
        guard chunkLeft > 0 else {
            ended = true
            return nil
        }
        let bytes = try readUpTo(chunkLeft, eofEnds: chunkLeft == Int.max)
        if bytes.isEmpty {
            ended = true
            return nil
        }
        if chunkLeft != Int.max { chunkLeft -= bytes.count }
        if chunkLeft == 0 { ended = true }
        return bytes
    }

    private func readLine() throws -> String {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let line = buffer[..<end].last == 13 ? buffer[..<(end - 1)] : buffer[..<end]
                defer { buffer.removeSubrange(...end) }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw ClientError(description: "connection closed mid-line") }
        }
    }

    private func readUpTo(_ count: Int, eofEnds: Bool = false) throws -> [UInt8] {
        if buffer.isEmpty {
            guard try fill() else {
                if eofEnds { return [] }
                throw ClientError(description: "connection closed mid-body")
            }
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(taken.count)
        return taken
    }

    /// Reads more from the socket; false at its end.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { throw ClientError(description: errno == EAGAIN ? "read timed out" : "read: errno \(errno)") }
        if count == 0 { return false }
        buffer += chunk[..<count]
        return true
    }
}

/// Runs blocking work on a thread of its own, off Swift's shared pool.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
