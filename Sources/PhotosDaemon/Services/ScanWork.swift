import Foundation
import PhotosCore

/// What the scan runner is asked to do: roots to rescan whole and, for other roots, only some
/// directories or only some files. Values from the settler, the root tracker and failed scans
/// merge into one.
///
/// ```swift
/// var work = ScanWork(roots: ["/p"], reasons: ["startup"])
/// work.merge(ScanWork(files: ["/q": ["/q/2024/a.jpg"], "/p": ["/p/b.jpg"]], reasons: ["changes"]))
/// work.partialFiles  // ["/q": ["/q/2024/a.jpg"]]: "/p" is rescanned whole
/// ```
public struct ScanWork: Sendable, Hashable {
    /// Roots to rescan whole (startup, overflow, directories created, moved or removed, polling).
    public var roots: Set<String>
    /// Directories to rescan (every file in them), by root.
    public var directories: [String: Set<String>]
    /// Files to look at alone (those events named: arrived, changed, moved, deleted), by root.
    public var files: [String: Set<String>]
    /// Why the scans are made (`startup`, `changes`, `poll`, `retry`), for logs.
    public var reasons: Set<String>

    /// Work on `roots` whole, and on `directories` and `files` of other roots.
    public init(
        roots: Set<String> = [], directories: [String: Set<String>] = [:], files: [String: Set<String>] = [:],
        reasons: Set<String> = []
    ) {
        self.roots = roots
        self.directories = directories.filter { !$0.value.isEmpty }
        self.files = files.filter { !$0.value.isEmpty }
        self.reasons = reasons
    }

    /// Whether there is nothing to scan.
    public var isEmpty: Bool { roots.isEmpty && directories.isEmpty && files.isEmpty }

    /// Whether this work includes the startup scan (after which the daemon is ready).
    public var isStartup: Bool { reasons.contains("startup") }

    /// The directories to rescan alone: those of roots that are not rescanned whole anyway.
    public var partialDirectories: [String: Set<String>] { directories.filter { !roots.contains($0.key) } }

    /// The files to look at alone: those of roots not rescanned whole, in directories not rescanned.
    public var partialFiles: [String: Set<String>] {
        var partial: [String: Set<String>] = [:]
        for (root, paths) in files where !roots.contains(root) {
            let rescanned = directories[root] ?? []
            let alone = paths.filter { !rescanned.contains(PathName.directory(of: $0)) }
            if !alone.isEmpty { partial[root] = alone }
        }
        return partial
    }

    /// Adds `other`'s roots, directories, files and reasons.
    public mutating func merge(_ other: ScanWork) {
        roots.formUnion(other.roots)
        directories.merge(other.directories.filter { !$0.value.isEmpty }) { $0.union($1) }
        files.merge(other.files.filter { !$0.value.isEmpty }) { $0.union($1) }
        reasons.formUnion(other.reasons)
    }

    /// This work without what it asks of `removed` roots.
    public func without(roots removed: Set<String>) -> ScanWork {
        ScanWork(
            roots: roots.subtracting(removed), directories: directories.filter { !removed.contains($0.key) },
            files: files.filter { !removed.contains($0.key) }, reasons: reasons)
    }

    /// The same work as whole-root rescans: what a failed scan is retried as, since what it
    /// left undone is not known directory by directory.
    public var wholeRoots: ScanWork {
        ScanWork(roots: roots.union(directories.keys).union(files.keys), reasons: ["retry"])
    }
}
