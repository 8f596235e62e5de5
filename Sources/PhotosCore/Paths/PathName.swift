/// The name and the directory of an absolute, normalized path (no trailing slash but on `/`, no
/// empty or `.` components: the paths the crawler, inotify and the store hold), found by looking
/// for the last slash in the UTF-8 bytes.
///
/// It gives what `NSString`'s `lastPathComponent` and `deletingLastPathComponent` give for such
/// paths (`PathNameTests` holds it to that) without bridging: those two cost the daemon about 6%
/// of its ingest time on a burst of new files, on the settler's and the scanner's hot paths.
///
/// ```swift
/// PathName.name(of: "/home/me/Pictures/IMG_0001.HEIC")       // "IMG_0001.HEIC"
/// PathName.directory(of: "/home/me/Pictures/IMG_0001.HEIC")  // "/home/me/Pictures"
/// PathName.directory(of: "/IMG_0001.HEIC")                   // "/"
/// ```
public enum PathName {
    /// The last component: `/a/b.jpg` → `b.jpg`; `/` → `/`; a path without a slash is its own name.
    public static func name(of path: String) -> String {
        guard path != "/", let slash = lastSlash(in: path) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The directory holding it: `/a/b.jpg` → `/a`; `/a` → `/`; `/` → `/`; a path without a slash
    /// has none (`""`).
    public static func directory(of path: String) -> String {
        guard let slash = lastSlash(in: path) else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether `path` is `directory` or lies under it (`/a/b` is within `/a`; `/ab` is not),
    /// compared byte by byte: two names that differ only in Unicode normalization are different
    /// files on Linux.
    public static func isWithin(_ path: String, _ directory: String) -> Bool {
        if path.utf8.elementsEqual(directory.utf8) { return true }
        guard path.utf8.starts(with: directory.utf8) else { return false }
        if directory.utf8.last == UInt8(ascii: "/") { return true }
        return path.utf8.dropFirst(directory.utf8.count).first == UInt8(ascii: "/")
    }

    private static func lastSlash(in path: String) -> String.Index? {
        path.utf8.lastIndex(of: UInt8(ascii: "/"))
    }
}
