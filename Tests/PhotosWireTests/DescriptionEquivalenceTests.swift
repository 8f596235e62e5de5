import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// The fast path (``DescriptionReader``, straight from the store's rows) and the PhotoKit path
/// (`AssetDescription(PHAsset)`, `CollectionDescription(PHCollection)`) describe every asset and
/// collection of the scanned corpus identically, field by field, so the fast path cannot drift.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DescriptionEquivalenceTests {
    /// The corpus copied into a temporary root and scanned, plus user state the files cannot give:
    /// a user album holding assets that are also in directory albums, a favorite, a hidden asset,
    /// and an unreadable directory (its assets unavailable).
    final class ScannedCorpus: Sendable {
        let directory: TemporaryDirectory
        let library: PHPhotoLibrary
        let root: URL
        let userAlbum: String
        let unreadable: String
        let timeZone = TimeZone(identifier: "Europe/Paris")!

        init() throws {
            directory = try TemporaryDirectory(prefix: "wire-corpus")
            root = directory.path("Pictures")
            try FileManager.default.copyItem(at: try #require(Corpus.root), to: root)
            var configuration = PHPhotoLibrary.Configuration()
            configuration.timeZone = timeZone
            library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
            _ = try FolderScanner(database: library.database, timeZone: timeZone, quietTime: 0)
                .scan(roots: [root.path])

            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            let assets = Array(PHAsset.fetchAssets(with: options))
            var album = ""
            try library.performChangesAndWait {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(
                    withTitle: "Best / \"of\"")
                request.addAssets(Array(assets.prefix(5)))
                album = request.placeholderForCreatedAssetCollection.localIdentifier
                PHAssetChangeRequest(for: assets[0]).isFavorite = true
                PHAssetChangeRequest(for: assets[1]).isHidden = true
            }
            userAlbum = album
            unreadable = root.appendingPathComponent("Phone/DCIM/100APPLE").path
            try library.database.write { transaction in
                try transaction.markUnreadable(
                    UnreadableDirectoryRecord(path: unreadable, code: EACCES, reason: "test"))
            }
        }

        var reader: DescriptionReader { DescriptionReader(database: library.database, timeZone: timeZone) }

        /// Every asset, hidden assets and burst members included, in the default order.
        func allAssets() -> PHFetchResult<PHAsset> {
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            return PHAsset.fetchAssets(with: options)
        }

        /// Every album, smart album and folder.
        func allCollections() -> [PHCollection] {
            let options = PHFetchOptions()
            options.photoLibrary = library
            return Array(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options))
                + Array(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options))
                + Array(PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options))
        }
    }

    /// Scanned once for the suite's tests, which only read it.
    static let shared = Result { try ScannedCorpus() }

    let corpus: ScannedCorpus

    init() throws {
        corpus = try Self.shared.get()
    }

    @Test func everyAssetIsDescribedAlikeByBothPaths() throws {
        let assets = corpus.allAssets()
        #expect(assets.count > 80, "the corpus scanned into assets")
        let slow = assets.map { AssetDescription($0, timeZone: corpus.timeZone) }
        let fast = try corpus.reader.assets(.localIdentifiers(assets.map(\.localIdentifier)))
        try #require(fast.count == slow.count)
        for (old, new) in zip(slow, fast) {
            #expect(new.localIdentifier == old.localIdentifier)
            #expect(new.mediaType == old.mediaType, "\(old.localIdentifier)")
            #expect(new.mediaSubtypes == old.mediaSubtypes, "\(old.localIdentifier)")
            #expect(new.pixelWidth == old.pixelWidth && new.pixelHeight == old.pixelHeight, "\(old.localIdentifier)")
            #expect(new.creationDate == old.creationDate, "\(old.localIdentifier)")
            #expect(new.creationDateHasOffset == old.creationDateHasOffset, "\(old.localIdentifier)")
            #expect(new.modificationDate == old.modificationDate, "\(old.localIdentifier)")
            #expect(new.duration == old.duration, "\(old.localIdentifier)")
            #expect(new.location == old.location, "\(old.localIdentifier)")
            #expect(new.isFavorite == old.isFavorite && new.isHidden == old.isHidden, "\(old.localIdentifier)")
            #expect(new.burstIdentifier == old.burstIdentifier, "\(old.localIdentifier)")
            #expect(new.representsBurst == old.representsBurst, "\(old.localIdentifier)")
            #expect(new.isAvailable == old.isAvailable, "\(old.localIdentifier)")
            #expect(new.resources == old.resources, "\(old.localIdentifier)")
            #expect(new.albums == old.albums, "\(old.localIdentifier)")
            #expect(new == old)
        }
        // The library's user state and files show through, so the comparison covered them.
        #expect(fast.contains { !$0.isAvailable } && fast.contains { $0.isAvailable })
        #expect(fast.contains { $0.isHidden } && fast.contains { $0.isFavorite })
        #expect(fast.contains { $0.location != nil } && fast.contains { $0.burstIdentifier != nil })
        #expect(fast.contains { $0.creationDateHasOffset } && fast.contains { !$0.creationDateHasOffset })
        #expect(fast.contains { $0.resources.count > 1 })
        #expect(fast.contains { $0.albums.count > 1 })
    }

    @Test func rowIDsAndIdentifiersGiveTheSameDescriptionsInTheOrderAsked() throws {
        let assets = Array(corpus.allAssets())
        var pages: [AssetDescription] = []
        try corpus.allAssets().forEachDescriptionPage(pageSize: 7) { page in
            #expect(page.count <= 7)
            pages += page
        }
        let reversed = assets.reversed().map(\.localIdentifier)
        let byIdentifier = try corpus.reader.assets(.localIdentifiers(["nothing/L0/001"] + reversed + ["gone"]))
        #expect(byIdentifier.map(\.localIdentifier) == reversed, "unknown identifiers are skipped, order is kept")
        #expect(Array(byIdentifier.reversed()) == pages)
        #expect(pages.map(\.localIdentifier) == assets.map(\.localIdentifier))
        #expect(try corpus.reader.assets(.localIdentifiers([])).isEmpty)
        #expect(try corpus.reader.assets(.rowIDs([-5, 999_999])).isEmpty)
    }

    /// Positions in any order, read at once, give what the pages give at those positions; positions
    /// outside the result are left out.
    @Test func descriptionsAtPositionsAreThePagesAtThem() throws {
        let result = corpus.allAssets()
        var pages: [AssetDescription] = []
        try result.forEachDescriptionPage { pages += $0 }
        #expect(pages.count > 5)
        let positions = [pages.count - 1, 0, 3, 1]
        #expect(try result.descriptions(at: positions) == positions.map { pages[$0] })
        #expect(try result.descriptions(at: [-1, 2, pages.count]) == [pages[2]])
        #expect(try result.descriptions(at: []).isEmpty)
    }

    @Test func albumsNameTheDirectoryAndUserAlbumsHoldingTheAsset() throws {
        let directory = corpus.root.appendingPathComponent("Camera/2008/Death Valley").path
        let assets = try corpus.reader.assets(.localIdentifiers(corpus.allAssets().map(\.localIdentifier)))
        let inValley = assets.filter { $0.resources.first?.path.hasPrefix(directory + "/") == true }
        try #require(!inValley.isEmpty)
        for asset in inValley {
            let album = try #require(asset.albums.first { $0.path != nil })
            #expect(album.path == directory && album.localizedTitle == "Death Valley")
        }
        let inUserAlbum = assets.filter { $0.albums.contains { $0.localIdentifier == corpus.userAlbum } }
        #expect(inUserAlbum.count == 5)
        for asset in inUserAlbum {
            let album = try #require(asset.albums.first { $0.localIdentifier == corpus.userAlbum })
            #expect(album.path == nil && album.localizedTitle == "Best / \"of\"")
        }
        // Smart albums (Recents, Favorites...) are never listed.
        let smart = Set(SmartAlbum.all.map(\.localIdentifier))
        #expect(!assets.contains { $0.albums.contains { smart.contains($0.localIdentifier) } })
        // Assets under the unreadable directory, and only those, are unavailable.
        for asset in assets {
            let under = asset.resources.contains { $0.path.hasPrefix(corpus.unreadable + "/") }
            #expect(asset.isAvailable == !under, "\(asset.resources.map(\.path))")
        }
    }

    @Test func everyCollectionIsDescribedAlikeByBothPaths() throws {
        let collections = corpus.allCollections()
        #expect(collections.count > 20, "directory albums, folders, smart albums and the user album")
        let slow = collections.map { CollectionDescription($0, timeZone: corpus.timeZone) }
        let fast = try corpus.reader.collections(.localIdentifiers(collections.map(\.localIdentifier)))
        try #require(fast.count == slow.count)
        for (old, new) in zip(slow, fast) {
            #expect(new.localIdentifier == old.localIdentifier)
            #expect(new.localizedTitle == old.localizedTitle, "\(old.localIdentifier)")
            #expect(new.type == old.type && new.subtype == old.subtype, "\(old.localIdentifier)")
            #expect(new.estimatedAssetCount == old.estimatedAssetCount, "\(old.localIdentifier) \(old.subtype)")
            #expect(new.path == old.path, "\(old.localIdentifier)")
            #expect(new.parentLocalIdentifier == old.parentLocalIdentifier, "\(old.localIdentifier)")
            #expect(new.startDate == old.startDate && new.endDate == old.endDate, "\(old.localIdentifier)")
            #expect(new == old)
        }
        #expect(fast.contains { $0.type == "folder" && $0.startDate != nil })
        #expect(fast.contains { $0.type == "smartAlbum" && ($0.estimatedAssetCount ?? 0) > 0 })
        #expect(fast.contains { $0.parentLocalIdentifier != nil })
        #expect(try corpus.reader.collections(.localIdentifiers(["missing"])).isEmpty)
    }

    /// The JSON written straight from the rows, a page at a time, is what the descriptions give.
    @Test func assetJSONFromTheRowsIsTheDescriptionsWritten() throws {
        let result = corpus.allAssets()
        var described = WireJSONWriter()
        try result.forEachDescriptionPage { page in
            for asset in page { described.appendLine(try AssetJSON(asset)) }
        }
        for pageSize in [1, 7, 1000] {
            var direct = WireJSONWriter()
            try result.writeAssetJSON(as: .line, into: &direct, pageSize: pageSize)
            #expect(String(decoding: direct.bytes, as: UTF8.self) == String(decoding: described.bytes, as: UTF8.self))
        }
        // A range of the result, as elements of a listing.
        var direct = WireJSONWriter()
        direct.beginListing("assets")
        try result.writeAssetJSON(in: 3..<result.count + 10, as: .element, into: &direct)
        direct.endListing(next: nil)
        var expected = WireJSONWriter()
        expected.beginListing("assets")
        try result.forEachDescriptionPage(in: 3..<result.count) { page in
            for asset in page { expected.appendElement(try AssetJSON(asset)) }
        }
        expected.endListing(next: nil)
        #expect(direct.bytes == expected.bytes)
    }

    /// The one writer of asset JSON, from the rows, writes for every corpus asset what the
    /// `Codable` encoding of its description writes (the shape clients decode).
    @Test func theRowsWriteWhatTheCodableEncodingWritesForEveryCorpusAsset() throws {
        let encoder = WireJSON.makeEncoder()
        let identifiers = corpus.allAssets().map(\.localIdentifier)
        let assets = try corpus.reader.assets(.localIdentifiers(identifiers))
        let written = try corpus.reader.assetJSON(.localIdentifiers(identifiers))
        try #require(written.count == assets.count && assets.count > 80)
        for (asset, json) in zip(assets, written) {
            #expect(json.localIdentifier == asset.localIdentifier)
            let encoded = try encoder.encode(asset)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
            #expect(try JSONDecoder().decode(AssetDescription.self, from: Data(json.bytes)) == asset)
        }
    }

    @Test func theWriterWritesWhatJSONEncoderWritesForTheCorpus() throws {
        let encoder = WireJSON.makeEncoder()
        let collections = try corpus.reader.collections(
            .localIdentifiers(corpus.allCollections().map(\.localIdentifier)))
        for collection in collections {
            var writer = WireJSONWriter()
            writer.append(collection)
            #expect(
                String(decoding: writer.bytes, as: UTF8.self)
                    == String(decoding: try encoder.encode(collection), as: UTF8.self))
        }
    }
}
