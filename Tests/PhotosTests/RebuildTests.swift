import Foundation
import GRDB
import PhotosImaging
import PhotosIngest
import PhotosSidecars
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// A library whose database is lost comes back from the disk alone: `photos rebuild` over a root
/// with `write = "sidecars"` gives every asset its identifier and user state from its sidecar and
/// every user album and folder its identifier, title, nesting, order and photos from the root's
/// album manifest. Compared field by field with the library before the loss.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RebuildTests {
    /// A phone's folder (a Live Photo, an edited photo, HEIC and JPEG) and a camera's JPEG.
    static let sources = ["Phone/DCIM/100APPLE", "Camera/2008/Death Valley"]

    /// Every asset's fields that a library keeps, by the path of its photo, as JSON values; what a
    /// rebuild cannot know (row ids, when the row was added or last changed) left out.
    static func assets(_ database: LibraryDatabase) throws -> [String: [String: String]] {
        let rows = try database.read { db in
            try db.rows(
                """
                SELECT \(AssetRecord.selectionSQL), (SELECT d.path || r.name FROM resource r
                    JOIN directory d ON d.id = r.directoryId WHERE r.assetId = asset.id ORDER BY r.type, r.id LIMIT 1)
                FROM asset
                """, []
            ) { (record: try AssetRecord(row: $0), file: $0.optionalText(AssetRecord.columnNames.count)) }
        }
        var table: [String: [String: String]] = [:]
        for (record, file) in rows {
            let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any] ?? [:]
            var fields: [String: String] = [:]
            for (key, value) in object where !["id", "addedDate", "modificationDate"].contains(key) {
                fields[key] = "\(value)"
            }
            table[file ?? record.localIdentifier] = fields
        }
        return table
    }

    static let sepia = PHAdjustmentData(
        formatIdentifier: "org.example.sepia", formatVersion: "1.0", data: Data("amount=0.8".utf8))

    /// The content editing input of `asset`, asked for as PhotoKit code does.
    static func input(_ asset: PHAsset, canHandle: @escaping (PHAdjustmentData) -> Bool = { _ in false }) throws
        -> PHContentEditingInput
    {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = canHandle
        let box = Mutex<PHContentEditingInput?>(nil)
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: options) { input, _ in
            box.withLock { $0 = input }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
        return try #require(box.withLock { $0 })
    }

    /// Edits `asset` with a small render of its photo and ``sepia``.
    static func edit(_ asset: PHAsset, in library: PHPhotoLibrary) throws {
        let input = try input(asset)
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = sepia
        let render = try ImageRenderer().render(
            fileAt: try #require(input.fullSizeImageURL).path, ImageRequest(target: PixelSize(width: 64, height: 64)))
        try Data(render.data).write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
    }

    /// An asset's resources, as types and paths, in the library's order.
    static func resources(_ identifier: String, in library: PHPhotoLibrary) -> [(
        type: PHAssetResourceType, path: String
    )] {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options).firstObject else {
            return []
        }
        return PHAssetResource.assetResources(for: asset).map { ($0.type, $0.fileURL.path) }
            .sorted { ($0.type.rawValue, $0.path) < ($1.type.rawValue, $1.path) }
    }

    /// The user albums and folders: identifier → title, kind, parent, place, creation date and photos.
    static func collections(_ database: LibraryDatabase) throws -> [String: String] {
        var table: [String: String] = [:]
        for collection in try database.userCollections() {
            let record = collection.record
            table[record.localIdentifier] =
                "\(record.isList ? "folder" : "album") \(record.title ?? "-") in \(collection.parent ?? "top") "
                + "at \(record.position) made \(record.createdDate) holding \(collection.assets.map(\.localIdentifier))"
        }
        return table
    }

    @Test func aLibraryRebuiltFromTheDiskHasEveryUserStateBack() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-rebuild")
        let root = directory.path("Pictures").path
        for source in Self.sources {
            let from = try #require(Corpus.file(source)).path
            let to = root + "/" + (source as NSString).lastPathComponent
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
        let libraryURL = directory.path("library.sqlite")
        let config = directory.path("config.toml").path
        try Data("roots = [{ path = \"\(root)\", write = \"sidecars\" }]\n".utf8).write(
            to: URL(fileURLWithPath: config))

        var before: (assets: [String: [String: String]], collections: [String: String])
        var members: Set<String> = []
        var editedIdentifier = ""
        var editedResources: [(type: PHAssetResourceType, path: String)] = []
        do {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = [LibraryRoot(path: root, write: .sidecars)]
            let library = try PHPhotoLibrary(url: libraryURL, configuration: configuration)
            _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            let fetched = PHAsset.fetchAssets(with: options)
            try #require(fetched.count >= 6, "the corpus folders give at least six assets")
            let assets = (0..<fetched.count).map { fetched.object(at: $0) }
            var folder = ""
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: assets[0]).isFavorite = true
                PHAssetChangeRequest(for: assets[1]).isFavorite = true
                PHAssetChangeRequest(for: assets[1]).rating = .four
                PHAssetChangeRequest(for: assets[2]).isHidden = true
                PHAssetChangeRequest(for: assets[3]).creationDate = Date(timeIntervalSince1970: 1_500_000_000)
                PHAssetChangeRequest(for: assets[4]).location = CLLocation(latitude: 48.8566, longitude: 2.3522)
                let trips = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
                folder = trips.placeholderForCreatedCollectionList.localIdentifier
                let best = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
                // Not in date order: the album's own order must come back.
                best.addAssets([assets[5], assets[0], assets[2]] as NSArray)
                trips.addChildCollections([best.placeholderForCreatedAssetCollection] as NSArray)
                let family = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Family")
                family.addAssets([assets[1]] as NSArray)
            }
            let listOptions = PHFetchOptions()
            listOptions.photoLibrary = library
            let trips = try #require(
                PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: listOptions).firstObject)
            try library.performChangesAndWait {
                // A second folder inside the first, holding an empty album.
                let nested = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "2024")
                let empty = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Later")
                nested.addChildCollections([empty.placeholderForCreatedAssetCollection] as NSArray)
                PHCollectionListChangeRequest(for: trips)?.addChildCollections(
                    [nested.placeholderForCreatedCollectionList] as NSArray)
            }
            // An edit, kept in the library's folder (its import folder's `.edits`), which the database's
            // loss leaves: the rebuilt asset finds it by its identifier.
            let edited = try #require(assets.first { $0.mediaType == .image })
            try Self.edit(edited, in: library)
            editedIdentifier = edited.localIdentifier
            editedResources = Self.resources(edited.localIdentifier, in: library)
            #expect(editedResources.map(\.type).contains(.fullSizePhoto), "\(editedResources)")
            before = (try Self.assets(library.database), try Self.collections(library.database))
            members = Set(try library.database.userCollections().flatMap { $0.assets.map(\.localIdentifier) })
        }
        #expect(before.collections.count == 5, "\(before.collections)")
        #expect(FileManager.default.fileExists(atPath: AlbumManifest.path(inRoot: root)))

        // A scan by the command line notes every photo's identifier in the root's identifier log
        // (the edits above, made through the library, wrote sidecars and the manifest only).
        let scanned = try await offPool {
            try BuiltProducts.run("photos", ["scan", root, "--library", libraryURL.path, "--config", config])
        }
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(FileManager.default.fileExists(atPath: IdentifierLog.path(inRoot: root)))

        // A token a program kept of the library.
        let kept = try LibraryDatabase(path: libraryURL.path).currentToken()
        #expect(kept > 0)

        // The database is lost.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: libraryURL.path + suffix) }

        let dry = try await offPool {
            try BuiltProducts.run("photos", ["rebuild", "--dry-run", "--library", libraryURL.path, "--config", config])
        }
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("would rebuild"), "\(dry.stdout)")
        #expect(dry.stdout.contains("3 user albums, 2 user folders"), "\(dry.stdout)")
        #expect(!FileManager.default.fileExists(atPath: libraryURL.path), "a dry run writes no library")

        // What a killed rebuild left (a pid no process has), and a running one's (this test's pid).
        let leftover = libraryURL.deletingLastPathComponent().path + "/." + libraryURL.lastPathComponent + ".rebuild-"
        let abandoned = ["4194303", "4194303-wal", "4194303-journal"].map { leftover + $0 }
        for path in abandoned + [leftover + "\(getpid())"] {
            FileManager.default.createFile(atPath: path, contents: Data("half a library".utf8))
        }
        let rebuilt = try await offPool {
            try BuiltProducts.run("photos", ["rebuild", "--library", libraryURL.path, "--config", config])
        }
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("rebuilt \(libraryURL.path)"), "\(rebuilt.stdout)")
        #expect(abandoned.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "a stopped rebuild's files go")
        #expect(FileManager.default.fileExists(atPath: leftover + "\(getpid())"), "a running one's stay")

        let database = try LibraryDatabase(path: libraryURL.path)
        let after = (assets: try Self.assets(database), collections: try Self.collections(database))
        // The kept token is another library's: expired, never taken for one of the rebuilt one's
        // (its tokens start after the moment of the rebuild).
        let expired = #expect(throws: StoreError.self) { try database.requireHistory(after: kept) }
        #expect(expired?.code == .historyExpired)
        let start = try database.prunedThrough()
        #expect(start > Int64(Date().timeIntervalSince1970 * 1000) - 600_000, "\(start)")
        #expect(try database.currentToken() > start)
        #expect(try !database.changes(after: start).isEmpty, "the rebuilt library's own history is there")
        #expect(Set(after.assets.keys) == Set(before.assets.keys), "the same photos")
        // Every field of every asset is back, its identifier too: from its sidecar (written at its
        // first edit), its user album (whose manifest names it), or else the root's identifier log.
        #expect(
            before.assets.keys.contains { file in
                !FileManager.default.fileExists(atPath: file + ".xmp")
                    && !members.contains(before.assets[file]?["localIdentifier"] ?? "")
            }, "some photo has neither a sidecar nor an album: only the identifier log names it")
        for (file, fields) in before.assets {
            let rebuiltFields = after.assets[file] ?? [:]
            for (key, value) in fields {
                #expect(rebuiltFields[key] == value, "\(file) \(key): \(rebuiltFields[key] ?? "absent") != \(value)")
            }
        }
        #expect(after.collections == before.collections)
        #expect(rebuilt.stdout.contains("1 edit came back from the library's folder"), "\(rebuilt.stdout)")
        do {
            // The edit is the asset's again: its render, adjustment data and format, read as PhotoKit reads them.
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            let library = try PHPhotoLibrary(url: libraryURL, configuration: configuration)
            let restored = Self.resources(editedIdentifier, in: library)
            #expect(restored.map(\.type) == editedResources.map(\.type))
            #expect(restored.map(\.path) == editedResources.map(\.path))
            let options = PHFetchOptions()
            options.photoLibrary = library
            let asset = try #require(
                PHAsset.fetchAssets(withLocalIdentifiers: [editedIdentifier], options: options).firstObject)
            #expect(asset.adjustmentFormatIdentifier == Self.sepia.formatIdentifier)
            // An app that can read its edit is given it again, over the picture it was made on.
            let input = try Self.input(asset) { $0.formatIdentifier == Self.sepia.formatIdentifier }
            #expect(input.adjustmentData == Self.sepia)
        }

        // Rebuilt again over the rebuilt one: the old file is kept beside it, never written over.
        let again = try await offPool {
            try BuiltProducts.run("photos", ["rebuild", "--library", libraryURL.path, "--config", config])
        }
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: libraryURL.path + ".before-rebuild"))
        #expect(try Self.collections(LibraryDatabase(path: libraryURL.path)) == before.collections)
    }

    /// A file of the manifest's name that another program wrote is never written over: the change
    /// that would write it fails naming it, and the file keeps its bytes.
    @Test func aFileOfTheManifestsNameThatIsNotOneIsLeftAlone() throws {
        let directory = try TemporaryDirectory(prefix: "photos-manifest-foreign")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let foreign = Data("{\"mine\": true}\n".utf8)
        try foreign.write(to: URL(fileURLWithPath: AlbumManifest.path(inRoot: root)))
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: root, write: .sidecars)]
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        let error = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            }
        }
        #expect(error?.code == .accessRestricted)
        #expect(error?.message.contains(AlbumManifest.path(inRoot: root)) == true, "\(String(describing: error))")
        #expect(try library.database.userCollections().isEmpty, "the block committed nothing")
        #expect(FileManager.default.contents(atPath: AlbumManifest.path(inRoot: root)) == foreign)
    }

    /// A manifest write stopped at any step (before the commit's work, before or after the file is
    /// written) is finished at the next open: the manifest names the album, and no temporary file
    /// of the stopped write is left.
    @Test(arguments: [FaultInjection.Step.committed, .manifestWriting, .manifestWritten])
    func aManifestWriteKilledAtAnyStepIsFinishedAtTheNextOpen(step: FaultInjection.Step) throws {
        let directory = try TemporaryDirectory(prefix: "photos-manifest-kill")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: root, write: .sidecars)]
        var album = ""
        do {
            let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
            let imports = library.importDirectory.standardizedFileURL.path
            FaultInjection.set(in: imports) { $0 == step }
            defer { FaultInjection.clear(in: imports) }
            #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait {
                    album =
                        PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
                        .placeholderForCreatedAssetCollection.localIdentifier
                }
            }
            #expect(try library.database.fileJournal().count == 1, "the manifest's write is journaled")
        }
        // A write killed between its temporary file and the rename left one behind.
        let abandoned = root + "/." + AlbumManifest.fileName + ".photosd-4194999-1.tmp"
        try Data("half a manifest".utf8).write(to: URL(fileURLWithPath: abandoned))
        let reopened = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        let manifest = try #require(try AlbumManifest.read(AlbumManifest.path(inRoot: root)))
        #expect(manifest.albums.map(\.localIdentifier) == [album] && manifest.albums.first?.title == "Best")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == [AlbumManifest.fileName])
    }
}
