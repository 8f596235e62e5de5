import Crypto
import Foundation
import HTTPTypes
import PhotosStore
import Synchronization

/// How a browser holds its access: a session cookie that carries an access token's secret, set by
/// a one-time login URL (`photos open`).
///
/// The cookie is `HttpOnly` (the page's scripts never see the secret) and `SameSite=Strict` (no
/// other site's page sends it), and its name carries the listener's port, so two photosd on one
/// host keep their sessions apart. A request that changes something with the cookie also sends
/// ``csrfHeader`` with ``csrfToken(for:)`` of its secret, which the page reads from its own HTML:
/// a page of another origin can make the browser send the cookie (a form's POST), never the header.
/// Revoking the token (`photos token revoke`) ends the session at once.
enum WebSession {
    /// The header that carries a cookie session's CSRF token on a request that changes something.
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    /// The cookie's name for a listener on `port` (nil: the Unix socket).
    static func cookieName(port: Int?) -> String {
        port.map { "photosd_session_\($0)" } ?? "photosd_session"
    }

    /// The CSRF token of a session whose secret is `secret`: derived, so nothing is stored, and
    /// one-way, so the page that holds it does not hold the secret.
    static func csrfToken(for secret: String) -> String {
        let digest = SHA256.hash(data: Data(("photosd web csrf\u{0}" + secret).utf8))
        return Data(digest).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The value of cookie `name` in a request's `Cookie` headers, if it sends one.
    static func cookie(_ name: String, in fields: HTTPFields) -> String? {
        for header in fields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// The `Set-Cookie` value that holds `secret` until `expires` (nil: until the browser closes).
    static func setCookie(_ name: String, secret: String, expires: Date?) -> String {
        var cookie = "\(name)=\(secret); Path=/; HttpOnly; SameSite=Strict"
        if let expires { cookie += "; Max-Age=\(max(0, Int(expires.timeIntervalSinceNow)))" }
        return cookie
    }

    /// Whether two strings are equal, in a time that does not depend on where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The one-time codes of login URLs: each names a token's secret, is good for one use, and only
/// for ``lifetime``. Kept in memory: a code outlives neither its use nor photosd.
final class LoginCodes: Sendable {
    /// How long a login URL works.
    static let lifetime: TimeInterval = 300

    private struct Entry {
        var secret: String
        var expires: Date
    }

    private let codes = Mutex<[String: Entry]>([:])

    /// A new code for `secret`, good until `now` + ``lifetime``.
    func issue(for secret: String, now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        let code = (0..<24).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
        codes.withLock { codes in
            codes = codes.filter { $0.value.expires > now }
            codes[code] = Entry(secret: secret, expires: now.addingTimeInterval(Self.lifetime))
        }
        return code
    }

    /// The secret `code` names, once: the code is spent whether or not it was still good.
    func redeem(_ code: String, now: Date = Date()) -> String? {
        codes.withLock { codes in
            guard let entry = codes.removeValue(forKey: code), entry.expires > now else { return nil }
            return entry.secret
        }
    }
}
