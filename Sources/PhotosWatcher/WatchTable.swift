import PhotosCore

/// Which directory each inotify watch descriptor stands for, both ways.
///
/// The kernel names events by watch descriptor and entry name; this table turns the descriptor
/// back into a path. Paths change without the kernel's help when a watched directory is renamed,
/// so ``moveSubtree(from:to:root:)`` rewrites a directory and all its descendants at once.
struct WatchTable: Sendable {
    /// A watched directory: its absolute path and the root it was watched for.
    struct Watch: Hashable, Sendable {
        var path: String
        var root: String
    }

    private(set) var watches: [Int32: Watch] = [:]
    private var descriptors: [String: Int32] = [:]

    /// How many watches the table holds.
    var count: Int { watches.count }

    /// The directory watched by `wd`.
    subscript(wd: Int32) -> Watch? { watches[wd] }

    /// The watch descriptor of the directory at `path`.
    func descriptor(for path: String) -> Int32? { descriptors[path] }

    /// Records that `wd` watches `path`, replacing what `wd` stood for before.
    mutating func insert(_ wd: Int32, path: String, root: String) {
        remove(wd)
        watches[wd] = Watch(path: path, root: root)
        descriptors[path] = wd
    }

    /// Forgets `wd`; returns what it watched.
    @discardableResult
    mutating func remove(_ wd: Int32) -> Watch? {
        guard let watch = watches.removeValue(forKey: wd) else { return nil }
        // Another descriptor may hold the path now (a directory renamed over this one).
        if descriptors[watch.path] == wd { descriptors[watch.path] = nil }
        return watch
    }

    /// The descriptors of `path` and every watched directory under it.
    func subtree(of path: String) -> [Int32] {
        watches.compactMap { wd, watch in watch.path.isWithin(path) ? wd : nil }
    }

    /// The descriptors watched for `root`.
    func descriptors(ofRoot root: String) -> [Int32] {
        watches.compactMap { wd, watch in watch.root == root ? wd : nil }
    }

    /// Renames `old` and every watched directory under it to live under `new`, now part of `root`.
    mutating func moveSubtree(from old: String, to new: String, root: String) {
        for wd in subtree(of: old) {
            guard let watch = watches[wd] else { continue }
            insert(wd, path: watch.path.replacingPrefix(old, with: new), root: root)
        }
    }
}

extension String {
    /// Whether this path is `directory` or lies under it (`/a/b` is within `/a`; `/ab` is not).
    /// Compared byte by byte: two names that differ only in Unicode normalization are different
    /// files on Linux.
    func isWithin(_ directory: String) -> Bool { PathName.isWithin(self, directory) }

    /// This path with its leading `old` (a directory this path is within) replaced by `new`.
    func replacingPrefix(_ old: String, with new: String) -> String {
        new + String(decoding: utf8.dropFirst(old.utf8.count), as: UTF8.self)
    }

    /// An absolute path with `.`, `..`, repeated and trailing slashes removed, without touching the
    /// file system (symbolic links are kept as written). Relative paths are taken from `directory`.
    func normalizedPath(relativeTo directory: String) -> String {
        let absolute = hasPrefix("/") ? self : directory + "/" + self
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
