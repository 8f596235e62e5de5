import Foundation
import PhotosIngest
import PhotosSidecars
import PhotosTestSupport
import Testing

@testable import Photos

/// Renaming a directory-backed album or folder under a root with `write = "files"` renames its
/// directory: the same identifiers, one change in the log, and nothing more when the scanner sees it.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DirectoryRenameTests {
    static let photo = Corpus.file("Phone/DCIM/100APPLE/IMG_6100.JPG")!

    /// Pictures/2024/Trip (two photos) and Pictures/2024/Zoo (one), scanned, under one root.
    final class Tree: Sendable {
        let directory: TemporaryDirectory
        let pictures: String
        let library: PHPhotoLibrary

        init(write: RootWritePolicy = .files, more: [(String, [String])] = []) throws {
            directory = try TemporaryDirectory(prefix: "photos-rename")
            pictures = directory.path("Pictures").path
            for (folder, names) in [("2024/Trip", ["a.jpg", "b.jpg"]), ("2024/Zoo", ["c.jpg"])] + more {
                let path = pictures + "/" + folder
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                for name in names {
                    try FileManager.default.copyItem(atPath: DirectoryRenameTests.photo.path, toPath: path + "/" + name)
                }
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
            return try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        }

        func reopened() throws -> PHPhotoLibrary { try Self.open(directory, pictures: pictures, write: .files) }

        var options: PHFetchOptions {
            let options = PHFetchOptions()
            options.photoLibrary = library
            return options
        }

        func album(_ title: String, in library: PHPhotoLibrary? = nil) -> PHAssetCollection? {
            let options = PHFetchOptions()
            options.photoLibrary = library ?? self.library
            return PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                .first { $0.localizedTitle == title }
        }

        func folder(_ title: String) -> PHCollectionList? {
            PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options)
                .first { $0.localizedTitle == title }
        }

        /// The names in `path` (under the root), sorted; at the root, without the identifier log the
        /// library keeps there (brought up to date by each change that moves photos).
        func entries(_ path: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: pictures + "/" + path)) ?? [])
                .filter { !path.isEmpty || $0 != ".photosd-identifiers" }.sorted()
        }

        func members(_ album: PHAssetCollection) -> [String] {
            PHAsset.fetchAssets(in: album, options: options).map(\.localIdentifier)
        }

        func changes(since token: PHPersistentChangeToken) throws -> Int {
            Array(try library.fetchPersistentChanges(since: token)).count
        }
    }

    @Test func renamingAnAlbumRenamesItsDirectoryOnceAndTheScanFindsNothingToDo() throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let trip = try #require(tree.album("Trip"))
        let folder = try #require(tree.folder("2024"))
        let members = tree.members(zoo)
        #expect(zoo.canPerform(.rename) && zoo.canPerform(.addContent) && !zoo.canPerform(.removeContent))
        let before = tree.library.currentChangeToken

        try tree.library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: zoo)?.title = "Aquarium"
        }

        #expect(tree.entries("2024") == ["Aquarium", "Trip"], "the directory is renamed")
        #expect(tree.entries("2024/Aquarium") == ["c.jpg"])
        let renamed = try #require(tree.album("Aquarium"))
        #expect(
            renamed.localIdentifier == zoo.localIdentifier && renamed.directoryPath == tree.pictures + "/2024/Aquarium")
        #expect(tree.members(renamed) == members, "the same assets, the same identifiers")
        let children = PHCollection.fetchCollections(in: folder, options: tree.options).map(\.localIdentifier)
        #expect(
            children == [zoo.localIdentifier, trip.localIdentifier], "its place follows its name, as the mirror orders")
        #expect(try tree.changes(since: before) == 1, "one change in the log")
        #expect(try tree.library.database.fileJournal().isEmpty)

        let afterRename = tree.library.currentChangeToken
        _ = try FolderScanner(database: tree.library.database, quietTime: 0).scan(roots: [tree.pictures])
        #expect(try tree.changes(since: afterRename) == 0, "the scan finds everything where it is: no echo")
        #expect(tree.album("Aquarium")?.localIdentifier == zoo.localIdentifier)
    }

    @Test func renamingAFolderRenamesItsDirectoryAndEverythingUnderIt() throws {
        let tree = try Tree()
        let folder = try #require(tree.folder("2024"))
        let trip = try #require(tree.album("Trip"))
        let members = tree.members(trip)
        try tree.library.performChangesAndWait {
            PHCollectionListChangeRequest(for: folder)?.title = "Year 2024"
        }
        #expect(tree.entries("") == ["Year 2024"])
        #expect(tree.album("Trip")?.directoryPath == tree.pictures + "/Year 2024/Trip")
        #expect(tree.members(trip) == members)
        let resources = PHAsset.fetchAssets(in: trip, options: tree.options).map {
            PHAssetResource.assetResources(for: $0)[0].originalFilename
        }
        #expect(resources.sorted() == ["a.jpg", "b.jpg"])
        // The root's identifier log names the photos at their new paths, for a rebuild.
        let logged = try #require(try IdentifierLog.read(IdentifierLog.path(inRoot: tree.pictures))).identifiers
        #expect(Set(members).isSubset(of: Set(logged.values)))
        #expect(logged.keys.filter { $0.hasPrefix("Year 2024/Trip/") }.count == 2, "\(logged)")
        let token = tree.library.currentChangeToken
        _ = try FolderScanner(database: tree.library.database, quietTime: 0).scan(roots: [tree.pictures])
        #expect(try tree.changes(since: token) == 0, "no echo")
    }

    @Test func anAlbumMovedIntoAnotherFolderMovesItsDirectoryAndAnEmptiedFolderGoes() throws {
        let tree = try Tree(more: [("2023/Beach", ["d.jpg"])])
        let zoo = try #require(tree.album("Zoo"))
        let trip = try #require(tree.album("Trip"))
        let beach = try #require(tree.album("Beach"))
        let year2023 = try #require(tree.folder("2023"))
        #expect(year2023.canPerform(.addContent))
        let members = tree.members(zoo)
        let before = tree.library.currentChangeToken

        try tree.library.performChangesAndWait {
            PHCollectionListChangeRequest(for: year2023)?.addChildCollections([zoo] as NSArray)
        }
        #expect(tree.entries("2023") == ["Beach", "Zoo"] && tree.entries("2024") == ["Trip"])
        #expect(tree.album("Zoo")?.directoryPath == tree.pictures + "/2023/Zoo")
        #expect(tree.members(zoo) == members)
        #expect(
            PHCollection.fetchCollections(in: year2023, options: tree.options).map(\.localIdentifier) == [
                beach.localIdentifier, zoo.localIdentifier,
            ])
        #expect(try tree.changes(since: before) == 1)

        // The last album out of 2024: the folder goes, as the mirror would drop it; its directory stays.
        try tree.library.performChangesAndWait {
            PHCollectionListChangeRequest(for: year2023)?.addChildCollections([trip] as NSArray)
        }
        #expect(tree.entries("2023") == ["Beach", "Trip", "Zoo"] && tree.entries("2024") == [])
        #expect(tree.folder("2024") == nil)
        #expect(tree.album("Trip")?.localIdentifier == trip.localIdentifier)
        let token = tree.library.currentChangeToken
        _ = try FolderScanner(database: tree.library.database, quietTime: 0).scan(roots: [tree.pictures])
        #expect(try tree.changes(since: token) == 0, "no echo")
    }

    @Test func aTakenNameGetsASuffixAndABadOneIsRefused() throws {
        let tree = try Tree()
        // Someone else's directory, unknown to the library (no media): never replaced.
        try FileManager.default.createDirectory(
            atPath: tree.pictures + "/2024/Trip (2)", withIntermediateDirectories: false)
        let zoo = try #require(tree.album("Zoo"))
        try tree.library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: zoo)?.title = "Trip"
        }
        #expect(tree.entries("2024") == ["Trip", "Trip (2)", "Trip (3)"])
        #expect(tree.entries("2024/Trip (2)") == [], "the other directory is untouched")
        #expect(tree.album("Trip (3)")?.localIdentifier == zoo.localIdentifier)

        // And names the scanner passes over: the album's photos would leave the library.
        for bad in ["a/b", "..", "", ".Zoo", "Zoo~", "Zoo.part", "~Zoo"] {
            let error = #expect(throws: PHPhotosError.self) {
                try tree.library.performChangesAndWait {
                    PHAssetCollectionChangeRequest(for: zoo)?.title = bad
                }
            }
            #expect(error?.code == .changeNotSupported && error?.message.contains("cannot name a directory") == true)
        }
        #expect(tree.entries("2024") == ["Trip", "Trip (2)", "Trip (3)"], "nothing moved")
    }

    /// A directory-backed folder moved into itself (`photos mv Trips Trips`) is refused as such, not
    /// as an album holding its folder's own photos.
    @Test func aFolderMovedIntoItselfIsRefusedSayingSo() throws {
        let tree = try Tree()
        let year = try #require(tree.folder("2024"))
        let error = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHCollectionListChangeRequest(for: year)?.addChildCollections([year] as NSArray)
            }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(error?.message.contains("'2024' cannot be put inside itself") == true, "\(String(describing: error))")
        #expect(tree.entries("2024") == ["Trip", "Zoo"])
    }

    /// A folder holding another watched root is neither renamed nor moved: the inner root's files
    /// keep its policy (a `none` root is never written) and its place in the configuration.
    @Test func aFolderHoldingAnotherRootStaysWhereItIs() throws {
        let tree = try Tree()
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [
            LibraryRoot(path: tree.pictures, write: .files),
            LibraryRoot(path: tree.pictures + "/2024/Zoo", write: .none),
        ]
        let library = try PHPhotoLibrary(url: tree.directory.path("library.sqlite"), configuration: configuration)
        let options = PHFetchOptions()
        options.photoLibrary = library
        let year = try #require(
            PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options)
                .first { $0.localizedTitle == "2024" })
        let error = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHCollectionListChangeRequest(for: year)?.title = "Year 2024" }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(
            error?.message.contains("holds the watched root \(tree.pictures)/2024/Zoo") == true,
            "\(String(describing: error))")
        #expect(tree.entries("") == ["2024"] && tree.entries("2024") == ["Trip", "Zoo"])
        #expect(tree.entries("2024/Zoo") == ["c.jpg"])
    }

    /// A name one of the configuration's `ignore` patterns matches is refused too, naming the
    /// pattern: the next scan would have dropped the album and its photos (favorites, albums and
    /// all) from the library.
    @Test func aNameTheConfigurationIgnoresIsRefusedNamingThePattern() throws {
        let tree = try Tree()
        var configuration = tree.library.configuration
        configuration.ignore = ["Thumbs.db", "Private*"]
        let library = try PHPhotoLibrary(url: tree.directory.path("library.sqlite"), configuration: configuration)
        let options = PHFetchOptions()
        options.photoLibrary = library
        let zoo = try #require(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                .first { $0.localizedTitle == "Zoo" })
        let error = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: zoo)?.title = "PrivateZoo" }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(
            error?.message.contains(
                "'PrivateZoo' cannot name a directory: the configuration's ignore pattern 'Private*' matches it")
                == true,
            "\(String(describing: error?.message))")
        #expect(tree.entries("2024") == ["Trip", "Zoo"], "nothing moved")
        try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: zoo)?.title = "Zoo Days" }
        #expect(tree.entries("2024") == ["Trip", "Zoo Days"])
    }

    @Test(arguments: [RootWritePolicy.none, .sidecars])
    func aRootThatDoesNotAllowFilesKeepsItsAlbumsNames(write: RootWritePolicy) throws {
        let tree = try Tree(write: write)
        let zoo = try #require(tree.album("Zoo"))
        #expect(!zoo.canPerform(.rename))
        try tree.library.performChangesAndWait {
            #expect(PHAssetCollectionChangeRequest(for: zoo) == nil, "no request for an album that cannot change")
        }
        #expect(tree.entries("2024") == ["Trip", "Zoo"])
        // The watched root itself is renamed on disk and in the configuration, not through the library.
        let root = try #require(tree.folder("Pictures"))
        #expect(!root.canPerform(.rename))
    }

    @Test(arguments: [FaultInjection.Step.committed, .renamed])
    func aRenameKilledAtEachStepIsFinishedAtTheNextOpen(step: FaultInjection.Step) throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let members = tree.members(zoo)
        let imports = tree.library.importDirectory.standardizedFileURL.path
        FaultInjection.set(in: imports) { $0 == step }
        #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: zoo)?.title = "Aquarium"
            }
        }
        FaultInjection.clear(in: imports)
        #expect(tree.entries("2024") == (step == .committed ? ["Trip", "Zoo"] : ["Aquarium", "Trip"]))

        let reopened = try tree.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(tree.entries("2024") == ["Aquarium", "Trip"], "and the directory renamed")
        let album = try #require(tree.album("Aquarium", in: reopened))
        #expect(album.localIdentifier == zoo.localIdentifier)
        let options = PHFetchOptions()
        options.photoLibrary = reopened
        #expect(PHAsset.fetchAssets(in: album, options: options).map(\.localIdentifier) == members)
        let token = reopened.currentChangeToken
        _ = try FolderScanner(database: reopened.database, quietTime: 0).scan(roots: [tree.pictures])
        #expect(Array(try reopened.fetchPersistentChanges(since: token)).count == 0, "nothing lost, nothing duplicated")
    }

    @Test func aRenameTheDiskRefusesAfterTheCommitIsTakenBack() throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        // Another program takes the name between the commit and the rename.
        FaultInjection.set(in: imports) { step in
            if step == .committed {
                try? FileManager.default.createDirectory(
                    atPath: tree.pictures + "/2024/Aquarium", withIntermediateDirectories: false)
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let error = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: zoo)?.title = "Aquarium"
            }
        }
        #expect(error?.message.contains("the library keeps its old name") == true)
        #expect(tree.entries("2024") == ["Aquarium", "Trip", "Zoo"], "nothing replaced")
        #expect(tree.entries("2024/Zoo") == ["c.jpg"])
        #expect(tree.album("Zoo")?.localIdentifier == zoo.localIdentifier, "the library says what the disk holds")
        #expect(tree.album("Zoo")?.directoryPath == tree.pictures + "/2024/Zoo")
        #expect(try tree.library.database.fileJournal().isEmpty)
    }

    @Test func aMoveIntoAFolderTheDiskRefusesIsTakenBackAndTheErrorNamesTheFolder() throws {
        let tree = try Tree(more: [("2023/Beach", ["d.jpg"])])
        let zoo = try #require(tree.album("Zoo"))
        let year2023 = try #require(tree.folder("2023"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        // Another program takes the name in the folder between the commit and the move.
        FaultInjection.set(in: imports) { step in
            if step == .committed {
                try? FileManager.default.createDirectory(
                    atPath: tree.pictures + "/2023/Zoo", withIntermediateDirectories: false)
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let error = #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHCollectionListChangeRequest(for: year2023)?.addChildCollections([zoo] as NSArray)
            }
        }
        #expect(
            error?.message.contains("\(tree.pictures)/2024/Zoo could not be moved into \(tree.pictures)/2023 (")
                == true, "\(String(describing: error))")
        #expect(error?.message.contains("the library keeps it where it is") == true)
        #expect(tree.entries("2023") == ["Beach", "Zoo"] && tree.entries("2023/Zoo") == [], "nothing replaced")
        #expect(tree.entries("2024/Zoo") == ["c.jpg"])
        #expect(tree.album("Zoo")?.directoryPath == tree.pictures + "/2024/Zoo")
        #expect(try tree.library.database.fileJournal().isEmpty)
    }
}
