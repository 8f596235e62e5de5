import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// The change requests made while one change block runs, and how they are applied.
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
    /// then edits in the order they were made, then deletions.
    func commit() throws {
        guard !requests.isEmpty else { return }
        let context = ApplyContext(library: library)
        do {
            try library.database.write { transaction in
                context.transaction = transaction
                for request in requests { try request.applyCreation(context) }
                for request in requests { try request.applyEdits(context) }
                for request in requests { try request.applyDeletion(context) }
            }
        } catch {
            context.discardCopiedFiles()
            throw PHPhotoLibrary.photosError(error)
        }
        context.removeFilesOfDeletedAssets()
        library.observers.kick(library)
    }
}

/// What requests need while they are applied.
final class ApplyContext {
    let library: PHPhotoLibrary
    var transaction: LibraryTransaction!
    /// Files copied into the import directory by this block, removed again if it fails.
    private(set) var copiedFiles: [URL] = []
    /// Imported files of assets this block deletes, removed once it commits.
    private(set) var filesToRemove: [URL] = []
    /// Collections deleted so far in this block (a folder takes its children with it).
    var deletedCollections: Set<String> = []

    init(library: PHPhotoLibrary) {
        self.library = library
    }

    func copied(_ url: URL) { copiedFiles.append(url) }
    func removeAfterCommit(_ url: URL) { filesToRemove.append(url) }

    func discardCopiedFiles() {
        for url in copiedFiles { try? FileManager.default.removeItem(at: url) }
        let directories = Set(copiedFiles.map { $0.deletingLastPathComponent() })
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    func removeFilesOfDeletedAssets() {
        for url in filesToRemove {
            try? FileManager.default.removeItem(at: url)
            let directory = url.deletingLastPathComponent()
            if (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty == true {
                try? FileManager.default.removeItem(at: directory)
            }
        }
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
open class PHChangeRequest: NSObject, @unchecked Sendable {
    override init() {
        super.init()
        ChangeBlock.enroll(self)
    }

    func applyCreation(_ context: ApplyContext) throws {}
    func applyEdits(_ context: ApplyContext) throws {}
    func applyDeletion(_ context: ApplyContext) throws {}
}

extension PHPhotoLibrary {
    /// Runs a change block now, on this thread, and commits its requests.
    func runChangeBlock(_ changeBlock: () -> Void) throws {
        precondition(ChangeBlock.current == nil, "performChanges cannot be nested inside a change block")
        let block = ChangeBlock(library: self)
        ChangeBlock.$current.withValue(block) { changeBlock() }
        try block.commit()
    }
}
