import Foundation

/// What the library may write under a watched root: the two-way mirror's switch, per root.
///
/// The config names it per root (`[[roots]] path = "…" write = "sidecars"`), as does
/// `PHPhotoLibrary.Configuration.roots`. Sidecars of other tools are read whatever the policy.
public enum RootWritePolicy: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A read-only mirror: the library follows the disk and writes nothing under the root (the default).
    case none
    /// User state (favorites, hidden flags, ratings, dates, places, user albums) is also written beside
    /// the photos, in XMP sidecars and the root's manifest.
    case sidecars
    /// As `sidecars`, and change requests are carried out on the files: deleting an asset moves its
    /// files to the Trash, renaming a directory-backed album renames its directory.
    case files

    /// Whether user state goes to sidecars under the root.
    public var writesSidecars: Bool { self != .none }
    /// Whether change requests move, rename and trash files under the root.
    public var writesFiles: Bool { self == .files }

    public var description: String { rawValue }
}

/// A watched root and what the library may write under it.
public struct LibraryRoot: Sendable, Hashable, Codable {
    /// The root directory, absolute.
    public var path: String
    /// What the library may write under it.
    public var write: RootWritePolicy

    /// A root; `path` is standardized (no `.`, `..` or trailing slash), and a root reached through a
    /// symbolic link (itself one, or under one) is the directory it leads to, where the scan records
    /// its photos: their paths are within it, and its policy is theirs.
    public init(path: String, write: RootWritePolicy = .none) {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        self.write = write
    }
}

/// Which root holds a path, and what may be written there: the one lookup behind every write to the
/// disk, so that no path is written under a root whose policy does not allow it.
///
/// ```swift
/// let roots = LibraryRoots([LibraryRoot(path: "/p", write: .files), LibraryRoot(path: "/p/Phone")])
/// roots.policy(for: "/p/a.jpg")        // .files
/// roots.policy(for: "/p/Phone/b.jpg")  // .none: the innermost root decides
/// roots.policy(for: "/elsewhere/c.jpg") // .none: outside every root
/// ```
public struct LibraryRoots: Sendable, Hashable {
    /// The roots, in the order given, duplicates (by path) dropped: the first one counts.
    public let roots: [LibraryRoot]

    /// The roots, standardized.
    public init(_ roots: [LibraryRoot]) {
        var seen = Set<String>()
        self.roots = roots.filter { seen.insert($0.path).inserted }
    }

    /// The innermost root holding `path` (the root itself counts), or nil when none does. Compared byte
    /// by byte, as Linux names are.
    public func root(of path: String) -> LibraryRoot? {
        var best: LibraryRoot?
        for root in roots where Self.path(path, isWithin: root.path) {
            if best.map({ $0.path.utf8.count < root.path.utf8.count }) ?? true { best = root }
        }
        return best
    }

    /// What may be written at `path`: its innermost root's policy, `.none` outside every root.
    public func policy(for path: String) -> RootWritePolicy { root(of: path)?.write ?? .none }

    /// Whether `path` is `directory` or lies under it (`/a/b` is within `/a`; `/ab` is not).
    public static func path(_ path: String, isWithin directory: String) -> Bool {
        if directory == "/" { return path.hasPrefix("/") }
        return path.utf8.elementsEqual(directory.utf8) || path.utf8.starts(with: (directory + "/").utf8)
    }
}
