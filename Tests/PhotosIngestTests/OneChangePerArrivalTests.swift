import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// A file's arrival is one change: its asset, the album and folder its directory brings, and its
/// membership commit in one transaction, one change-log entry, for a full scan and for the daemon's
/// rescan of some directories alike.
@Suite struct OneChangePerArrivalTests {
    let tree: Tree
    let scanner: FolderScanner

    init() throws {
        tree = try Tree()
        // Files copied a moment ago are complete: no half-second wait for writers.
        scanner = FolderScanner(database: tree.library.database, quietTime: 0)
    }

    /// How a test rescans after a change on disk.
    enum Rescan: CaseIterable, Sendable {
        /// `photos scan`: the whole root.
        case root
        /// The daemon after a file event: only the directory it happened in.
        case directory
    }

    func rescan(_ how: Rescan, directory relative: String) throws {
        switch how {
        case .root: try scanRoot()
        case .directory:
            _ = try scanner.scan(root: tree.root.path, directories: [tree.root.appendingPathComponent(relative).path])
        }
    }

    func scanRoot() throws {
        _ = try scanner.scan(roots: [tree.root.path])
    }

    /// The entries committed by `body`.
    func entries(of body: () throws -> Void) throws -> [LibraryChange] {
        let before = try tree.library.database.currentToken()
        try body()
        return try tree.library.database.changes(after: before)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"), arguments: Rescan.allCases)
    func aFileInANewDirectoryOfANewFolderIsOneEntry(rescan how: Rescan) throws {
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "a/one.jpg")
        try scanRoot()
        let rootFolder = try #require(tree.folder(at: ""))

        let entries = try entries {
            try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "2024/Trip/two.jpg")
            try rescan(how, directory: "2024/Trip")
        }

        let asset = try #require(tree.asset(at: "2024/Trip/two.jpg"))
        let album = try #require(tree.album(at: "2024/Trip"))
        let year = try #require(tree.folder(at: "2024"))
        #expect(entries.count == 1, "\(entries)")
        let entry = try #require(entries.first)
        #expect(entry.asset == ObjectChanges(inserted: [asset.localIdentifier]))
        #expect(entry.assetCollection == ObjectChanges(inserted: [album.localIdentifier]))
        // The new folder holds the new album; the root's folder gained the new folder.
        #expect(
            entry.collectionList
                == ObjectChanges(
                    inserted: [year.localIdentifier], updated: [rootFolder.localIdentifier],
                    changedProperties: [rootFolder.localIdentifier: ["collections"]]))
        #expect(PHAsset.fetchAssets(in: album, options: tree.options).firstObject == asset)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"), arguments: Rescan.allCases)
    func aFileInANewDirectoryOfAKnownFolderIsOneEntry(rescan how: Rescan) throws {
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "a/one.jpg")
        try scanRoot()
        let rootFolder = try #require(tree.folder(at: ""))

        let entries = try entries {
            try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "b/two.jpg")
            try rescan(how, directory: "b")
        }

        let asset = try #require(tree.asset(at: "b/two.jpg"))
        let album = try #require(tree.album(at: "b"))
        #expect(entries.count == 1, "\(entries)")
        let entry = try #require(entries.first)
        #expect(entry.asset == ObjectChanges(inserted: [asset.localIdentifier]))
        #expect(entry.assetCollection == ObjectChanges(inserted: [album.localIdentifier]))
        #expect(
            entry.collectionList
                == ObjectChanges(
                    updated: [rootFolder.localIdentifier],
                    changedProperties: [rootFolder.localIdentifier: ["collections"]]))
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"), arguments: Rescan.allCases)
    func aFileAddedToAnAlbumIsOneEntryUpdatingTheAlbumsAssets(rescan how: Rescan) throws {
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "a/one.jpg")
        try scanRoot()
        let album = try #require(tree.album(at: "a"))

        let entries = try entries {
            try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "a/two.jpg")
            try rescan(how, directory: "a")
        }

        let asset = try #require(tree.asset(at: "a/two.jpg"))
        #expect(entries.count == 1, "\(entries)")
        let entry = try #require(entries.first)
        #expect(entry.asset == ObjectChanges(inserted: [asset.localIdentifier]))
        #expect(
            entry.assetCollection
                == ObjectChanges(
                    updated: [album.localIdentifier], changedProperties: [album.localIdentifier: ["assets"]]))
        #expect(entry.collectionList.isEmpty)
        #expect(PHAsset.fetchAssets(in: album, options: tree.options).count == 2)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func everyBatchOfABigScanBringsTheAlbumsOfItsAssets() throws {
        // Six directories of 100: more than a scan's first batch (a fifth of 1,000), and a batch never
        // splits a directory.
        let photo = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        for index in 0..<600 {
            let directory = tree.root.appendingPathComponent("Album \(index / 100)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try photo.write(to: directory.appendingPathComponent("IMG_\(index).jpg"))
        }

        let entries = try entries { try scanRoot() }

        var albumOf: [String: String] = [:]
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: tree.options)
        for album in albums {
            for asset in PHAsset.fetchAssets(in: album, options: tree.options) {
                albumOf[asset.localIdentifier] = album.localIdentifier
            }
        }
        #expect(albums.count == 6 && albumOf.count == 600)
        // One entry per batch (a scan's first is a fifth of the others), and the scan's last pass
        // over the whole tree finds nothing left to do.
        #expect(entries.map(\.asset.inserted.count) == [200, 400])
        var known = Set<String>()
        for entry in entries {
            let collections = entry.assetCollection
            known.formUnion(collections.inserted)
            for asset in entry.asset.inserted {
                let album = try #require(albumOf[asset])
                #expect(known.contains(album), "the album of \(asset) is known when it arrives")
                // Its membership arrives in the same entry: the album is new, or its assets changed.
                #expect(
                    collections.inserted.contains(album) || collections.changedProperties[album] == ["assets"],
                    "the entry inserting \(asset) puts it in its album")
            }
        }
        let beforeRescan = try tree.library.database.currentToken()
        try scanRoot()
        #expect(
            try tree.library.database.currentToken() == beforeRescan, "the scan's last pass found nothing left to do")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aDeletedFileAndADeletedDirectoryKeepWhatTheyWere() throws {
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "a/one.jpg")
        try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "a/two.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Trip/three.jpg")
        try scanRoot()
        let one = try #require(tree.asset(at: "a/one.jpg"))
        let three = try #require(tree.asset(at: "Trip/three.jpg"))
        let trip = try #require(tree.album(at: "Trip"))
        let database = tree.library.database

        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("a/one.jpg"))
        try rescan(.directory, directory: "a")
        let file = try #require(
            try database.deletedObjects(localIdentifiers: [one.localIdentifier])[one.localIdentifier])
        #expect(file.objectType == .asset && file.mediaType == "image")
        #expect(file.resources == [.init(type: "photo", path: tree.root.appendingPathComponent("a/one.jpg").path)])
        #expect(try database.changes(after: file.token - 1).first?.asset.deleted == [one.localIdentifier])

        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("Trip"))
        try scanRoot()
        let gone = try database.deletedObjects(localIdentifiers: [trip.localIdentifier, three.localIdentifier])
        let album = try #require(gone[trip.localIdentifier])
        #expect(album.objectType == .assetCollection && album.title == "Trip")
        #expect(album.path == tree.root.appendingPathComponent("Trip").path && album.resources.isEmpty)
        #expect(
            gone[three.localIdentifier]?.resources.map(\.path) == [
                tree.root.appendingPathComponent("Trip/three.jpg").path
            ])

        try database.pruneHistory(keeping: 0)
        #expect(try database.deletedObjects(localIdentifiers: [one.localIdentifier, trip.localIdentifier]).isEmpty)
    }
}
