/// What a client of the daemon's API may do: PhotoKit's access levels (`PHAccessLevel` and
/// `PHAuthorizationStatus.limited`), named as `photos token create --access` spells them.
///
/// | level | reads | writes |
/// |---|---|---|
/// | `read-write` | everything | everything |
/// | `read-only` | everything | nothing |
/// | `add-only` | nothing (health only) | new assets and new albums |
/// | `limited` | the assets of its albums | those assets and albums |
public enum AccessLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case readWrite = "read-write"
    case readOnly = "read-only"
    case addOnly = "add-only"
    case limited

    /// Whether the level reads the library at all (every level but add-only).
    public var reads: Bool { self != .addOnly }

    /// Whether the level may post change requests at all (every level but read-only).
    public var writes: Bool { self != .readOnly }
}
