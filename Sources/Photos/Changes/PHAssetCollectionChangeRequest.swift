import Foundation
import PhotosCore
import PhotosStore

/// A request, made inside a change block, to create, delete, rename or edit the assets of an album.
///
/// User albums can be edited; `init(for:)` returns nil for smart albums, and for albums that mirror
/// a directory unless their root has `write = "files"`: then they can be renamed, given assets (their
/// files move into the directory) and deleted (the directory goes to the Trash), never have assets
/// removed (see "Edit operations" in docs/photokit.md). Index-based edits follow `NSMutableArray`'s
/// rules, counted in the assets the app sees: the fetch result given to `init(for:assets:)`, else
/// what `PHAsset.fetchAssets(in:options: nil)` shows (no hidden asset, of a burst only the frame
/// that represents it). Members the app does not see keep their places and are never removed,
/// replaced or moved by an index. Indexes that do not fit fail the whole block with
/// `PHPhotosError.changeNotSupported`.
/// ```swift
/// PHPhotoLibrary.shared().performChanges({
///     let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
///     album.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
/// })
/// ```
// @unchecked: made, set and applied inside one change block, on the thread that runs it.
public final class PHAssetCollectionChangeRequest: PHChangeRequest, @unchecked Sendable {
    private let collection: PHAssetCollection?
    private let targetIdentifier: String
    private var newTitle: String?
    private var edits: [OrderedEdit<String>] = []
    /// The fetch result the index-based edits count in; nil: the album's default fetch.
    private var indexedAssets: PHFetchResult<PHAsset>?

    /// For a creation request, the placeholder of the album it creates.
    public let placeholderForCreatedAssetCollection: PHObjectPlaceholder!

    private init(creatingWithTitle title: String) {
        collection = nil
        targetIdentifier = LocalIdentifier.make(.assetCollection)
        newTitle = title
        placeholderForCreatedAssetCollection = PHObjectPlaceholder(localIdentifier: targetIdentifier)
        super.init()
    }

    /// A request to edit an album; nil when the album cannot be edited.
    public init?(for assetCollection: PHAssetCollection) {
        guard assetCollection.canPerform(.addContent) || assetCollection.canPerform(.rename) else { return nil }
        collection = assetCollection
        targetIdentifier = assetCollection.localIdentifier
        placeholderForCreatedAssetCollection = nil
        super.init()
    }

    /// A request to edit an album, with the fetch result its index-based edits refer to.
    ///
    /// Indexes count the assets of `assets` that are still in the album when the block commits, in
    /// the result's order: a result fetched with `includeHiddenAssets` counts hidden members, one
    /// fetched without leaves them where they are. Nil counts what the album's default fetch shows.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>?) {
        self.init(for: assetCollection)
        indexedAssets = assets
    }

    /// A request to create a user album with a title (titles may repeat).
    public class func creationRequestForAssetCollection(withTitle title: String) -> PHAssetCollectionChangeRequest {
        PHAssetCollectionChangeRequest(creatingWithTitle: title)
    }

    /// Requests deleting albums; deleting one that cannot be deleted fails the block.
    public class func deleteAssetCollections(_ assetCollections: any NSFastEnumeration) {
        _ = CollectionDeletionRequest(objects: assetCollections.photosObjects)
    }

    /// The album's title.
    public var title: String {
        get { newTitle ?? collection?.localizedTitle ?? "" }
        set { newTitle = newValue }
    }

    /// Appends assets that are not already in the album.
    public func addAssets(_ assets: any NSFastEnumeration) {
        edits.append(.add(Self.identifiers(assets)))
    }

    /// Inserts assets so that they end up at `indexes`.
    public func insertAssets(_ assets: any NSFastEnumeration, at indexes: IndexSet) {
        edits.append(.insert(Self.identifiers(assets), at: indexes))
    }

    /// Removes assets from the album (they stay in the library).
    public func removeAssets(_ assets: any NSFastEnumeration) {
        edits.append(.remove(Self.identifiers(assets)))
    }

    /// Removes the assets at some indexes.
    public func removeAssets(at indexes: IndexSet) {
        edits.append(.removeAt(indexes))
    }

    /// Replaces the assets at some indexes.
    public func replaceAssets(at indexes: IndexSet, withAssets assets: any NSFastEnumeration) {
        edits.append(.replace(indexes, with: Self.identifiers(assets)))
    }

    /// Moves the assets at some indexes to `toIndex` of the album as it is after removing them.
    public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
        edits.append(.move(fromIndexes, to: toIndex))
    }

    private static func identifiers(_ objects: any NSFastEnumeration) -> [String] {
        objects.photosObjects.map(\.localIdentifier)
    }

    // MARK: Applying

    override func applyCreation(_ context: ApplyContext) throws {
        guard collection == nil else { return }
        try context.transaction.insertCollection(
            CollectionRecord(
                localIdentifier: targetIdentifier, isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: newTitle,
                position: Int.max / 2, createdDate: Date().timeIntervalSince1970))
        context.createdAlbums.insert(targetIdentifier)
    }

    override func applyEdits(_ context: ApplyContext) throws {
        var record = try context.collection(targetIdentifier)
        let name = "album '\(record.title ?? "")'"
        if let newTitle, collection != nil, newTitle != record.title {
            if record.path != nil {
                // A directory-backed album is renamed on disk (under a root with write = "files").
                try context.renameDirectory(of: record, to: newTitle)
                record = try context.collection(targetIdentifier)
            } else {
                try Self.require(.rename, on: record, name)
                record.title = newTitle
                try context.transaction.updateCollection(record, properties: ["localizedTitle"])
            }
        }
        guard !edits.isEmpty else { return }
        if let path = record.path, !record.isList {
            // A directory's album holds its files: adding moves them there (write = "files").
            for edit in edits {
                guard case .add(let identifiers) = edit else {
                    throw PHPhotosError(
                        .changeNotSupported,
                        "\(name) holds the files of \(path), in their order: it allows adding assets (their files "
                            + "move there) but not \(Self.operation(of: edit)); a file has to live somewhere",
                        localIdentifiers: [record.localIdentifier])
                }
                try context.moveAssets(identifiers, into: record)
            }
            return
        }
        let ids = try context.transaction.members(ofCollection: record.id!)
        let records = try context.transaction.assets(ids: ids)
        var members = ids.compactMap { records[$0]?.localIdentifier }
        var seen = seenMembers(ids, records, context)
        for edit in edits {
            try Self.require(Self.operation(of: edit), on: record, name)
            (members, seen) = try edit.apply(to: members, seeing: seen, describing: name)
        }
        let newIDs = try members.map { try context.assetID($0) }
        try context.transaction.setMembers(ofCollection: record, to: newIDs)
    }

    /// The members the app's indexes count, in its order: those of the fetch result given to
    /// `init(for:assets:)` still in the album, else those its default fetch shows.
    private func seenMembers(_ ids: [Int64], _ records: [Int64: AssetRecord], _ context: ApplyContext) -> [String] {
        guard let indexedAssets else {
            return ids.compactMap { records[$0].flatMap { $0.isShownByDefault ? $0.localIdentifier : nil } }
        }
        if indexedAssets.library === context.library, case .rows(let rows, _) = indexedAssets.storage {
            // The app's snapshot by row: nothing to load.
            return rows.compactMap { records[$0]?.localIdentifier }
        }
        let members = Set(records.values.map(\.localIdentifier))
        return indexedAssets.map(\.localIdentifier).filter(members.contains)
    }

    static func operation<Element>(of edit: OrderedEdit<Element>) -> PHCollectionEditOperation {
        switch edit {
        case .add, .insert: .addContent
        case .remove, .removeAt: .removeContent
        case .replace: .addContent
        case .move: .rearrangeContent
        }
    }

    static func require(_ operation: PHCollectionEditOperation, on record: CollectionRecord, _ name: String) throws {
        guard EditRules.allows(operation, on: record) else {
            throw PHPhotosError(
                .changeNotSupported, "\(name) does not allow \(operation)", localIdentifiers: [record.localIdentifier])
        }
    }
}

/// `deleteAssetCollections(_:)` and `deleteCollectionLists(_:)`, applied after creations and edits.
final class CollectionDeletionRequest: PHChangeRequest, @unchecked Sendable {  // Immutable after init.
    let identifiers: [String]

    init(objects: [PHObject]) {
        identifiers = objects.map(\.localIdentifier)
        super.init()
    }

    override func applyDeletion(_ context: ApplyContext) throws {
        for identifier in identifiers {
            // A folder deleted earlier in this block may have taken this collection with it.
            guard let record = try context.transaction.collection(withLocalIdentifier: identifier) else {
                if context.deletedCollections.contains(identifier) { continue }
                throw PHPhotosError(.identifierNotFound, "no collection \(identifier)", localIdentifiers: [identifier])
            }
            if record.path != nil, !record.isList {
                // A directory's album: its directory goes to the Trash (write = "files").
                try context.trashDirectory(of: record)
                continue
            }
            try PHAssetCollectionChangeRequest.require(.delete, on: record, "'\(record.title ?? "")'")
            context.deletedCollections.formUnion(try context.transaction.deleteCollection(record))
        }
    }
}
