import Foundation
import Glibc
import PhotosWire

/// One HTTP/1.1 request to photosd's API over its Unix socket, and its reply: bodies by
/// Content-Length or chunked, and streams (`/v1/changes?follow`, live queries) read a line at a time.
/// The same client speaks TCP, and TLS over it (``init(host:port:timeout:tls:hostHeader:cancellation:)``):
/// photosd's webhooks POST with it, to `http://` on loopback or `https://` anywhere.
///
/// The calls block, on purpose: `photos` is a command line tool reading one stream, and a caller
/// in async code runs them on a thread of its own (never on Swift's shared pool, whose threads the
/// server in the same process may need).
///
/// ```swift
/// let connection = try APIConnection(socket: API.defaultSocketPath())
/// let head = try connection.send("GET", "/v1/changes?since=0&follow=true")
/// while let line = try connection.nextLine() { print(line) }
/// ```
// @unchecked: one thread at a time sends and reads (the buffer and chunk state are that reader's); `cancel()`, from
// any thread, touches only the immutable descriptor.
public final class APIConnection: @unchecked Sendable {
    /// A whole reply.
    public struct Reply: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Header names in lower case.
        public var headers: [String: String]
        /// The body, chunked encoding undone.
        public var body: [UInt8]

        /// A reply with every value given.
        public init(status: Int, headers: [String: String], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
        /// The body parsed as JSON.
        public func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body)) }

        /// The API's error message when the reply is one (`{"error": {"message"}}`), else its text.
        public var errorMessage: String {
            (try? JSONDecoder().decode(API.ErrorBody.self, from: Data(body)).error.message) ?? text
        }
    }

    /// Why a request failed below HTTP.
    public struct ConnectionError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public let description: String
        /// Nobody listens at the socket: no file there, or a socket left by a daemon that stopped.
        public let notListening: Bool
        /// A process of a user not trusted serves the socket (``APIConnection/init(socket:timeout:trusting:)``):
        /// nothing was sent to it.
        public let untrustedPeer: Bool

        init(_ description: String, notListening: Bool = false, untrustedPeer: Bool = false) {
            self.description = description
            self.notListening = notListening
            self.untrustedPeer = untrustedPeer
        }
    }

    /// Whose program a Unix socket's client talks to: the users whose process may serve it.
    ///
    /// A socket path in a shared directory (`/tmp/photosd-UID/` without `$XDG_RUNTIME_DIR`) can be
    /// taken by another user first: their program would receive the client's token and could answer
    /// anything. The connection asks the kernel who accepted it (`SO_PEERCRED`) before a byte is sent.
    public struct TrustedPeers: Sendable, Hashable {
        /// The uids whose process may serve the socket.
        public var uids: Set<UInt32>

        /// This process's own user and root: the default, since photosd runs as the user whose
        /// library it serves (or as root for a system-wide library).
        public static var ownAndRoot: TrustedPeers { TrustedPeers(uids: [getuid(), 0]) }

        /// The own user, root, and `uid` (another user's photosd, named by the caller).
        public static func ownRootAnd(_ uid: UInt32) -> TrustedPeers {
            TrustedPeers(uids: [getuid(), 0, uid])
        }

        /// Peers of these uids.
        public init(uids: Set<UInt32>) {
            self.uids = uids
        }
    }

    private let descriptor: Int32
    /// The TLS session on the socket, for https; reads and writes go through it.
    private var session: TLSSession?
    /// What shuts the socket down from another thread (TCP connections only).
    private var cancellation: Cancellation?
    /// The `Host` header's value.
    private let host: String
    private var buffer: [UInt8] = []
    private var chunked = false
    private var chunkLeft = 0
    private var ended = false

    /// Connects to the socket at `path`. A read that waits longer than `timeout` seconds fails;
    /// nil waits as long as it takes (a follow stream may be quiet for hours). The process that
    /// accepted the connection must run as one of `trusting`'s users (`SO_PEERCRED`), else the
    /// connection is closed before anything is sent and ``ConnectionError/untrustedPeer`` is thrown.
    public init(socket path: String, timeout: Int? = 30, trusting peers: TrustedPeers = .ownAndRoot) throws {
        host = "photosd"
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ConnectionError("the socket path is too long: \(path)")
        }
        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectionError("socket: \(String(cString: strerror(errno)))") }
        if let timeout {
            var wait = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // Every property is set from here: deinit closes the socket when this throws, so nothing
        // here may close it too. A second close would close whatever another thread opened under
        // the same number meanwhile (a library's SQLite file, whose next lock then failed).
        guard connected == 0 else {
            let code = errno
            throw ConnectionError(
                "cannot connect to \(path): \(String(cString: strerror(code)))",
                notListening: code == ENOENT || code == ECONNREFUSED)
        }
        try Self.checkPeer(of: descriptor, at: path, trusting: peers)
    }

    /// Throws unless the process at the other end of the Unix socket `descriptor` runs as one of
    /// `peers`' users. Its uid is the one it had when it listened, which the kernel records: a
    /// server cannot claim another.
    private static func checkPeer(of descriptor: Int32, at path: String, trusting peers: TrustedPeers) throws {
        // `struct ucred` (pid, uid, gid: three 32-bit fields), which Glibc's module does not import.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: credentials)
        else {
            throw ConnectionError(
                "cannot tell who serves \(path) (SO_PEERCRED: \(String(cString: strerror(errno)))); nothing was sent",
                untrustedPeer: true)
        }
        guard peers.uids.contains(credentials.uid) else {
            let own = getuid()
            throw ConnectionError(
                "\(path) is served by a process of uid \(credentials.uid), not by you (uid \(own)) or root; nothing was "
                    + "sent to it (no token, no request) and nothing it says is trusted. Another user may have taken "
                    + "the socket's path first. Name that uid with --socket-owner if it is a photosd you mean to use",
                untrustedPeer: true)
        }
    }

    /// Connects over TCP to `host` (an IP literal, `127.0.0.1` or `::1`, or a name looked up with
    /// getaddrinfo, each address tried in turn) on `port`, then, with `tls`, makes the TLS
    /// handshake and checks the server's certificate. The lookup, the connection, the handshake,
    /// each read and each write fail after `timeout` seconds; `cancellation` ends any of them at
    /// once from another thread. `hostHeader` is the request's `Host` (the host and port by default).
    public init(
        host: String, port: Int, timeout: Int, tls: TLS? = nil, hostHeader: String? = nil,
        cancellation: Cancellation = Cancellation()
    ) throws {
        guard (1...65535).contains(port) else { throw ConnectionError("not a port: \(port)") }
        let peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        self.host = hostHeader ?? peer
        let addresses = try HostLookup.addresses(of: host, port: port, timeout: timeout, cancellation: cancellation)
        var failure = ConnectionError("cannot connect to \(peer): no address")
        var connected: Int32?
        for address in addresses {
            do {
                connected = try Self.connect(to: address, timeout: timeout, cancellation: cancellation)
                break
            } catch {
                failure = ConnectionError("cannot connect to \(peer): \(error)", notListening: error.notListening)
                if cancellation.isCancelled { break }
            }
        }
        guard let descriptor = connected else { throw failure }
        self.descriptor = descriptor
        self.cancellation = cancellation
        if let tls {
            do {
                let session = try TLSSession(descriptor: descriptor, trust: tls)
                try session.handshake()
                self.session = session
            } catch {
                // deinit closes the socket.
                throw ConnectionError(
                    cancellation.isCancelled ? "stopped" : "TLS handshake with \(peer) failed: \(error)")
            }
        }
    }

    /// A socket connected to `address` within `timeout` seconds, blocking, with that timeout on
    /// each read and write, watched by `cancellation`.
    private static func connect(
        to address: SocketAddress, timeout: Int, cancellation: Cancellation
    ) throws(ConnectionError) -> Int32 {
        let descriptor = Glibc.socket(
            address.family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectionError("socket: \(String(cString: strerror(errno)))") }
        guard cancellation.watch(descriptor) else {
            close(descriptor)
            throw ConnectionError("stopped")
        }
        // Non-blocking while connecting, so that the connection waits at most `timeout`; blocking
        // (with timeouts on each read and write) afterwards.
        var storage = address.storage
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, address.length) }
        }
        var code = connected == 0 ? 0 : errno
        if code == EINPROGRESS {
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            var waited: Int32
            repeat { waited = poll(&ready, 1, Int32(clamping: timeout * 1000)) } while waited < 0 && errno == EINTR
            if waited == 0 {
                code = ETIMEDOUT
            } else {
                var error: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size)
                code = waited < 0 ? errno : error
            }
        }
        // A cancellation shuts the connecting socket down, which poll sees as done.
        if cancellation.isCancelled { code = ECANCELED }
        guard code == 0 else {
            cancellation.forget(descriptor)
            close(descriptor)
            throw ConnectionError(
                code == ECANCELED ? "stopped" : String(cString: strerror(code)), notListening: code == ECONNREFUSED)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    deinit {
        session?.close()
        cancellation?.forget(descriptor)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Ends whatever this connection is waiting for, from another thread: its read or write fails
    /// at once (`shutdown`), and so does every later one. The descriptor stays open until deinit.
    public func cancel() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// At most `limit` bytes of the rest of the body (the start of an error page, say).
    public func readBody(atMost limit: Int) throws -> [UInt8] {
        var body: [UInt8] = []
        while body.count < limit, let bytes = try readBody() { body += bytes }
        return Array(body.prefix(limit))
    }

    /// One request; the connection closes after the reply.
    public static func request(
        _ socket: String, _ method: String = "GET", _ target: String, headers: [String: String] = [:],
        body: [UInt8] = [],
        trusting peers: TrustedPeers = .ownAndRoot
    ) throws -> Reply {
        let client = try APIConnection(socket: socket, trusting: peers)
        let head = try client.send(method, target, headers: headers, body: body)
        return Reply(status: head.status, headers: head.headers, body: try client.readAll())
    }

    /// Sends a request and reads the reply's status and headers.
    public func send(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) throws
        -> (status: Int, headers: [String: String])
    {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.count)\r\n" }
        let request = Array((text + "\r\n").utf8) + body
        var sent = 0
        while sent < request.count { sent += try request[sent...].withUnsafeBytes { try write($0) } }
        // Interim answers (`100 Continue`, `103 Early Hints`) may come first, each with a header
        // block of its own: the request's answer is the first final one.
        var status: Int
        var fields: [String: String]
        repeat {
            let statusLine = try readLine()
            guard let code = Self.status(ofStatusLine: statusLine) else {
                throw ConnectionError("not an HTTP/1.x status line: \"\(statusLine.prefix(100))\"")
            }
            status = code
            fields = try readHeaderFields()
        } while Self.isInterim(status)
        chunked = fields["transfer-encoding"]?.lowercased() == "chunked"
        if !chunked, let length = fields["content-length"].flatMap(Int.init) {
            chunkLeft = length
        } else if !chunked {
            chunkLeft = Int.max
        }
        if !chunked, chunkLeft == 0 { ended = true }
        // No body follows a reply to HEAD, or a 204 or 304, whatever its framing headers say (RFC 9112 6.3).
        if method == "HEAD" || status == 204 || status == 304 { ended = true }
        return (status, fields)
    }

    /// The status code of an HTTP/1.x status line (`HTTP/1.1 200 OK`, the reason optional), nil for
    /// any other line: a reply that is not HTTP (`NOTHTTP 200 yes`) has no status.
    public static func status(ofStatusLine line: String) -> Int? {
        let bytes = Array(line.utf8)
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard bytes.count >= 12, bytes.starts(with: "HTTP/1.".utf8), digit(bytes[7]), bytes[8] == UInt8(ascii: " "),
            bytes[9..<12].allSatisfy(digit), bytes.count == 12 || bytes[12] == UInt8(ascii: " ")
        else { return nil }
        let status = bytes[9..<12].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (100...599).contains(status) ? status : nil
    }

    /// Whether `status` is an interim answer that the final one follows on the same connection: any
    /// 1xx but `101 Switching Protocols`, which ends HTTP on it (never asked for here).
    static func isInterim(_ status: Int) -> Bool { (100..<200).contains(status) && status != 101 }

    /// A header block, up to its empty line: names in lower case.
    private func readHeaderFields() throws -> [String: String] {
        var fields: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { return fields }
            if let colon = line.firstIndex(of: ":") {
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
    }

    /// The rest of the body.
    public func readAll() throws -> [UInt8] {
        var body: [UInt8] = []
        while let bytes = try readBody() { body += bytes }
        return body
    }

    /// The body's next line (without its newline), nil at its end.
    public func nextLine() throws -> String? {
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
                    throw ConnectionError("bad chunk size \(sizeLine)")
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
            guard try fill() else { throw ConnectionError("connection closed mid-line") }
        }
    }

    private func readUpTo(_ count: Int, eofEnds: Bool = false) throws -> [UInt8] {
        if buffer.isEmpty {
            guard try fill() else {
                if eofEnds { return [] }
                throw ConnectionError("connection closed mid-body")
            }
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(taken.count)
        return taken
    }

    /// Writes some of `bytes` to the socket, or to the TLS session on it; how many.
    private func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        if let session { return try session.write(bytes) }
        // MSG_NOSIGNAL: a peer that closed early is an error of this write (EPIPE), not SIGPIPE.
        let count = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        guard count > 0 else {
            throw ConnectionError(errno == EAGAIN ? "write timed out" : "write: \(String(cString: strerror(errno)))")
        }
        return count
    }

    /// Reads more from the socket, or the TLS session on it; false at its end.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count: Int
        if let session {
            count = try chunk.withUnsafeMutableBytes { try session.read(into: $0) }
        } else {
            count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { throw ConnectionError(errno == EAGAIN ? "read timed out" : "read: errno \(errno)") }
        }
        if count == 0 { return false }
        buffer += chunk[..<count]
        return true
    }
}
