/// Folds the changes queued for paths so that each path has at most one pending change, the one
/// that takes the library from its state before the first to its state after the last.
///
/// The rules, for a path that already has a pending change (`old`) and gets a new one (`new`),
/// after tracker-miners' `queue_event_coalesce`:
///
/// | old | new | pending |
/// |---|---|---|
/// | created | updated | created |
/// | created | deleted | nothing (it never reached the library) |
/// | updated | updated | updated |
/// | updated | deleted | deleted |
/// | deleted | created | updated (the atomic-save pattern: same path, new content) |
/// | deleted | updated | updated |
/// | moved(from: a) | updated | moved(from: a), content changed |
/// | moved(from: a) | deleted | deleted at a (the library only knew `a`) |
/// | anything | moved away (to b) | see ``move(from:to:)`` |
///
/// and for a move `a → b`: whatever was pending at `a` travels to `b`: a pending `created` stays
/// `created` (at `b`); a pending `moved(from: x)` becomes `moved(from: x)` (moves collapse, and a
/// move back to `x` is no move); a pending `updated` becomes `moved(from: a)` with changed
/// content; nothing pending becomes `moved(from: a)`. What was pending at `b` is overwritten: the
/// applier replaces whatever the library has at `b`.
///
/// What comes out is paths (``drain()``): each path with a pending change, and where each pending
/// move came from. The kinds are what the rules need to tell what cancels out; which file moved
/// where is found again when the paths are reconciled, by device and inode, which also holds when
/// a queue overflow lost one half of a move.
///
/// ```swift
/// var coalescer = ChangeCoalescer()
/// coalescer.record(.created, at: "/p/.a.jpg.tmp")
/// coalescer.move(from: "/p/.a.jpg.tmp", to: "/p/a.jpg")  // pending: ["/p/a.jpg": .created]
/// coalescer.drain()  // ["/p/a.jpg"]
/// ```
public struct ChangeCoalescer: Sendable {
    /// The pending change of each path.
    public private(set) var pending: [String: PathChange] = [:]

    /// An empty queue.
    public init() {}

    /// Queues `change` for `path`, folding it into what is pending there.
    public mutating func record(_ change: PathChange, at path: String) {
        if case .moved(let from, _) = change {
            move(from: from, to: path)
            return
        }
        guard let old = pending[path] else {
            pending[path] = change
            return
        }
        switch (old, change) {
        case (.created, .deleted):
            pending[path] = nil
        case (.created, _):
            break
        case (.updated, .deleted), (.deleted, .deleted):
            pending[path] = .deleted
        case (.updated, _):
            break
        case (.deleted, .created), (.deleted, .updated):
            pending[path] = .updated
        case (.moved(let from, _), .updated), (.moved(let from, _), .created):
            pending[path] = .moved(from: from, contentChanged: true)
        case (.moved(let from, _), .deleted):
            pending[path] = nil
            record(.deleted, at: from)
        case (_, .moved):
            break  // Handled above.
        }
    }

    /// Queues a move from `source` to `destination`.
    public mutating func move(from source: String, to destination: String) {
        let carried = pending.removeValue(forKey: source)
        let result: PathChange?
        switch carried {
        case .created?: result = .created
        case .moved(let origin, let changed)?:
            result = origin == destination ? (changed ? .updated : nil) : .moved(from: origin, contentChanged: changed)
        case .updated?: result = .moved(from: source, contentChanged: true)
        case .deleted?: result = nil  // Nothing was there to move; ignore.
        case nil: result = .moved(from: source, contentChanged: false)
        }
        // Whatever was pending at the destination is overwritten by what moved there.
        pending[destination] = result
    }

    /// The paths the pending changes name (each changed path, and where each move came from), and
    /// an empty queue.
    public mutating func drain() -> Set<String> {
        var paths = Set(pending.keys)
        for case .moved(let source, _) in pending.values { paths.insert(source) }
        pending = [:]
        return paths
    }
}
