import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosStore

/// Renaming or moving the directory behind a directory-backed album or folder, under a root with
/// `write = "files"`: the library's record moves in the change block's transaction
/// (``PhotosStore/LibraryTransaction/moveDirectory(from:to:)``), and a `rename` entry in the file
/// journal renames the directory after the commit (``FileJournal/rename(_:)``), never over anything.
extension ApplyContext {
    /// Renames the directory of `record` (a directory-backed collection) to `title`, in its parent
    /// directory; a name already taken there gets a suffix (`Trip (2)`). Fails with
    /// `accessRestricted` where the root's policy or the disk does not allow it, and with
    /// `changeNotSupported` for a watched root or a title that cannot be a directory's name.
    func renameDirectory(of record: CollectionRecord, to title: String) throws {
        guard let databasePath = record.path else { return }
        if let problem = DirectoryName.problem(with: title, ignoring: library.configuration.ignore) {
            throw PHPhotosError(
                .changeNotSupported, "'\(title)' cannot name a directory: \(problem)",
                localIdentifiers: [record.localIdentifier])
        }
        try relocate(record, into: PathName.directory(of: databasePath), as: title, what: "rename")
    }

    /// Moves the directory of `record` (a directory-backed album or folder) into the directory of
    /// `folder` (a directory-backed folder), keeping its name (a taken one gets a suffix): the
    /// collection becomes the folder's child, in path order. Both must be under roots with
    /// `write = "files"`, on one file system (a directory is never copied across devices); a
    /// folder's own album (its photos are the folder's directory's) cannot leave it.
    func moveDirectory(of record: CollectionRecord, into folder: CollectionRecord) throws {
        guard let databasePath = record.path, let folderPath = folder.path else { return }
        let identifiers = [record.localIdentifier]
        if record.localIdentifier == folder.localIdentifier {
            throw PHPhotosError(
                .changeNotSupported, "'\(record.title ?? "")' cannot be put inside itself",
                localIdentifiers: identifiers)
        }
        if databasePath == folderPath
            || record.parentId.flatMap({ try? transaction.collection(id: $0) })?.path
                == databasePath
        {
            throw PHPhotosError(
                .changeNotSupported,
                "'\(record.title ?? "")' holds the photos of its folder's own directory: move the folder instead",
                localIdentifiers: identifiers)
        }
        if LibraryRoots.path(folderPath, isWithin: databasePath) {
            throw PHPhotosError(
                .changeNotSupported, "'\(record.title ?? "")' cannot be put inside itself",
                localIdentifiers: identifiers)
        }
        try library.requireWrite(
            .files, at: diskPath(of: folderPath) + "/" + PathName.name(of: databasePath),
            for: "move '\(record.title ?? "")' into '\(folder.title ?? "")'", localIdentifiers: identifiers)
        let from = try FileOperations.identity(diskPath(of: databasePath))
        let to = try FileOperations.identity(diskPath(of: folderPath))
        if let from, let to, from.device != to.device {
            throw PHPhotosError(
                .changeNotSupported,
                "'\(record.title ?? "")' and '\(folder.title ?? "")' are on different file systems: "
                    + "a directory is moved by rename only, never copied",
                localIdentifiers: identifiers)
        }
        try relocate(record, into: folderPath, as: PathName.name(of: databasePath), what: "move")
    }

    /// Gives the directory of `record` the name `name` (or a free variant) in `parent` (the library's
    /// path): the library's record moves now, the directory after the commit.
    private func relocate(_ record: CollectionRecord, into parent: String, as name: String, what: String) throws {
        guard let databasePath = record.path else { return }
        let identifiers = [record.localIdentifier]
        if library.roots.roots.contains(where: { $0.path == databasePath }) {
            throw PHPhotosError(
                .changeNotSupported,
                "'\(record.title ?? "")' is the watched root \(databasePath): \(what) it on disk and in the configuration",
                localIdentifiers: identifiers)
        }
        // A root inside it keeps its own policy (a "none" root is never written) and its place in the
        // configuration: moving the directory would move that root's files and leave it missing.
        let nested = library.roots.roots.map(\.path).filter {
            $0 != databasePath && LibraryRoots.path($0, isWithin: databasePath)
        }
        if let inside = nested.sorted().first {
            throw PHPhotosError(
                .changeNotSupported,
                "cannot \(what) '\(record.title ?? "")': \(databasePath) holds the watched root \(inside); "
                    + "\(what) it on disk and in the configuration, or take that root out of the configuration first",
                localIdentifiers: identifiers)
        }
        // Where the directory is on disk now: an earlier rename in this block may not have happened yet.
        let path = diskPath(of: databasePath)
        try library.requireWrite(
            .files, at: path, for: "\(what) '\(record.title ?? "")'", localIdentifiers: identifiers)
        guard let identity = try FileOperations.identity(path), !identity.isRegularFile else {
            throw PHPhotosError(
                .identifierNotFound, "the directory of '\(record.title ?? "")' is no longer at \(path)",
                localIdentifiers: identifiers)
        }
        let free = try freeName(name, in: parent, diskParent: diskPath(of: parent))
        let destination = (parent == "/" ? "" : parent) + "/" + free
        do {
            try transaction.moveDirectory(from: databasePath, to: destination)
        } catch let error as StoreError {
            throw PHPhotosError(.changeNotSupported, "cannot \(what) \(path): \(error)", localIdentifiers: identifiers)
        }
        pendingRenames.append((from: databasePath, to: destination))
        // The entry runs after the entries journaled before it, which renamed what this block renamed
        // before it: the disk then holds the paths the library records now (a folder renamed earlier in
        // the block has its new name), not the ones it holds today.
        journal(
            FileJournalEntry(
                operation: .rename, destination: destination, source: databasePath, device: identity.device,
                inode: identity.inode, owner: FileOperations.processID))
    }

    /// `title`, or `title (2)`, `title (3)`… : the first name no directory entry holds in `parent`
    /// (the library's path) and that no collection of this block took.
    func freeName(_ title: String, in parent: String, diskParent: String) throws -> String {
        for attempt in 1...1000 {
            let name = attempt == 1 ? title : "\(title) (\(attempt))"
            let databasePath = (parent == "/" ? "" : parent) + "/" + name
            let taken =
                try FileOperations.identity(diskPath(of: databasePath)) != nil
                || pendingRenames.contains { $0.to == databasePath }
                || transaction.directoryCollectionExists(at: databasePath)
            if !taken { return name }
        }
        throw PHPhotosError(.changeNotSupported, "no free name for '\(title)' in \(diskParent)")
    }

    /// Where a path the library now records is on disk until this block's renames are carried out:
    /// each rename, latest first, taken back (both its paths are the library's at the time it was made).
    func diskPath(of databasePath: String) -> String {
        var path = databasePath
        for rename in pendingRenames.reversed() where LibraryRoots.path(path, isWithin: rename.to) {
            path = rename.from + String(decoding: path.utf8.dropFirst(rename.to.utf8.count), as: UTF8.self)
        }
        return path
    }
}

/// What makes a title unusable as a directory's name on Linux, or in the library.
enum DirectoryName {
    /// Why `name` cannot be a directory's name, or nil when it can: among the reasons, a name the
    /// scanner passes over, by its own rules or by one of the configuration's `ignore` patterns.
    static func problem(with name: String, ignoring patterns: [String] = []) -> String? {
        if name.isEmpty { return "it is empty" }
        if name == "." || name == ".." { return "it is '\(name)'" }
        if name.utf8.contains(UInt8(ascii: "/")) { return "it holds a '/'" }
        if name.utf8.contains(0) { return "it holds a NUL character" }
        if name.utf8.count > 255 { return "it is longer than 255 bytes" }
        if IgnoreRules().isIgnoredName(name) {
            return "the scanner passes such names over (hidden, temporary or a backup's), and its photos with them"
        }
        var rules = IgnoreRules()
        for pattern in patterns {
            rules.patterns = [pattern]
            if rules.isIgnoredName(name) {
                return "the configuration's ignore pattern '\(pattern)' matches it: the scanner would pass it over, "
                    + "and its photos with them"
            }
        }
        return nil
    }
}

extension FileJournal {
    /// Renames `source` to `destination` (a directory-backed collection renamed), never over
    /// anything (`renameat2(RENAME_NOREPLACE)`), if `source` is still that directory (device and
    /// inode); then syncs the parent directories.
    ///
    /// Already renamed (an interrupted run), or moved away by someone else: nothing to do, the
    /// scanner follows the disk. When the rename cannot be done (the name was taken meanwhile, the
    /// disk refused), the library's record is moved back, so that the library says what the disk
    /// holds, and the caller learns why (``UndoneOperation``).
    func rename(_ entry: FileJournalEntry) throws {
        guard let source = entry.source else { return }
        guard let current = try FileOperations.identity(source), current.device == entry.device,
            current.inode == entry.inode
        else { return }
        do {
            try FileOperations.renameWithoutReplacing(source, entry.destination)
        } catch let error as SystemCallError where !error.isSimulatedCrash {
            try database.write { transaction in
                try transaction.moveDirectory(from: entry.destination, to: source)
                // What the block did inside the directory after renaming it happens under its old name.
                if let id = entry.id {
                    try transaction.rebaseJournalEntries(after: id, from: entry.destination, to: source)
                }
            }
            throw UndoneOperation(
                error: PHPhotosError(.operationInterrupted, Self.refusal(source, entry.destination, error)))
        }
        try FaultInjection.reach(.renamed, in: importDirectory)
        let (from, to) = (PathName.directory(of: source), PathName.directory(of: entry.destination))
        try FileOperations.sync(to, directory: true)
        if from != to { try FileOperations.sync(from, directory: true) }
    }
}

extension FileJournal {
    /// What a user is told when the disk refuses to rename the directory `source` to `destination`:
    /// a rename in place names the new name; a move into another folder names that folder's
    /// directory (and the new name, when a taken one gave it a suffix).
    static func refusal(_ source: String, _ destination: String, _ error: any Error) -> String {
        let (name, parent) = (PathName.name(of: destination), PathName.directory(of: destination))
        guard parent != PathName.directory(of: source) else {
            return "\(source) could not be renamed to \(name) (\(error)); the library keeps its old name"
        }
        let renamed = name == PathName.name(of: source) ? "" : " as \(name)"
        return "\(source) could not be moved into \(parent)\(renamed) (\(error)); the library keeps it where it is"
    }
}

/// A journal entry whose work could not be done and whose change the library took back: the
/// entry is finished, and `error` says what happened.
struct UndoneOperation: Error {
    let error: PHPhotosError
}
