import Glibc

/// Where a webhook POSTs: an `http://` URL on this machine (`url = "http://127.0.0.1:8080/photos"`).
///
/// Only loopback hosts are accepted (`127.0.0.0/8`, `::1`, `localhost`): the payload is photo
/// metadata (paths, places, dates), and plain http to another host would carry it in clear across
/// the network. `https://` is not supported; a TLS-terminating proxy listening on loopback
/// (nginx, stunnel, socat) reaches another host safely. No name is looked up: `localhost` is
/// 127.0.0.1, so nothing waits on a resolver.
///
/// ```swift
/// let url = try WebhookURL("http://localhost:8080/photos?source=photosd")
/// // url.address == "127.0.0.1", url.port == 8080, url.target == "/photos?source=photosd"
/// ```
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    /// Why a URL was refused, as the config error's message says it.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The URL as the config file gives it.
    public let text: String
    /// The IP address connected to (an IPv4 or IPv6 literal).
    public let address: String
    /// The TCP port (80 when the URL names none).
    public let port: Int
    /// The request target: path and query (`/` when the URL has no path).
    public let target: String
    /// The `Host` header: the host and port as the URL names them.
    public let hostHeader: String

    public var description: String { text }

    /// Parses and checks `text`; a problem says what to write instead.
    public init(_ text: String) throws(Problem) {
        self.text = text
        let lower = text.lowercased()
        if lower.hasPrefix("https://") {
            throw Problem(
                description: "https is not supported: POST to http:// on loopback (a TLS proxy there can reach "
                    + "another host), not \(Self.quote(text))")
        }
        guard lower.hasPrefix("http://") else {
            throw Problem(
                description: "must be an http:// URL such as \"http://127.0.0.1:8080/photos\", not \(Self.quote(text))")
        }
        var rest = Substring(text.dropFirst("http://".count))
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        // The target goes into the request line as it is: no spaces or control characters there.
        guard target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw Problem(
                description: "the path must be printable ASCII without spaces (percent-encode the rest), "
                    + "not \(Self.quote(text))")
        }
        guard !authority.contains("@") else {
            throw Problem(
                description: "must not carry a user or password (use secret or secret_file to sign), "
                    + "not \(Self.quote(text))")
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Problem(description: "has an unclosed [ in its host: \(Self.quote(text))")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Problem(description: "has a bad host: \(Self.quote(text))") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw Problem(description: "names no host: \(Self.quote(text))") }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw Problem(description: "must name a port from 1 to 65535, not \(Self.quote(String(portText)))")
            }
            self.port = port
        } else {
            port = 80
        }
        guard let address = Self.loopbackAddress(String(host)) else {
            throw Problem(
                description: "\(Self.quote(String(host))) is not a loopback host: photosd POSTs plain http, "
                    + "which would send photo metadata in clear across the network; use 127.0.0.1, ::1 or localhost "
                    + "(a TLS proxy on loopback can forward to another host)")
        }
        self.address = address
        self.target = target
        hostHeader = String(authority)
    }

    /// The address to connect to when `host` is a loopback one: `localhost`, an IPv4 literal in
    /// 127.0.0.0/8, or `::1`; nil for anything else.
    static func loopbackAddress(_ host: String) -> String? {
        if host.lowercased() == "localhost" { return "127.0.0.1" }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127 ? host : nil
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, host, &ipv6) == 1 {
            let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
            return bytes == [UInt8](repeating: 0, count: 15) + [1] ? host : nil
        }
        return nil
    }

    private static func quote(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(100).map { $0.value < 0x20 || $0 == "\"" ? "?" : Character($0) }
        return "\"" + String(shown) + "\""
    }
}
