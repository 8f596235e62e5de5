import Foundation
import PhotosCore
import PhotosLinux

/// The watched roots of a library and what it may write under each (`RootWritePolicy`): the
/// checks every change that reaches the disk passes before its block commits.
extension PHPhotoLibrary {
    /// The configured roots, with their policies (``Configuration/roots``).
    package var roots: LibraryRoots { LibraryRoots(configuration.roots) }

    /// What may be written at `path` (`.none` outside every configured root, and under another
    /// host's root in a library several hosts share).
    package func writePolicy(at path: String) -> RootWritePolicy {
        let policy = roots.policy(for: path)
        guard policy != .none, database.hostHolding(file: path) == nil else { return .none }
        return policy
    }

    /// Checks that a change may write `needed` at `path` (a file or directory under a root) and that
    /// the disk lets it; returns the root. Fails with `accessRestricted` naming the path, its root and
    /// the reason: the root's policy does not allow it, the root is another host's in a library
    /// several hosts share (its files are on that host's disk), or the directory cannot be written (a
    /// read-only mount, permissions). `what` says what the change is, for the message ("delete IMG_1.JPG").
    @discardableResult
    package func requireWrite(
        _ needed: RootWritePolicy, at path: String, for what: String, localIdentifiers: [String] = []
    ) throws -> LibraryRoot {
        var restrictions: [String: String?] = [:]
        return try requireWrite(
            needed, at: path, for: what, localIdentifiers: localIdentifiers, restrictions: &restrictions)
    }

    /// ``requireWrite(_:at:for:localIdentifiers:)`` for one of many files of a change: whether each
    /// directory can be written is asked of the disk once and kept in `restrictions` (by directory;
    /// nil: it can).
    @discardableResult
    func requireWrite(
        _ needed: RootWritePolicy, at path: String, for what: String, localIdentifiers: [String],
        restrictions: inout [String: String?]
    ) throws -> LibraryRoot {
        if let holder = database.hostHolding(file: path) {
            throw PHPhotosError(
                .accessRestricted,
                "cannot \(what): \(path) is on host \(holder)'s disk, whose root it is in this library; "
                    + "make the change through photosd on \(holder)",
                localIdentifiers: localIdentifiers)
        }
        guard let root = roots.root(of: path) else {
            throw PHPhotosError(
                .accessRestricted,
                "cannot \(what): \(path) is in no watched root with write = \"\(needed)\" in the library's configuration",
                localIdentifiers: localIdentifiers)
        }
        guard root.write == .files || root.write == needed else {
            throw PHPhotosError(
                .accessRestricted,
                "cannot \(what): \(path) is under \(root.path), whose write policy is \"\(root.write)\" "
                    + "(\"\(needed)\" is needed)",
                localIdentifiers: localIdentifiers)
        }
        let directory = (path as NSString).deletingLastPathComponent
        let restriction: String?
        if let known = restrictions[directory] {
            restriction = known
        } else {
            restriction = FileOperations.writeRestriction(ofDirectory: directory)
            restrictions[directory] = restriction
        }
        if let restriction {
            throw PHPhotosError(
                .accessRestricted, "cannot \(what): \(directory): \(restriction)", localIdentifiers: localIdentifiers)
        }
        return root
    }

    /// Whether a change may write `needed` at `path` now (``requireWrite(_:at:for:localIdentifiers:)``
    /// would pass): what `canPerform(_:)` answers for objects on the disk.
    package func mayWrite(_ needed: RootWritePolicy, at path: String) -> Bool {
        (try? requireWrite(needed, at: path, for: "write")) != nil
    }
}

extension PHPhotoLibrary {
    /// Whether each configured root can be written now, and why not: for `photos status` and the API.
    package func rootWriteStates() -> [(root: LibraryRoot, restriction: String?)] {
        roots.roots.map { root in
            (root, root.write == .none ? nil : FileOperations.writeRestriction(ofDirectory: root.path))
        }
    }
}
