import Foundation
import PhotosCore

/// A directory tree the library itself renames or moves on disk (a directory-backed album or folder
/// renamed through a change request): what the library knows of it moves with it in the change
/// block's transaction, so that the scan that sees the rename afterwards finds everything already
/// where it is, and records nothing (no echo).
extension LibraryTransaction {
    /// Moves the library's record of the directory tree at `old` to `new` (absolute, without a trailing
    /// "/"): its files' directories, its collections' paths (those whose directory is `old` itself take
    /// the new name as their title), and the order of `new`'s siblings, which the directory mirror keeps
    /// in path order. Records what PhotoKit shows: the renamed collections' `localizedTitle`, their
    /// folder's `collections` when their place changed, and the `resources` of every asset under the
    /// tree. Returns the collections whose title changed.
    ///
    /// Fails when the library already holds files under `new` (the tree would land on them).
    @discardableResult
    public func moveDirectory(from old: String, to new: String) throws -> [CollectionRecord] {
        let (oldPrefix, newPrefix) = (old + "/", new + "/")
        let (newRange, newArguments) = Self.under(new, column: "path")
        let (underNew, here) = (newRange, db.dialect.isThisHost("host"))
        // Directory rows left behind by files that are gone hold the destination's paths for nothing.
        try db.execute(
            """
            DELETE FROM directory WHERE \(underNew) AND \(here)
                AND NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = directory.id)
            """, newArguments)
        if try db.scalarInt64("SELECT 1 FROM directory WHERE \(underNew) AND \(here) LIMIT 1", newArguments) != nil {
            throw StoreError(.other, "the library already has files under \(new)")
        }
        let (underOld, oldArguments) = Self.under(old, column: "d.path")
        let assets = try db.rows(
            """
            SELECT DISTINCT a.localIdentifier FROM directory d JOIN resource r ON r.directoryId = d.id
                JOIN asset a ON a.id = r.assetId WHERE \(underOld) AND \(db.dialect.isThisHost("d.host"))
            """, oldArguments
        ) { try $0.text(0) }
        let (underOldDirectories, arguments) = Self.under(old, column: "path")
        try db.execute(
            "UPDATE directory SET path = ? || substr(path, length(?) + 1) WHERE \(underOldDirectories) AND \(here)",
            [.text(newPrefix), .text(oldPrefix)] + arguments)
        for identifier in assets { changes.recorder.updated(.asset, identifier, properties: ["resources"]) }

        let (underOldCollections, collectionArguments) = Self.under(old, column: "path")
        let moved = try db.rows(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE (path = ? OR (\(underOldCollections))) AND \(here)",
            [.text(old)] + collectionArguments, CollectionRecord.init(row:))
        var renamed: [CollectionRecord] = []
        for var record in moved {
            guard let path = record.path else { continue }
            let isRenamed = path == old
            record.path =
                isRenamed ? new : newPrefix + String(decoding: path.utf8.dropFirst(oldPrefix.utf8.count), as: UTF8.self)
            let title = PathName.name(of: new)
            let retitled = isRenamed && record.title != title
            if isRenamed { record.title = title }
            try updateCollection(record, properties: retitled ? ["localizedTitle"] : [])
            if isRenamed { renamed.append(record) }
        }
        // The mirror orders a folder's collections as their directories sort: its own album first.
        for parentID in Set(renamed.compactMap(\.parentId)) { try rankDirectoryChildren(of: parentID) }
        return renamed
    }

    /// Gives a directory-backed folder's children their places as the directory mirror does: the
    /// folder's own album (the same directory) first, then the others in path order.
    public func rankDirectoryChildren(of folderID: Int64) throws {
        guard let folder = try collection(id: folderID), let folderPath = folder.path else { return }
        let children = try db.rows(
            "SELECT \(CollectionRecord.columns(db.dialect)) FROM collection WHERE parentId = ? ORDER BY position, id",
            [.int(folderID)], CollectionRecord.init(row:))
        let ranked = children.sorted { left, right in
            let (leftOwn, rightOwn) = (left.path == folderPath, right.path == folderPath)
            if leftOwn != rightOwn { return leftOwn }
            return (left.path ?? "") < (right.path ?? "")
        }
        for (position, var child) in ranked.enumerated() where child.position != position {
            child.position = position
            try updateCollection(child, properties: [])
        }
    }
}

extension LibraryTransaction {
    /// Deletes a directory-backed folder left with no collection (its last directory of media moved
    /// out), as the directory mirror would at its next pass; a watched root's folder stays. Returns
    /// whether it was deleted.
    @discardableResult
    public func deleteDirectoryFolderIfEmpty(_ folderID: Int64, roots: [String]) throws -> Bool {
        guard let folder = try collection(id: folderID), folder.isList, let path = folder.path, !roots.contains(path),
            try children(ofList: folderID).isEmpty
        else { return false }
        try deleteCollection(folder)
        return true
    }

    /// Whether a directory-backed album or folder records `path` as its directory.
    public func directoryCollectionExists(at path: String) throws -> Bool {
        try db.scalarInt64(
            "SELECT 1 FROM collection WHERE path = ? AND \(db.dialect.isThisHost("host")) LIMIT 1", [.text(path)])
            != nil
    }
}

extension LibraryTransaction {
    /// Moves the library's record of one file of the asset `assetID` from `old` to `new` (the library
    /// moves the asset's files into a directory-backed album's directory): its resource row, when it
    /// is one, and the merge base of its sidecar, when it is the asset's sidecar. Records the asset's
    /// `resources` change.
    public func moveAssetFile(ofAsset assetID: Int64, from old: String, to new: String) throws {
        for file in try storedFiles(atPaths: [old]) where file.assetID == assetID {
            try moveResource(file, to: new, name: PathName.name(of: new))
        }
        try db.execute(
            "UPDATE sidecarBase SET path = ? WHERE assetId = ? AND path = ?", [.text(new), .int(assetID), .text(old)])
    }

    /// Makes the originals of the asset `assetID` files of a watched directory rather than the library's
    /// own (a created asset placed in a directory-backed album's directory instead of the import folder):
    /// from then on they are treated as any photo of the directory (deleting the asset trashes them, it
    /// never unlinks them). Its edit's files stay the library's.
    public func handOverOriginals(ofAsset assetID: Int64) throws {
        try db.execute(
            "UPDATE resource SET isLibraryOwned = 0 WHERE assetId = ? AND type NOT IN \(PHAssetResourceType.editTypesSQL)",
            [.int(assetID)])
    }

    /// Gives the albums of `directories` the members the directory mirror gives them: the assets whose
    /// photo or video is directly in each. With `deletingEmpty`, an album left with none is deleted,
    /// and the folders above it left with nothing, as the mirror would at its next pass (a watched
    /// root's folder stays).
    public func settleDirectoryAlbums(_ directories: [String], deletingEmpty: Bool, roots: [String]) throws {
        for directory in Set(directories).sorted() {
            guard let album = try directoryAlbum(at: directory) else { continue }
            let assets = try primaryAssets(inDirectory: directory)
            // A directory the library made stays an album, empty or not, as the mirror keeps it.
            guard assets.isEmpty, deletingEmpty, album.madeDirectory != true else {
                try setMembers(ofCollection: album, to: assets)
                continue
            }
            try deleteCollection(album)
            try deleteDirectoryFoldersIfEmpty(from: album.parentId, roots: roots)
        }
    }

    /// Puts back the album of the directory `directory` as it was before a move of its photos left it
    /// empty and deleted it (the move taken back, its photos back in the directory): the same row id
    /// and local identifier, from its tombstone (the last album that mirrored the directory), with
    /// the folders above it that went with it, each placed among its siblings as the mirror places
    /// them. Observers see them inserted. Nothing is done while the directory has an album, holds
    /// no photo, or when a tombstone is gone (the history pruned): the directory mirror makes a new
    /// album then. Returns whether the album came back.
    @discardableResult
    public func restoreDirectoryAlbum(at directory: String) throws -> Bool {
        guard try directoryAlbum(at: directory) == nil, try !primaryAssets(inDirectory: directory).isEmpty else {
            return false
        }
        let path = db.dialect.field("path", of: "record", as: .text)
        let isList = db.dialect.field("isList", of: "record", as: .flag)
        guard
            let album = try db.firstRow(
                "SELECT record FROM tombstone WHERE isAsset = 0 AND \(path) = ? AND \(isList) = 0 "
                    + "ORDER BY token DESC, rowId DESC",
                [.text(directory)], { try JSONDecoder().decode(CollectionRecord.self, from: Data(try $0.text(0).utf8)) }
            )
        else { return false }
        // The album, then each folder above it that is gone too, outermost last.
        var chain = [album]
        while let parentID = chain.last?.parentId, try collection(id: parentID) == nil {
            let kept = try LibraryDatabase.tombstones(CollectionRecord.self, isAsset: false, ids: [parentID], db)
            guard let folder = kept[parentID] else { return false }
            chain.append(folder)
        }
        if try chain.contains(where: { try collection(withLocalIdentifier: $0.localIdentifier) != nil }) {
            return false
        }
        for record in chain.reversed() {
            try insertCollection(record)
            try db.execute("DELETE FROM tombstone WHERE isAsset = 0 AND rowId = ?", [.int(record.id!)])
            if let parentID = record.parentId { try rankDirectoryChildren(of: parentID) }
        }
        return true
    }

    /// Deletes the directory-backed folder `folderID` when it holds no collection, and then each
    /// folder above it left so (``deleteDirectoryFolderIfEmpty(_:roots:)``); the first folder that
    /// stays gives its children their places anew, as the mirror places them (no gap where a
    /// collection went).
    public func deleteDirectoryFoldersIfEmpty(from folderID: Int64?, roots: [String]) throws {
        var current = folderID
        while let id = current, let folder = try collection(id: id) {
            guard try deleteDirectoryFolderIfEmpty(id, roots: roots) else {
                try rankDirectoryChildren(of: id)
                return
            }
            current = folder.parentId
        }
    }
}

extension LibraryTransaction {
    /// The directories under `root` (or `root` itself) that the library made for albums
    /// (``CollectionRecord/madeDirectory``): the directory mirror keeps their albums, empty or not.
    public func directoriesMadeByLibrary(under root: String) throws -> Set<String> {
        let (condition, arguments) = Self.under(root, column: "path")
        return Set(
            try db.rows(
                """
                SELECT path FROM collection
                WHERE madeDirectory = 1 AND isList = 0 AND (path = ? OR (\(condition))) AND \(db.dialect.isThisHost("host"))
                """,
                [.text(root)] + arguments
            ) { try $0.text(0) })
    }
}

extension LibraryDatabase {
    /// Records the device and inode of the directory the library made for the album at `path`, so
    /// that the mirror follows it when renamed. Bookkeeping, outside the change log.
    public func noteMadeDirectory(at path: String, device: Int64, inode: Int64) throws {
        _ = try bookkeeping { db in
            try db.execute(
                "UPDATE collection SET device = ?, inode = ? WHERE path = ? AND madeDirectory = 1 AND \(db.dialect.isThisHost("host"))",
                [.int(device), .int(inode), .text(path)])
        }
    }
}
