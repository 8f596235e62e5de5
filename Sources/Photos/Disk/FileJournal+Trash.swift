import PhotosCore
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
