import Foundation
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// One file of an asset of several (a Live Photo's still or movie, one half of a RAW+JPEG pair) is
/// moved to another folder: the asset, with its identifier and user state, stays with its photo, and
/// the file now apart from it is an asset of its own, as a scan of the tree into a new library would
/// make it. Moved together, the files stay one asset. On each engine.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct GroupMemberMoveTests {
    /// The engines the scans run on: a library file always, PostgreSQL where a test server is named.
    static let engines = ["sqlite"] + (PostgreSQLTestServer.isAvailable ? ["postgresql"] : [])

    /// A library on `engine` over a new `Pictures` folder.
    struct Fixture {
        let directory: TemporaryDirectory
        let pictures: URL
        let library: PHPhotoLibrary

        init(_ url: URL, directory: TemporaryDirectory) throws {
            self.directory = directory
            pictures = directory.path("Pictures")
            try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            library = try PHPhotoLibrary(url: url, configuration: configuration)
        }

        func add(_ corpusPath: String, at relative: String) throws {
            let destination = pictures.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try #require(Corpus.file(corpusPath)), to: destination)
        }

        /// Moves a file as `mv` does (its inode kept), making the destination's folder.
        func move(_ relative: String, to destination: String) throws {
            let target = pictures.appendingPathComponent(destination)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: pictures.appendingPathComponent(relative), to: target)
        }

        @discardableResult
        func scan() throws -> ScanReport {
            try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        }

        /// Every asset, hidden ones included, oldest first.
        func assets() -> [PHAsset] {
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            let result = PHAsset.fetchAssets(with: options)
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }

        /// The asset with a file at `relative`.
        func asset(at relative: String) -> PHAsset? {
            let path = pictures.appendingPathComponent(relative).path
            return assets().first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == path }
            }
        }

        func types(_ asset: PHAsset) -> [PHAssetResourceType] {
            PHAssetResource.assetResources(for: asset).map(\.type)
        }

        /// The identifiers of the assets in the album of the folder `relative`.
        func album(_ relative: String) -> [String] {
            let options = PHFetchOptions()
            options.photoLibrary = library
            let path = pictures.appendingPathComponent(relative).path
            guard
                let album = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                    .first(where: { $0.directoryPath == path })
            else { return [] }
            let members = PHAsset.fetchAssets(in: album, options: options)
            return members.objects(at: IndexSet(integersIn: 0..<members.count)).map(\.localIdentifier).sorted()
        }

        /// What the change log says of assets after `token`: the inserted, and the updated with
        /// their properties.
        func changes(after token: Int64) throws -> (inserted: Set<String>, updated: [String: Set<String>]) {
            var inserted = Set<String>()
            var updated: [String: Set<String>] = [:]
            for entry in try library.database.changes(after: token) {
                inserted.formUnion(entry.asset.inserted)
                for id in entry.asset.updated {
                    updated[id, default: []].formUnion(entry.asset.changedProperties[id] ?? [])
                }
            }
            return (inserted, updated)
        }

        /// Marks an asset a favorite and puts it in a user album; returns the album's identifier.
        func favorAndCollect(_ asset: PHAsset) throws -> String {
            var album = ""
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: asset).isFavorite = true
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
                request.addAssets([asset] as NSArray)
                album = request.placeholderForCreatedAssetCollection.localIdentifier
            }
            return album
        }

        /// The identifiers of the assets in the user album `identifier`.
        func members(ofUserAlbum identifier: String) -> [String] {
            let options = PHFetchOptions()
            options.photoLibrary = library
            guard
                let album = PHAssetCollection.fetchAssetCollections(
                    withLocalIdentifiers: [identifier], options: options
                ).firstObject
            else { return [] }
            let members = PHAsset.fetchAssets(in: album, options: options)
            return members.objects(at: IndexSet(integersIn: 0..<members.count)).map(\.localIdentifier)
        }
    }

    /// Runs `body` on a new library of `engine`.
    func on(_ engine: String, _ body: (Fixture) throws -> Void) throws {
        let directory = try TemporaryDirectory(prefix: "photos-group-move")
        guard engine == "postgresql" else {
            return try body(Fixture(directory.path("library.sqlite"), directory: directory))
        }
        try PostgreSQLTestServer.inNewSchema { url in
            try body(Fixture(try #require(URL(string: url)), directory: directory))
        }
    }

    static let still = "Phone/DCIM/100APPLE/IMG_5195.HEIC"
    static let movie = "Phone/DCIM/100APPLE/IMG_5195.MOV"
    static let raw = "Camera/RAW/IMG_0350.CR2"
    static let jpeg = "Camera/2008/Misc/Canon_40D.jpg"

    @Test(arguments: engines)
    func aLivePhotosStillMovedToAnotherFolderKeepsTheAssetAndLeavesItsMovieAVideo(engine: String) throws {
        try on(engine) { library in
            try library.add(Self.still, at: "A/IMG_5195.HEIC")
            try library.add(Self.movie, at: "A/IMG_5195.MOV")
            try library.scan()
            let live = try #require(library.assets().first)
            #expect(library.assets().count == 1 && library.types(live) == [.photo, .pairedVideo])
            let best = try library.favorAndCollect(live)
            let token = try library.database.currentToken()

            try library.move("A/IMG_5195.HEIC", to: "B/IMG_5195.HEIC")
            let report = try library.scan()
            #expect(report.moved == 1 && report.ingested == 0 && report.removed == 0, "\(report)")
            #expect(library.assets().count == 2)
            let kept = try #require(library.asset(at: "B/IMG_5195.HEIC"))
            #expect(kept.localIdentifier == live.localIdentifier && kept.isFavorite)
            #expect(library.types(kept) == [.photo] && !kept.mediaSubtypes.contains(.photoLive))
            #expect(library.members(ofUserAlbum: best) == [live.localIdentifier])
            let video = try #require(library.asset(at: "A/IMG_5195.MOV"))
            #expect(video.localIdentifier != live.localIdentifier && !video.isFavorite)
            #expect(video.mediaType == .video && library.types(video) == [.video] && video.duration > 0)
            #expect(library.album("A") == [video.localIdentifier])
            #expect(library.album("B") == [live.localIdentifier])
            let changes = try library.changes(after: token)
            #expect(changes.inserted == [video.localIdentifier])
            #expect(changes.updated[live.localIdentifier]?.contains("resources") == true)
        }
    }

    @Test(arguments: engines)
    func aLivePhotosMovieMovedAloneIsAVideoOfItsOwn(engine: String) throws {
        try on(engine) { library in
            try library.add(Self.still, at: "A/IMG_5195.HEIC")
            try library.add(Self.movie, at: "A/IMG_5195.MOV")
            try library.scan()
            let live = try #require(library.assets().first)
            _ = try library.favorAndCollect(live)
            let token = try library.database.currentToken()

            try library.move("A/IMG_5195.MOV", to: "B/IMG_5195.MOV")
            try library.scan()
            #expect(library.assets().count == 2)
            let kept = try #require(library.asset(at: "A/IMG_5195.HEIC"))
            #expect(kept.localIdentifier == live.localIdentifier && kept.isFavorite)
            #expect(library.types(kept) == [.photo] && !kept.mediaSubtypes.contains(.photoLive))
            let video = try #require(library.asset(at: "B/IMG_5195.MOV"))
            #expect(video.localIdentifier != live.localIdentifier)
            #expect(video.mediaType == .video && library.types(video) == [.video] && video.duration > 0)
            #expect(library.album("A") == [live.localIdentifier])
            #expect(library.album("B") == [video.localIdentifier])
            let changes = try library.changes(after: token)
            #expect(changes.inserted == [video.localIdentifier])
            #expect(changes.updated[live.localIdentifier]?.contains("resources") == true)
        }
    }

    /// Either half of a RAW+JPEG pair moved: the JPEG is the pair's photo, and keeps the asset.
    @Test(arguments: engines, ["IMG_0350.CR2", "IMG_0350.JPG"])
    func eitherHalfOfARAWAndJPEGPairMovedApartIsAPhotoOfItsOwn(engine: String, moving name: String) throws {
        try on(engine) { library in
            try library.add(Self.raw, at: "A/IMG_0350.CR2")
            try library.add(Self.jpeg, at: "A/IMG_0350.JPG")
            try library.scan()
            let pair = try #require(library.assets().first)
            #expect(library.assets().count == 1 && library.types(pair) == [.photo, .alternatePhoto])
            _ = try library.favorAndCollect(pair)

            try library.move("A/\(name)", to: "B/\(name)")
            try library.scan()
            #expect(library.assets().count == 2)
            let jpegFolder = name == "IMG_0350.JPG" ? "B" : "A"
            let kept = try #require(library.asset(at: "\(jpegFolder)/IMG_0350.JPG"))
            #expect(kept.localIdentifier == pair.localIdentifier && kept.isFavorite)
            #expect(library.types(kept) == [.photo])
            let rawFolder = name == "IMG_0350.CR2" ? "B" : "A"
            let raw = try #require(library.asset(at: "\(rawFolder)/IMG_0350.CR2"))
            #expect(raw.localIdentifier != pair.localIdentifier && !raw.isFavorite)
            #expect(raw.mediaType == .image && library.types(raw) == [.photo])
            #expect(library.album(jpegFolder) == [pair.localIdentifier])
            #expect(library.album(rawFolder) == [raw.localIdentifier])
        }
    }

    @Test(arguments: engines)
    func aLivePhotoMovedWholeStaysOneAsset(engine: String) throws {
        try on(engine) { library in
            try library.add(Self.still, at: "A/IMG_5195.HEIC")
            try library.add(Self.movie, at: "A/IMG_5195.MOV")
            try library.scan()
            let live = try #require(library.assets().first)
            try library.move("A/IMG_5195.HEIC", to: "B/IMG_5195.HEIC")
            try library.move("A/IMG_5195.MOV", to: "B/IMG_5195.MOV")
            let report = try library.scan()
            #expect(report.moved == 2 && report.ingested == 0, "\(report)")
            let moved = try #require(library.assets().first)
            #expect(library.assets().count == 1 && moved.localIdentifier == live.localIdentifier)
            #expect(library.types(moved) == [.photo, .pairedVideo] && moved.mediaSubtypes.contains(.photoLive))
            #expect(library.album("B") == [live.localIdentifier])
        }
    }

    /// The movie moved apart pairs with the still it matches where it arrives, as a scan of that
    /// folder alone would pair them.
    @Test(arguments: engines)
    func aMovieMovedApartPairsWithItsStillWhereItArrives(engine: String) throws {
        try on(engine) { library in
            try library.add(Self.still, at: "A/IMG_5195.HEIC")
            try library.add(Self.movie, at: "A/IMG_5195.MOV")
            try library.add(Self.still, at: "B/IMG_5195.HEIC")
            try library.scan()
            let live = try #require(library.asset(at: "A/IMG_5195.HEIC"))
            let other = try #require(library.asset(at: "B/IMG_5195.HEIC"))
            #expect(library.assets().count == 2 && !other.mediaSubtypes.contains(.photoLive))

            try library.move("A/IMG_5195.MOV", to: "B/IMG_5195.MOV")
            try library.scan()
            #expect(library.assets().count == 2)
            let kept = try #require(library.asset(at: "A/IMG_5195.HEIC"))
            #expect(kept.localIdentifier == live.localIdentifier && library.types(kept) == [.photo])
            let paired = try #require(library.asset(at: "B/IMG_5195.MOV"))
            #expect(paired.localIdentifier == other.localIdentifier)
            #expect(library.types(paired) == [.photo, .pairedVideo] && paired.mediaSubtypes.contains(.photoLive))
        }
    }
}

extension GroupMemberMoveTests.Fixture {
    var database: LibraryDatabase { library.database }
}
