import Foundation
import PhotosCore
import PhotosLinux
import PhotosMetadata
import PhotosStore

/// The change requests made while one change block runs, and how they are applied.
// @unchecked (a task-local must be Sendable): `requests` is appended to by the change block, on the thread that
// runs it, and read by `commit()` on that thread after the block returns.
final class ChangeBlock: @unchecked Sendable {
    /// The change block running on this thread or task, if any.
    @TaskLocal static var current: ChangeBlock?

    let library: PHPhotoLibrary
    private(set) var requests: [PHChangeRequest] = []

    init(library: PHPhotoLibrary) {
        self.library = library
    }

    /// Adds a request to the running block; making one outside a block is a programming error, as
    /// in PhotoKit (where it raises an exception).
    static func enroll(_ request: PHChangeRequest) {
        guard let block = current else {
            preconditionFailure(
                "\(type(of: request)) can only be created inside a PHPhotoLibrary performChanges block")
        }
        block.requests.append(request)
    }

    /// Applies every request in one transaction: creations first (so that placeholders resolve),
    /// then edits in the order they were made, then deletions. Files are staged before the commit
    /// and put in place after it (``FileJournal``); a caller's file is moved only once the asset
    /// that records it has committed, and stays where it was, byte for byte, if the block fails.
    ///
    /// Returns the token of the change-log entry the commit appended; nil when nothing changed.
    @discardableResult
    func commit() throws -> Int64? {
        guard !requests.isEmpty else { return nil }
        let context = ApplyContext(library: library)
        let journal = library.fileJournal
        var entries: [FileJournalEntry] = []
        var owesFileWork = false
        let token: Int64?
        do {
            token = try library.database.write { transaction in
                context.transaction = transaction
                for request in requests { try request.applyCreation(context) }
                for request in requests { try request.applyEdits(context) }
                for request in requests { try request.applyDeletion(context) }
                // User albums and folders live in each root's manifest too, for a rebuild from the disk.
                if requests.contains(where: {
                    $0 is PHAssetCollectionChangeRequest || $0 is PHCollectionListChangeRequest
                }) {
                    try context.writeManifests()
                }
                entries = try context.journalEntries.map { try transaction.journal($0) }
                journal.begin(entries.compactMap(\.id))
                owesFileWork = transaction.owesFileWork
            }.token
        } catch {
            journal.end(entries.compactMap(\.id))
            // A killed process cleans nothing up; the test that simulates one checks what is left.
            if !error.isSimulatedCrash { context.staging.discard() }
            throw PHPhotoLibrary.photosError(error)
        }
        // Photos this block moves on disk, or places in a root (a created asset added to a
        // directory-backed album), keep their identifiers in the roots' identifier logs, for a
        // rebuild; the logs are caught up once the files are in place or taken back.
        let roots = library.roots
        let moves = entries.contains {
            $0.operation == .rename || ($0.operation == .place && roots.root(of: $0.destination) != nil)
        }
        defer { if moves { library.catchUpIdentifierLogs() } }
        do {
            try journal.finish(entries)
            // Files of deleted assets and dropped edits, journaled by the store for any process.
            if owesFileWork { try journal.finishUnowned() }
        } catch let undone as UndoneOperation {
            // The library took that part of the block back: it says what the disk holds.
            throw undone.error
        } catch let failure as UserStateWriteFailure {
            // Not retried at the next open: the sidecar needs a person (it is not XMP, say).
            throw PHPhotosError(
                .operationInterrupted, "the changes were committed and the library keeps them, but \(failure)")
        } catch {
            throw PHPhotosError(
                .operationInterrupted,
                "the changes were committed, but putting their files in place stopped (\(error)); "
                    + "it is finished when the library is next opened")
        }
        return token
    }
}

/// What requests need while they are applied.
final class ApplyContext {
    let library: PHPhotoLibrary
    var transaction: LibraryTransaction!
    /// Files this block adds to the import folder, staged before the commit.
    let staging: ImportStaging
    /// Work on disk owed once the block commits, recorded in its transaction.
    private(set) var journalEntries: [FileJournalEntry] = []
    /// Collections deleted so far in this block (a folder takes its children with it).
    var deletedCollections: Set<String> = []
    /// Directories this block renames, in order, each from the path the library recorded just before
    /// to the one it recorded after: done after the commit (``diskPath(of:)``).
    var pendingRenames: [(from: String, to: String)] = []
    /// Assets whose sidecars this block already journaled (one sync each, however many edits).
    var sidecarAssets: Set<Int64> = []
    /// The files this block moves into directory-backed albums' directories, in order (DirectoryAlbums).
    var assetMoves: [AssetFileMove] = []
    /// Albums this block creates: one added to a directory-backed folder becomes a directory.
    var createdAlbums: Set<String> = []

    init(library: PHPhotoLibrary) {
        self.library = library
        staging = ImportStaging(importDirectory: library.importDirectory)
    }

    /// After the commit, put a staged file in place (and, for a move, remove the caller's original).
    func place(_ file: StagedFile) {
        let source = file.removeSource ? file.sourceIdentity : nil
        journalEntries.append(
            FileJournalEntry(
                operation: .place, destination: file.destination, staged: file.staged,
                source: file.removeSource ? file.source : nil, removeSource: file.removeSource,
                device: source?.device, inode: source?.inode, fileSize: source?.size,
                modificationTime: source?.modificationTime, owner: FileOperations.processID))
    }

    /// Records work on disk owed once the block commits.
    func journal(_ entry: FileJournalEntry) {
        journalEntries.append(entry)
    }

    /// Whether this block places a file at `destination` after its commit (``place(_:)``).
    func placesFile(at destination: String) -> Bool {
        journalEntries.contains { $0.operation == .place && $0.destination == destination }
    }

    /// Places the file this block was to place at `destination` at `newDestination` instead (a created
    /// asset added to a directory-backed album): its entry goes last, after the work journaled before
    /// this request (a directory made or renamed), as a path the library records now is where that
    /// work leaves it.
    func movePlacement(from destination: String, to newDestination: String) {
        guard let index = journalEntries.firstIndex(where: { $0.operation == .place && $0.destination == destination })
        else { return }
        var entry = journalEntries.remove(at: index)
        entry.destination = newDestination
        journalEntries.append(entry)
    }

    /// After the commit, move a deleted asset's file to the Trash (FileJournal+Trash).
    func trash(_ file: TrashedFile) {
        journalEntries.append(
            FileJournalEntry(
                operation: .trash, destination: file.path, device: file.device, inode: file.inode,
                owner: FileOperations.processID, assetId: file.assetId))
    }

    /// The asset row id of a local identifier (an existing asset or one created earlier in this block).
    func assetID(_ identifier: String) throws -> Int64 {
        guard let id = try transaction.assetIDs(forLocalIdentifiers: [identifier])[identifier] else {
            throw PHPhotosError(.identifierNotFound, "no asset \(identifier)", localIdentifiers: [identifier])
        }
        return id
    }

    /// The collection with a local identifier.
    func collection(_ identifier: String) throws -> CollectionRecord {
        guard let record = try transaction.collection(withLocalIdentifier: identifier) else {
            throw PHPhotosError(.identifierNotFound, "no collection \(identifier)", localIdentifiers: [identifier])
        }
        return record
    }
}

/// The base of every change request: something a change block asks the library to do.
open class PHChangeRequest: NSObject, @unchecked Sendable {  // Open, so unchecked; no state of its own.
    override init() {
        super.init()
        ChangeBlock.enroll(self)
    }

    func applyCreation(_ context: ApplyContext) throws {}
    func applyEdits(_ context: ApplyContext) throws {}
    func applyDeletion(_ context: ApplyContext) throws {}
}

extension PHPhotoLibrary {
    /// Runs a change block now, on this thread, and commits its requests; returns the token of
    /// the commit's change-log entry (nil when nothing changed). A block that throws commits
    /// nothing: its requests are dropped and its error is rethrown as it is.
    @discardableResult
    func runChangeBlock(_ changeBlock: () throws -> Void) throws -> Int64? {
        precondition(ChangeBlock.current == nil, "performChanges cannot be nested inside a change block")
        let block = ChangeBlock(library: self)
        try ChangeBlock.$current.withValue(block) { try changeBlock() }
        return try block.commit()
    }
}
