import Foundation
import Logging
import PhotosIngest
import PhotosLinux
import PhotosStore
import Synchronization

/// Does the work on disk that committed change blocks owe, and finishes what a stopped process left:
/// the one journal for every file the library touches (the import folder's files, and under roots
/// whose policy allows it, files trashed and renamed and sidecars written).
///
/// Order of the steps for a file placed in the library (each can be interrupted; the next open
/// resumes from the journal entry, which is deleted last):
/// 1. `link(staged, destination)`: the complete copy appears under its final name;
/// 2. `unlink(staged)` and `fsync` of the directory;
/// 3. for a move, `unlink(source)`, only if the source is still the file that was staged;
/// 4. the entry is deleted.
///
/// For a file removed with its asset: `unlink(destination)` only if it is still the file the
/// library placed (same device and inode), then the entry is deleted.
///
/// For a file of an asset deleted under a root with `write = "files"` (`trash`, FileJournal+Trash):
/// the Trash's `.trashinfo` is written, the file renamed into the trash, where it went recorded in
/// `trashedFile`, then the entry is deleted. A deleted album's directory (`trash` without an asset,
/// DirectoryAlbums) follows its files the same way; an asset's file moved into an album's directory
/// (`rename` with an asset) is renamed there, then the entry is deleted.
///
/// For a restore from the Trash (`restore`, FileJournal+Trash), journaled before anything moves: each
/// file of an asset is renamed back to its path and its `.trashinfo` removed, then the asset leaves
/// Recently Deleted, then its entries are deleted.
struct FileJournal {
    let database: LibraryDatabase
    let importDirectory: String
    /// Where work that cannot be done is reported (a sidecar that cannot be merged).
    var logger = Logger(label: "photos.library")
    /// Where deleted assets' files go.
    var trash = Trash()
    /// The library's roots: a stopped import's files are scanned under the one that holds them.
    var roots = LibraryRoots([])
    /// The zone file dates without an offset are read in, for those scans.
    var timeZone = TimeZone.current

    /// Entries this process is working on, by library and entry id: not taken over by a recovery in
    /// the same process. An entry of this process that is not here was left by an interrupted block.
    private static let inFlight = Mutex<Set<String>>([])

    private func key(_ id: Int64) -> String { "\(database.location)#\(id)" }

    /// Marks entries as worked on by this process (called inside the block's transaction).
    func begin(_ ids: [Int64]) {
        Self.inFlight.withLock { set in for id in ids { set.insert(key(id)) } }
    }

    /// Releases entries (done, or abandoned by a failed or interrupted block).
    func end(_ ids: [Int64]) {
        Self.inFlight.withLock { set in for id in ids { set.remove(key(id)) } }
    }

    /// Does the work of committed entries, in order; the first failure stops it and is thrown (the
    /// entries left are finished at the next open). An entry whose change was taken back
    /// (``UndoneOperation``) or whose sidecar could not be merged (``UserStateWriteFailure``) does not
    /// stop the others.
    func finish(_ entries: [FileJournalEntry]) throws {
        defer { end(entries.compactMap(\.id)) }
        try FaultInjection.reach(.committed, in: importDirectory)
        // An entry taken back, or a sidecar that could not be merged (each finished), does not stop
        // the others; the first such is reported once they are done.
        var reported: (any Error)?
        var pending = entries[...]
        // Sidecars one after another are written by one sync, which lists each folder once for them
        // (only while nothing else moves files there).
        var sidecars: SidecarSync?
        while let entry = pending.first {
            // Deleted assets' files one after another go to the Trash as one batch.
            let run = pending.prefix(while: Self.trashesAssetFile)
            if !run.isEmpty {
                if let failure = try trash(Array(run)).first { throw failure.error }
                pending.removeFirst(run.count)
                sidecars = nil
                continue
            }
            if entry.operation == .restore {
                // An asset's files back from the Trash, then the asset back in the library.
                let run = Self.restoresByAsset(Array(pending.prefix(while: { $0.operation == .restore })))[0]
                pending.removeFirst(run.count)
                sidecars = nil
                if let failure = try restoreAsset(run).first { throw failure.error }
                continue
            }
            pending.removeFirst()
            if entry.operation == .sidecar {
                sidecars = sidecars ?? SidecarSync(database: database).batched()
            } else {
                sidecars = nil
            }
            do {
                try perform(entry, sidecars: sidecars)
            } catch let error as UndoneOperation {
                reported = reported ?? error
                // Taking a change back points the later entries at a directory's old name, or drops an
                // asset's later moves: they are read again.
                let fresh = Dictionary(
                    uniqueKeysWithValues: try database.fileJournal().compactMap { entry in entry.id.map { ($0, entry) }
                    })
                pending = pending.compactMap { entry in entry.id.flatMap { fresh[$0] } }[...]
            } catch let error as UserStateWriteFailure {
                reported = reported ?? error
            }
        }
        if let reported { throw reported }
    }

    /// Does the work journaled for any process (``PhotosStore/FileJournalEntry/anyOwner``): the
    /// removals a committed transaction owes (deleted assets' files, dropped edits), when this
    /// process takes them before another does. Returns how many it finished.
    @discardableResult
    func finishUnowned() throws -> Int {
        var finished = 0
        for entry in try database.fileJournal() where entry.owner == FileJournalEntry.anyOwner {
            guard let id = entry.id,
                let claimed = try database.claimJournalEntry(
                    id, owner: FileOperations.processID,
                    mayTakeOver: {
                        $0 == FileJournalEntry.anyOwner
                    })
            else { continue }
            begin([id])
            defer { end([id]) }
            try perform(claimed)
            finished += 1
        }
        return finished
    }

    /// Finishes the entries of processes that stopped, and removes staged files nobody will place.
    /// Run when a library is opened (with this process's own entries that no block is working on:
    /// left by a block that failed), and by photosd while it runs (`onlyOtherProcesses`: an entry
    /// this process journaled ahead of its work may not be marked as worked on yet). Returns how many
    /// entries it finished.
    @discardableResult
    func recover(onlyOtherProcesses: Bool = false) throws -> Int {
        var finished = 0
        let me = FileOperations.processID
        let entries = try database.fileJournal()
        guard !onlyOtherProcesses || entries.contains(where: { $0.owner != me }) else { return 0 }
        repairTrashes(for: entries)
        func claim(_ entry: FileJournalEntry) throws -> FileJournalEntry? {
            guard let id = entry.id else { return nil }
            return try database.claimJournalEntry(id, owner: me) { owner in
                owner == me
                    ? !onlyOtherProcesses && !Self.inFlight.withLock { $0.contains(key(id)) }
                    : !FileOperations.processIsAlive(owner)
            }
        }
        var index = 0
        /// `first` and the entries after it that `belongs` takes too, claimed.
        func claimRun(from first: FileJournalEntry, while belongs: (FileJournalEntry) -> Bool) throws
            -> [FileJournalEntry]
        {
            var run = [first]
            while index < entries.count, belongs(entries[index]) {
                run.append(entries[index])
                index += 1
            }
            return try run.compactMap(claim)
        }
        while index < entries.count {
            let entry = entries[index]
            index += 1
            if Self.trashesAssetFile(entry) {
                // A run of deleted assets' files: claimed one by one, trashed as one batch.
                let claimed = try claimRun(from: entry, while: Self.trashesAssetFile)
                let ids = claimed.compactMap(\.id)
                begin(ids)
                defer { end(ids) }
                do {
                    // A file that cannot go to the Trash now (its trash made unusable meanwhile) stays
                    // where it is, its asset in Recently Deleted ("not moved yet"), and is tried again at
                    // the next open: it must not keep the library from opening.
                    finished += try claimed.count - trash(claimed).count
                } catch let error where !error.isSimulatedCrash {
                    continue
                }
                continue
            }
            if entry.operation == .restore {
                // A stopped restore's assets, each finished as its run would have: its files back,
                // then the asset. One that cannot come back now stays in Recently Deleted, where
                // `photos trash restore` says why; it must not keep the library from opening.
                let claimed = try claimRun(from: entry) { $0.operation == .restore }
                let ids = claimed.compactMap(\.id)
                begin(ids)
                defer { end(ids) }
                for asset in Self.restoresByAsset(claimed) {
                    for failure in try restoreAsset(asset) {
                        logger.warning("a stopped restore could not finish: \(failure.error)")
                    }
                }
                finished += claimed.count
                continue
            }
            if entry.operation == .importFile {
                // A stopped import's files, finished together as its run would have: placed, taken
                // by the library, and only then their originals removed.
                let claimed = try claimRun(from: entry) { $0.operation == .importFile }
                let ids = claimed.compactMap(\.id)
                begin(ids)
                defer { end(ids) }
                try resumeImports(claimed)
                try database.finishJournalEntries(ids)
                finished += claimed.count
                continue
            }
            guard let claimed = try claim(entry), let id = claimed.id else { continue }
            begin([id])
            defer { end([id]) }
            do {
                try perform(claimed)
            } catch is UndoneOperation {
                // The change was taken back in the library, which now says what the disk holds.
            } catch let failure as UserStateWriteFailure {
                // The library opens anyway: its state is whole, only the sidecar lags.
                logger.warning("\(failure)")
                continue
            } catch let error where claimed.operation == .trash && !error.isSimulatedCrash {
                // A file that cannot go to the Trash now (its trash made unusable meanwhile) stays where
                // it is, its asset in Recently Deleted ("not moved yet"), and is tried again at the next
                // open: it must not keep the library from opening.
                continue
            }
            finished += 1
        }
        try removeAbandonedStagedFiles()
        return finished
    }

    private func perform(_ entry: FileJournalEntry, sidecars: SidecarSync? = nil) throws {
        do {
            try performWork(entry, sidecars: sidecars)
        } catch let undone as UndoneOperation {
            // Taken back in the library: nothing is left to do for this entry.
            if let id = entry.id { try database.finishJournalEntry(id) }
            throw undone
        }
        if let id = entry.id { try database.finishJournalEntry(id) }
    }

    private func performWork(_ entry: FileJournalEntry, sidecars: SidecarSync?) throws {
        switch entry.operation {
        case .place: try place(entry)
        case .remove: try remove(entry)
        // Without an asset: a deleted album's directory; with one: an asset's file.
        case .trash:
            if entry.assetId == nil {
                try trashDirectory(entry)
            } else if let failure = try trash([entry]).first {
                throw failure.error
            }
        // With an asset: its file moved into an album's directory; without: a directory renamed.
        case .rename: try entry.assetId == nil ? rename(entry) : moveAssetFile(entry)
        case .sidecar: try updateSidecar(entry, using: sidecars)
        case .manifest: try writeManifest(entry)
        case .mkdir: try makeAlbumDirectory(entry)
        case .importFile: try resumeImportedFile(entry)  // Finished in runs: ``resumeImports(_:)``.
        case .restore:  // Finished in runs, asset by asset: ``restoreAsset(_:)``.
            if let failure = try restoreAsset([entry]).first { throw failure.error }
        }
    }

    private func place(_ entry: FileJournalEntry) throws {
        let destination = entry.destination
        let directory = (destination as NSString).deletingLastPathComponent
        if let staged = entry.staged, let stagedIdentity = try FileOperations.identity(staged) {
            if let existing = try FileOperations.identity(destination) {
                // Already linked (or copied onto another file system or mount) by an interrupted run;
                // anything else there is not ours to replace.
                guard existing.device == stagedIdentity.device, existing.inode == stagedIdentity.inode else {
                    guard try takeInterruptedCopy(of: staged, at: destination) else {
                        throw SystemCallError(call: "link", path: destination, errno: EEXIST)
                    }
                    try FaultInjection.reach(.linked, in: importDirectory)
                    try FileOperations.unlink(staged)
                    return try finishPlacing(entry)
                }
            } else if try Self.crossesDevices(stagedIdentity, into: directory) {
                // A created asset placed in a directory-backed album's directory on another file system.
                _ = try copyAcrossDevices(staged, to: destination, for: entry)
            } else {
                do {
                    try FileOperations.link(staged, destination)
                } catch let error as SystemCallError where error.errno == EXDEV {
                    // Another mount of the same file system (a bind mount, a container's volume):
                    // one device, but `link` refuses to cross mounts.
                    _ = try copyAcrossDevices(staged, to: destination, for: entry)
                } catch let error as SystemCallError where [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(error.errno) {
                    try FileOperations.renameIfAbsent(staged, destination)
                }
            }
            try FaultInjection.reach(.linked, in: importDirectory)
            try FileOperations.unlink(staged)
        }
        try finishPlacing(entry)
    }

    /// The steps of placing a file after it is under its final name: its directory synced, then a moved
    /// original removed.
    private func finishPlacing(_ entry: FileJournalEntry) throws {
        let destination = entry.destination
        let directory = (destination as NSString).deletingLastPathComponent
        try FileOperations.sync(directory, directory: true)
        try FaultInjection.reach(.placed, in: importDirectory)
        guard entry.removeSource, let source = entry.source else { return }
        guard try FileOperations.identity(destination) != nil else {
            // Nothing reached the library: the original stays where it is.
            return
        }
        if let current = try FileOperations.identity(source), current.device == entry.device,
            current.inode == entry.inode, current.size == entry.fileSize,
            current.modificationTime == entry.modificationTime
        {
            try FileOperations.unlink(source)
            try FileOperations.sync((source as NSString).deletingLastPathComponent, directory: true)
        }
        try FaultInjection.reach(.sourceRemoved, in: importDirectory)
    }

    private func remove(_ entry: FileJournalEntry) throws {
        guard let current = try FileOperations.identity(entry.destination) else { return }
        guard current.device == entry.device, current.inode == entry.inode,
            Self.isInside(entry.destination, importDirectory)
        else { return }
        try FileOperations.unlink(entry.destination)
        FileOperations.removeEmptyDirectory((entry.destination as NSString).deletingLastPathComponent)
        try FaultInjection.reach(.removed, in: importDirectory)
    }

    /// Staged files of processes that are gone and that no entry will place: copies of blocks that
    /// never committed.
    private func removeAbandonedStagedFiles() throws {
        let staging = importDirectory + "/.staging"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: staging) else { return }
        let wanted = Set(try database.fileJournal().compactMap(\.staged))
        let me = FileOperations.processID
        for name in names {
            guard let owner = name.split(separator: "-", maxSplits: 1).first.flatMap({ Int64($0) }),
                owner != me, !FileOperations.processIsAlive(owner)
            else { continue }
            let path = staging + "/" + name
            if !wanted.contains(path) { try FileOperations.unlink(path) }
        }
    }

    /// Whether `path`, with links and `..` resolved, lies inside `directory` (also resolved).
    static func isInside(_ path: String, _ directory: String) -> Bool {
        guard let resolvedDirectory = FileOperations.resolved(directory),
            let resolvedParent = FileOperations.resolved((path as NSString).deletingLastPathComponent)
        else { return false }
        let resolved = resolvedParent + "/" + (path as NSString).lastPathComponent
        let prefix = resolvedDirectory.hasSuffix("/") ? resolvedDirectory : resolvedDirectory + "/"
        let name = (path as NSString).lastPathComponent
        return resolved.hasPrefix(prefix) && name != ".." && name != "."
    }
}

/// Test hooks between the steps of a change block's file work, to prove that a process stopped at
/// any of them loses nothing. A hook that answers true stops the block there as a killed process
/// would stop: no clean-up, the journal as it is.
enum FaultInjection {
    /// The points a hook can stop at.
    enum Step: String, Sendable, CaseIterable {
        /// A resource is staged; the block has not committed.
        case staged
        /// The block committed; nothing is placed yet.
        case committed
        /// The file is linked under its final name; the staged name is still there.
        case linked
        /// The file is in place; a moved original is still there.
        case placed
        /// The moved original is removed; the journal entry is not yet deleted.
        case sourceRemoved
        /// A deleted asset's file is removed; the journal entry is not yet deleted.
        case removed
        /// A directory is renamed; its parents are not synced and the journal entry is not yet deleted.
        case renamed
        /// An asset's file is in an album's directory; the journal entry is not yet deleted.
        case assetFileMoved
        /// A file going to another file system is copied, synced and verified under a temporary name;
        /// nothing is under its final name yet.
        case copiedAcross
        /// An asset's file copied to another file system is under its final name and recorded; the
        /// original is still there.
        case copiedIntoPlace
        /// A new album's directory is made; its parent is not synced and the journal entry is not yet deleted.
        case directoryMade
        /// An asset's sidecar is read and merged; nothing is written yet.
        case sidecarMerged
        /// The sidecar is written; its merge base is not stored and the journal entry is not yet deleted.
        case sidecarWritten
        /// A root's album manifest is about to be written.
        case manifestWriting
        /// The album manifest is written; the journal entry is not yet deleted.
        case manifestWritten
        /// A deleted asset's file has its `.trashinfo` in the Trash; the file has not moved.
        case trashInfoWritten
        /// A deleted asset's file is in the Trash; where it went is not yet recorded.
        case trashed
        /// Where the file went is recorded; the journal entry is not yet deleted.
        case trashRecorded
        /// A restore's files are journaled; none has moved.
        case restoreJournaled
        /// A file of a restored asset is back at its path; its `.trashinfo` is still in the Trash.
        case untrashed
        /// A restored asset is back in the library; its journal entries are not yet deleted.
        case restoreCommitted
        /// An import's group is journaled; none of its files is placed.
        case importJournaled
        /// One file of an import's group is linked or copied to its place; its original is still there.
        case importPlaced
        /// An import's group is placed and scanned into the library; its originals are still there.
        case importScanned
        /// One original of a moving import's group is removed; the journal entry is not yet deleted.
        case importSourceRemoved
    }

    /// The hooks, by import directory.
    private static let hooks = Mutex<[String: @Sendable (Step) -> Bool]>([:])

    /// Installs the hook for the library whose import directory is `importDirectory`: it answers
    /// whether to stop at a step. Other libraries' blocks never stop: tests run in parallel in one
    /// process, and one test's crash must not land in another's commit (each library has its own
    /// hook, so parallel tests with hooks do not replace each other's either).
    static func set(in importDirectory: String, _ body: @escaping @Sendable (Step) -> Bool) {
        hooks.withLock { $0[importDirectory] = body }
    }

    /// Installs a hook that stops the block the `time`-th time it reaches `step` (1 for the first):
    /// the way to stop between two of a block's files.
    static func stop(at step: Step, time: Int, in importDirectory: String) {
        let seen = Mutex(0)
        set(in: importDirectory) { reached in
            guard reached == step else { return false }
            return seen.withLock { count in
                count += 1
                return count == time
            }
        }
    }

    /// Removes the hook of the library whose import directory is `importDirectory`.
    static func clear(in importDirectory: String) { _ = hooks.withLock { $0.removeValue(forKey: importDirectory) } }

    /// Asks the hook, if it is this library's (`importDirectory`), and stops (throws a simulated
    /// crash) where it says so.
    static func reach(_ step: Step, in importDirectory: String) throws {
        guard let hook = hooks.withLock({ $0[importDirectory] }), hook(step) else { return }
        throw SystemCallError(call: "simulated crash at \(step.rawValue)", path: "", errno: crashCode)
    }

    /// The pseudo-errno that marks a simulated crash.
    static let crashCode: Int32 = -9
}

extension Error {
    /// Whether this is a test's simulated crash (``FaultInjection``), which skips every clean-up.
    var isSimulatedCrash: Bool {
        (self as? SystemCallError)?.errno == FaultInjection.crashCode
    }
}

/// A sidecar or album manifest that could not be brought up to date (it is not ours to write over,
/// or cannot be written): the library keeps the state, the entry is done, and the error is
/// reported rather than retried at every open; unless `kept` (a full or read-only disk): then the
/// entry stays, and the next open writes it.
struct UserStateWriteFailure: Error, CustomStringConvertible {
    /// The file.
    let file: String
    /// What it is: `sidecar`, `album manifest`.
    let what: String
    let cause: any Error
    /// Whether the write is kept for the next open.
    var kept = false
    var description: String {
        "cannot update the \(what) \(file): \(cause)"
            + (kept ? " (kept: written at the next open of the library once its disk allows)" : "")
    }
}
