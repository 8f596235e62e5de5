import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Testing

/// A PhotoKit program on a library kept in PostgreSQL, opened with `PHPhotoLibrary(url:)` and a
/// `postgresql://` URL as PhotoKit code opens a file: change blocks with placeholders, fetches with
/// predicates (compiled to PostgreSQL's SQL, `[cd]` folding included) and sort descriptors, an
/// observer told of another host's commit with incremental details, and persistent changes. The
/// import folder is this host's, under `$XDG_DATA_HOME/photosd/postgresql/` unless configured.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLPhotoLibraryTests {
    @Test func aPhotoKitProgramRunsOnALibraryKeptInPostgreSQL() async throws {
        let source = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        try #require(FileManager.default.fileExists(atPath: source.path), "needs ../shared/corpus")
        try await PostgreSQLTestServer.inNewSchema { url in
            let directory = try TemporaryDirectory(prefix: "photokit-postgresql")
            var configuration = PHPhotoLibrary.Configuration()
            configuration.importDirectory = directory.path("Imports")
            configuration.thumbnailCacheDirectory = nil
            let libraryURL = try #require(URL(string: url))
            let library = try PHPhotoLibrary(url: libraryURL, configuration: configuration)
            let start = library.currentChangeToken

            var assetID: String?
            var albumID: String?
            try library.performChangesAndWait {
                let creation = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: source)!
                creation.isFavorite = true
                assetID = creation.placeholderForCreatedAsset?.localIdentifier
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(
                    withTitle: "Trip to Ålesund")
                album.addAssets([creation.placeholderForCreatedAsset!] as NSArray)
                albumID = album.placeholderForCreatedAssetCollection.localIdentifier
            }
            let created = try #require(assetID)
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.predicate = NSPredicate(format: "localizedTitle BEGINSWITH[cd] %@", "trip to a")
            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
            #expect(albums.count == 1 && albums.firstObject?.localIdentifier == albumID)
            let inAlbum = PHAsset.fetchAssets(in: try #require(albums.firstObject), options: nil)
            #expect(inAlbum.firstObject?.localIdentifier == created)

            let favorites = PHFetchOptions()
            favorites.photoLibrary = library
            favorites.predicate = NSPredicate(format: "favorite == YES AND pixelWidth > %d", 100)
            favorites.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            let favored = PHAsset.fetchAssets(with: favorites)
            #expect(favored.count == 1 && favored.firstObject?.localIdentifier == created)
            let asset = try #require(favored.firstObject)
            #expect(asset.pixelWidth > 100 && asset.creationDate != nil)
            let imported = try FileManager.default.contentsOfDirectory(atPath: directory.path("Imports").path)
                .filter { !$0.hasPrefix(".") }
            #expect(imported.count == 1, "the created asset's file is in this host's import folder: \(imported)")

            // Another host on the same library: its change reaches this one's observer, with the
            // details of the fetch result above.
            let recorder = Recorder()
            library.register(recorder)
            var otherConfiguration = configuration
            otherConfiguration.importDirectory = directory.path("OtherImports")
            let other = try PHPhotoLibrary(url: libraryURL, configuration: otherConfiguration)
            let theirs = try #require(
                PHAsset.fetchAssets(withLocalIdentifiers: [created], options: other.options()).firstObject)
            try other.performChangesAndWait { PHAssetChangeRequest(for: theirs).isFavorite = false }
            // Suspended, not blocked: the LISTEN that hears the other host runs on the shared pool.
            try await recorder.waitFor(1)
            let change = try #require(recorder.changes.withLock { $0.first })
            let details = try #require(change.changeDetails(for: favored))
            #expect(details.removedObjects.map(\.localIdentifier) == [created])
            #expect(details.fetchResultAfterChanges.count == 0)
            library.unregisterChangeObserver(recorder)

            let persistent = Array(try library.fetchPersistentChanges(since: start))
            #expect(persistent.count == 2, "the block here and the one on the other host")
            let last = try #require(persistent.last)
            #expect(try last.changeDetails(for: .asset).updatedLocalIdentifiers == [created])
        }
    }

    @Test func aURLInPhotosLibraryNamesTheSharedLibrary() throws {
        let url = PHPhotoLibrary.defaultLibraryURL(environment: [
            "PHOTOS_LIBRARY": "postgresql://me@nas/photos?schema=family", "HOME": "/home/me",
        ])
        #expect(url.absoluteString == "postgresql://me@nas/photos?schema=family")
        #expect(
            LibraryDatabase.localPath(
                forLibrary: "postgresql://me:secret@nas:5433/photos?schema=family",
                environment: ["XDG_DATA_HOME": "/data"])
                == "/data/photosd/postgresql/me@nas:5433_photos_schema_family/library")
    }
}

extension PHPhotoLibrary {
    /// Fetch options naming this library.
    fileprivate func options() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = self
        return options
    }
}
