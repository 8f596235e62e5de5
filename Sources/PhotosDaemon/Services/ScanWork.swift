import Foundation
import PhotosCore

/// What the scan runner is asked to do: roots to rescan whole and, for other roots, only some
/// files (a file whose directory cannot be told apart, as after a move, rescans that directory:
/// ``FolderScanner/scan(root:files:)``). Values from the settler, the root tracker and failed scans
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
    /// Files to look at alone (those events named: arrived, changed, moved, deleted), by root.
    public var files: [String: Set<String>]
    /// Why the scans are made (`startup`, `changes`, `poll`, `retry`), for logs.
    public var reasons: Set<String>

    /// Work on `roots` whole, and on `files` of other roots.
    public init(roots: Set<String> = [], files: [String: Set<String>] = [:], reasons: Set<String> = []) {
        self.roots = roots
        self.files = files.filter { !$0.value.isEmpty }
        self.reasons = reasons
    }

    /// Whether there is nothing to scan.
    public var isEmpty: Bool { roots.isEmpty && files.isEmpty }

    /// Whether this work includes the startup scan (after which the daemon is ready).
    public var isStartup: Bool { reasons.contains("startup") }

    /// The files to look at alone: those of roots not rescanned whole.
    public var partialFiles: [String: Set<String>] { files.filter { !roots.contains($0.key) } }

    /// Adds `other`'s roots, files and reasons.
    public mutating func merge(_ other: ScanWork) {
        roots.formUnion(other.roots)
        files.merge(other.files.filter { !$0.value.isEmpty }) { $0.union($1) }
        reasons.formUnion(other.reasons)
    }

    /// This work without what it asks of `removed` roots.
    public func without(roots removed: Set<String>) -> ScanWork {
        ScanWork(roots: roots.subtracting(removed), files: files.filter { !removed.contains($0.key) }, reasons: reasons)
    }

    /// The same work as whole-root rescans: what a failed scan is retried as, since what it
    /// left undone is not known directory by directory.
    public var wholeRoots: ScanWork {
        ScanWork(roots: roots.union(files.keys), reasons: ["retry"])
    }
}
