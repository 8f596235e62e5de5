import Foundation
import PhotosCore
import PhotosSidecars
import PhotosStore

/// Keeps the library's user albums and folders in the album manifest of each root that may hold
/// user state (``PhotosSidecars/AlbumManifest``), and brings them back from there into a library
/// rebuilt from the disk.
///
/// ```swift
/// let manifests = ManifestSync(database: library.database)
/// try manifests.write(toRoot: "/photos")            // after a change to user albums
/// let restored = try manifests.restore(from: ["/photos"])   // after a rebuild's scan
/// ```
public struct ManifestSync: Sendable {
    /// The library.
    public let database: LibraryDatabase

    public init(database: LibraryDatabase) {
        self.database = database
    }

    /// The library's user albums and folders as a manifest.
    public func manifest() throws -> AlbumManifest {
        var folders: [AlbumManifest.Collection] = []
        var albums: [AlbumManifest.Collection] = []
        for collection in try database.userCollections() {
            let record = collection.record
            let entry = AlbumManifest.Collection(
                localIdentifier: record.localIdentifier, title: record.title, parent: collection.parent,
                position: record.position, createdDate: record.createdDate,
                assets: record.isList
                    ? nil : collection.assets.map { .init(localIdentifier: $0.localIdentifier, file: $0.file) })
            if record.isList { folders.append(entry) } else { albums.append(entry) }
        }
        return AlbumManifest(folders: folders, albums: albums)
    }

    /// Writes the library's manifest at the top of `root` (atomically; a file of that name that is
    /// not a manifest is an error, never written over). A library without user albums writes no
    /// file where there is none.
    public func write(toRoot root: String) throws {
        let manifest = try manifest()
        let path = AlbumManifest.path(inRoot: root)
        if manifest.isEmpty, (try? FileManager.default.attributesOfItem(atPath: path)) == nil { return }
        try manifest.write(to: path)
    }

    /// The manifests found at the top of `roots`, with their paths; unreadable ones are errors.
    public static func manifests(in roots: [String]) throws -> [(path: String, manifest: AlbumManifest)] {
        try roots.compactMap { root in
            let path = AlbumManifest.path(inRoot: root)
            return try AlbumManifest.read(path).map { (path, $0) }
        }
    }

    /// What a restore brought back.
    public struct Restored: Sendable, Hashable {
        /// User folders made.
        public var folders = 0
        /// User albums made.
        public var albums = 0
        /// Memberships naming assets the library does not have (their photos gone from disk).
        public var missingAssets = 0
    }

    /// Brings the user albums and folders of the manifests in `roots` into the library, with their
    /// identifiers, titles, nesting, order and assets. Every root's manifest holds the whole set; the
    /// first one to name a collection gives it. Collections already in the library are left alone.
    @discardableResult
    public func restore(from roots: [String]) throws -> Restored {
        let found = try Self.manifests(in: roots)
        var restored = Restored()
        guard !found.isEmpty else { return restored }
        try database.write { transaction in
            var seen: Set<String> = []
            for (_, manifest) in found {
                for entry in manifest.folders + manifest.albums where seen.insert(entry.localIdentifier).inserted {
                    let isList = entry.assets == nil
                    let record = CollectionRecord(
                        localIdentifier: entry.localIdentifier, isList: isList,
                        type: isList ? PHCollectionListType.folder.rawValue : PHAssetCollectionType.album.rawValue,
                        subtype: isList
                            ? PHCollectionListSubtype.regularFolder.rawValue
                            : PHAssetCollectionSubtype.albumRegular.rawValue,
                        title: entry.title, position: entry.position, createdDate: entry.createdDate)
                    let assets = (entry.assets ?? []).map {
                        UserCollection.Member(localIdentifier: $0.localIdentifier, file: $0.file)
                    }
                    guard
                        try transaction.restoreUserCollection(
                            UserCollection(record: record, parent: entry.parent, assets: assets))
                    else { continue }
                    if isList {
                        restored.folders += 1
                    } else {
                        restored.albums += 1
                        let identifiers = assets.map(\.localIdentifier)
                        let present = try transaction.assetIDs(forLocalIdentifiers: identifiers)
                        restored.missingAssets += Set(identifiers).subtracting(present.keys).count
                    }
                }
            }
        }
        return restored
    }
}
