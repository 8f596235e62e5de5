import Foundation
import Glibc
import HTTPTypes
import Photos
import PhotosStore

/// A file a client named by path (`createAsset`'s `path`), opened as that client could open it.
///
/// A server-side path is the caller's file, not the daemon's: photosd may read, and unlink, much
/// that its clients may not. So the path is taken only from a client whose uid the kernel gave
/// (the Unix socket's peer, `SO_PEERCRED`), and the file is opened by walking the path one
/// directory at a time (`openat` with `O_NOFOLLOW` from `/`, through the path with its links
/// resolved), checking at each step what that uid may do by the owner, group and mode bits:
///
/// | to | the caller needs |
/// |---|---|
/// | copy | search (x) on every directory from `/`, read (r) on the file |
/// | move | that, and write and search (wx) on the directory holding the name, and in a sticky directory (`/tmp`) to own the file or the directory |
///
/// A caller of uid 0 may. Access control lists are not read: a file the mode bits do not grant is
/// refused even if an ACL would grant it. The file must be a regular file, not an asset's resource
/// (by path, or by device and inode: a hard link of one), and not under the library's own folders
/// (the import folder with its edits and staging, the thumbnail cache, the library's database).
///
/// Every refusal is the same ``refusal`` (403, PhotoKit 3310), whatever the reason: the answer
/// never tells whether a path exists, what it is, or who may read it. The daemon then reads the
/// content from the descriptor it checked (a name swapped for a link meanwhile is not followed).
final class CallerFile: Sendable {
    /// The open file, checked.
    let descriptor: Int32
    /// The file's size when it was opened.
    let size: Int64
    /// The name the caller gave (the last component of its path), kept as the original filename.
    let name: String
    /// For a move: the directory holding the name (open, `O_PATH`), and the name's identity as
    /// checked, which is unlinked after the commit only if it is still that.
    private let entryDirectory: Int32?
    private let entryIdentity: (device: UInt64, inode: UInt64)?

    /// The one answer to every path the client may not have.
    static let refusal: APIError = APIError(
        .forbidden, photos: .accessRestricted,
        "createAsset: the path is not a regular file this client may read (and, to move it, remove), or it is the library's own; send the file's bytes to POST /v1/uploads instead"
    )

    /// Opens `path` as `peer` may (see the type's table), or throws ``refusal``.
    init(path: String, peer: PeerCredentials, move: Bool, library: PHPhotoLibrary) throws(APIError) {
        let caller = Caller(peer)
        guard path.hasPrefix("/") else { throw Self.refusal }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = components.last, last != ".", last != ".." else { throw Self.refusal }
        name = last
        let forbidden = Self.libraryFolders(library)
        // The content: the path with its links resolved, walked from `/` without following any.
        guard let content = Self.realPath(path), !Self.isUnder(content, forbidden) else { throw Self.refusal }
        let (directory, file) = try Self.walk(to: content, as: caller)
        defer { close(directory) }
        // Only a regular file is opened: opening a device can do things (a tape rewinds), a FIFO waits.
        var named = stat()
        guard fstatat(directory, file, &named, AT_SYMLINK_NOFOLLOW) == 0, named.st_mode & S_IFMT == S_IFREG else {
            throw Self.refusal
        }
        let opened = openat(directory, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard opened >= 0 else { throw Self.refusal }
        var info = stat()
        guard fstat(opened, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_dev == named.st_dev,
            info.st_ino == named.st_ino, caller.may(info, read: true)
        else {
            close(opened)
            throw Self.refusal
        }
        let isResource =
            (try? library.database.isResourceFile(
                path: content, device: Int64(bitPattern: UInt64(info.st_dev)),
                inode: Int64(bitPattern: UInt64(info.st_ino))))
        guard isResource == false else {
            close(opened)
            throw Self.refusal
        }
        descriptor = opened
        size = Int64(info.st_size)
        guard move else {
            entryDirectory = nil
            entryIdentity = nil
            return
        }
        // The name to remove is the one the caller gave (a link is removed, never what it points
        // to), in its directory with links resolved.
        let parent = "/" + components.dropLast().joined(separator: "/")
        guard let realParent = Self.realPath(parent), !Self.isUnder(realParent + "/" + last, forbidden) else {
            close(opened)
            throw Self.refusal
        }
        do {
            // The walk's last component is the name's, which is not opened: only its directory is.
            let (above, _) = try Self.walk(to: realParent + "/" + last, as: caller)
            var folder = stat(), entry = stat()
            guard fstat(above, &folder) == 0, caller.may(folder, write: true, search: true),
                fstatat(above, last, &entry, AT_SYMLINK_NOFOLLOW) == 0,
                folder.st_mode & S_ISVTX == 0 || caller.uid == 0 || entry.st_uid == caller.uid
                    || folder.st_uid == caller.uid,
                // The daemon must be able to remove it too (a read-only mount): found now, the
                // batch fails whole rather than commit and leave the original behind.
                faccessat(above, ".", W_OK, AT_EACCESS) == 0
            else {
                close(above)
                throw Self.refusal
            }
            entryDirectory = above
            entryIdentity = (UInt64(entry.st_dev), UInt64(entry.st_ino))
        } catch {
            close(opened)
            throw Self.refusal
        }
    }

    deinit {
        close(descriptor)
        if let entryDirectory { close(entryDirectory) }
    }

    /// After the commit, for a move: removes the caller's name if it is still the file that was
    /// checked. A name replaced meanwhile is left alone; a crash before this leaves the original
    /// where it was (a copy too many, never a file lost).
    func removeMovedName() {
        guard let entryDirectory, let entryIdentity else { return }
        var entry = stat()
        guard fstatat(entryDirectory, name, &entry, AT_SYMLINK_NOFOLLOW) == 0,
            UInt64(entry.st_dev) == entryIdentity.device, UInt64(entry.st_ino) == entryIdentity.inode
        else { return }
        unlinkat(entryDirectory, name, 0)
    }

    /// Copies the file's content into a new file at `destination` (which must not exist): holes
    /// stay holes (`SEEK_DATA`/`SEEK_HOLE`), so a sparse file is not inflated. Blocking; throws
    /// an ``APIError`` that names no path (``StagingFailure``).
    func copy(to destination: String) throws {
        try Uploads.create(destination) { output in
            try Self.copySparse(from: descriptor, to: output, size: size)
            // The asset's modification date is the content's: the caller's file's, not the copy's.
            var info = stat()
            if fstat(descriptor, &info) == 0 {
                var times = [info.st_atim, info.st_mtim]
                _ = futimens(output, &times)
            }
        }
    }

    // MARK: Pieces

    /// The peer as the mode bits see it: uid, primary group and the groups its user is in.
    struct Caller {
        let uid: uid_t
        let groups: Set<gid_t>

        init(_ peer: PeerCredentials) {
            uid = peer.uid
            var groups: Set<gid_t> = [peer.gid]
            var record = passwd()
            var found: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: 16384)
            if getpwuid_r(peer.uid, &record, &buffer, buffer.count, &found) == 0, let found,
                let name = found.pointee.pw_name
            {
                var count: Int32 = 256
                var list = [gid_t](repeating: 0, count: Int(count))
                if getgrouplist(name, peer.gid, &list, &count) >= 0 { groups.formUnion(list.prefix(Int(count))) }
            }
            self.groups = groups
        }

        /// Whether the mode bits of `info` grant this caller what is asked (uid 0 is granted all).
        func may(_ info: stat, read: Bool = false, write: Bool = false, search: Bool = false) -> Bool {
            if uid == 0 { return true }
            let mode = UInt32(info.st_mode)
            let shift: UInt32
            if info.st_uid == uid {
                shift = 6
            } else if groups.contains(info.st_gid) {
                shift = 3
            } else {
                shift = 0
            }
            let bits: UInt32 = (mode >> shift) & 7
            var wanted: UInt32 = 0
            if read { wanted |= 4 }
            if write { wanted |= 2 }
            if search { wanted |= 1 }
            return bits & wanted == wanted
        }
    }

    /// Opens each directory of `path` (absolute, links resolved) from `/`, never following a
    /// link, checking that `caller` may search it; returns the last directory (open, `O_PATH`) and
    /// the last component. Any failure is ``refusal``.
    private static func walk(to path: String, as caller: Caller) throws(APIError) -> (Int32, String) {
        var components = path.split(separator: "/").map(String.init)
        guard let last = components.popLast() else { throw refusal }
        var current = open("/", Self.openPath | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw refusal }
        for component in components {
            var info = stat()
            guard fstat(current, &info) == 0, caller.may(info, search: true) else {
                close(current)
                throw refusal
            }
            let next = openat(current, component, Self.openPath | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(current)
            guard next >= 0 else { throw refusal }
            current = next
        }
        var info = stat()
        guard fstat(current, &info) == 0, caller.may(info, search: true) else {
            close(current)
            throw refusal
        }
        return (current, last)
    }

    /// Linux's `O_PATH` (a descriptor that names a directory without reading it), which Glibc's
    /// module does not import.
    private static let openPath: Int32 = 0o10000000

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The library's own places: what no client may name.
    static func libraryFolders(_ library: PHPhotoLibrary) -> [String] {
        var folders: [String] = [library.importDirectory.standardizedFileURL.path]
        if let database = library.database.path {
            folders.append(database)
        } else if library.database.dialect == .postgreSQL {
            // This host's files of a shared library (photosd's status, the import folder).
            let local = LibraryDatabase.localPath(forLibrary: library.database.location)
            folders.append((local as NSString).deletingLastPathComponent)
        }
        if let cache = library.configuration.thumbnailCacheDirectory { folders.append(cache) }
        // Each as the kernel resolves it, and as written (a folder not made yet resolves to nothing).
        return folders + folders.compactMap(realPath)
    }

    /// Whether `path` is one of `folders` or under one (the database's `-wal` and `-shm` too).
    static func isUnder(_ path: String, _ folders: [String]) -> Bool {
        folders.contains { (folder: String) -> Bool in
            let inside: String = folder.hasSuffix("/") ? folder : folder + "/"
            return path == folder || path.hasPrefix(inside) || path.hasPrefix(folder + "-")
        }
    }

    /// Copies `size` bytes from `source` to `destination` at the same offsets, only the data
    /// (`lseek(SEEK_DATA)`, `lseek(SEEK_HOLE)`), then sets the size: holes stay holes.
    static func copySparse(from source: Int32, to destination: Int32, size: Int64) throws {
        let seekData: Int32 = 3, seekHole: Int32 = 4  // Linux's SEEK_DATA and SEEK_HOLE.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while offset < size {
            var data = lseek(source, offset, seekData)
            if data < 0 {
                if errno == ENXIO { break }  // Only a hole is left.
                data = offset  // A file system that cannot say: all data.
            }
            var hole = lseek(source, data, seekHole)
            if hole < 0 { hole = off_t(size) }
            var position = data
            while position < hole {
                let count = pread(source, buffer.baseAddress, min(buffer.count, Int(hole - position)), position)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    if count == 0 {
                        hole = position
                        break
                    }  // Shorter than it was: what is there.
                    throw StagingFailure.reading(errno)
                }
                var written = 0
                while written < count {
                    let done = pwrite(
                        destination, buffer.baseAddress! + written, count - written, position + off_t(written))
                    if done < 0, errno == EINTR { continue }
                    guard done > 0 else { throw StagingFailure.writing(errno) }
                    written += done
                }
                position += off_t(count)
            }
            offset = hole
        }
        guard ftruncate(destination, off_t(size)) == 0 else { throw StagingFailure.writing(errno) }
    }
}

/// A file the daemon could not stage for a new asset, said without its paths: a full disk
/// (507, PhotoKit 3305) or another failure of the daemon's own folder, or of reading the
/// caller's file (500).
enum StagingFailure {
    static func writing(_ code: Int32) -> APIError {
        if code == ENOSPC || code == EDQUOT {
            let full = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
            return APIError(full, photos: .notEnoughSpace, "the library's disk is full")
        }
        let reason = String(cString: strerror(code))
        return APIError(.internalServerError, "cannot stage the file: " + reason)
    }

    static func reading(_ code: Int32) -> APIError {
        APIError(.internalServerError, "cannot read the file: \(String(cString: strerror(code)))")
    }

    static func tooLarge(_ limit: Int64) -> APIError {
        APIError(.contentTooLarge, "an upload is at most \(limit) bytes")
    }
}
