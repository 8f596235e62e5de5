import Glibc
import PhotosCore
import PhotosLinux

/// One entry of a directory, as `readdir` gives it.
struct DirectoryEntry: Hashable, Sendable {
    /// The entry's name (never `.` or `..`), a ``PathBytes`` string.
    var name: String
    /// Whether it is a directory; a symbolic link to one is not.
    var isDirectory: Bool

    /// Whether the monitor leaves the entry unwatched: dot-directories (`.git`, `.thumbnails`,
    /// `.Trash-1000`) hold no library content.
    var isHidden: Bool { name.hasPrefix(".") }
}

/// Reads directories without following symbolic links.
enum DirectoryListing {
    /// The entries of `path` sorted by name (so that which directories fit in a watch budget does
    /// not depend on the file system's order), or an empty list when it cannot be opened (it
    /// vanished, or is not readable: a directory the monitor cannot list, it cannot index either).
    ///
    /// The corresponding C functions are `opendir`, `readdir` and, where the file system leaves
    /// `d_type` unknown, `lstat`.
    ///
    /// With `directoriesOnly`, only the subdirectories: what a walk that reports nothing needs, and
    /// no name of the (often thousands of) files is kept or sorted.
    static func entries(of path: String, directoriesOnly: Bool = false) -> [DirectoryEntry] {
        guard let stream = PathBytes.withCString(path, { opendir($0) }) else { return [] }
        defer { closedir(stream) }
        var entries: [DirectoryEntry] = []
        while let record = readdir(stream) {
            let type = Int(record.pointee.d_type)
            if directoriesOnly && type != DT_DIR && type != DT_UNKNOWN { continue }
            let name = PathBytes.name(ofEntry: record)
            if name == "." || name == ".." { continue }
            let isDirectory: Bool
            switch type {
            case DT_DIR: isDirectory = true
            case DT_UNKNOWN: isDirectory = Self.isDirectory(joined(path, name))
            default: isDirectory = false
            }
            if directoriesOnly && !isDirectory { continue }
            entries.append(DirectoryEntry(name: name, isDirectory: isDirectory))
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Whether the directory at `path` holds no directory, told without listing it: it has two
    /// links on a file system that counts subdirectories in them (asked once per device, kept in
    /// `devices`). False whenever that cannot be told.
    static func holdsNoDirectories(_ path: String, devices: inout [UInt64: Bool]) -> Bool {
        var info = stat()
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0, info.st_nlink == 2 else { return false }
        let device = UInt64(info.st_dev)
        if let counts = devices[device] { return counts }
        let counts = Syscall.linksCountSubdirectories(path)
        devices[device] = counts
        return counts
    }

    /// Whether `path` is a directory itself, not a symbolic link to one.
    ///
    /// The corresponding C function is `lstat`.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { lstat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `directory/name`, without doubling the slash of `/`.
    static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
