import Foundation
import Photos
import PhotosCore
import PhotosIngest
import PhotosTestSupport
import Testing

/// A photo moved from one root to another (two watched folders) is the same asset: its identifier,
/// favorite and user albums go with it, whichever root a scan looks at first, in a scan of whole
/// roots as in the daemon's look at the paths its events named.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CrossRootMoveTests {
    /// Two roots, `A` and `B` (a scan of both looks at `A` first), in one library.
    final class TwoRoots {
        let directory: TemporaryDirectory
        let library: PHPhotoLibrary
        var roots: [String] { ["A", "B"].map(path) }
        var options: PHFetchOptions {
            let options = PHFetchOptions()
            options.photoLibrary = library
            return options
        }

        init() throws {
            directory = try TemporaryDirectory(prefix: "photos-cross-root")
            for root in ["A", "B"] {
                try FileManager.default.createDirectory(at: directory.path(root), withIntermediateDirectories: true)
            }
            library = try PHPhotoLibrary(url: directory.path("library.sqlite"))
        }

        func path(_ relative: String) -> String { directory.path(relative).path }

        func copy(_ corpusPath: String, to relative: String) throws {
            let destination = directory.path(relative)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try #require(Corpus.file(corpusPath)), to: destination)
        }

        func move(_ relative: String, to destination: String) throws {
            try FileManager.default.createDirectory(
                atPath: PathName.directory(of: path(destination)), withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: path(relative), toPath: path(destination))
        }

        @discardableResult
        func scan(_ relativeRoots: [String]? = nil) throws -> ScanReport {
            try FolderScanner(database: library.database).scan(roots: relativeRoots?.map(path) ?? roots)
        }

        func asset(at relative: String) -> PHAsset? {
            PHAsset.fetchAssets(with: options).first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == path(relative) }
            }
        }

        func album(at relative: String) -> PHAssetCollection? {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                .first { $0.directoryPath == path(relative) }
        }

        /// Marks the photo at `relative` a favorite and puts it in a new user album; the album's
        /// identifier.
        func favoriteInUserAlbum(_ relative: String) throws -> String {
            let photo = try #require(asset(at: relative))
            var album = ""
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: photo).isFavorite = true
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
                request.addAssets([photo] as NSArray)
                album = request.placeholderForCreatedAssetCollection.localIdentifier
            }
            return album
        }

        /// The assets in the user album `identifier`.
        func members(ofUserAlbum identifier: String) throws -> [PHAsset] {
            let album = try #require(
                PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: options)
                    .firstObject)
            let members = PHAsset.fetchAssets(in: album, options: options)
            return (0..<members.count).map { members.object(at: $0) }
        }
    }

    /// `A` to `B` is looked at source first; `B` to `A`, destination first.
    @Test(arguments: [("A", "B"), ("B", "A")])
    func aPhotoMovedToAnotherRootKeepsItsIdentifierFavoriteAndAlbums(from source: String, to destination: String)
        throws
    {
        let roots = try TwoRoots()
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "\(source)/Trip/a.jpg")
        try roots.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "\(destination)/Later/b.jpg")
        try roots.scan()
        let before = try #require(roots.asset(at: "\(source)/Trip/a.jpg"))
        let best = try roots.favoriteInUserAlbum("\(source)/Trip/a.jpg")

        try roots.move("\(source)/Trip/a.jpg", to: "\(destination)/Later/a.jpg")
        let report = try roots.scan()

        #expect(report.moved == 1 && report.removed == 0 && report.ingested == 0, "\(report)")
        let after = try #require(roots.asset(at: "\(destination)/Later/a.jpg"))
        #expect(after.localIdentifier == before.localIdentifier && after.isFavorite)
        #expect(try roots.members(ofUserAlbum: best) == [after])
        #expect(roots.album(at: "\(source)/Trip") == nil, "the directory it left, now empty, loses its album")
        let later = try #require(roots.album(at: "\(destination)/Later"))
        #expect(PHAsset.fetchAssets(in: later, options: roots.options).contains(after))
        #expect(PHAsset.fetchAssets(with: roots.options).count == 2)
    }

    /// The daemon's look at the paths of one settling of events, across both roots.
    @Test(arguments: [("A", "B"), ("B", "A")])
    func aLookAtBothEndsOfTheMoveKeepsTheAsset(from source: String, to destination: String) throws {
        let roots = try TwoRoots()
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "\(source)/Trip/a.jpg")
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn2.jpg", to: "\(source)/Trip/stays.jpg")
        try roots.scan()
        let before = try #require(roots.asset(at: "\(source)/Trip/a.jpg"))
        let best = try roots.favoriteInUserAlbum("\(source)/Trip/a.jpg")

        try roots.move("\(source)/Trip/a.jpg", to: "\(destination)/Later/a.jpg")
        let report = try FolderScanner(database: roots.library.database).scan(files: [
            roots.path(source): [roots.path("\(source)/Trip/a.jpg")],
            roots.path(destination): [roots.path("\(destination)/Later/a.jpg")],
        ])

        #expect(report.moved == 1 && report.removed == 0 && report.ingested == 0, "\(report)")
        let after = try #require(roots.asset(at: "\(destination)/Later/a.jpg"))
        #expect(after.localIdentifier == before.localIdentifier && after.isFavorite)
        #expect(try roots.members(ofUserAlbum: best) == [after])
        let trip = try #require(roots.album(at: "\(source)/Trip"))
        #expect(PHAsset.fetchAssets(in: trip, options: roots.options).count == 1, "the album it left lost it")
        #expect(roots.album(at: "\(destination)/Later")?.estimatedAssetCount == 1)
    }

    /// The daemon's look when one root needs a rescan (a directory made there as the photo left
    /// it) and the other's paths are looked at: whichever is the root rescanned whole.
    @Test(arguments: [true, false])
    func aRootRescannedWholeBesideTheOthersPathsKeepsTheAsset(sourceWhole: Bool) throws {
        let roots = try TwoRoots()
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "A/Trip/a.jpg")
        try roots.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "B/b.jpg")
        try roots.scan()
        let before = try #require(roots.asset(at: "A/Trip/a.jpg"))
        let best = try roots.favoriteInUserAlbum("A/Trip/a.jpg")
        try roots.move("A/Trip/a.jpg", to: "B/Later/a.jpg")
        try FileManager.default.createDirectory(atPath: roots.path("A/New"), withIntermediateDirectories: true)

        let scanner = FolderScanner(database: roots.library.database)
        let report =
            sourceWhole
            ? try scanner.scan(roots: [roots.path("A")], files: [roots.path("B"): [roots.path("B/Later/a.jpg")]])
            : try scanner.scan(roots: [roots.path("B")], files: [roots.path("A"): [roots.path("A/Trip/a.jpg")]])

        #expect(report.moved == 1 && report.removed == 0 && report.ingested == 0, "\(report)")
        let after = try #require(roots.asset(at: "B/Later/a.jpg"))
        #expect(after.localIdentifier == before.localIdentifier && after.isFavorite)
        #expect(try roots.members(ofUserAlbum: best) == [after])
        #expect(roots.album(at: "A/Trip") == nil)
    }

    /// Moved while nothing watched, and only the root it went to is scanned.
    @Test func aScanOfTheDestinationAloneKeepsTheAsset() throws {
        let roots = try TwoRoots()
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "A/Trip/a.jpg")
        try roots.scan()
        let before = try #require(roots.asset(at: "A/Trip/a.jpg"))
        try roots.move("A/Trip/a.jpg", to: "B/a.jpg")

        let report = try roots.scan(["B"])
        #expect(report.moved == 1 && report.ingested == 0, "\(report)")
        #expect(roots.asset(at: "B/a.jpg")?.localIdentifier == before.localIdentifier)
        #expect(roots.album(at: "A/Trip") == nil)
        #expect(try roots.scan(["A"]).removed == 0)
    }

    /// What left every root is removed once the last root is compared; a copy is a new photo.
    @Test func aDeletionIsRemovedAndACopyIsANewPhoto() throws {
        let roots = try TwoRoots()
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "A/Trip/gone.jpg")
        try roots.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "A/Trip/copied.jpg")
        try roots.scan()
        let original = try #require(roots.asset(at: "A/Trip/copied.jpg"))
        try FileManager.default.removeItem(atPath: roots.path("A/Trip/gone.jpg"))
        try FileManager.default.copyItem(atPath: roots.path("A/Trip/copied.jpg"), toPath: roots.path("B/copied.jpg"))

        let report = try roots.scan()
        #expect(report.removed == 1 && report.ingested == 1 && report.moved == 0, "\(report)")
        #expect(roots.asset(at: "A/Trip/gone.jpg") == nil)
        #expect(roots.asset(at: "A/Trip/copied.jpg")?.localIdentifier == original.localIdentifier)
        let copy = try #require(roots.asset(at: "B/copied.jpg"))
        #expect(copy.localIdentifier != original.localIdentifier)
        #expect(roots.album(at: "A/Trip")?.estimatedAssetCount == 1)
    }

    /// A root that is not there (a drive not mounted) has not lost its photos: a file like one of
    /// them arriving elsewhere is a new photo, not that one moved.
    @Test func aFileOfARootThatIsNotThereIsNotTakenForMoved() throws {
        let roots = try TwoRoots()
        try roots.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "A/a.jpg")
        try roots.scan()
        let before = try #require(roots.asset(at: "A/a.jpg"))
        try roots.move("A/a.jpg", to: "B/a.jpg")
        try FileManager.default.moveItem(atPath: roots.path("A"), toPath: roots.path("A unmounted"))

        let report = try roots.scan(["B"])
        #expect(report.moved == 0 && report.ingested == 1, "\(report)")
        #expect(roots.asset(at: "B/a.jpg")?.localIdentifier != before.localIdentifier)
        #expect(roots.asset(at: "A/a.jpg")?.localIdentifier == before.localIdentifier, "kept while its root is away")
    }
}
