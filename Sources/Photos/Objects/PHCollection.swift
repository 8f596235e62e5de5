import Foundation
import PhotosCore
import PhotosStore

/// The base of albums (`PHAssetCollection`) and folders (`PHCollectionList`).
open class PHCollection: PHObject, @unchecked Sendable {  // Immutable after init: `let`s of Sendable types.
    /// The collection's title.
    public let localizedTitle: String?
    /// The directory behind a directory-backed album or folder (not in PhotoKit's API).
    public let directoryPath: String?
    let record: CollectionRecord

    init(info: CollectionInfo, library: PHPhotoLibrary?) {
        record = info.record
        localizedTitle = info.record.title
        directoryPath = info.record.path
        super.init(localIdentifier: info.record.localIdentifier, rowID: info.record.id, library: library)
    }

    /// Whether the collection holds assets (albums) rather than collections.
    public var canContainAssets: Bool { false }
    /// Whether the collection holds other collections (folders).
    public var canContainCollections: Bool { false }

    /// Whether the collection allows an edit; see the "Edit operations" table in docs/photokit.md. A
    /// directory-backed album or folder can be renamed (its directory is) where its root has
    /// `write = "files"` and the disk allows it; such an album can then be given assets (their files
    /// move into its directory) and deleted (its directory goes to the Trash), never have assets
    /// removed or rearranged.
    public func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
        if anOperation == .rename, let path = record.path, let library {
            return !library.roots.roots.contains { $0.path == path } && library.mayWrite(.files, at: path)
        }
        // Albums' directories can be moved into a directory-backed folder where files may be written,
        // and assets' files into a directory-backed album.
        if anOperation == .addContent, let path = record.path, let library {
            return library.mayWrite(.files, at: path + "/.")
        }
        // A directory-backed album's directory goes to the Trash (a watched root's never, nor a folder's
        // own album's, whose directory holds the folder's other albums).
        if anOperation == .delete, !record.isList, let path = record.path, let library {
            let parent = record.parentId.flatMap { id in (try? library.database.collections(ids: [id]))?[id]?.record }
            return !library.roots.roots.contains { $0.path == path } && parent?.path != path
                && library.mayWrite(.files, at: path)
        }
        return EditRules.allows(anOperation, on: record)
    }

    /// Whether this collection mirrors a directory on disk.
    var isDirectoryBacked: Bool { record.path != nil }

    /// Creates the right subclass for a collection row.
    static func make(_ info: CollectionInfo, library: PHPhotoLibrary?) -> PHCollection {
        info.record.isList
            ? PHCollectionList(info: info, library: library)
            : PHAssetCollection(info: info, library: library)
    }
}

/// Which edits each kind of collection allows (docs/photokit.md, "Edit operations").
enum EditRules {
    static func allows(_ operation: PHCollectionEditOperation, on record: CollectionRecord) -> Bool {
        if record.path != nil { return false }  // Directory-backed: the disk decides.
        if record.isList {
            return record.type == PHCollectionListType.folder.rawValue
                && record.subtype == PHCollectionListSubtype.regularFolder.rawValue
                && operation != .deleteContent
        }
        return record.type == PHAssetCollectionType.album.rawValue
            && record.subtype == PHAssetCollectionSubtype.albumRegular.rawValue
    }
}
