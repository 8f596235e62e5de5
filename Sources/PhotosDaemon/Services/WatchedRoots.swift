import Foundation
import Synchronization

/// The daemon's roots, standardized, and which of them holds a path; one value shared by the
/// services that sort paths into roots, changed only when the configuration is reloaded.
///
/// ```swift
/// let roots = WatchedRoots(["/home/me/Pictures", "/home/me/Pictures/Phone"])
/// roots.root(of: "/home/me/Pictures/Phone/a.jpg")  // "/home/me/Pictures/Phone": the innermost
/// roots.replace(with: ["/home/me/Pictures", "/mnt/camera"])  // added ["/mnt/camera"], removed [".../Phone"]
/// ```
public final class WatchedRoots: Sendable {
    private let current: Mutex<[String]>

    /// Roots from paths as the user wrote them.
    public init(_ paths: [String]) {
        current = Mutex(Self.standardized(paths))
    }

    /// The roots as given, standardized (no `.`, `..` or trailing slash), in the given order.
    public var paths: [String] { current.withLock { $0 } }

    /// The innermost root holding `path`, or nil when no root does.
    public func root(of path: String) -> String? {
        // Nested roots are allowed: the innermost one is the one whose scan covers the path.
        current.withLock { paths in
            paths.filter { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }.max { $0.count < $1.count }
        }
    }

    /// Makes `paths` the roots; returns those that were not roots before and those that no longer are.
    @discardableResult
    public func replace(with paths: [String]) -> (added: [String], removed: [String]) {
        let new = Self.standardized(paths)
        return current.withLock { old in
            defer { old = new }
            return (new.filter { !old.contains($0) }, old.filter { !new.contains($0) })
        }
    }

    private static func standardized(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter { seen.insert($0).inserted }
    }
}
