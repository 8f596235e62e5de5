import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosStore

extension FileJournal {
    /// Whether an entry moves a deleted asset's file to the Trash: such entries, one after another,
    /// are done as one batch (``trash(_:)``).
    static func trashesAssetFile(_ entry: FileJournalEntry) -> Bool {
        entry.operation == .trash && entry.assetId != nil
    }

    /// Moves the files of deleted assets to the Trash of their file systems (`trash` entries with an
    /// asset), each if it is still the file that was deleted (same device and inode), records where
    /// they went, and deletes the entries done. Returns the entries that could not be done, with
    /// why: they stay in the journal, for the next open.
    ///
    /// One batch, so that a thousand files cost a few syncs and two transactions rather than
    /// thousands (`Trash.trash(_:)` of many paths): every `.trashinfo` written and synced, then every
    /// file renamed, then each directory synced once; then one transaction records where every file
    /// went (`trashedFile`), and one deletes the entries.
    ///
    /// Each step can be interrupted and the batch done again: a file already in the trash (found by
    /// its original path, device and inode) is only recorded; a file gone from its path, or another
    /// file there now, is left alone; an asset restored or erased meanwhile has nothing left to do.
    /// Throws only a stop of the whole batch (the database, a test's simulated crash).
    func trash(_ entries: [FileJournalEntry]) throws -> [(entry: FileJournalEntry, error: any Error)] {
        let files = try database.trashedFiles(entries.map { ($0.assetId ?? -1, $0.destination) })
        var failures: [(entry: FileJournalEntry, error: any Error)] = []
        var toMove: [(entry: FileJournalEntry, file: TrashedFile, fileID: Int64)] = []
        var recorded: [(fileID: Int64, name: String, directory: TrashDirectory)] = []
        var done: [Int64] = []
        // Each trash is listed at most once (a recovery looking for files a stopped process moved).
        var listings: [String: TrashListing] = [:]
        for (entry, file) in zip(entries, files) {
            guard let file, let fileID = file.id, file.trashName == nil else {
                if let id = entry.id { done.append(id) }
                continue
            }
            do {
                if let current = try FileOperations.identity(file.path), current.device == file.device,
                    current.inode == file.inode
                {
                    toMove.append((entry, file, fileID))
                    continue
                }
                let directory = TrashDirectory(
                    path: file.trashDirectory, kind: TrashDirectory.Kind(rawValue: file.trashKind) ?? .user,
                    topDirectory: file.trashTop)
                let listing = try listings[directory.path] ?? trash.listing(of: directory)
                listings[directory.path] = listing
                if let moved = listing.entries.first(where: {
                    $0.originalPath == file.path && $0.file?.device == file.device && $0.file?.inode == file.inode
                }) {
                    // Moved by a process stopped before it could record where.
                    recorded.append((fileID, moved.name, moved.directory))
                }
                if let id = entry.id { done.append(id) }
            } catch {
                failures.append((entry, error))
            }
        }
        if !toMove.isEmpty {
            var trash = self.trash
            let importDirectory = importDirectory
            trash.stopHook = { step in
                switch step {
                case .infoWritten: try FaultInjection.reach(.trashInfoWritten, in: importDirectory)
                case .moved: try FaultInjection.reach(.trashed, in: importDirectory)
                default: break
                }
            }
            let results = try trash.trash(toMove.map(\.file.path))
            for (item, result) in zip(toMove, results) {
                switch result {
                case .success(let moved):
                    recorded.append((item.fileID, moved.name, moved.directory))
                    if let id = item.entry.id { done.append(id) }
                case .failure(let error):
                    failures.append((item.entry, error))
                }
            }
        }
        if !recorded.isEmpty {
            try database.noteTrashed(recorded)
            try FaultInjection.reach(.trashRecorded, in: importDirectory)
        }
        try database.finishJournalEntries(done)
        return failures
    }

    /// Removes the `.trashinfo` files that trashing stopped halfway left (written, the file never
    /// moved) in the trashes of the entries about to be finished: run before a recovery does them.
    func repairTrashes(for entries: [FileJournalEntry]) {
        let trashing = entries.filter(Self.trashesAssetFile)
        guard !trashing.isEmpty,
            let files = try? database.trashedFiles(trashing.map { ($0.assetId ?? -1, $0.destination) })
        else { return }
        var seen = Set<String>()
        for file in files {
            guard let file, seen.insert(file.trashDirectory).inserted else { continue }
            let directory = TrashDirectory(
                path: file.trashDirectory, kind: TrashDirectory.Kind(rawValue: file.trashKind) ?? .user,
                topDirectory: file.trashTop)
            _ = try? trash.repair(directory)
        }
    }
}

extension FileJournal {
    /// The `restore` entries of one asset (its files brought back from the Trash), in the order they
    /// were journaled; the run `entries` holds, grouped by asset (one after another in the journal).
    static func restoresByAsset(_ entries: [FileJournalEntry]) -> [[FileJournalEntry]] {
        var groups: [[FileJournalEntry]] = []
        for entry in entries {
            if let last = groups.last?.last, last.assetId == entry.assetId {
                groups[groups.count - 1].append(entry)
            } else {
                groups.append([entry])
            }
        }
        return groups
    }

    /// Brings one deleted asset's files back from the Trash (`restore` entries of one asset, or none
    /// when its files are all back already: then `assetId` names it): each is
    /// renamed back to its path (never over another file) if it is still the file the library put
    /// there (device, inode), and its `.trashinfo` removed; then, in one transaction, the asset leaves
    /// Recently Deleted, if every photo and movie of it journaled is at its path (a sidecar that
    /// cannot come back does not keep it away). Its entries are then deleted, done or not. Returns the
    /// entries that could not be done, with why: the asset stays in Recently Deleted when one of them
    /// is a photo or movie, the files moved back so far at their paths (`photos trash restore` or
    /// the scan, which takes a file back at its path for its asset, finish it).
    ///
    /// Each step can be interrupted and done again: a file already back is not moved again, a
    /// `.trashinfo` left behind is removed, an asset restored meanwhile (by the scan) is not restored
    /// twice. Throws only a stop of the whole restore (the database, a test's simulated crash).
    func restoreAsset(_ entries: [FileJournalEntry], assetId: Int64? = nil) throws
        -> [(entry: FileJournalEntry, error: any Error)]
    {
        var failures: [(entry: FileJournalEntry, error: any Error)] = []
        var trash = self.trash
        let importDirectory = importDirectory
        trash.stopHook = { step in
            if step == .restored { try FaultInjection.reach(.untrashed, in: importDirectory) }
        }
        for entry in entries {
            do {
                try restoreFile(entry, using: trash)
            } catch let error where !error.isSimulatedCrash {
                failures.append((entry, error))
            }
        }
        let keptAway = failures.contains { !PHPhotoLibrary.isSidecar($0.entry.destination) }
        if !keptAway, let assetId = assetId ?? entries.first?.assetId {
            let roots = self.roots
            try database.write { transaction in
                guard try transaction.restoreTrashedAsset(assetId) != nil else { return }
                // Each directory the files came back to has its album, as a scan would give it: the
                // album it had may have been renamed away, and the directory made again.
                let directories = Set(
                    entries.filter { !PHPhotoLibrary.isSidecar($0.destination) }.map {
                        PathName.directory(of: $0.destination)
                    })
                for directory in directories.sorted() {
                    guard try transaction.directoryAlbum(at: directory) == nil,
                        let root = roots.root(of: directory)?.path
                    else { continue }
                    try DirectoryAlbumPlacement.place([directory], under: root, in: transaction)
                }
            }
            try FaultInjection.reach(.restoreCommitted, in: importDirectory)
        }
        try database.finishJournalEntries(entries.compactMap(\.id))
        return failures
    }

    /// One file of a `restore` entry back at its path, its `.trashinfo` removed.
    private func restoreFile(_ entry: FileJournalEntry, using trash: Trash) throws {
        guard let source = entry.source else { return }
        func isTheFile(_ identity: FileIdentity?) -> Bool {
            identity?.device == entry.device && identity?.inode == entry.inode
        }
        if isTheFile(try FileOperations.identity(entry.destination)) {
            // Moved back by a process stopped before it could remove the `.trashinfo`.
            try trash.finishRestore(of: source)
            return
        }
        guard isTheFile(try FileOperations.identity(source)) else {
            throw TrashError(
                code: .notFound,
                message: "cannot restore \(entry.destination): \(source) is no longer the file deleted from there "
                    + "(the Trash was emptied, or the entry taken by another file)",
                path: source)
        }
        try trash.restore(file: source, to: entry.destination)
    }
}
