import Foundation
import PhotosCore
import PhotosStore

/// Mirrors a root's directory tree as collections: the root and every directory holding
/// directories with media are folders (collection lists); every directory holding media is an
/// album. A directory holding both media and such directories is a folder whose first child is
/// an album of the same name with its own media.
///
/// Collections are matched to directories by path, then by device and inode, so a renamed
/// directory keeps its collection (and its identifier) with the new title.
///
/// A directory that could not be listed (``unreadable``) keeps its collections and everything
/// below them as they were: nothing under it was seen, so nothing under it is known to have changed.
struct DirectoryMirror {
    let root: String
    let directories: [CrawledDirectory]
    var unreadable: [CrawledDirectory] = []

    /// Makes the collections match the tree and the store's files under the root, members of
    /// every album included; collections whose directory is gone are deleted.
    func apply(in transaction: LibraryTransaction) throws {
        let files = try transaction.storedFiles(under: root)
        let primaries = files.filter {
            $0.type == PHAssetResourceType.photo.rawValue || $0.type == PHAssetResourceType.video.rawValue
        }
        var assetsByDirectory: [String: [Int64]] = [:]
        for file in primaries {
            assetsByDirectory[PathName.directory(of: file.path), default: []].append(file.assetID)
        }
        let dates = try transaction.assetCreationDates(under: root)
        try mirror(mediaDirectories: Set(assetsByDirectory.keys), removingStale: true, transaction) { directory in
            let assets = Set(assetsByDirectory[directory] ?? [])
            return assets.sorted { (dates[$0] ?? 0, $0) < (dates[$1] ?? 0, $1) }
        }
    }

    /// What one batch of a scan needs in its own transaction, so that the assets it commits arrive
    /// with their album: the collections of `mediaDirectories` (the directories known to hold media
    /// now, which the scanner tracks, not reading every file under the root again), and the members
    /// of the albums of `touched` (the directories whose files the batch committed). Nothing is
    /// deleted: what went is settled by ``apply(in:)`` at the end of the scan, which then finds the
    /// same collections in the same places.
    func apply(in transaction: LibraryTransaction, mediaDirectories: Set<String>, touched: Set<String>) throws {
        try mirror(mediaDirectories: mediaDirectories, removingStale: false, transaction) { directory in
            touched.contains(directory) ? try transaction.primaryAssets(inDirectory: directory) : nil
        }
    }

    /// The one way collections are placed, for a whole scan and for a batch alike. `members` gives
    /// an album's assets in order, or nil to leave its members as they are.
    private func mirror(
        mediaDirectories: Set<String>, removingStale: Bool, _ transaction: LibraryTransaction,
        members: (String) throws -> [Int64]?
    ) throws {
        let directories = self.directories + unreadable
        let children = Dictionary(grouping: directories.filter { $0.parent != nil }, by: { $0.parent! })
        var existing = try transaction.directoryCollections(under: root)
        let frozen = FrozenPaths(unreadable.map(\.path))
        let unreadablePaths = Set(unreadable.map(\.path))

        // Which directories become lists and albums, deepest first. An unreadable directory keeps
        // the collections it had.
        var isList: [String: Bool] = [:]
        var hasCollection: [String: Bool] = [:]
        for directory in directories.sorted(by: { $0.path.count > $1.path.count }) {
            if unreadablePaths.contains(directory.path) {
                isList[directory.path] = existing.contains { $0.path == directory.path && $0.isList }
                hasCollection[directory.path] = existing.contains { $0.path == directory.path }
                continue
            }
            let childHasCollection = (children[directory.path] ?? []).contains { hasCollection[$0.path] == true }
            isList[directory.path] = directory.path == root || childHasCollection
            hasCollection[directory.path] = isList[directory.path]! || mediaDirectories.contains(directory.path)
        }

        var kept = Set<Int64>()
        func take(_ directory: CrawledDirectory, list: Bool) -> CollectionRecord? {
            let match = existing.firstIndex { $0.path == directory.path && $0.isList == list && !kept.contains($0.id!) }
                ?? existing.firstIndex {
                    $0.device == directory.device && $0.inode == directory.inode && $0.isList == list
                        && !kept.contains($0.id!) && $0.path.map(frozen.contains) != true
                }
            guard let index = match else { return nil }
            kept.insert(existing[index].id!)
            return existing[index]
        }

        var listIDs: [String: Int64] = [:]
        var positions: [Int64?: Int] = [:]
        for directory in directories.sorted(by: { $0.path < $1.path }) where hasCollection[directory.path] == true {
            let title = PathName.name(of: directory.path)
            let parentList = directory.parent.flatMap { listIDs[$0] }
            if unreadablePaths.contains(directory.path) {
                // Kept as it was (members too), only placed among its siblings.
                for list in [true, false] {
                    guard let found = take(directory, list: list) else { continue }
                    let parent = list ? parentList : (isList[directory.path]! ? listIDs[directory.path] : parentList)
                    let record = try upsert(
                        found, directory: directory, list: list, title: found.title ?? title, parent: parent,
                        positions: &positions, transaction)
                    if list { listIDs[directory.path] = record.id }
                }
                continue
            }
            if isList[directory.path]! {
                let list = try upsert(
                    take(directory, list: true), directory: directory, list: true, title: title, parent: parentList,
                    positions: &positions, transaction)
                listIDs[directory.path] = list.id
            }
            if mediaDirectories.contains(directory.path) {
                let parent = isList[directory.path]! ? listIDs[directory.path] : parentList
                let album = try upsert(
                    take(directory, list: false), directory: directory, list: false, title: title, parent: parent,
                    positions: &positions, transaction)
                if let ordered = try members(directory.path) {
                    try transaction.setMembers(ofCollection: album, to: ordered)
                }
            }
        }
        guard removingStale else { return }
        // What lies below an unreadable directory was not seen: it stays as it was.
        existing.removeAll { kept.contains($0.id!) || $0.path.map(frozen.contains) == true }
        // Deepest first, so a folder is not deleted before what it holds is accounted for.
        for stale in existing.sorted(by: { ($0.path ?? "").count > ($1.path ?? "").count }) {
            if try transaction.collection(id: stale.id!) != nil { try transaction.deleteCollection(stale) }
        }
    }

    private func upsert(
        _ found: CollectionRecord?, directory: CrawledDirectory, list: Bool, title: String, parent: Int64?,
        positions: inout [Int64?: Int], _ transaction: LibraryTransaction
    ) throws -> CollectionRecord {
        let position = positions[parent, default: 0]
        positions[parent] = position + 1
        if var record = found {
            // Only what PhotoKit shows is a change of the collection: a new place among its
            // siblings is a change of its folder's `collections` (the transaction records it), a
            // directory's new inode no change at all.
            var changed: [String] = []
            if record.title != title { changed.append("localizedTitle") }
            if record.parentId != parent { changed.append("parent") }
            if record.path != directory.path { changed.append("path") }
            if record.inode != directory.inode || record.device != directory.device || record.position != position
                || !changed.isEmpty
            {
                record.title = title
                record.path = directory.path
                record.parentId = parent
                record.position = position
                record.device = directory.device
                record.inode = directory.inode
                try transaction.updateCollection(record, properties: changed)
            }
            return record
        }
        var record = CollectionRecord(
            localIdentifier: LocalIdentifier.make(list ? .collectionList : .assetCollection), isList: list,
            type: list ? PHCollectionListType.folder.rawValue : PHAssetCollectionType.album.rawValue,
            subtype: list ? PHCollectionListSubtype.regularFolder.rawValue : PHAssetCollectionSubtype.albumRegular.rawValue,
            title: title, parentId: parent, position: position, path: directory.path,
            createdDate: Date().timeIntervalSince1970)
        record.device = directory.device
        record.inode = directory.inode
        record.id = try transaction.insertCollection(record)
        return record
    }
}
