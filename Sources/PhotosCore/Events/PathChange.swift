/// What happened to one path, as the daemon queues it before applying it to the library.
///
/// Watcher events are turned into these (a `moved-from`/`moved-to` pair with one cookie becomes
/// one ``moved(from:)``), then folded together per path by ``ChangeCoalescer``.
public enum PathChange: Sendable, Hashable, CustomStringConvertible {
    /// The path appeared (created, or moved in from outside the watched roots).
    case created
    /// The path's content changed in place (written and closed).
    case updated
    /// The path went away (deleted, or moved out of the watched roots).
    case deleted
    /// The path is what was at `from` a moment ago; `contentChanged` if it was also written.
    case moved(from: String, contentChanged: Bool)

    public var description: String {
        switch self {
        case .created: "created"
        case .updated: "updated"
        case .deleted: "deleted"
        case .moved(let from, let changed): "moved(from: \(from)\(changed ? ", changed" : ""))"
        }
    }
}
