/// A path as a key that compares and hashes its bytes (UTF-8), not its characters: Swift's
/// `String` takes canonically equivalent strings for equal, so `Café.jpg` written with a
/// precomposed `é` (NFC) and with `e` and a combining accent (NFD), two files side by side in one
/// directory, would be one key.
///
/// ```swift
/// var rows: [ExactPath: Int] = [:]
/// rows[ExactPath("/p/Caf\u{E9}.jpg")] = 1
/// rows[ExactPath("/p/Cafe\u{301}.jpg")] = 2   // another file: two keys
/// ```
public struct ExactPath: Hashable, Sendable {
    /// The path.
    public let path: String

    /// The key of `path`.
    public init(_ path: String) { self.path = path }

    public static func == (lhs: ExactPath, rhs: ExactPath) -> Bool { lhs.path.utf8.elementsEqual(rhs.path.utf8) }

    public func hash(into hasher: inout Hasher) {
        // A native string's bytes at once (a scan hashes every path it lists).
        let hashed: Void? = path.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { for byte in path.utf8 { hasher.combine(byte) } }
    }
}
