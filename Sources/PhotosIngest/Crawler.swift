import Foundation
import Glibc

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

    /// The file name.
    public var name: String { String(path[path.index(after: path.lastIndex(of: "/")!)...]) }
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

/// Walks a root with `opendir`/`readdir`, skipping what ``IgnoreRules`` say to skip.
public struct Crawler: Sendable {
    /// What to skip.
    public var rules: IgnoreRules

    /// A crawler with the given rules.
    public init(rules: IgnoreRules = IgnoreRules()) {
        self.rules = rules
    }

    /// Every directory and candidate file under `root`; nil when the root cannot be read (offline).
    public func crawl(_ root: String) -> (directories: [CrawledDirectory], files: [CrawledFile])? {
        var info = stat()
        guard stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, let handle = opendir(root) else {
            return nil
        }
        closedir(handle)
        var directories: [CrawledDirectory] = []
        var files: [CrawledFile] = []
        var pending: [(path: String, parent: String?, info: stat)] = [(root, nil, info)]
        while let next = pending.popLast() {
            let (path, parent, directoryInfo) = next
            guard let handle = opendir(path) else { continue }
            defer { closedir(handle) }
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                names.append(name)
            }
            if rules.isExcludedByMarker(names) { continue }
            directories.append(
                CrawledDirectory(
                    path: path, parent: parent, device: Int64(directoryInfo.st_dev), inode: Int64(directoryInfo.st_ino)))
            for name in names.sorted() where !rules.isIgnoredName(name) {
                let child = path.hasSuffix("/") ? path + name : path + "/" + name
                var childInfo = stat()
                guard lstat(child, &childInfo) == 0 else { continue }
                switch childInfo.st_mode & S_IFMT {
                case S_IFDIR:
                    pending.append((child, path, childInfo))
                case S_IFREG:
                    files.append(
                        CrawledFile(
                            path: child, directory: path, device: Int64(childInfo.st_dev),
                            inode: Int64(childInfo.st_ino), size: Int64(childInfo.st_size),
                            modificationTime: Double(childInfo.st_mtim.tv_sec)
                                + Double(childInfo.st_mtim.tv_nsec) / 1_000_000_000))
                default:
                    continue  // Links, devices, sockets: not media.
                }
            }
        }
        return (directories, files)
    }
}

extension Crawler {
    /// The candidate files directly in `directory` (none when it is gone or holds a marker).
    public func crawlFiles(in directory: String) -> [CrawledFile] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        if rules.isExcludedByMarker(names) { return [] }
        var files: [CrawledFile] = []
        for name in names.sorted() where !rules.isIgnoredName(name) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files.append(
                CrawledFile(
                    path: path, directory: directory, device: Int64(info.st_dev), inode: Int64(info.st_ino),
                    size: Int64(info.st_size),
                    modificationTime: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000))
        }
        return files
    }

    /// Every directory under `root` (and the root), without looking at files.
    public func crawlDirectories(_ root: String) -> [CrawledDirectory] {
        crawl(root)?.directories ?? []
    }
}

/// What the scanner and the watcher leave alone.
public struct IgnoreRules: Sendable, Hashable {
    /// A directory holding one of these files is skipped with everything below it.
    public var markers: Set<String> = [".nomedia", ".photosignore"]
    /// Name suffixes of files still being written.
    public var temporarySuffixes: [String] = [".part", ".crdownload", ".tmp", ".download", ".partial"]
    /// Shell patterns (`*.xmp`, `@eaDir`) of names to skip, files or directories.
    public var patterns: [String] = []

    /// The default rules.
    public init() {}

    /// Hidden names (dot files, dot directories), temporary names and editor backups.
    public func isIgnoredName(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasPrefix("~") || name.hasSuffix("~") { return true }
        let lowercased = name.lowercased()
        if temporarySuffixes.contains(where: { lowercased.hasSuffix($0) }) { return true }
        return patterns.contains { fnmatch($0, name, 0) == 0 }
    }

    /// Whether a directory's entries include a marker that excludes it.
    public func isExcludedByMarker(_ names: [String]) -> Bool {
        names.contains(where: markers.contains)
    }
}
