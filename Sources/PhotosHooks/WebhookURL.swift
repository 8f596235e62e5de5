import Glibc

/// Where a webhook POSTs: an `https://` URL to any host (`url = "https://photos.example.net/hook"`),
/// or an `http://` URL on this machine (`url = "http://127.0.0.1:8080/photos"`).
///
/// The payload is photo metadata (paths, places, dates). Over https it is encrypted and the
/// server proves its name with a certificate (checked when the POST is made: see
/// ``HookDefinition/caFile``); plain http would carry it in clear across the network, so http is
/// accepted for loopback hosts only (`127.0.0.0/8`, `::1`, `localhost`), where no name is looked
/// up (`localhost` is 127.0.0.1). An https host may be a name, looked up at each POST, or an IP
/// literal, which the certificate must then name.
///
/// ```swift
/// let url = try WebhookURL("http://localhost:8080/photos?source=photosd")
/// // url.host == "127.0.0.1", url.port == 8080, url.target == "/photos?source=photosd"
/// let remote = try WebhookURL("https://photos.example.net/hook")
/// // remote.scheme == .https, remote.host == "photos.example.net", remote.port == 443
/// ```
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    /// Why a URL was refused, as the config error's message says it.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// How the POST travels.
    public enum Scheme: String, Sendable, Hashable {
        /// Plain HTTP, to a loopback host only.
        case http
        /// HTTP over TLS, the server's certificate verified.
        case https
    }

    /// The URL as the config file gives it.
    public let text: String
    /// `http` or `https`.
    public let scheme: Scheme
    /// What is connected to: for http, a loopback IP literal (`localhost` is 127.0.0.1); for
    /// https, the host as the URL names it (an IP literal without its brackets, or a name to look up).
    public let host: String
    /// The TCP port (80 or 443 when the URL names none).
    public let port: Int
    /// The request target: path and query (`/` when the URL has no path).
    public let target: String
    /// The `Host` header: the host and port as the URL names them.
    public let hostHeader: String

    public var description: String { text }

    /// The name an https server's certificate must be for: the host in lower case, without a DNS
    /// name's final dot.
    public var serverName: String {
        let name = host.lowercased()
        return name.hasSuffix(".") && !name.hasSuffix("..") ? String(name.dropLast()) : name
    }

    /// Parses and checks `text`; a problem says what to write instead.
    public init(_ text: String) throws(Problem) {
        self.text = text
        let lower = text.lowercased()
        let scheme: Scheme
        if lower.hasPrefix("https://") {
            scheme = .https
        } else if lower.hasPrefix("http://") {
            scheme = .http
        } else {
            throw Problem(
                description: "must be an https:// URL such as \"https://photos.example.net/hook\" "
                    + "(or http:// to this machine, \"http://127.0.0.1:8080/photos\"), not \(Self.quote(text))")
        }
        self.scheme = scheme
        var rest = Substring(text.dropFirst(scheme == .https ? "https://".count : "http://".count))
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
        let bracketed = authority.hasPrefix("[")
        if bracketed {
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
            port = scheme == .https ? 443 : 80
        }
        switch scheme {
        case .http:
            guard let address = Self.loopbackAddress(String(host)) else {
                throw Problem(
                    description: "\(Self.quote(String(host))) is not a loopback host: plain http would send photo "
                        + "metadata in clear across the network; use https:// (photosd verifies the server's "
                        + "certificate), or http:// to 127.0.0.1, ::1 or localhost")
            }
            self.host = address
        case .https:
            try Self.checkHost(host, bracketed: bracketed, in: text)
            self.host = String(host)
        }
        self.target = target
        hostHeader = String(authority)
    }

    /// Refuses what is neither an IP literal nor a DNS name: `[...]` must hold an IPv6 address;
    /// a name is ASCII labels of letters, digits, `-` and `_`, and does not end in a number (that
    /// would be an IPv4 address in a form getaddrinfo reads loosely, `127.1`).
    private static func checkHost(_ host: Substring, bracketed: Bool, in text: String) throws(Problem) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if bracketed {
            guard inet_pton(AF_INET6, String(host), &ipv6) == 1 else {
                throw Problem(description: "\(quote(String(host))) in [ ] is not an IPv6 address: \(quote(text))")
            }
            return
        }
        if inet_pton(AF_INET, String(host), &ipv4) == 1 { return }
        guard host.unicodeScalars.allSatisfy(\.isASCII) else {
            throw Problem(
                description: "\(quote(String(host))) is not ASCII: write an internationalized name in its xn-- "
                    + "(punycode) form")
        }
        let name = host.hasSuffix(".") ? host.dropLast() : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let isLabel: (Substring) -> Bool = { label in
            (1...63).contains(label.utf8.count)
                && label.utf8.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                }
        }
        guard name.utf8.count <= 253, labels.allSatisfy(isLabel),
            let last = labels.last, !last.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            throw Problem(description: "\(quote(String(host))) is not a host name nor an IP address: \(quote(text))")
        }
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
