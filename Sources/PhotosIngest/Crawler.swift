import Foundation
import Glibc
import PhotosCore
import PhotosLinux

/// A regular file found under a root, with what `stat` says about it.
public struct CrawledFile: Sendable, Hashable {
    /// The absolute path.
    public var path: String
    /// The directory holding the file.
    public var directory: String
    /// The device (`st_dev`).
    public var device: Int64
    /// The inode (`st_ino`); with the device, the identity on disk.
    public var inode: Int64
    /// The size in bytes.
    public var size: Int64
    /// Seconds since 1970.
    public var modificationTime: Double
    /// When the file was made, in nanoseconds since 1970 (``FileStatus/birthTime``): with the
    /// device and inode, what tells the file from another given its inode number. Nil where the
    /// file system keeps none.
    public var birthTime: Int64? = nil

    /// The file name.
    public var name: String { PathName.name(of: path) }
}

/// A directory found under a root (or the root itself).
public struct CrawledDirectory: Sendable, Hashable {
    /// The absolute path.
    public var path: String
    /// The directory holding it; nil for the root.
    public var parent: String?
    /// The device (`st_dev`).
    public var device: Int64
    /// The inode (`st_ino`); with the device, the identity on disk.
    public var inode: Int64
}

/// A directory that exists but cannot be listed now (permissions, a stale or failing mount): what
/// the library had under it is kept, unavailable, until it can be read again.
public struct UnreadableDirectory: Sendable, Hashable, Codable {
    /// The absolute path (in ``PathBytes`` form).
    public var path: String
    /// The `errno` of the failed `opendir`, `readdir` or `lstat` (`EACCES`, `EIO`, `ESTALE`...).
    public var code: Int32
    /// The error as text (`strerror`).
    public var reason: String

    /// An unreadable directory.
    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
        reason = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
    }

    /// Whether a directory listing that failed with `code` means the directory is gone (and what
    /// was under it with it), rather than unreadable for now.
    public static func meansGone(_ code: Int32) -> Bool { code == ENOENT || code == ENOTDIR }
}

/// Why a directory could not be listed: the `errno`.
public struct DirectoryReadError: Error, Sendable, Hashable {
    /// The `errno` of the failed call.
    public var code: Int32

    /// An error with `errno` `code`.
    public init(code: Int32) { self.code = code }
}

/// The directories of one root: what a scan walks, one directory's files at a time.
public struct CrawledTree: Sendable {
    /// Every readable directory under the root, the root first.
    public var directories: [CrawledDirectory] = []
    /// Directories that exist but could not be listed, with what `lstat` said of them; nothing
    /// below them was seen.
    public var unreadable: [(directory: CrawledDirectory, error: UnreadableDirectory)] = []
}

/// A name in a directory listing, with the type `readdir` gave it.
public struct DirectoryEntryName: Sendable, Hashable {
    /// The name (a ``PathBytes`` string), never `.` or `..`.
    public var name: String
    /// `d_type`: `DT_DIR`, `DT_REG`, `DT_LNK`... or `DT_UNKNOWN` when the file system does not say.
    public var type: UInt8

    /// An entry of a listing.
    public init(name: String, type: UInt8) {
        self.name = name
        self.type = type
    }

    /// Whether the entry may be a directory: it says so, or says nothing.
    var mayBeDirectory: Bool { type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN) }
}

/// Walks a root with `opendir`/`readdir`, skipping what ``IgnoreRules`` say to skip.
///
/// Names are read as bytes and kept as ``PathBytes`` strings, so a name that is not valid UTF-8
/// is found, opened and told apart from every other name. A directory that cannot be listed is
/// reported as unreadable, never taken as empty.
public struct Crawler: Sendable {
    /// Lists a directory: the names in it (``PathBytes`` strings, without `.` and `..`) with their
    /// types, or why not.
    public typealias DirectoryReader = @Sendable (_ path: String) -> Result<[DirectoryEntryName], DirectoryReadError>

    /// What to skip.
    public var rules: IgnoreRules
    /// How directories are listed: ``readDirectory(_:)``, or a stand-in for tests that need a
    /// directory to fail as a stale mount or a permission change would (root can read any mode).
    public var readDirectory: DirectoryReader

    /// A crawler with the given rules, listing directories with `reader`.
    public init(rules: IgnoreRules = IgnoreRules(), reader: @escaping DirectoryReader = Crawler.readDirectory) {
        self.rules = rules
        readDirectory = reader
    }

    /// The names in `path`, read with `opendir` and `readdir` as bytes; a `readdir` that fails
    /// part way (`EIO`) fails the whole listing, so that a half-read directory never looks emptied.
    ///
    /// The corresponding C functions are `opendir`, `readdir` and `closedir`.
    @Sendable public static func readDirectory(_ path: String) -> Result<[DirectoryEntryName], DirectoryReadError> {
        guard let handle = PathBytes.withCString(path, { opendir($0) }) else {
            return .failure(DirectoryReadError(code: errno))
        }
        defer { closedir(handle) }
        var names: [DirectoryEntryName] = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                if errno != 0 { return .failure(DirectoryReadError(code: errno)) }
                return .success(names)
            }
            let name = PathBytes.name(ofEntry: entry)
            if name != "." && name != ".." { names.append(DirectoryEntryName(name: name, type: entry.pointee.d_type)) }
        }
    }

    /// `lstat` of a ``PathBytes`` path: the information, or the `errno`.
    static func lstatus(_ path: String) -> Result<stat, DirectoryReadError> {
        var info = stat()
        let result = PathBytes.withCString(path) { lstat($0, &info) }
        return result == 0 ? .success(info) : .failure(DirectoryReadError(code: errno))
    }

    /// `statx` of a name in the directory open as `directory` (of a whole path with `AT_FDCWD`),
    /// not following a symbolic link: `lstat`'s answer and the birth time.
    static func status(_ name: String, in directory: Int32 = AT_FDCWD) -> Result<FileStatus, DirectoryReadError> {
        do {
            return .success(try FileStatus.of(name, in: directory))
        } catch {
            return .failure(DirectoryReadError(code: error.errno))
        }
    }

    /// The file `info` and `birthTime` describe, at `path` in `directory`.
    static func file(at path: String, in directory: String, _ status: FileStatus) -> CrawledFile {
        let info = status.info
        return CrawledFile(
            path: path, directory: directory, device: Int64(info.st_dev), inode: Int64(info.st_ino),
            size: Int64(info.st_size),
            modificationTime: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000,
            birthTime: status.birthTime)
    }

    /// Every directory under `root`, without looking at its files: `readdir`'s types tell the
    /// directories apart, and only they are looked at with `lstat` (where a file system does not
    /// say, every entry is). Nil when the root cannot be read (offline).
    ///
    /// A scan walks the directories found here one at a time, listing each one's files then
    /// (``listFiles(in:)``): what it holds at once is a directory's files, never a tree's.
    public func crawl(_ root: String) -> CrawledTree? {
        var info = stat()
        guard PathBytes.withCString(root, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            return nil
        }
        var tree = CrawledTree()
        var pending: [(CrawledDirectory, links: UInt)] = [
            (
                CrawledDirectory(path: root, parent: nil, device: Int64(info.st_dev), inode: Int64(info.st_ino)),
                UInt(info.st_nlink)
            )
        ]
        var linkCounts = LinkCountedFileSystems()
        while let (directory, links) = pending.popLast() {
            // A directory of two links has no subdirectories where the file system counts them: it
            // is not listed here (its files are, as the scan walks it).
            if directory.parent != nil, links == 2, linkCounts.countsSubdirectories(directory) {
                tree.directories.append(directory)
                continue
            }
            switch listDirectories(in: directory.path) {
            case .failure where directory.parent == nil:
                return nil  // The root itself cannot be listed: offline.
            case .failure(let error):
                // Vanished since its parent was listed: gone, like any directory not found.
                if UnreadableDirectory.meansGone(error.code) { continue }
                tree.unreadable.append((directory, UnreadableDirectory(path: directory.path, code: error.code)))
            case .success(nil):
                continue  // Excluded by a marker file.
            case .success(let subdirectories?):
                tree.directories.append(directory)
                for (path, info) in subdirectories {
                    pending.append(
                        (
                            CrawledDirectory(
                                path: path, parent: directory.path, device: Int64(info.st_dev),
                                inode: Int64(info.st_ino)),
                            UInt(info.st_nlink)
                        ))
                }
            }
        }
        return tree
    }

    /// The subdirectories directly in `directory` (nil when a marker excludes it), or why it
    /// cannot be listed; as ``listFiles(in:)`` would find them, without a `stat` of its files.
    func listDirectories(in directory: String) -> Result<[(String, stat)]?, DirectoryReadError> {
        let entries: [DirectoryEntryName]
        switch readDirectory(directory) {
        case .failure(let error): return .failure(error)
        case .success(let listed): entries = listed
        }
        if rules.isExcludedByMarker(entries.map(\.name)) { return .success(nil) }
        var subdirectories: [(String, stat)] = []
        for entry in entries where entry.mayBeDirectory && !rules.isIgnoredName(entry.name) {
            let path = directory.hasSuffix("/") ? directory + entry.name : directory + "/" + entry.name
            switch Self.lstatus(path) {
            case .success(let info) where info.st_mode & S_IFMT == S_IFDIR: subdirectories.append((path, info))
            case .success: continue
            case .failure(let error) where UnreadableDirectory.meansGone(error.code): continue  // Removed meanwhile.
            case .failure(let error): return .failure(error)
            }
        }
        return .success(subdirectories)
    }

    /// One entry of a listed directory worth keeping.
    enum Entry {
        case file(CrawledFile)
        case directory(String, stat)
    }

    /// The candidate files and the subdirectories directly in `directory` (nil when a marker
    /// excludes it), or why it cannot be listed. An entry `lstat` cannot reach (a directory
    /// without search permission, an I/O error) makes the whole directory unreadable: skipping
    /// the entry would take its file as deleted. Entries come in the directory's own order: a scan
    /// sorts only what it reads.
    func listFiles(in directory: String) -> Result<[Entry]?, DirectoryReadError> {
        let names: [String]
        switch readDirectory(directory) {
        case .failure(let error): return .failure(error)
        case .success(let listed): names = listed.map(\.name)
        }
        if rules.isExcludedByMarker(names) { return .success(nil) }
        // Each name is looked up in the directory itself, not by its whole path from the root.
        let handle = PathBytes.withCString(directory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { if handle >= 0 { close(handle) } }
        var entries: [Entry] = []
        for name in names where !rules.isIgnoredName(name) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let status: FileStatus
            switch handle >= 0 ? Self.status(name, in: handle) : Self.status(path) {
            case .success(let found): status = found
            case .failure(let error) where UnreadableDirectory.meansGone(error.code): continue  // Removed meanwhile.
            case .failure(let error): return .failure(error)
            }
            switch status.info.st_mode & S_IFMT {
            case S_IFDIR:
                entries.append(.directory(path, status.info))
            case S_IFREG:
                entries.append(.file(Self.file(at: path, in: directory, status)))
            default:
                continue  // Links, devices, sockets: not media.
            }
        }
        return .success(entries)
    }
}

extension Crawler {
    /// The file at `path` as a listing of its directory would give it: nil when it is gone, not a
    /// regular file, or ignored by name; a failure when it cannot be looked at.
    public func crawlFile(at path: String) -> Result<CrawledFile?, DirectoryReadError> {
        let directory = PathName.directory(of: path)
        guard !rules.isIgnoredName(PathName.name(of: path)) else { return .success(nil) }
        switch Self.status(path) {
        case .failure(let error) where UnreadableDirectory.meansGone(error.code): return .success(nil)
        case .failure(let error): return .failure(error)
        case .success(let status):
            guard status.info.st_mode & S_IFMT == S_IFREG else { return .success(nil) }
            return .success(Self.file(at: path, in: directory, status))
        }
    }

    /// Whether `directory` holds one of the rules' marker files (looked up by name, not listed).
    public func isExcludedByMarker(directory: String) -> Bool {
        rules.markers.contains { marker in
            if case .success = Self.lstatus(directory.hasSuffix("/") ? directory + marker : directory + "/" + marker) {
                return true
            }
            return false
        }
    }

    /// The candidate files directly in `directory`: none when it is gone or holds a marker, an
    /// error when it exists but cannot be listed.
    public func crawlFiles(in directory: String) -> Result<[CrawledFile], DirectoryReadError> {
        crawlContents(in: directory).map(\.files)
    }

    /// The candidate files and the subdirectories directly in `directory`, from one listing: none
    /// when it is gone or holds a marker, an error when it exists but cannot be listed.
    func crawlContents(in directory: String) -> Result<DirectoryContents, DirectoryReadError> {
        switch listFiles(in: directory) {
        case .failure(let error) where UnreadableDirectory.meansGone(error.code): return .success(DirectoryContents())
        case .failure(let error): return .failure(error)
        case .success(nil): return .success(DirectoryContents())
        case .success(let entries?):
            var contents = DirectoryContents()
            for entry in entries {
                switch entry {
                case .file(let file): contents.files.append(file)
                case .directory(let path, _): contents.subdirectories.append(path)
                }
            }
            return .success(contents)
        }
    }
}

/// What one listing of a directory found in it (ignore rules applied).
struct DirectoryContents: Sendable {
    /// The candidate files.
    var files: [CrawledFile] = []
    /// The subdirectories' paths.
    var subdirectories: [String] = []
}

/// Which devices' file systems count a directory's subdirectories in its link count
/// (`Syscall.linksCountSubdirectories`: ext2/3/4, XFS, tmpfs), so that a crawl need not list a
/// directory of two links to find directories in it. One `statfs` per device.
struct LinkCountedFileSystems {
    private var known: [Int64: Bool] = [:]

    mutating func countsSubdirectories(_ directory: CrawledDirectory) -> Bool {
        if let counts = known[directory.device] { return counts }
        let counts = Syscall.linksCountSubdirectories(directory.path)
        known[directory.device] = counts
        return counts
    }
}

/// What the scanner and the watcher leave alone.
public struct IgnoreRules: Sendable, Hashable {
    /// A directory holding one of these files is skipped with everything below it.
    public var markers: Set<String> = [".nomedia", ".photosignore"]
    /// Name suffixes of files still being written (`_exiftool_tmp`: exiftool's file before it is
    /// renamed over the one it edits).
    public var temporarySuffixes: [String] = [
        ".part", ".crdownload", ".tmp", ".download", ".partial", "_exiftool_tmp",
    ]
    /// Shell patterns (`*.xmp`, `@eaDir`) of names to skip, files or directories.
    public var patterns: [String] = []

    /// The default rules.
    public init() {}

    /// Hidden names (dot files, dot directories), temporary names and editor backups.
    public func isIgnoredName(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasPrefix("~") || name.hasSuffix("~") { return true }
        let lowercased = name.lowercased()
        if temporarySuffixes.contains(where: { lowercased.hasSuffix($0) }) { return true }
        return patterns.contains { pattern in PathBytes.withCString(name) { fnmatch(pattern, $0, 0) } == 0 }
    }

    /// Whether a directory's entries include a marker that excludes it.
    public func isExcludedByMarker(_ names: [String]) -> Bool {
        names.contains(where: markers.contains)
    }
}
