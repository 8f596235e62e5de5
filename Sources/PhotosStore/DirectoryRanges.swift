import PhotosCore

/// The paths directly in one directory, as ranges of an index on paths that step over the
/// subtrees of its subdirectories: what a scan asks of the store one directory at a time, without
/// visiting the rows of everything below it (a root's own files would otherwise cost a pass over
/// the whole library).
///
/// The store searches them in its index on directory paths (``FileDirectories``; each ends with
/// "/", so the directory itself and the directories under it fall in the same ranges as their
/// files' paths would), then reads each directory's files by its row.
///
/// Rows under a subdirectory that is not named (one gone from disk, or excluded) fall inside the
/// ranges, so a scan that asks for a directory's files also finds what was under subdirectories it
/// no longer has.
///
/// ```swift
/// let ranges = DirectoryRanges(directory: "/p/2024", subdirectories: ["/p/2024/June"])
/// // "/p/2024/a.jpg" and "/p/2024/Gone/b.jpg" are in it; "/p/2024/June/c.jpg" is not.
/// ```
public struct DirectoryRanges: Sendable, Hashable {
    /// The directory.
    public let directory: String
    /// Half-open ranges of paths in the byte order SQLite compares text in, ascending and disjoint.
    let bounds: [Bound]

    /// One range, `lower ..< upper`.
    struct Bound: Sendable, Hashable {
        var lower: [UInt8]
        var upper: [UInt8]
    }

    /// The ranges of `directory` without the subtrees of `subdirectories` (paths directly in it,
    /// as a crawl found them; others are ignored).
    public init(directory: String, subdirectories: some Sequence<String>) {
        self.directory = directory
        let prefix = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8)
        // Every path under `prefix` sorts below the prefix with its "/" turned into "0".
        let end = Array(prefix.dropLast()) + [UInt8(ascii: "0")]
        let slash = UInt8(ascii: "/")
        // Each subdirectory's subtree is the range from its path and "/" to its path and "0".
        var subtrees: [[UInt8]] = []
        for subdirectory in subdirectories {
            let bytes = Array(subdirectory.utf8)
            guard bytes.count > prefix.count, bytes.starts(with: prefix), !bytes[prefix.count...].contains(slash) else {
                continue
            }
            subtrees.append(bytes)
        }
        let starts = subtrees.map { $0 + [slash] }.sorted { $0.lexicographicallyPrecedes($1) }
        var bounds: [Bound] = []
        var lower = prefix
        for start in starts {
            if lower.lexicographicallyPrecedes(start) { bounds.append(Bound(lower: lower, upper: start)) }
            lower = start.dropLast() + [UInt8(ascii: "0")]
        }
        if lower.lexicographicallyPrecedes(end) { bounds.append(Bound(lower: lower, upper: end)) }
        self.bounds = bounds
    }

    /// Whether `path` lies in one of the ranges.
    public func contains(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        return bounds.contains {
            !bytes.lexicographicallyPrecedes($0.lower) && bytes.lexicographicallyPrecedes($0.upper)
        }
    }

    /// Each range's bounds as arguments of `column >= ? AND column < ?`: one search of the column's
    /// index per range (most directories have no files between their subdirectories, so most
    /// searches find nothing at once).
    var values: [[SQLValue]] {
        bounds.map { [.text(Self.text($0.lower)), .text(Self.text($0.upper))] }
    }

    /// The condition on `FileDirectories.join` for a photo or video directly in the directory (an
    /// album's members), bound with ``primaryArguments``: the store keeps each directory's files
    /// apart, so this needs no range.
    static func primaryCondition(_ dialect: SQLDialect) -> String {
        "d.path = ? AND \(dialect.isThisHost("d.host")) AND r.type IN (?, ?)"
    }

    /// The arguments of ``primaryCondition``.
    var primaryArguments: [SQLValue] {
        [
            .text(directory.hasSuffix("/") ? directory : directory + "/"),
            .int(Int64(PHAssetResourceType.photo.rawValue)), .int(Int64(PHAssetResourceType.video.rawValue)),
        ]
    }

    /// The bytes as the text SQLite stores: every path comes from a Swift string, so its bytes are
    /// valid UTF-8, and so are those of the bounds (a prefix of such bytes followed by "/" or "0").
    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
