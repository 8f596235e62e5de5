import PhotosCore
import PhotosLinux
import PhotosStore

extension FileJournal {
    /// Moves a file of a deleted asset to the Trash of its file system (`trash` entries), if it is
    /// still the file that was deleted (same device and inode), and records where it went.
    ///
    /// Each step can be interrupted and the entry done again: a file already in the trash (found by
    /// its original path, device and inode) is only recorded; a file gone from its path, or another
    /// file there now, is left alone; an asset restored or erased meanwhile has nothing left to do.
    func trash(_ entry: FileJournalEntry) throws {
        guard let assetId = entry.assetId,
            let file = try database.trashedFile(assetId: assetId, path: entry.destination),
            let fileID = file.id, file.trashName == nil
        else { return }
        let directory = TrashDirectory(
            path: file.trashDirectory, kind: TrashDirectory.Kind(rawValue: file.trashKind) ?? .user,
            topDirectory: file.trashTop)
        if let current = try FileOperations.identity(file.path), current.device == file.device,
            current.inode == file.inode
        {
            var trash = self.trash
            let importDirectory = importDirectory
            trash.stopHook = { step in
                if step == .infoWritten { try FaultInjection.reach(.trashInfoWritten, in: importDirectory) }
            }
            let moved = try trash.trash(file.path)
            try FaultInjection.reach(.trashed, in: importDirectory)
            try database.noteTrashed(fileID, name: moved.name, in: moved.directory)
        } else if let moved = try trash.listing(of: directory).entries.first(where: {
            $0.originalPath == file.path && $0.file?.device == file.device && $0.file?.inode == file.inode
        }) {
            // Moved by a process stopped before it could record where.
            try database.noteTrashed(fileID, name: moved.name, in: moved.directory)
        } else {
            return
        }
        try FaultInjection.reach(.trashRecorded, in: importDirectory)
    }

    /// Removes the `.trashinfo` files that trashing stopped halfway left (written, the file never
    /// moved) in the trashes of the entries about to be finished: run before a recovery does them.
    func repairTrashes(for entries: [FileJournalEntry]) {
        var seen = Set<String>()
        for entry in entries where entry.operation == .trash {
            guard let assetId = entry.assetId,
                let file = try? database.trashedFile(assetId: assetId, path: entry.destination),
                seen.insert(file.trashDirectory).inserted
            else { continue }
            let directory = TrashDirectory(
                path: file.trashDirectory, kind: TrashDirectory.Kind(rawValue: file.trashKind) ?? .user,
                topDirectory: file.trashTop)
            _ = try? trash.repair(directory)
        }
    }
}
