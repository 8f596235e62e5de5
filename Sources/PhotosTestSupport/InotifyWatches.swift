import Foundation
import Glibc

/// Counts this process's inotify watches on a directory: what tests of the commit signal and its
/// followers check to know whether a library is being followed, and by how many instances.
public enum InotifyWatches {
    /// A directory that could not be looked at.
    public struct Unreadable: Error, CustomStringConvertible {
        /// The directory.
        public let path: String
        /// `"cannot stat /tmp/x"`.
        public var description: String { "cannot stat \(path)" }
    }

    /// How many inotify watches of this process (or of the child `process`, by its id) are on
    /// `directory`: `/proc/PID/fdinfo` lists each inotify descriptor's watches with the watched
    /// inode in hexadecimal. A child that follows a library (`photos changes --follow`) has such a
    /// watch once it reads the change log from its starting token.
    public static func count(on directory: URL, process: pid_t? = nil) throws -> Int {
        var info = stat()
        guard stat(directory.path, &info) == 0 else { throw Unreadable(path: directory.path) }
        let inode = "ino:" + String(info.st_ino, radix: 16) + " "
        let fdinfo = "/proc/" + (process.map { String($0) } ?? "self") + "/fdinfo/"
        var watches = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: fdinfo) {
            // A descriptor closed meanwhile cannot be read: it watches nothing.
            guard let text = try? String(contentsOfFile: fdinfo + name, encoding: .utf8) else { continue }
            watches += text.split(separator: "\n").count { $0.hasPrefix("inotify wd:") && $0.contains(inode) }
        }
        return watches
    }
}
