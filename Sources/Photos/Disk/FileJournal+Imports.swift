import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosStore

/// The journal's side of an import (``FolderImport``): each file placed under its new name, never
/// over anything; a move's original removed only once its place holds it and the library has it;
/// and what a stopped import left halfway finished or taken back at the next start.
extension FileJournal {
    /// Step 2 for one file: `source` linked to its place (`link`, one file system), else copied,
    /// synced, verified and renamed into place; never over anything. A place already holding this
    /// file (a stopped run linked or copied it) is taken as it is. `folderDevice`: the device of the
    /// destination's folder, when the caller read it (once for the files of a folder).
    func placeImportedFile(_ entry: FileJournalEntry, link: Bool, folderDevice: Int64? = nil) throws {
        guard let source = entry.source,
            try !linkImportedFile(entry, link: link, folderDevice: folderDevice)
        else { return }
        // Not recorded (no asset has the file yet: the scan does it) and its folder synced once for
        // the batch.
        _ = try copyAcrossDevices(
            source, to: entry.destination, for: entry, recording: false, syncingDirectory: false)
        try FaultInjection.reach(.importPlaced, in: importDirectory)
    }

    /// Step 2 for one file, when a link does it: true once the file is in place (linked now, or by
    /// a stopped run), false when it must be copied (another file system or mount, no hard links,
    /// or a copying import). Throws when the original is no longer the file journaled, or another
    /// file has its name.
    func linkImportedFile(_ entry: FileJournalEntry, link: Bool, folderDevice: Int64? = nil) throws -> Bool {
        guard let source = entry.source else { return true }
        let destination = entry.destination
        guard let current = try FileOperations.identity(source), current.device == entry.device,
            current.inode == entry.inode
        else { throw SystemCallError(call: "lstat", path: source, errno: ENOENT) }
        /// A place already taken: by this file (a stopped run placed it), or by another.
        func taken() throws -> Bool {
            guard try holdsImportedFile(entry, at: destination) else {
                throw SystemCallError(call: "link", path: destination, errno: EEXIST)
            }
            return true
        }
        let crosses =
            try folderDevice.map { $0 != current.device }
            ?? Self.crossesDevices(current, into: PathName.directory(of: destination))
        if link, !crosses {
            // `link` never replaces a name, so it is tried first: a name looked up that is not
            // there costs a search of a large folder.
            do {
                try FileOperations.link(source, destination)
                try FaultInjection.reach(.importPlaced, in: importDirectory)
                return true
            } catch let error as SystemCallError where error.errno == EEXIST {
                return try taken()
            } catch let error as SystemCallError
                where [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV].contains(error.errno)
            {
                // A file system without hard links, or two mounts of one file system (a bind mount,
                // a container's volume: one device, but `link` refuses to cross mounts): a copy, as
                // across file systems.
            }
        }
        if try FileOperations.identity(destination) != nil { return try taken() }
        return false
    }

    /// Step 2 for a file to copy, first half: ``writeTemporaryCopy(of:to:for:syncing:)`` without
    /// its sync; a batch's copies are synced together before any is trusted.
    func copyImportedFileUnsynced(_ entry: FileJournalEntry) throws {
        guard let source = entry.source else { return }
        try writeTemporaryCopy(of: source, to: entry.destination, for: entry, syncing: false)
    }

    /// Step 2 for a file to copy, second half, once the copies are synced:
    /// ``renameVerifiedCopy(of:to:for:)``.
    func placeImportedCopy(_ entry: FileJournalEntry) throws {
        guard let source = entry.source else { return }
        try renameVerifiedCopy(of: source, to: entry.destination, for: entry)
        try FaultInjection.reach(.importPlaced, in: importDirectory)
    }

    /// Removes the temporary copy `entry` made, if it is there.
    func removeTemporaryCopy(for entry: FileJournalEntry) throws {
        try FileOperations.unlink(Self.temporaryCopy(of: entry.destination, for: entry))
    }

    /// Whether `destination` holds the file `entry` imports: the same inode (linked), or a copy of the
    /// same bytes (copied and verified).
    func holdsImportedFile(_ entry: FileJournalEntry, at destination: String) throws -> Bool {
        guard let placed = try FileOperations.identity(destination), placed.isRegularFile else { return false }
        if placed.device == entry.device, placed.inode == entry.inode { return true }
        guard let source = entry.source, placed.size == entry.fileSize,
            try FileOperations.identity(source) != nil
        else { return false }
        return try FileOperations.sameContent(source, destination)
    }

    /// Removes a file a failed group placed (steps 2 taken back), if it is still the imported file.
    func takeBackImportedFile(_ entry: FileJournalEntry, at destination: String) throws {
        guard try holdsImportedFile(entry, at: destination) else { return }
        try FileOperations.unlink(destination)
        try FileOperations.sync(PathName.directory(of: destination), directory: true)
    }

    /// An entry a stopped process left, finished alone: ``resumeImports(_:)`` of it.
    func resumeImportedFile(_ entry: FileJournalEntry) throws {
        try resumeImports([entry])
    }

    /// Entries a stopped process left, finished as its run would have finished them, group by group
    /// (``importGroups(_:)``): a group whose files can all be in place has those not yet placed
    /// placed now (each still the file journaled, its folder there), so that it lands whole under
    /// the names its run chose; a group one of whose files can no longer land (another file took
    /// its name, its original changed) is taken back whole, unless an original of it is already
    /// removed. The library then takes the files in place (one scan per root, each asset with its
    /// origin), and only then are the originals removed (step 4). The caller deletes the entries.
    func resumeImports(_ entries: [FileJournalEntry]) throws {
        var folders = Set<String>()
        var takenBack = Set<Int64>()
        for group in Self.importGroups(entries) {
            let states = try group.map(stoppedImportState)
            if states.contains(.blocked), !states.contains(.originalRemoved) {
                for (entry, state) in zip(group, states) where state == .placed {
                    try takeBackImportedFile(entry, at: entry.destination)
                }
                takenBack.formUnion(group.compactMap(\.id))
                continue
            }
            for (entry, state) in zip(group, states) where state == .placeable {
                try placeImportedFile(entry, link: entry.removeSource)
                folders.insert(PathName.directory(of: entry.destination))
            }
        }
        for folder in folders.sorted() { try FileOperations.sync(folder, directory: true) }
        scanImportedFiles(entries.filter { !takenBack.contains($0.id ?? -1) })
        for entry in entries {
            if case .kept(let reason) = try finishImportedFile(entry), let source = entry.source {
                logger.warning(
                    "a stopped import's original stays: it cannot be removed",
                    metadata: ["file": "\(source)", "place": "\(entry.destination)", "reason": "\(reason)"])
            }
        }
    }

    /// Whether `original` is still the file `entry` journaled: the same device, inode, size and
    /// modification time (a file saved under its name meanwhile is another).
    static func isJournaledOriginal(_ original: FileIdentity?, of entry: FileJournalEntry) -> Bool {
        guard let original else { return false }
        return original.device == entry.device && original.inode == entry.inode && original.size == entry.fileSize
            && original.modificationTime == entry.modificationTime
    }

    /// Where a stopped run left one file of its import.
    enum StoppedImportState {
        /// Its place holds it; its original is still there.
        case placed
        /// Its place holds it and its original is gone: the run had begun removing the originals.
        case originalRemoved
        /// Not placed, and it can be: its original is the file journaled and its folder is there.
        case placeable
        /// Not placed, and it cannot be: another file has its name, or its original changed or went.
        case blocked
    }

    func stoppedImportState(_ entry: FileJournalEntry) throws -> StoppedImportState {
        guard let source = entry.source else { return .blocked }
        let original = try FileOperations.identity(source)
        if let placed = try FileOperations.identity(entry.destination) {
            if original == nil,
                placed.device == entry.device && placed.inode == entry.inode || placed.size == entry.fileSize
            {
                return .originalRemoved
            }
            return try holdsImportedFile(entry, at: entry.destination) ? .placed : .blocked
        }
        guard Self.isJournaledOriginal(original, of: entry),
            try FileOperations.identity(PathName.directory(of: entry.destination), followingLinks: true) != nil
        else { return .blocked }
        return .placeable
    }

    /// A run's entries in its groups, in journal order: a group's files were journaled one after
    /// the other, its primary first, and each of the others is named as the primary is up to the
    /// primary's extension (`IMG_1.HEIC`, then `IMG_1.MOV`, `IMG_1.HEIC.xmp`, `IMG_1.xmp`).
    static func importGroups(_ entries: [FileJournalEntry]) -> [[FileJournalEntry]] {
        var groups: [[FileJournalEntry]] = []
        var stem = ""
        var folder = ""
        for entry in entries {
            let name = PathName.name(of: entry.destination)
            let directory = PathName.directory(of: entry.destination)
            if !groups.isEmpty, directory == folder, name.hasPrefix(stem + ".") {
                groups[groups.count - 1].append(entry)
            } else {
                groups.append([entry])
                folder = directory
                stem = (name as NSString).deletingPathExtension
            }
        }
        return groups
    }

    /// Step 3 for a stopped run's files: the library takes each file that is in place and is the
    /// imported file, under the root that holds it. A scan that fails is logged: the files stay in
    /// place, and the next scan of the root takes them.
    private func scanImportedFiles(_ entries: [FileJournalEntry]) {
        var byRoot: [String: [String: String]] = [:]
        for entry in entries {
            guard let source = entry.source, let root = roots.root(of: entry.destination),
                (try? holdsImportedFile(entry, at: entry.destination)) == true
            else { continue }
            byRoot[root.path, default: [:]][entry.destination] = source
        }
        for (root, origins) in byRoot.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try FolderScanner(database: database, timeZone: timeZone, quietTime: 0, origins: origins)
                    .scan(root: root, files: Set(origins.keys))
            } catch {
                logger.warning(
                    "a stopped import's files are in place but not yet in the library",
                    metadata: ["root": "\(root)", "files.count": "\(origins.count)", "error": "\(error)"])
            }
        }
    }

    /// What step 4 did with a file's original.
    enum OriginalOutcome: Equatable {
        /// Nothing to do: a copy, a file never placed, or an original that is another file now.
        case left
        /// Removed.
        case removed
        /// Could not be removed (a card whose write-protect tab is on, a read-only mount, an
        /// immutable file), the system's reason given: it stays beside its place, which holds
        /// the photo the library has.
        case kept(reason: String)
    }

    /// Step 4 for one file: a temporary copy a stopped run left is removed; for a move whose file is
    /// in place, the original is removed if it is still the file that was placed. A file never placed
    /// stays where it is, and so does anything at the place that is not this file; an original the
    /// system does not let go (`EROFS`, `EACCES`, `EPERM`) stays too, and the import goes on:
    /// the photo is in its place and in the library, as a copy's would be. An original removed
    /// has its folder synced (here, unless `placedByThisRun`, whose caller syncs each folder once).
    /// `placedByThisRun`: this process linked or copied and verified the file a moment ago, so its
    /// place is checked by identity and size, not read again.
    @discardableResult
    func finishImportedFile(_ entry: FileJournalEntry, placedByThisRun: Bool = false) throws -> OriginalOutcome {
        guard let source = entry.source else { return .left }
        // A copy this run made was renamed into place or removed by the copy itself.
        if !placedByThisRun { try FileOperations.unlink(Self.temporaryCopy(of: entry.destination, for: entry)) }
        guard entry.removeSource else { return .left }
        let holds: Bool
        if placedByThisRun, let placed = try FileOperations.identity(entry.destination) {
            holds = (placed.device == entry.device && placed.inode == entry.inode) || placed.size == entry.fileSize
        } else {
            holds = try holdsImportedFile(entry, at: entry.destination)
        }
        guard holds, Self.isJournaledOriginal(try FileOperations.identity(source), of: entry) else { return .left }
        do {
            try FileOperations.unlink(source)
        } catch let error as SystemCallError where [EROFS, EACCES, EPERM].contains(error.errno) {
            return .kept(reason: error.reason)
        }
        if !placedByThisRun { try FileOperations.sync(PathName.directory(of: source), directory: true) }
        try FaultInjection.reach(.importSourceRemoved, in: importDirectory)
        return .removed
    }
}
