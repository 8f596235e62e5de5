import CPhotosLinux
import Glibc
import PhotosCore

/// What `lstat(2)` says of a file, with the file's birth time where its file system keeps one.
///
/// The birth time tells a file from another that was given its inode number: ext4 hands a freed
/// inode to the next file made, so a restored backup can hold another photo's number, but a
/// rename and an edit in place keep a file's birth time, and a copy never has its source's.
public struct FileStatus: Sendable {
    /// The `lstat` fields.
    public var info: stat
    /// When the file was made, in nanoseconds since 1970; nil where the file system keeps no such
    /// time (NFS, FAT, or an image made with zeros there).
    public var birthTime: Int64?

    /// The status of `name` in the directory open as `directory`, not following a symbolic link,
    /// from one `statx(2)` call (`fstatat` on a kernel without it).
    public static func of(_ name: String, in directory: Int32) throws(SystemCallError) -> FileStatus {
        var info = stat()
        var birth: Int64 = 0
        let code = PathBytes.withCString(name) { cphotos_file_status(directory, $0, &info, &birth) }
        guard code == 0 else { throw SystemCallError(call: "statx", path: name, errno: code) }
        return FileStatus(info: info, birthTime: birth == 0 ? nil : birth)
    }

    /// The status of the file at `path` (not a link's target).
    public static func of(_ path: String) throws(SystemCallError) -> FileStatus {
        try of(path, in: AT_FDCWD)
    }
}
