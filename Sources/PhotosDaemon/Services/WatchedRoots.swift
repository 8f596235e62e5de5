import Foundation

/// The daemon's roots, standardized, and which of them holds a path.
///
/// ```swift
/// let roots = WatchedRoots(["/home/me/Pictures", "/home/me/Pictures/Phone"])
/// roots.root(of: "/home/me/Pictures/Phone/a.jpg")  // "/home/me/Pictures/Phone": the innermost
/// ```
public struct WatchedRoots: Sendable, Hashable {
    /// The roots as given, standardized (no `.`, `..` or trailing slash), in the given order.
    public let paths: [String]

    /// Roots from paths as the user wrote them.
    public init(_ paths: [String]) {
        self.paths = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// The innermost root holding `path`, or nil when no root does.
    public func root(of path: String) -> String? {
        // Nested roots are allowed: the innermost one is the one whose scan covers the path.
        paths.filter { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }.max { $0.count < $1.count }
    }
}
