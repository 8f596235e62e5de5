import Foundation
import Photos
import PhotosIngest
import PhotosTestSupport
import Testing

/// The real `photosd` watching two roots: a photo moved from one to the other with `mv` is the
/// same asset, its favorite and user album with it, and the album it left loses it.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CrossRootDaemonTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-cross-root", folders: ["Phone"]) }

    var phone: URL { directory.path("Phone") }

    @Test(arguments: ["Pictures to Phone", "Phone to Pictures"])
    func aPhotoMovedBetweenWatchedRootsKeepsItsAsset(direction: String) async throws {
        let (source, destination) = direction == "Pictures to Phone" ? (root, phone) : (phone, root)
        for (folder, name, corpus) in [
            (source, "Trip/a.jpg", "Camera/2008/Death Valley/FurnaceCreekInn.jpg"),
            (source, "Trip/stays.jpg", "Camera/2008/Death Valley/FurnaceCreekInn2.jpg"),
            (destination, "Later/b.jpg", "Camera/2002/Fujifilm/DSCF0001.JPG"),
        ] {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try #require(Corpus.file(corpus)), to: path)
        }
        // The favorite and the user album, set before photosd starts.
        let library = try PHPhotoLibrary(url: libraryURL)
        try FolderScanner(database: library.database).scan(roots: [root.path, phone.path])
        let before = try #require(asset(at: source.appendingPathComponent("Trip/a.jpg"), in: library))
        var best = ""
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: before).isFavorite = true
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            request.addAssets([before] as NSArray)
            best = request.placeholderForCreatedAssetCollection.localIdentifier
        }

        let daemon = try await offPool { [fixture, phone] in
            try fixture.start(["--watch", fixture.root.path, "--watch", phone.path, "--settle", "0"])
        }
        try FileManager.default.createDirectory(
            at: destination.appendingPathComponent("Later"), withIntermediateDirectories: true)
        let moved = destination.appendingPathComponent("Later/a.jpg")
        guard rename(source.appendingPathComponent("Trip/a.jpg").path, moved.path) == 0 else {
            throw DaemonError("cannot move the photo")
        }
        try await offPool { [self] in
            try blockUntil("the photo at its new path", whileRunning: daemon.process) {
                asset(at: moved, in: try PHPhotoLibrary(url: libraryURL)) != nil
            }
        }
        try await offPool { try daemon.stop() }

        let reopened = try PHPhotoLibrary(url: libraryURL)
        let after = try #require(asset(at: moved, in: reopened))
        #expect(after.localIdentifier == before.localIdentifier && after.isFavorite)
        let options = PHFetchOptions()
        options.photoLibrary = reopened
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [best], options: options).firstObject)
        #expect(PHAsset.fetchAssets(in: album, options: options).firstObject == after)
        let trip = try #require(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                .first { $0.directoryPath == source.appendingPathComponent("Trip").path })
        #expect(PHAsset.fetchAssets(in: trip, options: options).count == 1, "the album it left lost it")
        #expect(PHAsset.fetchAssets(with: options).count == 3, "no asset made or lost")
    }

    /// The asset whose file is at `url`.
    func asset(at url: URL, in library: PHPhotoLibrary) -> PHAsset? {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return PHAsset.fetchAssets(with: options).first { asset in
            PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == url.path }
        }
    }
}
