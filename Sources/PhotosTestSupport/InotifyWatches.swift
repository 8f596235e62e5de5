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

    /// How many inotify watches of this process are on `directory`: `/proc/self/fdinfo` lists each
    /// inotify descriptor's watches with the watched inode in hexadecimal.
    public static func count(on directory: URL) throws -> Int {
        var info = stat()
        guard stat(directory.path, &info) == 0 else { throw Unreadable(path: directory.path) }
        let inode = "ino:" + String(info.st_ino, radix: 16) + " "
        var watches = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo") {
            // A descriptor closed meanwhile cannot be read: it watches nothing.
            guard let text = try? String(contentsOfFile: "/proc/self/fdinfo/" + name, encoding: .utf8) else { continue }
            watches += text.split(separator: "\n").count { $0.hasPrefix("inotify wd:") && $0.contains(inode) }
        }
        return watches
    }
}
