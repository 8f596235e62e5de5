import Foundation
import Glibc
import PhotosCore

/// A trash's `directorysizes` file: the specification's cache of the sizes of trashed directories,
/// so that a file manager can show a trash's size without walking it.
///
/// One line per trashed directory: `SIZE MTIME NAME`, the disk space of `files/NAME` in bytes (as
/// `du -B1` counts it), the modification time of its `.trashinfo` in seconds since 1970 (a line
/// whose time differs is stale), and the name percent-encoded. The file is replaced whole: written
/// to a new temporary name in the trash directory, synced, and renamed over the old one.
///
/// It is a cache: an entry missing is recomputed by its readers, so two processes writing at once
/// may lose one line, and a failure to update it does not fail the trashing that called it.
enum DirectorySizes {
    /// Adds (or replaces) the line of the directory trashed as `name`.
    static func add(_ name: String, in directory: TrashDirectory) throws {
        let size = try TrashFiles.diskUsage(directory.filePath(of: name))
        var info = stat()
        guard PathBytes.withCString(directory.infoPath(of: name), { stat($0, &info) }) == 0 else {
            throw SystemCallError(call: "stat", path: directory.infoPath(of: name), errno: errno)
        }
        var lines = try read(directory).filter { !isLine($0, of: name) }
        lines.append("\(size) \(info.st_mtim.tv_sec) \(TrashInfo.percentEncoded(name))")
        try write(lines, in: directory)
    }

    /// Removes the line of `name`, if there is one.
    static func remove(_ name: String, in directory: TrashDirectory) throws {
        let lines = try read(directory)
        let kept = lines.filter { !isLine($0, of: name) }
        if kept.count != lines.count { try write(kept, in: directory) }
    }

    /// The file's lines, none when it does not exist.
    static func read(_ directory: TrashDirectory) throws -> [String] {
        guard TrashFiles.exists(directory.directorySizesPath) else { return [] }
        let bytes = try TrashFiles.read(directory.directorySizesPath, limit: 64 << 20)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Whether `line` is the one of `name` (its third field, percent-decoded).
    static func isLine(_ line: String, of name: String) -> Bool {
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        return fields.count == 3 && PathBytes.string(TrashInfo.percentDecoded(Array(fields[2].utf8))) == name
    }

    private static func write(_ lines: [String], in directory: TrashDirectory) throws {
        let temporary =
            directory.path + "/directorysizes.\(FileOperations.processID).\(UInt32.random(in: .min ... .max))"
        let text = lines.map { $0 + "\n" }.joined()
        try FileOperations.write(Data(text.utf8), to: temporary)
        let renamed = PathBytes.withCString(temporary) { from in
            PathBytes.withCString(directory.directorySizesPath) { rename(from, $0) }
        }
        if renamed != 0 {
            let code = errno
            try? FileOperations.unlink(temporary)
            throw SystemCallError(call: "rename", path: directory.directorySizesPath, errno: code)
        }
    }
}
