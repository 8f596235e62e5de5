import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Tombstones tell what a deleted object was: its kind, media type, title, directory and files.
@Suite struct DeletedObjectTests {
    let database: LibraryDatabase

    init() throws {
        database = try LibraryDatabase()
    }

    /// A Live Photo at `/p/<name>.heic` with its movie, the movie's row written first.
    @discardableResult
    func insertLivePhoto(_ name: String) throws -> (identifier: String, id: Int64) {
        let identifier = name + "/L0/001"
        let id = try database.write { transaction in
            try transaction.insertAsset(
                AssetRecord(localIdentifier: identifier, mediaType: .image),
                resources: [
                    ResourceRecord(
                        assetId: 0, type: PHAssetResourceType.pairedVideo.rawValue, path: "/p/\(name).mov",
                        uniformTypeIdentifier: "com.apple.quicktime-movie", mimeType: "video/quicktime", fileSize: 2,
                        originalFilename: "\(name).mov"),
                    ResourceRecord(
                        assetId: 0, type: PHAssetResourceType.photo.rawValue, path: "/p/\(name).heic",
                        uniformTypeIdentifier: "public.heic", mimeType: "image/heic", fileSize: 1,
                        originalFilename: "\(name).heic"),
                ])
        }.value
        return (identifier, id)
    }

    @Test func aDeletedAssetKeepsItsMediaTypeAndFilesPhotoFirst() throws {
        let live = try insertLivePhoto("live")
        let token = try database.write { try $0.deleteAssets([live.id]) }.token
        let gone = try database.deletedObjects(localIdentifiers: [live.identifier, "never/L0/001"])
        #expect(gone.count == 1, "an identifier never deleted has no tombstone")
        let object = try #require(gone[live.identifier])
        #expect(object.objectType == .asset && object.mediaType == "image")
        #expect(object.title == nil && object.path == nil)
        #expect(
            object.resources == [
                .init(type: "photo", path: "/p/live.heic"), .init(type: "pairedVideo", path: "/p/live.mov"),
            ])
        #expect(object.token == token, "the entry that deleted it")
        #expect(try database.changes(after: token! - 1).first?.asset.deleted == [live.identifier])
    }

    @Test func anAssetWhoseFilesVanishedKeepsTheirPaths() throws {
        let live = try insertLivePhoto("vanished")
        let files = try database.write { try $0.storedFiles(under: "/p") }.value
        try database.write { try $0.deleteResources(files) }
        let object = try #require(try database.deletedObjects(localIdentifiers: [live.identifier])[live.identifier])
        #expect(object.resources.map(\.path) == ["/p/vanished.heic", "/p/vanished.mov"])
    }

    @Test func anAssetLosingOneOfTwoFilesIsNoDeletion() throws {
        let live = try insertLivePhoto("half")
        let movie = try database.write { try $0.storedFiles(under: "/p") }.value.filter { $0.path.hasSuffix(".mov") }
        try database.write { try $0.deleteResources(movie) }
        #expect(try database.deletedObjects(localIdentifiers: [live.identifier]).isEmpty)
        let left = try database.resources(assetIDs: [live.id])[live.id]?.map(\.path)
        #expect(left == ["/p/half.heic"])
    }

    @Test func aDeletedFolderKeepsItsAlbumsTitlesAndDirectories() throws {
        let (folder, album) = try database.write { transaction in
            var folder = CollectionRecord(
                localIdentifier: "F/L0/040", isList: true, type: PHCollectionListType.folder.rawValue,
                subtype: PHCollectionListSubtype.regularFolder.rawValue, title: "2024", path: "/p/2024",
                createdDate: 0)
            folder.id = try transaction.insertCollection(folder)
            let album = CollectionRecord(
                localIdentifier: "A/L0/010", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "Trip", parentId: folder.id,
                path: "/p/2024/Trip", createdDate: 0)
            try transaction.insertCollection(album)
            return (folder, album)
        }.value
        let token = try database.write { try $0.deleteCollection(folder) }.token
        let gone = try database.deletedObjects(localIdentifiers: [folder.localIdentifier, album.localIdentifier])
        #expect(
            gone[folder.localIdentifier]
                == DeletedObject(
                    localIdentifier: "F/L0/040", objectType: .collectionList, title: "2024", path: "/p/2024",
                    token: token!))
        #expect(
            gone[album.localIdentifier]
                == DeletedObject(
                    localIdentifier: "A/L0/010", objectType: .assetCollection, title: "Trip", path: "/p/2024/Trip",
                    token: token!))
    }

    @Test func tombstonesArePrunedWithTheHistory() throws {
        let live = try insertLivePhoto("pruned")
        try database.write { try $0.deleteAssets([live.id]) }
        let kept = try insertLivePhoto("kept")
        try database.write { try $0.deleteAssets([kept.id]) }
        // Keep only the last entry: the first deletion's entry goes, and its tombstone with it.
        try database.pruneHistory(keeping: 1)
        let gone = try database.deletedObjects(localIdentifiers: [live.identifier, kept.identifier])
        #expect(Array(gone.keys) == [kept.identifier])
    }
}
