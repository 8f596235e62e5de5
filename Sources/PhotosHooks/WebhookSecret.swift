import Crypto

/// The key a webhook signs its bodies with (`secret` or `secret_file` in the config). It never
/// shows in logs or descriptions.
///
/// The signature is GitHub's webhook convention: `X-Photos-Signature: sha256=HEX`, HMAC-SHA256
/// over the exact body bytes, so a receiver checks it with any HMAC library:
///
/// ```swift
/// let secret = WebhookSecret(Array("It's a Secret to Everybody".utf8))
/// secret.signature(of: Array("Hello, World!".utf8))   // "sha256=757107ea0eb2509f..."
/// ```
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's bytes.
    public let bytes: [UInt8]

    /// A secret of these bytes.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// `sha256=` and the lower-case hex of HMAC-SHA256(secret, body).
    public func signature(of body: [UInt8]) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: bytes))
        return "sha256="
            + code.map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
    }

    public var description: String { "(secret, \(bytes.count) bytes)" }
    public var debugDescription: String { description }
}
