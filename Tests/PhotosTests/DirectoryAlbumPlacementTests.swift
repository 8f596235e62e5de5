import Foundation
import Synchronization
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// A created asset added to a directory-backed album is written in the album's directory instead of
/// the import folder; a photo added to one from another file system is copied, synced, verified,
/// renamed into place, and only then removed from where it was.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DirectoryAlbumPlacementTests {
    typealias Tree = DirectoryAlbumTests.Tree
    static let photo = DirectoryAlbumTests.photo

    /// The regular files under the library's import folder (its staging folder aside).
    static func importedFiles(_ library: PHPhotoLibrary) -> [String] {
        let root = library.importDirectory.standardizedFileURL.path
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".staging")
                && FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// A copy of the corpus photo outside the library, named `name`, to create assets from.
    static func callersFile(_ tree: Tree, named name: String = "IMG_6100.JPG") throws -> URL {
        let directory = tree.directory.path("outside")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: photo, to: url)
        return url
    }

    /// The identifier of the asset a block made, known even when the block stops after its commit.
    final class Made {
        var identifier = ""
    }

    enum Creation: String, CaseIterable, Sendable {
        case fromFile, fromData, movingTheFile
    }

    /// Creates an asset (as `creation` says) and adds it to `album` in one block; `made` holds its
    /// identifier, even when the block stops after its commit.
    static func create(
        _ creation: Creation, _ file: URL, into album: PHAssetCollection, _ library: PHPhotoLibrary,
        made: Made = Made()
    ) throws -> String {
        try library.performChangesAndWait {
            let request: PHAssetChangeRequest?
            switch creation {
            case .fromFile:
                request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)
            case .fromData:
                let creation = PHAssetCreationRequest.forAsset()
                creation.addResource(with: .photo, data: try! Data(contentsOf: file), options: nil)
                request = creation
            case .movingTheFile:
                let creation = PHAssetCreationRequest.forAsset()
                let options = PHAssetResourceCreationOptions()
                options.shouldMoveFile = true
                creation.addResource(with: .photo, fileURL: file, options: options)
                request = creation
            }
            let placeholder = request!.placeholderForCreatedAsset!
            PHAssetCollectionChangeRequest(for: album)?.addAssets([placeholder] as NSArray)
            made.identifier = placeholder.localIdentifier
        }
        return made.identifier
    }

    // MARK: Created assets

    @Test(arguments: Creation.allCases)
    func aCreatedPhotoAddedToADirectoryAlbumIsWrittenInItsDirectory(creation: Creation) throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let file = try Self.callersFile(tree)
        let before = tree.library.currentChangeToken

        let identifier = try Self.create(creation, file, into: zoo, tree.library)

        let name = creation == .fromData ? "photo-1.jpg" : "IMG_6100.JPG"
        #expect(tree.entries("2024/Zoo") == [name, "c.jpg"].sorted(), "written in the album's directory")
        #expect(Self.importedFiles(tree.library) == [], "nothing in the import folder")
        #expect(
            FileManager.default.fileExists(atPath: file.path) == (creation != .movingTheFile),
            "the caller's file is copied, or moved when asked")
        let asset = try #require(tree.asset("2024/Zoo/" + name))
        #expect(asset.localIdentifier == identifier)
        #expect(PHAssetResource.assetResources(for: asset).map(\.originalFilename) == [name])
        #expect(tree.members(zoo).contains(identifier))
        #expect(
            sameBytes(atPath: tree.pictures + "/2024/Zoo/" + name, andPath: Self.photo.path))
        #expect(try tree.changes(since: before) == 1, "one change in the log")
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "the scan finds it where the library put it: no echo")

        // A photo of the directory like the others: deleting it goes to the Trash, never unlinks it.
        try tree.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        #expect(tree.entries("2024/Zoo") == ["c.jpg"])
        #expect(tree.trashEntries("files") == [name], "in the Trash, where it can come back from")
    }

    @Test func aCreatedPhotoWhoseNameIsTakenInTheDirectoryGetsASuffix() throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let file = try Self.callersFile(tree, named: "c.jpg")
        let identifier = try Self.create(.fromFile, file, into: zoo, tree.library)
        #expect(tree.entries("2024/Zoo") == ["c (2).jpg", "c.jpg"], "the photo already there is untouched")
        #expect(tree.asset("2024/Zoo/c (2).jpg")?.localIdentifier == identifier)
        #expect(try tree.rescanChanges() == 0)
    }

    @Test func aCreatedPhotoInANewAlbumOfADirectoryFolderIsWrittenInTheNewDirectory() throws {
        let tree = try Tree()
        let year = try #require(
            PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: tree.options())
                .first { $0.localizedTitle == "2024" })
        let file = try Self.callersFile(tree)
        var identifier = ""
        try tree.library.performChangesAndWait {
            let created = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)!
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Birds")
            album.addAssets([created.placeholderForCreatedAsset!] as NSArray)
            PHCollectionListChangeRequest(for: year)?.addChildCollections(
                [album.placeholderForCreatedAssetCollection!] as NSArray)
            identifier = created.placeholderForCreatedAsset!.localIdentifier
        }
        #expect(tree.entries("2024/Birds") == ["IMG_6100.JPG"])
        #expect(Self.importedFiles(tree.library) == [])
        let birds = try #require(tree.album("Birds"))
        #expect(tree.members(birds) == [identifier])
        #expect(try tree.rescanChanges() == 0)
    }

    @Test(arguments: [FaultInjection.Step.committed, .linked, .placed])
    func aCreatedPhotoKilledAtEachStepIsInTheAlbumsDirectoryAtTheNextOpen(step: FaultInjection.Step) throws {
        let tree = try Tree()
        let zoo = try #require(tree.album("Zoo"))
        let file = try Self.callersFile(tree)
        let imports = tree.library.importDirectory.standardizedFileURL.path
        FaultInjection.set(in: imports) { $0 == step }
        let made = Made()
        #expect(throws: PHPhotosError.self) {
            _ = try Self.create(.movingTheFile, file, into: zoo, tree.library, made: made)
        }
        FaultInjection.clear(in: imports)

        let reopened = try tree.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(tree.entries("2024/Zoo") == ["IMG_6100.JPG", "c.jpg"], "once")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the moved original is gone once placed")
        #expect(Self.importedFiles(reopened) == [])
        let staged = (try? FileManager.default.contentsOfDirectory(atPath: imports + "/.staging")) ?? []
        #expect(staged.isEmpty, "no staged copy left")
        let asset = try #require(tree.asset("2024/Zoo/IMG_6100.JPG", in: reopened))
        #expect(asset.localIdentifier == made.identifier && !asset.localIdentifier.isEmpty)
        #expect(try tree.rescanChanges(in: reopened) == 0, "nothing lost, nothing duplicated")
    }
}

/// A directory on another file system than the temporary directory, where the tests' libraries and
/// roots are: `/dev/shm` when it is one (a tmpfs, usually).
enum SecondFileSystem {
    static let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path

    /// `/dev/shm`, when it is a writable directory on another device than the temporary directory.
    static let root: String? = {
        guard let shm = try? FileOperations.identity("/dev/shm", followingLinks: true),
            let tmp = try? FileOperations.identity(temporary, followingLinks: true),
            shm.device != tmp.device, access("/dev/shm", W_OK) == 0
        else { return nil }
        return "/dev/shm"
    }()

    static let isAvailable = root != nil

    /// Said when the tests that need it are skipped.
    static let skipReason: Comment =
        "SKIPPED, NOT TESTED: copying across file systems needs /dev/shm writable on another file system than \(temporary)"

    /// A new empty directory on the second file system, removed with the returned object.
    static func directory() throws -> TemporaryDirectoryOnSecondFileSystem {
        guard let root else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/dev/shm"]) }
        return try TemporaryDirectoryOnSecondFileSystem(root: root)
    }
}

/// A directory made under `/dev/shm` for one test, or a bind mount of a directory of the temporary
/// directory's own file system (one device, but a mount of its own: `link` and `rename` to and from
/// it fail with `EXDEV`, as with a container's volume); removed at the end.
final class TemporaryDirectoryOnSecondFileSystem: Sendable {
    let path: String
    /// The directory a bind mount shows at ``path``; nil for a directory under `/dev/shm`.
    private let backing: String?

    init(root: String) throws {
        path = root + "/photos-test-\(UUID().uuidString)"
        backing = nil
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    /// A bind mount (needs ``BindMount/isAvailable``).
    init(bindMount: Void) throws {
        let name = SecondFileSystem.temporary + "/photos-test-\(UUID().uuidString)"
        path = name + "-mount"
        backing = name + "-backing"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: name + "-backing", withIntermediateDirectories: false)
        try BindMount.mount(name + "-backing", at: path)
    }

    deinit {
        if let backing {
            BindMount.unmount(path)
            try? FileManager.default.removeItem(atPath: backing)
        }
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Adding a photo whose files are on another file system than the album's directory.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DirectoryAlbumCrossDeviceTests {
    /// Pictures/2024/Zoo (c.jpg) under one root in the temporary directory, and Card/DCIM (x.jpg and its
    /// sidecar x.jpg.xmp) under a second root on another file system, both `write = "files"`, scanned.
    final class Setup: Sendable {
        // Released in this order: the library is closed before its directory is removed.
        let library: PHPhotoLibrary
        let directory: TemporaryDirectory
        let card: TemporaryDirectoryOnSecondFileSystem
        let pictures: String
        /// Another tool's sidecar: a rating of 3, and a field of its own.
        static let sidecar = """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
            <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmlns:other='http://example.org/other/' \
            xmp:Rating='3' other:Mark='kept'/></rdf:RDF></x:xmpmeta>
            """

        /// `bindMounted`: the card is a bind mount on the temporary directory's own file system.
        init(bindMounted: Bool = false) throws {
            directory = try TemporaryDirectory(prefix: "photos-cross-device")
            card = try bindMounted ? TemporaryDirectoryOnSecondFileSystem(bindMount: ()) : SecondFileSystem.directory()
            pictures = directory.path("Pictures").path
            try FileManager.default.createDirectory(atPath: pictures + "/2024/Zoo", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: DirectoryAlbumTests.photo.path, toPath: pictures + "/2024/Zoo/c.jpg")
            try FileManager.default.createDirectory(atPath: card.path + "/DCIM", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: DirectoryAlbumTests.photo.path, toPath: card.path + "/DCIM/x.jpg")
            try Data(Self.sidecar.utf8).write(to: URL(fileURLWithPath: card.path + "/DCIM/x.jpg.xmp"))
            library = try Self.open(directory, [pictures, card.path])
            _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures, card.path])
        }

        static func open(_ directory: TemporaryDirectory, _ roots: [String]) throws -> PHPhotoLibrary {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = roots.map { LibraryRoot(path: $0, write: .files) }
            configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
            return try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        }

        func reopened() throws -> PHPhotoLibrary { try Self.open(directory, [pictures, card.path]) }

        func options(_ library: PHPhotoLibrary? = nil) -> PHFetchOptions {
            let options = PHFetchOptions()
            options.photoLibrary = library ?? self.library
            return options
        }

        func album(_ title: String, in library: PHPhotoLibrary? = nil) -> PHAssetCollection? {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options(library))
                .first { $0.localizedTitle == title }
        }

        func asset(at path: String, in library: PHPhotoLibrary? = nil) -> PHAsset? {
            PHAsset.fetchAssets(with: options(library)).first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == path }
            }
        }

        func entries(_ path: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        }

        func rescanChanges(in library: PHPhotoLibrary? = nil) throws -> Int {
            let library = library ?? self.library
            let token = library.currentChangeToken
            _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures, card.path])
            return Array(try library.fetchPersistentChanges(since: token)).count
        }

        func add(_ asset: PHAsset, to album: PHAssetCollection) throws {
            try library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: album)?.addAssets([asset] as NSArray)
            }
        }
    }

    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason))
    func aPhotoOnAnotherFileSystemIsCopiedVerifiedAndOnlyThenRemovedFromIt() throws {
        try movesAcross(try Setup())
    }

    /// The card a bind mount of the same file system: one device, but `rename` refuses to cross
    /// mounts, so the photo is copied all the same.
    @Test(.enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"))
    func aPhotoOnAnotherMountOfTheSameFileSystemIsCopiedToo() throws {
        try movesAcross(try Setup(bindMounted: true))
    }

    private func movesAcross(_ setup: Setup) throws {
        let zoo = try #require(setup.album("Zoo"))
        let photo = try #require(setup.asset(at: setup.card.path + "/DCIM/x.jpg"))
        let modified = try #require(try FileOperations.identity(setup.card.path + "/DCIM/x.jpg")).modificationTime
        try setup.library.performChangesAndWait { PHAssetChangeRequest(for: photo).isFavorite = true }

        try setup.add(photo, to: zoo)

        let zooPath = setup.pictures + "/2024/Zoo"
        #expect(
            setup.entries(zooPath) == ["c.jpg", "x.jpg", "x.jpg.xmp"], "the photo and its sidecar, no temporary copy")
        #expect(setup.entries(setup.card.path + "/DCIM") == [], "removed from the card once copied")
        #expect(sameBytes(atPath: zooPath + "/x.jpg", andPath: DirectoryAlbumTests.photo.path))
        let moved = try #require(setup.asset(at: zooPath + "/x.jpg"))
        #expect(moved.localIdentifier == photo.localIdentifier && moved.isFavorite, "the same asset, its favorite kept")
        #expect(try FileOperations.identity(zooPath + "/x.jpg")?.modificationTime == modified, "its time kept")
        let sidecar = try String(contentsOfFile: zooPath + "/x.jpg.xmp", encoding: .utf8)
        #expect(sidecar.contains("kept"), "the sidecar came along, with the other tool's field")
        #expect(try setup.library.database.fileJournal().isEmpty)
        #expect(try setup.rescanChanges() == 0, "the scan finds it where the library put it: no echo")
    }

    /// Where the move is stopped: a step and its nth time (the photo, then its sidecar).
    static let stops: [(FaultInjection.Step, Int)] = [
        (.committed, 1), (.copiedAcross, 1), (.copiedIntoPlace, 1), (.assetFileMoved, 1), (.copiedAcross, 2),
        (.copiedIntoPlace, 2),
    ]

    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason), arguments: 0..<stops.count)
    func aMoveAcrossFileSystemsKilledAtEachStepLosesNothingAndDuplicatesNothing(stop: Int) throws {
        let (step, time) = Self.stops[stop]
        let setup = try Setup()
        let zoo = try #require(setup.album("Zoo"))
        let photo = try #require(setup.asset(at: setup.card.path + "/DCIM/x.jpg"))
        let imports = setup.library.importDirectory.standardizedFileURL.path
        FaultInjection.stop(at: step, time: time, in: imports)
        #expect(throws: PHPhotosError.self) { try setup.add(photo, to: zoo) }
        FaultInjection.clear(in: imports)
        let zooPath = setup.pictures + "/2024/Zoo"
        // Stopped midway, the photo is whole somewhere: on the card, in the album, or in both.
        let onCard = sameBytes(
            atPath: setup.card.path + "/DCIM/x.jpg", andPath: DirectoryAlbumTests.photo.path)
        let inAlbum = sameBytes(
            atPath: zooPath + "/x.jpg", andPath: DirectoryAlbumTests.photo.path)
        #expect(onCard || inAlbum, "never lost")

        let reopened = try setup.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(setup.entries(zooPath) == ["c.jpg", "x.jpg", "x.jpg.xmp"], "once each, no temporary copy left")
        #expect(setup.entries(setup.card.path + "/DCIM") == [])
        #expect(sameBytes(atPath: zooPath + "/x.jpg", andPath: DirectoryAlbumTests.photo.path))
        #expect(setup.asset(at: zooPath + "/x.jpg", in: reopened)?.localIdentifier == photo.localIdentifier)
        #expect(try setup.rescanChanges(in: reopened) == 0, "nothing lost, nothing duplicated")
    }

    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason))
    func aCopyThatCannotBeMadeLeavesThePhotoWhereItWas() throws {
        let setup = try Setup()
        let zoo = try #require(setup.album("Zoo"))
        let photo = try #require(setup.asset(at: setup.card.path + "/DCIM/x.jpg"))
        let imports = setup.library.importDirectory.standardizedFileURL.path
        // Another program takes the photo's name in the album once the copy is made, before it is renamed.
        FaultInjection.set(in: imports) { step in
            if step == .copiedAcross {
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: setup.pictures + "/2024/Zoo/x.jpg"))
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let error = #expect(throws: PHPhotosError.self) { try setup.add(photo, to: zoo) }
        #expect(error?.message.contains("the library keeps the photo where it is") == true)
        #expect(setup.entries(setup.card.path + "/DCIM") == ["x.jpg", "x.jpg.xmp"], "the original is untouched")
        let zooPath = setup.pictures + "/2024/Zoo"
        #expect(setup.entries(zooPath) == ["c.jpg", "x.jpg"], "their file is untouched, no temporary copy left")
        #expect(try String(contentsOfFile: zooPath + "/x.jpg", encoding: .utf8) == "theirs")
        #expect(setup.asset(at: setup.card.path + "/DCIM/x.jpg")?.localIdentifier == photo.localIdentifier)
        #expect(try setup.library.database.fileJournal().isEmpty)
    }

    /// A move onto another file system whose second file cannot take its name: the first, already
    /// copied there and its original removed, is copied back, so the photo and its sidecar stay
    /// together where they were (a rename back cannot cross file systems).
    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason))
    func aMoveAcrossFileSystemsStoppedAtItsSecondFileBringsTheFirstBack() throws {
        let setup = try Setup()
        let zoo = try #require(setup.album("Zoo"))
        let dcim = setup.card.path + "/DCIM"
        let photo = try #require(setup.asset(at: dcim + "/x.jpg"))
        let imports = setup.library.importDirectory.standardizedFileURL.path
        let zooPath = setup.pictures + "/2024/Zoo"
        let copies = Mutex(0)
        // Another program takes the second file's name once its copy is made, before it is renamed.
        FaultInjection.set(in: imports) { step in
            let count = copies.withLock { count in
                count += step == .copiedAcross ? 1 : 0
                return count
            }
            guard step == .copiedAcross, count == 2 else { return false }
            for name in ["x.jpg", "x.jpg.xmp"] where !FileManager.default.fileExists(atPath: zooPath + "/" + name) {
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: zooPath + "/" + name))
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let error = #expect(throws: PHPhotosError.self) { try setup.add(photo, to: zoo) }
        #expect(
            error?.message.contains("the library keeps the photo where it is") == true, "\(String(describing: error))")
        #expect(setup.entries(dcim) == ["x.jpg", "x.jpg.xmp"], "both back on the card")
        #expect(sameBytes(atPath: dcim + "/x.jpg", andPath: DirectoryAlbumTests.photo.path))
        #expect(try String(contentsOfFile: dcim + "/x.jpg.xmp", encoding: .utf8).contains("other:Mark='kept'"))
        let theirs = setup.entries(zooPath).filter { $0 != "c.jpg" }
        #expect(theirs.count == 1, "only the other program's file, no copy of ours: \(theirs)")
        #expect(try theirs.allSatisfy { try String(contentsOfFile: zooPath + "/" + $0, encoding: .utf8) == "theirs" })
        #expect(setup.asset(at: dcim + "/x.jpg")?.localIdentifier == photo.localIdentifier)
        #expect(try setup.library.database.fileJournal().isEmpty)
        #expect(try setup.rescanChanges(in: setup.library) == 0, "the library says what the disk holds")
    }

    /// Where the take-back of a move across file systems is stopped: its copy of the photo made on
    /// the card but not yet renamed (the third copy: the move's photo and sidecar came first), and
    /// renamed but the album's copy not yet removed.
    static let takeBackStops: [(FaultInjection.Step, Int)] = [(.copiedAcross, 3), (.copiedIntoPlace, 2)]

    /// The move of ``aMoveAcrossFileSystemsStoppedAtItsSecondFileBringsTheFirstBack``, its take-back
    /// killed at each step: at the next open the take-back is finished, and the photo is on the card
    /// once, with no copy left in the album nor a temporary one anywhere.
    @Test(
        .enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason), arguments: 0..<takeBackStops.count)
    func aTakeBackAcrossFileSystemsKilledAtEachStepLosesNothingAndDuplicatesNothing(stop: Int) throws {
        let (stopStep, stopTime) = Self.takeBackStops[stop]
        let setup = try Setup()
        let zoo = try #require(setup.album("Zoo"))
        let dcim = setup.card.path + "/DCIM"
        let photo = try #require(setup.asset(at: dcim + "/x.jpg"))
        let imports = setup.library.importDirectory.standardizedFileURL.path
        let zooPath = setup.pictures + "/2024/Zoo"
        let reached = Mutex<[FaultInjection.Step: Int]>([:])
        FaultInjection.set(in: imports) { step in
            let count = reached.withLock { counts in
                counts[step, default: 0] += 1
                return counts[step]!
            }
            // Another program takes the sidecar's name once its copy is made, before it is renamed.
            if step == .copiedAcross, count == 2 {
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: zooPath + "/x.jpg.xmp"))
            }
            return step == stopStep && count == stopTime
        }
        #expect(throws: PHPhotosError.self) { try setup.add(photo, to: zoo) }
        FaultInjection.clear(in: imports)
        #expect(reached.withLock { $0[stopStep] } == stopTime, "stopped in the take-back")

        let reopened = try setup.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(setup.entries(dcim) == ["x.jpg", "x.jpg.xmp"], "back on the card once, no temporary copy")
        #expect(sameBytes(atPath: dcim + "/x.jpg", andPath: DirectoryAlbumTests.photo.path))
        #expect(try String(contentsOfFile: dcim + "/x.jpg.xmp", encoding: .utf8).contains("other:Mark='kept'"))
        #expect(setup.entries(zooPath) == ["c.jpg", "x.jpg.xmp"], "only the other program's file left there")
        #expect(try String(contentsOfFile: zooPath + "/x.jpg.xmp", encoding: .utf8) == "theirs")
        #expect(setup.asset(at: dcim + "/x.jpg", in: reopened)?.localIdentifier == photo.localIdentifier)
        #expect(try setup.rescanChanges(in: reopened) == 0, "the library says what the disk holds")
    }

    @Test(
        .enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason),
        arguments: [nil, .committed, .copiedAcross, .linked, .placed] as [FaultInjection.Step?])
    func aCreatedPhotoForAnAlbumOnAnotherFileSystemIsCopiedThere(step: FaultInjection.Step?) throws {
        try createsAcross(try Setup(), step: step)
    }

    /// The album's directory on a bind mount of the library's own file system: `link` refuses to
    /// cross mounts, and the photo is copied all the same.
    @Test(
        .enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"),
        arguments: [nil, .copiedAcross, .placed] as [FaultInjection.Step?])
    func aCreatedPhotoForAnAlbumOnAnotherMountIsCopiedThere(step: FaultInjection.Step?) throws {
        try createsAcross(try Setup(bindMounted: true), step: step)
    }

    private func createsAcross(_ setup: Setup, step: FaultInjection.Step?) throws {
        let dcim = try #require(setup.album("DCIM"))
        let file = setup.directory.path("IMG_6100.JPG")
        try FileManager.default.copyItem(at: DirectoryAlbumTests.photo, to: file)
        let imports = setup.library.importDirectory.standardizedFileURL.path
        if let step { FaultInjection.set(in: imports) { $0 == step } }
        let made = DirectoryAlbumPlacementTests.Made()
        let create = {
            _ = try DirectoryAlbumPlacementTests.create(.movingTheFile, file, into: dcim, setup.library, made: made)
        }
        if step == nil { try create() } else { #expect(throws: PHPhotosError.self) { try create() } }
        FaultInjection.clear(in: imports)

        let library = step == nil ? setup.library : try setup.reopened()
        #expect(try library.database.fileJournal().isEmpty)
        #expect(setup.entries(setup.card.path + "/DCIM") == ["IMG_6100.JPG", "x.jpg", "x.jpg.xmp"], "once")
        #expect(
            sameBytes(
                atPath: setup.card.path + "/DCIM/IMG_6100.JPG", andPath: DirectoryAlbumTests.photo.path))
        #expect(!FileManager.default.fileExists(atPath: file.path), "the moved original goes once the copy is there")
        #expect(DirectoryAlbumPlacementTests.importedFiles(library) == [])
        let asset = try #require(setup.asset(at: setup.card.path + "/DCIM/IMG_6100.JPG", in: library))
        #expect(asset.localIdentifier == made.identifier && !asset.localIdentifier.isEmpty)
        #expect(try setup.rescanChanges(in: library) == 0, "nothing lost, nothing duplicated")
    }
}

/// Whether two files hold the same bytes (both read whole; a missing file is never the same).
func sameBytes(atPath first: String, andPath second: String) -> Bool {
    guard let left = FileManager.default.contents(atPath: first),
        let right = FileManager.default.contents(atPath: second)
    else { return false }
    return left == right
}
