import Foundation
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import Photos

/// The assets of a directory-backed album are its directory's files: under a root with
/// `write = "files"`, adding an asset moves its files there (the same asset), removing one is
/// refused, and deleting the album moves its directory to the Trash, its photos to Recently Deleted.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DirectoryAlbumTests {
    static let photo = Corpus.file("Phone/DCIM/100APPLE/IMG_6100.JPG")!

    /// Pictures/2024/Trip (a.jpg, b.jpg) and Pictures/2024/Zoo (c.jpg), plus `more` files (name in
    /// the root, corpus file), scanned, with the Trash in the temporary directory.
    final class Tree: Sendable {
        let directory: TemporaryDirectory
        let pictures: String
        let library: PHPhotoLibrary

        init(write: RootWritePolicy = .files, more: [(String, URL)] = []) throws {
            directory = try TemporaryDirectory(prefix: "photos-dir-albums")
            pictures = directory.path("Pictures").path
            let files = [
                ("2024/Trip/a.jpg", DirectoryAlbumTests.photo), ("2024/Trip/b.jpg", DirectoryAlbumTests.photo),
                ("2024/Zoo/c.jpg", DirectoryAlbumTests.photo),
            ]
            for (name, source) in files + more {
                let path = pictures + "/" + name
                try FileManager.default.createDirectory(
                    atPath: PathName.directory(of: path), withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: source.path, toPath: path)
            }
            library = try Self.open(directory, pictures: pictures, write: write)
            _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures])
        }

        static func open(_ directory: TemporaryDirectory, pictures: String, write: RootWritePolicy) throws
            -> PHPhotoLibrary
        {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = [LibraryRoot(path: pictures, write: write)]
            configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
            return try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        }

        func reopened() throws -> PHPhotoLibrary { try Self.open(directory, pictures: pictures, write: .files) }

        func options(_ library: PHPhotoLibrary? = nil) -> PHFetchOptions {
            let options = PHFetchOptions()
            options.photoLibrary = library ?? self.library
            options.includeHiddenAssets = true
            return options
        }

        func album(_ title: String, in library: PHPhotoLibrary? = nil) -> PHAssetCollection? {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options(library))
                .first { $0.localizedTitle == title }
        }

        func asset(_ path: String, in library: PHPhotoLibrary? = nil) -> PHAsset? {
            PHAsset.fetchAssets(with: options(library)).first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == pictures + "/" + path }
            }
        }

        func files(of asset: PHAsset) -> [String] {
            PHAssetResource.assetResources(for: asset).map { $0.fileURL.path }.sorted()
        }

        /// The names in `path` (under the root), sorted; at the root, without the identifier log the
        /// library keeps there (brought up to date by each change that moves photos).
        func entries(_ path: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: pictures + "/" + path)) ?? [])
                .filter { !path.isEmpty || $0 != ".photosd-identifiers" }.sorted()
        }

        func trashEntries(_ kind: String) -> [String] {
            let path = directory.path("data").path + "/Trash/" + kind
            return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        }

        func members(_ album: PHAssetCollection, in library: PHPhotoLibrary? = nil) -> [String] {
            PHAsset.fetchAssets(in: album, options: options(library)).map(\.localIdentifier)
        }

        func changes(since token: PHPersistentChangeToken, in library: PHPhotoLibrary? = nil) throws -> Int {
            Array(try (library ?? self.library).fetchPersistentChanges(since: token)).count
        }

        /// Scans again and answers how many changes the scan recorded (0: the library said what the disk holds).
        func rescanChanges(in library: PHPhotoLibrary? = nil) throws -> Int {
            let library = library ?? self.library
            let token = library.currentChangeToken
            _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures])
            return try changes(since: token, in: library)
        }
    }

    static func add(_ asset: PHAsset, to album: PHAssetCollection, in library: PHPhotoLibrary) throws {
        try library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album)?.addAssets([asset] as NSArray)
        }
    }

    // MARK: Adding

    @Test func addingAPhotoToADirectoryAlbumMovesItsFilesThereAndKeepsTheAsset() throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let trip = try #require(tree.album("Trip"))
        let photo = try #require(tree.asset("2024/Trip/a.jpg"))
        #expect(zoo.canPerform(.addContent) && !zoo.canPerform(.removeContent))
        #expect(!zoo.canPerform(.rearrangeContent))
        // A favorite (written to its sidecar, a.jpg.xmp) in a user album.
        var best: PHObjectPlaceholder?
        try tree.library.performChangesAndWait {
            PHAssetChangeRequest(for: photo).isFavorite = true
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            request.addAssets([photo] as NSArray)
            best = request.placeholderForCreatedAssetCollection
        }
        #expect(tree.entries("2024/Trip") == ["a.jpg", "a.jpg.xmp", "b.jpg"])
        let before = tree.library.currentChangeToken

        try Self.add(photo, to: zoo, in: tree.library)

        #expect(tree.entries("2024/Zoo") == ["a.jpg", "a.jpg.xmp", "c.jpg"], "the photo and its sidecar moved")
        #expect(tree.entries("2024/Trip") == ["b.jpg"])
        let moved = try #require(tree.asset("2024/Zoo/a.jpg"))
        #expect(moved.localIdentifier == photo.localIdentifier && moved.isFavorite, "the same asset, still a favorite")
        #expect(tree.files(of: moved) == [tree.pictures + "/2024/Zoo/a.jpg"])
        #expect(tree.members(zoo).contains(photo.localIdentifier))
        #expect(!tree.members(trip).contains(photo.localIdentifier), "it left its old directory's album")
        let bestIdentifier = try #require(best).localIdentifier
        let userAlbum = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [bestIdentifier], options: tree.options())
                .firstObject)
        #expect(tree.members(userAlbum) == [photo.localIdentifier], "and stays in its user albums")
        #expect(try tree.changes(since: before) == 1, "one change in the log")
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "the scan finds everything where it is: no echo")
        #expect(tree.asset("2024/Zoo/a.jpg")?.localIdentifier == photo.localIdentifier)
    }

    /// Another program saved over the photo since the library read it (a new file renamed over it,
    /// as editors save): adding the asset to an album fails naming the file, and nothing moves.
    @Test func aPhotoSavedOverSinceTheScanDoesNotMoveIntoAnAlbum() throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let photo = try #require(tree.asset("2024/Trip/a.jpg"))
        let path = tree.pictures + "/2024/Trip/a.jpg"
        let saved = Data("another program's picture".utf8)
        try saved.write(to: URL(fileURLWithPath: path + ".part"))
        #expect(rename(path + ".part", path) == 0)

        let refused = #expect(throws: PHPhotosError.self) { try Self.add(photo, to: zoo, in: tree.library) }
        #expect(refused?.code == .invalidResource)
        #expect(
            refused?.message.contains("\(path) is not the file the library read there") == true,
            "\(String(describing: refused?.message))")
        #expect(FileManager.default.contents(atPath: path) == saved, "left where it is")
        #expect(tree.entries("2024/Zoo") == ["c.jpg"])
        #expect(try tree.library.database.fileJournal().isEmpty)
    }

    @Test func aLivePhotoAndARawPairMoveWholeAndATakenNameSuffixesTheGroup() throws {
        let live = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.HEIC"))
        let movie = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV"))
        let raw = try #require(Corpus.file("Camera/RAW/IMG_0350.CR2"))
        let tree = try Tree(more: [
            ("Live/IMG_5195.HEIC", live), ("Live/IMG_5195.MOV", movie), ("Raw/IMG_0350.CR2", raw),
            ("Raw/IMG_0350.JPG", DirectoryAlbumTests.photo),
            // Someone's photo with the Live Photo's name in the album: never replaced, never paired.
            ("2024/Zoo/IMG_5195.jpg", DirectoryAlbumTests.photo),
        ])
        // A Lightroom-style sidecar of the RAW+JPEG pair.
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8).write(
            to: URL(fileURLWithPath: tree.pictures + "/Raw/IMG_0350.xmp"))
        let zoo = try #require(tree.album("Zoo"))
        let livePhoto = try #require(tree.asset("Live/IMG_5195.HEIC"))
        #expect(livePhoto.mediaSubtypes.contains(.photoLive))
        let pair = try #require(tree.asset("Raw/IMG_0350.CR2"))
        #expect(tree.files(of: pair).count == 2, "the RAW and the JPEG are one asset")

        try Self.add(livePhoto, to: zoo, in: tree.library)
        try Self.add(pair, to: zoo, in: tree.library)

        #expect(
            tree.entries("2024/Zoo") == [
                "IMG_0350.CR2", "IMG_0350.JPG", "IMG_0350.xmp", "IMG_5195 (2).HEIC", "IMG_5195 (2).MOV",
                "IMG_5195.jpg", "c.jpg",
            ])
        #expect(tree.entries("Live") == [] && tree.entries("Raw") == [])
        let movedLive = try #require(tree.asset("2024/Zoo/IMG_5195 (2).HEIC"))
        #expect(movedLive.localIdentifier == livePhoto.localIdentifier && movedLive.mediaSubtypes.contains(.photoLive))
        #expect(
            tree.files(of: movedLive) == [
                tree.pictures + "/2024/Zoo/IMG_5195 (2).HEIC", tree.pictures + "/2024/Zoo/IMG_5195 (2).MOV",
            ])
        #expect(
            tree.album("Live") == nil && tree.album("Raw") == nil,
            "albums left with no photo go, as the mirror drops them")
        #expect(try tree.rescanChanges() == 0, "no echo: the pairs are still pairs")
        #expect(tree.asset("2024/Zoo/IMG_0350.JPG")?.localIdentifier == pair.localIdentifier)
        #expect(tree.asset("2024/Zoo/IMG_5195.jpg")?.localIdentifier != livePhoto.localIdentifier)
    }

    @Test func removingOrReorderingADirectoryAlbumsAssetsIsRefused() throws {
        let tree = try Tree()
        let trip = try #require(tree.album("Trip"))
        let photo = try #require(tree.asset("2024/Trip/a.jpg"))
        let removal = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: trip)?.removeAssets([photo] as NSArray)
            }
        }
        #expect(removal?.code == .changeNotSupported)
        #expect(removal?.message.contains("a file has to live somewhere") == true, "\(String(describing: removal))")
        let move = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: trip)?.moveAssets(at: IndexSet([0]), to: 1)
            }
        }
        #expect(move?.code == .changeNotSupported)
        #expect(tree.entries("2024/Trip") == ["a.jpg", "b.jpg"], "nothing moved")
    }

    @Test(arguments: [RootWritePolicy.none, .sidecars])
    func aRootThatDoesNotAllowFilesRefusesNamingThePath(write: RootWritePolicy) throws {
        let tree = try Tree(write: write)
        let zoo = try #require(tree.album("Zoo"))
        let photo = try #require(tree.asset("2024/Trip/a.jpg"))
        #expect(!zoo.canPerform(.addContent) && !zoo.canPerform(.delete))
        let planned = #expect(throws: PHPhotosError.self) {
            try tree.library.plannedAssetMoves([photo.localIdentifier], intoAlbum: zoo.localIdentifier)
        }
        #expect(planned?.code == .accessRestricted)
        #expect(planned?.message.contains(tree.pictures + "/2024/Zoo") == true, "\(String(describing: planned))")
        let deletion = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([zoo] as NSArray)
            }
        }
        #expect(deletion?.code == .accessRestricted)
        #expect(deletion?.message.contains(tree.pictures + "/2024/Zoo") == true, "\(String(describing: deletion))")
        #expect(tree.entries("2024") == ["Trip", "Zoo"] && tree.entries("2024/Zoo") == ["c.jpg"])
    }

    @Test(arguments: [FaultInjection.Step.committed, .assetFileMoved])
    func aMoveKilledAtEachStepIsFinishedAtTheNextOpen(step: FaultInjection.Step) throws {
        let tree = try Tree()
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8).write(
            to: URL(fileURLWithPath: tree.pictures + "/2024/Trip/a.jpg.xmp"))
        let zoo = try #require(tree.album("Zoo"))
        let photo = try #require(tree.asset("2024/Trip/a.jpg"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        FaultInjection.set(in: imports) { $0 == step }
        #expect(throws: PHPhotosError.self) { try Self.add(photo, to: zoo, in: tree.library) }
        FaultInjection.clear(in: imports)
        #expect(
            tree.entries("2024/Zoo") == (step == .committed ? ["c.jpg"] : ["a.jpg", "c.jpg"]),
            "stopped before anything moved, or after the photo and before its sidecar")

        let reopened = try tree.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(tree.entries("2024/Zoo") == ["a.jpg", "a.jpg.xmp", "c.jpg"] && tree.entries("2024/Trip") == ["b.jpg"])
        #expect(tree.asset("2024/Zoo/a.jpg", in: reopened)?.localIdentifier == photo.localIdentifier)
        #expect(try tree.rescanChanges(in: reopened) == 0, "nothing lost, nothing duplicated")
    }

    @Test func aMoveTheDiskRefusesAfterTheCommitIsTakenBackWhole() throws {
        let live = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.HEIC"))
        let movie = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV"))
        let tree = try Tree(more: [("Live/IMG_5195.HEIC", live), ("Live/IMG_5195.MOV", movie)])
        let zoo = try #require(tree.album("Zoo"))
        let livePhoto = try #require(tree.asset("Live/IMG_5195.HEIC"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        // Another program takes the movie's name after the commit, once the still has moved.
        FaultInjection.set(in: imports) { step in
            if step == .assetFileMoved {
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: tree.pictures + "/2024/Zoo/IMG_5195.MOV"))
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let error = #expect(throws: PHPhotosError.self) { try Self.add(livePhoto, to: zoo, in: tree.library) }
        #expect(error?.message.contains("the library keeps the photo where it is") == true)
        #expect(tree.entries("Live") == ["IMG_5195.HEIC", "IMG_5195.MOV"], "the still came back to its movie")
        #expect(tree.entries("2024/Zoo") == ["IMG_5195.MOV", "c.jpg"], "the other program's file is untouched")
        let asset = try #require(tree.asset("Live/IMG_5195.HEIC"))
        #expect(asset.localIdentifier == livePhoto.localIdentifier)
        #expect(tree.files(of: asset).allSatisfy { $0.hasPrefix(tree.pictures + "/Live/") })
        #expect(try tree.library.database.fileJournal().isEmpty)
    }

    @Test func aMoveTakenBackLeavesTheAlbumItEmptiedAndItsFolderWithTheirIdentifiers() throws {
        let live = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.HEIC"))
        let movie = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV"))
        // The Live Photo is all of 2023/Live, and Live all of 2023: the move empties both.
        let tree = try Tree(more: [("2023/Live/IMG_5195.HEIC", live), ("2023/Live/IMG_5195.MOV", movie)])
        let zoo = try #require(tree.album("Zoo"))
        let liveAlbum = try #require(tree.album("Live"))
        let year = try #require(folder("2023", tree))
        let livePhoto = try #require(tree.asset("2023/Live/IMG_5195.HEIC"))
        let root = try #require(PHCollectionList.fetchTopLevelUserCollections(with: tree.options()).firstObject)
        let order = PHCollection.fetchCollections(in: try #require(root as? PHCollectionList), options: tree.options())
            .map(\.localIdentifier)
        let imports = tree.library.importDirectory.standardizedFileURL.path
        // Another program takes the movie's name after the commit, once the still has moved.
        FaultInjection.set(in: imports) { step in
            if step == .assetFileMoved {
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: tree.pictures + "/2024/Zoo/IMG_5195.MOV"))
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let before = tree.library.currentChangeToken
        let error = #expect(throws: PHPhotosError.self) { try Self.add(livePhoto, to: zoo, in: tree.library) }
        #expect(error?.message.contains("the library keeps the photo where it is") == true)

        #expect(tree.entries("2023/Live") == ["IMG_5195.HEIC", "IMG_5195.MOV"])
        #expect(tree.album("Live")?.localIdentifier == liveAlbum.localIdentifier, "the same album, not a new one")
        #expect(tree.members(try #require(tree.album("Live"))) == [livePhoto.localIdentifier])
        #expect(folder("2023", tree)?.localIdentifier == year.localIdentifier)
        #expect(
            PHCollection.fetchCollections(in: try #require(root as? PHCollectionList), options: tree.options())
                .map(\.localIdentifier) == order, "in its place")
        // Observers saw the album go with the move and come back with the take-back.
        let changes = Array(try tree.library.fetchPersistentChanges(since: before))
        #expect(
            try changes.last?.changeDetails(for: .assetCollection).insertedLocalIdentifiers == [
                liveAlbum.localIdentifier
            ])
        #expect(try tree.rescanChanges() == 0, "the library says what the disk holds")
        #expect(try tree.rescanChanges(in: tree.reopened()) == 0)
    }

    // MARK: Deleting

    @Test func deletingADirectoryAlbumTrashesItsDirectoryAndItsPhotosWaitInRecentlyDeleted() throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let photo = try #require(tree.asset("2024/Zoo/c.jpg"))
        #expect(zoo.canPerform(.delete))
        let before = tree.library.currentChangeToken

        try tree.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.deleteAssetCollections([zoo] as NSArray)
        }

        #expect(tree.entries("2024") == ["Trip"], "the directory left")
        #expect(tree.trashEntries("files") == ["Zoo", "c.jpg"], "its photo, then the emptied directory")
        #expect(tree.trashEntries("info") == ["Zoo.trashinfo", "c.jpg.trashinfo"])
        #expect(tree.album("Zoo") == nil && tree.album("Trip") != nil)
        #expect(try tree.library.trashedAssets().map(\.localIdentifier) == [photo.localIdentifier])
        #expect(try tree.changes(since: before) == 1)
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "no echo")

        // The photo comes back alone, the same asset, where it was.
        try tree.library.restoreTrashedAssets([photo.localIdentifier])
        #expect(tree.entries("2024/Zoo") == ["c.jpg"])
        #expect(tree.asset("2024/Zoo/c.jpg")?.localIdentifier == photo.localIdentifier)
    }

    @Test func anAlbumHoldingFilesTheLibraryDoesNotKnowIsNotDeletedAndTheErrorNamesThem() throws {
        let tree = try Tree()
        try Data("notes".utf8).write(to: URL(fileURLWithPath: tree.pictures + "/2024/Zoo/notes.txt"))
        try FileManager.default.createDirectory(
            atPath: tree.pictures + "/2024/Zoo/empty", withIntermediateDirectories: false)
        let zoo = try #require(tree.album("Zoo"))
        let error = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([zoo] as NSArray)
            }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(error?.message.contains("(empty, notes.txt)") == true, "\(String(describing: error))")
        #expect(tree.entries("2024/Zoo") == ["c.jpg", "empty", "notes.txt"], "nothing moved")
        #expect(tree.trashEntries("files") == [])
        #expect(tree.album("Zoo")?.localIdentifier == zoo.localIdentifier)
    }

    @Test func aFoldersOwnAlbumIsNotDeletedWithTheDirectoryOfItsOtherAlbums() throws {
        let tree = try Tree(more: [("2024/Zoo/Birds/d.jpg", Self.photo)])
        let own = try #require(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: tree.options())
                .first { $0.directoryPath == tree.pictures + "/2024/Zoo" })
        #expect(!own.canPerform(.delete))
        #expect(tree.album("Birds")?.canPerform(.delete) == true)
        let error = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([own] as NSArray)
            }
        }
        #expect(error?.code == .changeNotSupported && error?.message.contains("folder's own directory") == true)
        #expect(tree.entries("2024/Zoo") == ["Birds", "c.jpg"])
    }

    /// Where an album's deletion is stopped: a step and its nth time (the photo's file passes the
    /// Trash's steps before the directory does).
    static let stops: [(FaultInjection.Step, Int)] = [
        (.committed, 1), (.trashInfoWritten, 1), (.trashed, 1), (.trashInfoWritten, 2), (.trashed, 2),
    ]

    @Test(arguments: 0..<stops.count)
    func anAlbumDeletionKilledAtEachStepIsFinishedAtTheNextOpen(stop: Int) throws {
        let (step, time) = Self.stops[stop]
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let photo = try #require(tree.asset("2024/Zoo/c.jpg"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        FaultInjection.stop(at: step, time: time, in: imports)
        #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([zoo] as NSArray)
            }
        }
        FaultInjection.clear(in: imports)

        let reopened = try tree.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(tree.entries("2024") == ["Trip"])
        #expect(tree.trashEntries("files") == ["Zoo", "c.jpg"], "each once")
        #expect(tree.trashEntries("info") == ["Zoo.trashinfo", "c.jpg.trashinfo"])
        #expect(try reopened.trashedAssets().map(\.localIdentifier) == [photo.localIdentifier])
        #expect(tree.album("Zoo", in: reopened) == nil)
        #expect(try tree.rescanChanges(in: reopened) == 0, "nothing lost, nothing duplicated")
    }

    // MARK: Creating

    func folder(_ title: String, _ tree: Tree, in library: PHPhotoLibrary? = nil) -> PHCollectionList? {
        PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: tree.options(library))
            .first { $0.localizedTitle == title }
    }

    /// Creates albums titled `titles` in `folder`, in one block; returns their identifiers.
    static func createAlbums(_ titles: [String], in folder: PHCollectionList, _ library: PHPhotoLibrary) throws
        -> [String]
    {
        var identifiers: [String] = []
        try library.performChangesAndWait {
            let placeholders = titles.map {
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: $0)
                    .placeholderForCreatedAssetCollection!
            }
            PHCollectionListChangeRequest(for: folder)?.addChildCollections(placeholders as NSArray)
            identifiers = placeholders.map(\.localIdentifier)
        }
        return identifiers
    }

    @Test func anAlbumCreatedInADirectoryFolderIsANewDirectoryThatTheMirrorKeepsEmpty() throws {
        let tree = try Tree()
        let year = try #require(folder("2024", tree))
        let before = tree.library.currentChangeToken

        let created = try Self.createAlbums(["Birds", "Trip"], in: year, tree.library)

        #expect(tree.entries("2024") == ["Birds", "Trip", "Trip (2)", "Zoo"], "a taken name gets a suffix")
        #expect(tree.entries("2024/Birds") == [])
        let albums = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: created, options: tree.options())
        #expect(albums.map(\.localizedTitle) == ["Birds", "Trip (2)"])
        #expect(albums.map(\.directoryPath) == [tree.pictures + "/2024/Birds", tree.pictures + "/2024/Trip (2)"])
        let children = PHCollection.fetchCollections(in: year, options: tree.options()).map(\.localizedTitle)
        #expect(children == ["Birds", "Trip", "Trip (2)", "Zoo"], "in path order, as the mirror places them")
        #expect(try tree.changes(since: before) == 1)
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "no echo")
        // A photo in a new directory: the scan settles the whole tree, and keeps the empty album.
        try FileManager.default.createDirectory(
            atPath: tree.pictures + "/2024/New", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: Self.photo.path, toPath: tree.pictures + "/2024/New/n.jpg")
        let beforeArrival = tree.library.currentChangeToken
        _ = try FolderScanner(database: tree.library.database, quietTime: 0).scan(roots: [tree.pictures])
        let arrival = Array(try tree.library.fetchPersistentChanges(since: beforeArrival))
        let described = try arrival.map {
            try [
                $0.changeDetails(for: .assetCollection).updatedLocalIdentifiers,
                $0.changeDetails(for: .assetCollection).insertedLocalIdentifiers,
                $0.changeDetails(for: .collectionList).updatedLocalIdentifiers,
                $0.changeDetails(for: .asset).insertedLocalIdentifiers,
            ]
        }
        #expect(arrival.count == 1, "\(described) \(created)")
        #expect(
            try arrival.allSatisfy { try $0.changeDetails(for: .assetCollection).deletedLocalIdentifiers.isEmpty },
            "no album deleted")
        #expect(tree.album("Birds")?.localIdentifier == created[0])
        #expect(tree.album("Trip (2)")?.localIdentifier == created[1])

        // A photo added to it moves in; the last one moved out leaves it empty, and still an album.
        let birds = try #require(tree.album("Birds"))
        let photo = try #require(tree.asset("2024/Trip/a.jpg"))
        try Self.add(photo, to: birds, in: tree.library)
        #expect(tree.entries("2024/Birds") == ["a.jpg"])
        try Self.add(photo, to: try #require(tree.album("Zoo")), in: tree.library)
        #expect(tree.entries("2024/Birds") == [] && tree.album("Birds")?.localIdentifier == created[0])
        #expect(try tree.rescanChanges() == 0)
        let reopened = try tree.reopened()
        #expect(try tree.rescanChanges(in: reopened) == 0)
        #expect(tree.album("Birds", in: reopened)?.localIdentifier == created[0])
    }

    @Test func anAlbumCreatedWithPhotosInADirectoryFolderTakesTheirFiles() throws {
        let tree = try Tree()
        let year = try #require(folder("2024", tree))
        let photo = try #require(tree.asset("2024/Trip/b.jpg"))
        var identifier = ""
        try tree.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            request.addAssets([photo] as NSArray)
            PHCollectionListChangeRequest(for: year)?.addChildCollections(
                [request.placeholderForCreatedAssetCollection!] as NSArray)
            identifier = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        #expect(tree.entries("2024/Best") == ["b.jpg"] && tree.entries("2024/Trip") == ["a.jpg"])
        let best = try #require(tree.album("Best"))
        #expect(best.localIdentifier == identifier && tree.members(best) == [photo.localIdentifier])
        #expect(try tree.rescanChanges() == 0)
    }

    @Test(arguments: [FaultInjection.Step.committed, .directoryMade])
    func anAlbumsNewDirectoryKilledAtEachStepIsMadeAtTheNextOpen(step: FaultInjection.Step) throws {
        let tree = try Tree()
        let year = try #require(folder("2024", tree))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        FaultInjection.set(in: imports) { $0 == step }
        #expect(throws: PHPhotosError.self) { _ = try Self.createAlbums(["Birds"], in: year, tree.library) }
        FaultInjection.clear(in: imports)
        #expect(tree.entries("2024") == (step == .committed ? ["Trip", "Zoo"] : ["Birds", "Trip", "Zoo"]))

        let reopened = try tree.reopened()
        #expect(try reopened.database.fileJournal().isEmpty)
        #expect(tree.entries("2024") == ["Birds", "Trip", "Zoo"])
        let birds = try #require(tree.album("Birds", in: reopened))
        #expect(birds.directoryPath == tree.pictures + "/2024/Birds")
        #expect(try tree.rescanChanges(in: reopened) == 0, "nothing lost, nothing duplicated")
    }

    @Test(arguments: [RootWritePolicy.none, .sidecars])
    func aNewAlbumInADirectoryFolderIsRefusedWithoutAFilesRoot(write: RootWritePolicy) throws {
        let tree = try Tree(write: write)
        let year = try #require(folder("2024", tree))
        #expect(!year.canPerform(.addContent))
        let applier = ChangeBatchApplier(library: tree.library, sniffer: nil, files: [:])
        let batch = API.ChangeBatch(changes: [.createAlbum(.init(title: "Birds", folder: year.localIdentifier))])
        let failure = #expect(throws: ChangeBatchApplier.Failure.self) {
            try tree.library.performChangesAndWaitReturningToken { try applier.apply(batch) }
        }
        #expect(failure?.error.code == .accessRestricted)
        #expect(failure?.error.message.contains(tree.pictures + "/2024") == true, "\(String(describing: failure))")
        #expect(tree.entries("2024") == ["Trip", "Zoo"])
    }
}
