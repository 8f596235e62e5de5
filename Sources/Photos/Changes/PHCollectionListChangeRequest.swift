import Foundation
import PhotosCore
import PhotosStore

/// A request, made inside a change block, to create, delete, rename or rearrange a folder.
///
/// A collection has one parent: adding it to a folder takes it out of its old one. Folders that
/// mirror directories cannot be edited, and a folder cannot be put inside itself.
/// ```swift
/// PHPhotoLibrary.shared().performChanges({
///     let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "2024")
///     folder.addChildCollections([album] as NSArray)
/// })
/// ```
// @unchecked: made, set and applied inside one change block, on the thread that runs it.
public final class PHCollectionListChangeRequest: PHChangeRequest, @unchecked Sendable {
    private enum Target {
        case create(String)
        case edit(PHCollectionList)
        case topLevel
    }

    private let target: Target
    private var newTitle: String?
    private var edits: [OrderedEdit<String>] = []

    /// For a creation request, the placeholder of the folder it creates.
    public let placeholderForCreatedCollectionList: PHObjectPlaceholder!

    private init(target: Target, title: String?) {
        self.target = target
        newTitle = title
        if case .create(let identifier) = target {
            placeholderForCreatedCollectionList = PHObjectPlaceholder(localIdentifier: identifier)
        } else {
            placeholderForCreatedCollectionList = nil
        }
        super.init()
    }

    /// A request to edit a folder; nil when the folder cannot be edited.
    public convenience init?(for collectionList: PHCollectionList) {
        guard collectionList.canPerform(.addContent) || collectionList.canPerform(.rename) else { return nil }
        self.init(target: .edit(collectionList), title: nil)
    }

    /// A request to edit a folder, with the fetch result its index-based edits refer to.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>) {
        self.init(for: collectionList)
    }

    /// A request to rearrange the top level of the user's albums and folders.
    ///
    /// The top level holds every album and folder that is in no folder, so nothing leaves it but by
    /// going into a folder or being deleted: `removeChildCollections` changes nothing here.
    public convenience init?(forTopLevelCollectionListUserCollections childCollections: PHFetchResult<PHCollection>?) {
        self.init(target: .topLevel, title: nil)
    }

    /// A request to create a folder with a title.
    public class func creationRequestForCollectionList(withTitle title: String) -> PHCollectionListChangeRequest {
        PHCollectionListChangeRequest(target: .create(LocalIdentifier.make(.collectionList)), title: title)
    }

    /// Requests deleting folders, with everything in them.
    public class func deleteCollectionLists(_ collectionLists: any NSFastEnumeration) {
        _ = CollectionDeletionRequest(objects: collectionLists.photosObjects)
    }

    /// The folder's title.
    public var title: String {
        get {
            if let newTitle { return newTitle }
            if case .edit(let list) = target { return list.localizedTitle ?? "" }
            return ""
        }
        set { newTitle = newValue }
    }

    /// Appends collections, taking them out of their current folders.
    public func addChildCollections(_ collections: any NSFastEnumeration) {
        edits.append(.add(Self.identifiers(collections)))
    }

    /// Inserts collections so that they end up at `indexes`.
    public func insertChildCollections(_ collections: any NSFastEnumeration, at indexes: IndexSet) {
        edits.append(.insert(Self.identifiers(collections), at: indexes))
    }

    /// Takes collections out of the folder, to the top level (on the top level itself, nothing).
    public func removeChildCollections(_ collections: any NSFastEnumeration) {
        edits.append(.remove(Self.identifiers(collections)))
    }

    /// Takes the collections at some indexes out of the folder, to the top level (on the top level
    /// itself, nothing: the indexes are checked, and nothing moves).
    public func removeChildCollections(at indexes: IndexSet) {
        edits.append(.removeAt(indexes))
    }

    /// Replaces the collections at some indexes.
    public func replaceChildCollections(at indexes: IndexSet, withChildCollections collections: any NSFastEnumeration) {
        edits.append(.replace(indexes, with: Self.identifiers(collections)))
    }

    /// Moves the collections at some indexes to `toIndex` of the folder as it is after removing them.
    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        edits.append(.move(indexes, to: toIndex))
    }

    private static func identifiers(_ objects: any NSFastEnumeration) -> [String] {
        objects.photosObjects.map(\.localIdentifier)
    }

    // MARK: Applying

    override func applyCreation(_ context: ApplyContext) throws {
        guard case .create(let identifier) = target else { return }
        try context.transaction.insertCollection(
            CollectionRecord(
                localIdentifier: identifier, isList: true, type: PHCollectionListType.folder.rawValue,
                subtype: PHCollectionListSubtype.regularFolder.rawValue, title: newTitle, position: Int.max / 2,
                createdDate: Date().timeIntervalSince1970))
    }

    override func applyEdits(_ context: ApplyContext) throws {
        var list: CollectionRecord?
        switch target {
        case .create(let identifier): list = try context.collection(identifier)
        case .edit(let folder): list = try context.collection(folder.localIdentifier)
        case .topLevel: list = nil
        }
        let name = list.map { "folder '\($0.title ?? "")'" } ?? "the top level"
        if var record = list, let newTitle, case .edit = target, newTitle != record.title {
            if record.path != nil {
                // A directory-backed folder is renamed on disk (under a root with write = "files").
                try context.renameDirectory(of: record, to: newTitle)
                record = try context.collection(record.localIdentifier)
            } else {
                try PHAssetCollectionChangeRequest.require(.rename, on: record, name)
                record.title = newTitle
                try context.transaction.updateCollection(record, properties: ["localizedTitle"])
            }
            list = record
        }
        guard !edits.isEmpty else { return }
        let childIDs = try context.transaction.children(ofList: list?.id)
        var children = try childIDs.compactMap { try context.transaction.collection(id: $0)?.localIdentifier }
        for edit in edits {
            let operation = PHAssetCollectionChangeRequest.operation(of: edit)
            // Into a directory-backed folder only directories move (checked for each below).
            if let list, !(list.path != nil && operation == .addContent) {
                try PHAssetCollectionChangeRequest.require(operation, on: list, name)
            }
            let edited = try edit.apply(to: children, describing: name)
            // What leaves the top level stays in it: only a folder or a deletion takes it from there.
            if list == nil, operation == .removeContent { continue }
            children = edited
        }
        var newIDs: [Int64] = []
        var leftFolders = Set<Int64>()
        for identifier in children {
            var child = try context.collection(identifier)
            if child.path != nil, child.parentId != list?.id {
                // Into a directory-backed folder, under a root with write = "files": the directory moves.
                guard let list, list.path != nil else {
                    throw PHPhotosError(
                        .changeNotSupported,
                        "'\(child.title ?? "")' mirrors a directory: it can only go into a folder that mirrors one",
                        localIdentifiers: [identifier])
                }
                if let parent = child.parentId { leftFolders.insert(parent) }
                try context.moveDirectory(of: child, into: list)
                child = try context.collection(identifier)
            } else if child.path == nil, !child.isList, let list, list.path != nil,
                context.createdAlbums.contains(identifier)
            {
                // An album created in this block inside a directory-backed folder becomes a directory.
                try context.makeDirectory(for: child, in: list)
                child = try context.collection(identifier)
            }
            if child.type == PHAssetCollectionType.smartAlbum.rawValue, !child.isList {
                throw PHPhotosError(
                    .changeNotSupported, "smart albums cannot be put in folders",
                    localIdentifiers: [identifier])
            }
            if let list, try Self.isAncestor(child, of: list, context) {
                throw PHPhotosError(
                    .changeNotSupported, "'\(child.title ?? "")' cannot be put inside itself",
                    localIdentifiers: [identifier])
            }
            newIDs.append(child.id!)
        }
        try context.transaction.setChildren(ofList: list, to: newIDs)
        if let id = list?.id, list?.path != nil {
            // A directory-backed folder's children stand in path order, as the mirror places them.
            try context.transaction.rankDirectoryChildren(of: id)
            for folder in leftFolders {
                try context.transaction.deleteDirectoryFolderIfEmpty(
                    folder, roots: context.library.roots.roots.map(\.path))
            }
        }
    }

    /// Whether `candidate` is `list` or one of its ancestors.
    private static func isAncestor(_ candidate: CollectionRecord, of list: CollectionRecord, _ context: ApplyContext)
        throws -> Bool
    {
        var current: CollectionRecord? = list
        while let node = current {
            if node.id == candidate.id { return true }
            current = try node.parentId.flatMap { try context.transaction.collection(id: $0) }
        }
        return false
    }
}
