import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Synchronization
import Testing

@testable import Photos

/// Imports from a drop folder: a camera folder filed by date with its groups together and the rest
/// left where it was; a stop at every step of the journal losing and doubling nothing; copies that
/// are not taken twice; a drop folder on another file system.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct FolderImportTests {
    /// A library over `Pictures` (write = "files", one photo in `Old` whose content one of the drop
    /// folder's photos repeats), and a drop folder holding the corpus's iPhone folder (a Live Photo,
    /// a burst, an edited photo with its .AAE, a movie, HEIC and JPEG), a truncated JPEG and a text file.
    final class Setup: Sendable {
        let directory: TemporaryDirectory
        let pictures: String
        let drop: String

        init(drop dropDirectory: String? = nil, pictures picturesDirectory: String? = nil) throws {
            directory = try TemporaryDirectory(prefix: "photos-import")
            pictures = picturesDirectory ?? directory.path("Pictures").path
            drop = dropDirectory ?? directory.path("Drop").path
            let manager = FileManager.default
            try manager.createDirectory(atPath: pictures + "/Old", withIntermediateDirectories: true)
            try manager.copyItem(
                atPath: try #require(Corpus.file("Exports/IMG_4120 copy.JPG")).path,
                toPath: pictures + "/Old/IMG_4120 copy.JPG")
            try manager.createDirectory(atPath: drop, withIntermediateDirectories: true)
            try manager.copyItem(
                atPath: try #require(Corpus.file("Phone/DCIM/100APPLE")).path, toPath: drop + "/100APPLE")
            for bad in ["Bad/truncated.jpg", "Bad/notes.txt"] {
                try manager.copyItem(
                    atPath: try #require(Corpus.file(bad)).path, toPath: drop + "/" + PathName.name(of: bad))
            }
            _ = try FolderScanner(database: try open().database, quietTime: 0).scan(roots: [pictures])
        }

        /// The library, opened as a new process opens it (finishing what a stopped one left).
        func open() throws -> PHPhotoLibrary {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = [LibraryRoot(path: pictures, write: .files)]
            configuration.timeZone = TimeZone(identifier: "UTC")!
            return try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        }

        func importer(
            _ library: PHPhotoLibrary, mode: ImportDefinition.Mode = .move, batchSize: Int = 256,
            planningChunk: Int = 512
        ) throws -> FolderImport {
            FolderImport(
                library: library,
                definition: ImportDefinition(from: drop, to: pictures, layout: try ImportLayout(), mode: mode),
                timeZone: TimeZone(identifier: "UTC")!, batchSize: batchSize, planningChunk: planningChunk)
        }

        /// Runs an import of the drop folder to its end as `photos import` and photosd run it:
        /// placing while planning, the folder read a few files at a time (so that stops land with
        /// planning and placing both under way).
        @discardableResult
        func run(_ library: PHPhotoLibrary, mode: ImportDefinition.Mode = .move, batchSize: Int = 256) throws -> (
            FolderImport.Plan, FolderImport.Report
        ) {
            let importer = try importer(library, mode: mode, batchSize: batchSize, planningChunk: 4)
            return try importer.importFiles([drop])
        }

        /// Every regular file under `directory`, relative, sorted (the library's own files aside).
        func files(_ directory: String) -> [String] {
            let names = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []
            return names.filter { name in
                var isDirectory: ObjCBool = false
                return !PathName.name(of: name).hasPrefix(".photosd")
                    && FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }.sorted()
        }

        /// How many times each of the drop folder's original files' content is found, in the drop
        /// folder and the root together, by name (a file keeps its name with the default template).
        func copies() -> [String: Int] {
            var count: [String: Int] = [:]
            for name in files(drop) + files(pictures) { count[PathName.name(of: name), default: 0] += 1 }
            return count
        }
    }

    /// What a run leaves in the drop folder: the duplicate with its .AAE, a truncated JPEG, a text file.
    static let leftInDrop = ["100APPLE/IMG_4120.AAE", "100APPLE/IMG_4120.JPG", "notes.txt", "truncated.jpg"]

    /// The names of the corpus folder's files.
    static let originals = [
        "IMG_0004.JPG", "IMG_0005.JPG", "IMG_0420.MOV", "IMG_0815.HEIC", "IMG_2682.HEIC", "IMG_3001.JPG",
        "IMG_3002.JPG", "IMG_3003.JPG", "IMG_3004.JPG", "IMG_4120.AAE", "IMG_4120.JPG", "IMG_5195.HEIC",
        "IMG_5195.MOV", "IMG_6100.JPG", "IMG_E4120.JPG",
    ]

    @Test func aCameraFolderLandsByDateWithItsGroupsTogetherAndTheRestStays() throws {
        let setup = try Setup()
        let library = try setup.open()
        let token = library.currentChangeToken
        let (plan, report) = try setup.run(library)
        #expect(report.failed.isEmpty, "\(report.failed)")
        // Filed by the date each photo states (with its own offset where it has one).
        #expect(
            setup.files(setup.pictures) == [
                "2011/2011-01-13/IMG_0004.JPG", "2012/2012-09-29/IMG_0005.JPG", "2015/2015-04-10/IMG_6100.JPG",
                "2017/2017-04-09/IMG_3001.JPG", "2017/2017-04-09/IMG_3002.JPG", "2017/2017-04-09/IMG_3003.JPG",
                "2017/2017-04-09/IMG_3004.JPG", "2019/2019-03-21/IMG_2682.HEIC", "2019/2019-06-09/IMG_E4120.JPG",
                "2019/2019-07-24/IMG_0420.MOV", "2021/2021-04-11/IMG_5195.HEIC", "2021/2021-04-11/IMG_5195.MOV",
                "2023/2023-10-31/IMG_0815.HEIC", "Old/IMG_4120 copy.JPG",
            ])
        // Left: the duplicate with its .AAE (never deleted), the truncated JPEG and the text file.
        #expect(setup.files(setup.drop) == Self.leftInDrop)
        #expect(plan.duplicates.map(\.existing) == [setup.pictures + "/Old/IMG_4120 copy.JPG"])
        #expect(plan.rejected.map { PathName.name(of: $0.path) } == ["truncated.jpg"])
        #expect(plan.left.map { PathName.name(of: $0.path) } == ["notes.txt"])
        #expect(report.placed.count == 13)
        // One asset per group, as a scan makes it: the Live Photo's movie is its paired video.
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let assets = PHAsset.fetchAssets(with: options)
        #expect(assets.count == 13, "12 imported, 1 there before")
        let live = try #require(
            assets.first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.originalFilename == "IMG_5195.HEIC" }
            })
        #expect(live.mediaSubtypes.contains(.photoLive))
        #expect(
            PHAssetResource.assetResources(for: live).map(\.fileURL.path).sorted() == [
                setup.pictures + "/2021/2021-04-11/IMG_5195.HEIC", setup.pictures + "/2021/2021-04-11/IMG_5195.MOV",
            ])
        // Ordinary insertions in the change log, which observers and hooks follow.
        let inserted = try Array(library.fetchPersistentChanges(since: token)).flatMap {
            try $0.changeDetails(for: .asset).insertedLocalIdentifiers
        }
        #expect(Set(inserted).count == 12)
        // Each carries where it came from.
        let origins = try Array(library.fetchPersistentChanges(since: token)).flatMap(\.imports)
        #expect(Set(origins.map(\.localIdentifier)) == Set(inserted))
        let liveOrigin = try #require(origins.first { $0.localIdentifier == live.localIdentifier })
        #expect(liveOrigin.source == setup.drop + "/100APPLE/IMG_5195.HEIC")
        #expect(liveOrigin.path == setup.pictures + "/2021/2021-04-11/IMG_5195.HEIC")
        // Nothing left to journal, and a rescan finds the library and the disk agree.
        #expect(try library.database.fileJournal().isEmpty)
        let again = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [setup.pictures])
        #expect(again.ingested == 0 && again.removed == 0 && again.moved == 0)
    }

    /// A run stopped (as kill -9 stops it) at each step of a batch's journal, in the first batch
    /// and a later one (batches of 4 groups): after the next opening of the library, a second run
    /// and a scan of the root, every file is in exactly one place, the library has every photo
    /// once, and no temporary file is left.
    @Test(arguments: [
        (FaultInjection.Step.importJournaled, 1), (.importJournaled, 3), (.importPlaced, 1), (.importPlaced, 10),
        (.importPlaced, 11), (.importScanned, 1), (.importScanned, 3), (.importSourceRemoved, 1),
        (.importSourceRemoved, 10),
    ])
    func aRunStoppedAtAnyStepLosesAndDoublesNothing(step: FaultInjection.Step, time: Int) throws {
        try stopAndResume(try Setup(), at: step, time: time)
    }

    /// The same with the drop folder on another file system: each file copied under a temporary
    /// name, the batch's copies synced together, then each checked and renamed into place.
    @Test(
        .enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason),
        arguments: [
            (FaultInjection.Step.importJournaled, 1), (.copiedAcross, 1), (.copiedAcross, 6), (.importPlaced, 2),
            (.importPlaced, 11), (.importScanned, 1), (.importSourceRemoved, 3),
        ])
    func aRunFromAnotherFileSystemStoppedAtAnyStepLosesAndDoublesNothing(step: FaultInjection.Step, time: Int) throws {
        let elsewhere = try SecondFileSystem.directory()
        try stopAndResume(try Setup(drop: elsewhere.path + "/Drop"), at: step, time: time)
    }

    private func stopAndResume(_ setup: Setup, at step: FaultInjection.Step, time: Int) throws {
        do {
            let library = try setup.open()
            let imports = library.fileJournal.importDirectory
            FaultInjection.stop(at: step, time: time, in: imports)
            defer { FaultInjection.clear(in: imports) }
            #expect(throws: (any Error).self, "stopped at \(step) #\(time)") {
                try setup.run(library, batchSize: 4)
            }
        }
        // The next process: its opening finishes the journal, its run takes the rest.
        let library = try setup.open()
        #expect(try library.database.fileJournal().isEmpty, "the opening finished what was left")
        let (_, report) = try setup.run(library)
        #expect(report.failed.isEmpty, "\(report.failed)")
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        // The opening's recovery scanned what the stopped run had placed: no other scan is needed.
        #expect(PHAsset.fetchAssets(with: options).count == 13, "every photo in the library before any rescan")
        let rescan = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [setup.pictures])
        #expect(rescan.ingested == 0 && rescan.removed == 0, "\(rescan)")
        let copies = setup.copies()
        for name in Self.originals {
            #expect(copies[name] == 1, "\(name) is in \(copies[name] ?? 0) places")
        }
        #expect(
            !(setup.files(setup.pictures) + setup.files(setup.drop)).contains { $0.contains(".photosd-copy") },
            "no temporary copy left")
        #expect(PHAsset.fetchAssets(with: options).count == 13)
    }

    /// A copying import leaves every original, and run again (a card inserted again) takes nothing:
    /// what it took is remembered by content, even once the copies are renamed.
    /// What a plan says, as sets: each group's moves, and what stays.
    private static func outcome(_ plan: FolderImport.Plan) -> (groups: Set<[String]>, left: Set<String>) {
        (
            Set(plan.groups.map { $0.moves.map { "\($0.source) -> \($0.destination) (\($0.role))" } }),
            Set(plan.duplicates.map(\.path) + plan.rejected.map(\.path) + plan.left.map(\.path))
        )
    }

    /// A folder read a few files at a time is grouped and named as when read whole: a Live Photo
    /// whose movie has another name (paired by content identifier alone) still pairs across the
    /// parts, an edited photo keeps its .AAE, the duplicate and the bad files stay.
    @Test(arguments: [1, 2, 5])
    func planningAFolderInPartsGroupsItAsWhole(chunk: Int) throws {
        let setup = try Setup()
        let folder = setup.drop + "/100APPLE"
        try FileManager.default.moveItem(atPath: folder + "/IMG_5195.MOV", toPath: folder + "/ZZZ_movie.MOV")
        let library = try setup.open()
        let whole = try setup.importer(library, planningChunk: 10_000).plan([setup.drop])
        let parts = try setup.importer(library, planningChunk: chunk).plan([setup.drop])
        #expect(Self.outcome(parts).groups == Self.outcome(whole).groups)
        #expect(Self.outcome(parts).left == Self.outcome(whole).left)
        let live = try #require(parts.groups.first { $0.moves[0].source.hasSuffix("/IMG_5195.HEIC") })
        #expect(live.moves.map { PathName.name(of: $0.source) } == ["IMG_5195.HEIC", "ZZZ_movie.MOV"])
        #expect(live.moves.last?.role == .pairedVideo)
    }

    /// Placing while planning places what `--dry-run` shows, whatever the sizes of the parts read
    /// and of the batches placed; nothing is lost or doubled, and the library has every photo.
    @Test(arguments: [(1, 1), (2, 3), (512, 256)])
    func placingWhilePlanningPlacesWhatThePlanSays(chunk: Int, batch: Int) throws {
        let setup = try Setup()
        let library = try setup.open()
        let importer = try setup.importer(library, batchSize: batch, planningChunk: chunk)
        let dryRun = try importer.plan([setup.drop])
        var progress: [Int] = []
        let (plan, report) = try importer.importFiles([setup.drop]) { done, _ in progress.append(done) }
        #expect(Self.outcome(plan).groups == Self.outcome(dryRun).groups)
        #expect(Self.outcome(plan).left == Self.outcome(dryRun).left)
        let moves = plan.groups.flatMap(\.moves)
        #expect(
            Set(report.placed.map { "\($0.source) -> \($0.destination)" })
                == Set(moves.map { "\($0.source) -> \($0.destination)" }))
        #expect(report.failed.isEmpty)
        #expect(progress.last == plan.groups.count && progress == progress.sorted())
        for move in moves {
            #expect(FileManager.default.fileExists(atPath: move.destination), "\(move.destination)")
            #expect(!FileManager.default.fileExists(atPath: move.source), "\(move.source)")
        }
        #expect(setup.files(setup.drop) == Self.leftInDrop)
        let copies = setup.copies()
        for name in Self.originals { #expect(copies[name] == 1, "\(name) is in \(copies[name] ?? 0) places") }
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        #expect(PHAsset.fetchAssets(with: options).count == 13, "12 imported, 1 there before")
        #expect(try library.database.fileJournal().isEmpty)
    }

    @Test func aCopyingImportLeavesTheOriginalsAndDoesNotTakeThemTwice() throws {
        let setup = try Setup()
        let library = try setup.open()
        let before = setup.files(setup.drop)
        let (_, first) = try setup.run(library, mode: .copy)
        #expect(first.placed.count == 13)
        #expect(setup.files(setup.drop) == before, "the card is never touched")
        try FileManager.default.moveItem(
            atPath: setup.pictures + "/2011/2011-01-13/IMG_0004.JPG",
            toPath: setup.pictures + "/2011/2011-01-13/Renamed.JPG")
        let (plan, second) = try setup.run(library, mode: .copy)
        #expect(second.placed.isEmpty && plan.groups.isEmpty, "\(plan.groups.map(\.moves))")
        #expect(plan.duplicates.count == 13, "every photo again, and the one the library had before")
        #expect(setup.files(setup.drop) == before)
    }

    /// Names that are not UTF-8 (a Windows card's Latin-1 names, a folder named with byte 0xFF)
    /// are imported byte for byte, the folder's photos with them; they were passed over in silence.
    @Test func namesThatAreNotUTF8AreImportedByteForByte() throws {
        let setup = try Setup()
        let library = try setup.open()
        let folder = PathBytes.string(Array(setup.drop.utf8) + [0x2F, 0xFF] + Array("older".utf8))
        #expect(try FileOperations.makeDirectory(folder))
        let latin1 = PathBytes.string(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        for (corpus, path) in [
            ("Camera/2008/Death Valley/FurnaceCreekInn.jpg", setup.drop + "/" + latin1),
            ("Camera/1997/Ricoh/RIMG0001.JPG", folder + "/RIMG0001.JPG"),
        ] {
            try FileOperations.write(try Data(contentsOf: try #require(Corpus.file(corpus))), to: path)
        }

        let (_, report) = try setup.run(library)

        #expect(report.placed.count == 15 && report.failed.isEmpty, "\(report.failed)")
        let landed = setup.pictures + "/2008/2008-05-08/" + latin1
        #expect(report.placed.contains { $0.destination == landed })
        #expect(try FileOperations.identity(landed)?.isRegularFile == true, "its name is the card's bytes")
        #expect(try FileOperations.identity(setup.pictures + "/1997/1997-01-28/RIMG0001.JPG") != nil)
        #expect(try FileOperations.names(in: folder).isEmpty, "moved out of the folder named with 0xFF")
        #expect(try !FileOperations.names(in: setup.drop).contains(latin1))
    }

    /// A drop folder on another file system: each file is copied, synced, verified and renamed into
    /// place, and only then its original removed.
    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason))
    func aDropFolderOnAnotherFileSystemIsCopiedThenRemoved() throws {
        let elsewhere = try SecondFileSystem.directory()
        let setup = try Setup(drop: elsewhere.path + "/Drop")
        let library = try setup.open()
        let (_, report) = try setup.run(library)
        #expect(report.placed.count == 13 && report.failed.isEmpty, "\(report.failed)")
        #expect(setup.files(setup.drop) == Self.leftInDrop)
        let placed = setup.pictures + "/2021/2021-04-11/IMG_5195.MOV"
        #expect(
            try FileOperations.sameContent(
                placed, try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV")).path))
    }

    /// A root whose policy is not `files` is refused before anything is read or moved, naming it.
    @Test func aRootThatMayNotBeWrittenIsRefused() throws {
        let setup = try Setup()
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: setup.pictures, write: .sidecars)]
        let library = try PHPhotoLibrary(url: setup.directory.path("library.sqlite"), configuration: configuration)
        let before = setup.files(setup.drop)
        #expect {
            try setup.run(library)
        } throws: { error in
            "\(error)".contains(setup.pictures) && "\(error)".contains("sidecars")
        }
        #expect(setup.files(setup.drop) == before)
    }
}

extension FolderImportTests {
    /// `duplicates = "trash"`: a duplicate's files (its .AAE with it) go to the Trash, checked byte
    /// for byte first; the rest is imported as ever.
    @Test func duplicatesGoToTheTrashWhenTheImportSaysSo() throws {
        let setup = try Setup()
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: setup.pictures, write: .files)]
        configuration.timeZone = TimeZone(identifier: "UTC")!
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": setup.directory.path("data").path])
        let library = try PHPhotoLibrary(url: setup.directory.path("library.sqlite"), configuration: configuration)
        let importer = FolderImport(
            library: library,
            definition: ImportDefinition(
                from: setup.drop, to: setup.pictures, layout: try ImportLayout(), duplicates: .trash),
            timeZone: TimeZone(identifier: "UTC")!)
        let report = try importer.run(try importer.plan([setup.drop]))
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(report.trashed.map { PathName.name(of: $0.source) } == ["IMG_4120.JPG", "IMG_4120.AAE"])
        #expect(setup.files(setup.drop) == ["notes.txt", "truncated.jpg"])
        let trashed = setup.directory.path("data/Trash/files").path
        #expect(setup.files(trashed) == ["IMG_4120.AAE", "IMG_4120.JPG"])
        #expect(
            try FileOperations.sameContent(
                trashed + "/IMG_4120.JPG", try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_4120.JPG")).path))
    }
}

extension FolderImportTests {
    /// A folder that just received files waits whole, even when the files keep old modification
    /// times (as `cp -a`, rsync and sync tools leave them): what counts is when they arrived.
    @Test func aFolderThatJustReceivedFilesWaitsEvenWithOldModificationTimes() throws {
        let setup = try Setup()
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for name in Self.originals {
            try FileManager.default.setAttributes(
                [.modificationDate: old], ofItemAtPath: setup.drop + "/100APPLE/" + name)
        }
        let library = try setup.open()
        let importer = try setup.importer(library)
        let waiting = try importer.plan([setup.drop], quiet: .seconds(60))
        #expect(waiting.groups.isEmpty && waiting.waiting.count == Self.originals.count + 2, "\(waiting.waiting)")
        let settled = try importer.plan([setup.drop], quiet: .zero)
        #expect(settled.groups.count == 12)
    }
}

extension FolderImportTests {
    /// A photo that states no date is filed by its file's modification time, in the configured zone,
    /// and its asset says its date is the file's time (in PhotoKit, in the JSON and to a predicate),
    /// until the user gives it a date.
    @Test func aPhotoWithoutADateIsFiledByItsFileTimeAndItsAssetSaysSo() throws {
        let setup = try Setup()
        let undated = setup.drop + "/without_exif.jpg"
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Downloads/without_exif.jpg")).path, toPath: undated)
        let fileTime = Date(timeIntervalSince1970: 1_118_145_600)  // 2005-06-07 12:00 UTC
        try FileManager.default.setAttributes([.modificationDate: fileTime], ofItemAtPath: undated)
        let library = try setup.open()
        let (_, report) = try setup.run(library)
        #expect(report.failed.isEmpty, "\(report.failed)")
        let placed = setup.pictures + "/2005/2005-06-07/without_exif.jpg"
        #expect(setup.files(setup.pictures).contains("2005/2005-06-07/without_exif.jpg"))

        let options = PHFetchOptions()
        options.photoLibrary = library
        options.predicate = NSPredicate(format: "creationDateIsFileTime == YES")
        let byFileTime = PHAsset.fetchAssets(with: options)
        #expect(byFileTime.count == 1, "only the undated photo: the iPhone's state their dates")
        let asset = try #require(byFileTime.firstObject)
        #expect(PHAssetResource.assetResources(for: asset).map(\.fileURL.path) == [placed])
        #expect(asset.creationDateIsFileTime && asset.creationDate == fileTime)
        let reader = DescriptionReader(database: library.database, timeZone: TimeZone(identifier: "UTC")!)
        let json = try #require(try reader.assets(.localIdentifiers([asset.localIdentifier])).first)
        #expect(json.creationDateIsFileTime)
        #expect(AssetDescription(asset, timeZone: TimeZone(identifier: "UTC")!) == json)

        // A date the user gives is a date taken.
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: asset).creationDate = Date(timeIntervalSince1970: 1_000_000_000)
        }
        #expect(PHAsset.fetchAssets(with: options).count == 0)
        options.predicate = nil
        let edited = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject)
        #expect(!edited.creationDateIsFileTime)
    }

    /// A root on another file system than the drop folder: each file is copied, synced, verified
    /// and renamed into place there, and only then its original removed.
    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason))
    func aRootOnAnotherFileSystemReceivesVerifiedCopies() throws {
        let elsewhere = try SecondFileSystem.directory()
        let setup = try Setup(pictures: elsewhere.path + "/Pictures")
        let library = try setup.open()
        let (_, report) = try setup.run(library)
        #expect(report.placed.count == 13 && report.failed.isEmpty, "\(report.failed)")
        #expect(setup.files(setup.drop) == Self.leftInDrop)
        for (source, destination) in report.placed {
            let original = try #require(Corpus.file("Phone/DCIM/100APPLE/" + PathName.name(of: source))).path
            #expect(try FileOperations.sameContent(destination, original), "\(destination)")
        }
        #expect(
            !setup.files(setup.pictures).contains { $0.contains(".photosd-copy") }, "no temporary copy left")
        let again = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [setup.pictures])
        #expect(again.ingested == 0 && again.removed == 0)
    }
}

extension FolderImportTests {
    /// A card pulled in the middle of an import: the drop folder is a mount of its own (a bind
    /// mount of the "card"), detached after the first file is copied off it. Nothing is removed
    /// from the card, what was copied and verified stays, and once the card is back a second run
    /// takes the rest: every photo is in the library once and every file is somewhere.
    @Test(.enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"))
    func aCardUnmountedInTheMiddleOfAnImportLosesNothing() throws {
        let setup = try Setup()
        let card = setup.directory.path("card").path
        try FileManager.default.moveItem(atPath: setup.drop, toPath: card)
        try FileManager.default.createDirectory(atPath: setup.drop, withIntermediateDirectories: false)
        try BindMount.mount(card, at: setup.drop)
        defer { BindMount.unmount(setup.drop) }
        let cardFiles = setup.files(card)
        do {
            let library = try setup.open()
            let imports = library.fileJournal.importDirectory
            let drop = setup.drop
            FaultInjection.set(in: imports) { step in
                if step == .importPlaced { BindMount.unmount(drop) }
                return false
            }
            defer { FaultInjection.clear(in: imports) }
            let (_, report) = try setup.run(library)
            #expect(!report.failed.isEmpty, "the files after the unmount are reported, not skipped silently")
            #expect(setup.files(setup.drop).isEmpty, "the card is gone")
            #expect(setup.files(card) == cardFiles, "nothing was removed from the card")
        }
        // The card again: the next process finishes the journal, a run takes the rest, a scan agrees.
        try BindMount.mount(card, at: setup.drop)
        let library = try setup.open()
        #expect(try library.database.fileJournal().isEmpty)
        let (_, report) = try setup.run(library)
        #expect(report.failed.isEmpty, "\(report.failed)")
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [setup.pictures])
        let inPictures = setup.files(setup.pictures).map { PathName.name(of: $0) }
        for name in Self.originals {
            let places =
                inPictures.filter { $0 == name }.count
                + setup.files(setup.drop).filter {
                    PathName.name(of: $0) == name
                }.count
            #expect(places >= 1, "\(name) is lost")
            #expect(inPictures.filter { $0 == name }.count <= 1, "\(name) is in the root twice")
        }
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        #expect(PHAsset.fetchAssets(with: options).count == 13, "every photo once")
        #expect(
            !(setup.files(setup.pictures) + setup.files(card)).contains { $0.contains(".photosd-copy") },
            "no temporary copy left")
    }
}

extension FolderImportTests {
    /// A root's directory mounted elsewhere (a bind mount) is the root: refused as a source, and a
    /// mount of a folder inside it finds its files to be the library's own (the same files), which
    /// stay: the first run had moved them and the second trashed them as their own duplicates.
    @Test(.enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"))
    func aRootMountedElsewhereIsNotADropFolder() throws {
        let directory = try TemporaryDirectory(prefix: "photos-import-bind")
        let pictures = directory.path("Pictures").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: pictures + "/Trip", withIntermediateDirectories: true)
        for name in ["IMG_0004.JPG", "IMG_5195.HEIC"] {
            try manager.copyItem(
                atPath: try #require(Corpus.file("Phone/DCIM/100APPLE/" + name)).path,
                toPath: pictures + "/Trip/" + name)
        }
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: pictures, write: .files)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures])
        let (whole, trip) = (directory.path("drop").path, directory.path("card").path)
        for mount in [whole, trip] { try manager.createDirectory(atPath: mount, withIntermediateDirectories: false) }
        try BindMount.mount(pictures, at: whole)
        defer { BindMount.unmount(whole) }
        try BindMount.mount(pictures + "/Trip", at: trip)
        defer { BindMount.unmount(trip) }
        func importer(from drop: String) -> FolderImport {
            FolderImport(
                library: library,
                definition: ImportDefinition(from: drop, to: pictures, layout: try! ImportLayout(), duplicates: .trash),
                timeZone: TimeZone(identifier: "UTC")!)
        }
        let refused = #expect(throws: PHPhotosError.self) { try importer(from: whole).plan([whole]) }
        #expect(
            refused?.message.contains("it is inside the root \(pictures)") == true, "\(String(describing: refused))")
        let holding = #expect(throws: PHPhotosError.self) {
            try importer(from: directory.url.path).plan([directory.url.path])
        }
        #expect(holding?.message.contains("it holds the root \(pictures)") == true, "\(String(describing: holding))")

        let plan = try importer(from: trip).plan([trip])
        #expect(plan.groups.isEmpty && plan.duplicates.isEmpty)
        #expect(plan.left.map { PathName.name(of: $0.path) }.sorted() == ["IMG_0004.JPG", "IMG_5195.HEIC"])
        #expect(
            plan.left.allSatisfy { $0.reason.contains("is the library's own file \(pictures)/Trip/") }, "\(plan.left)")
        let report = try importer(from: trip).run(plan)
        #expect(report.trashed.isEmpty && report.placed.isEmpty)
        #expect(
            try manager.contentsOfDirectory(atPath: pictures + "/Trip").sorted() == ["IMG_0004.JPG", "IMG_5195.HEIC"])
    }

    /// One RAW twice in a run, alone and beside a new JPEG: imported once; the pair, whose RAW the
    /// run has already, stays with why.
    @Test func aRawTheRunImportsAloneIsAKnownPartnerOfAPairLaterInTheRun() throws {
        let directory = try TemporaryDirectory(prefix: "photos-import-raw-twice")
        let pictures = directory.path("Pictures").path
        let card = directory.path("card").path
        let manager = FileManager.default
        for folder in [pictures, card + "/A", card + "/B"] {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let raw = try #require(Corpus.file("Camera/RAW/IMG_0350.CR2")).path
        try manager.copyItem(atPath: raw, toPath: card + "/A/IMG_0350.CR2")
        try manager.copyItem(atPath: raw, toPath: card + "/B/IMG_0350.CR2")
        try manager.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")).path, toPath: card + "/B/IMG_0350.JPG")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: pictures, write: .files)]
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        let importer = FolderImport(
            library: library,
            definition: ImportDefinition(from: card, to: pictures, layout: try ImportLayout(), mode: .copy),
            timeZone: TimeZone(identifier: "UTC")!)
        let plan = try importer.plan([card])
        #expect(plan.groups.map { PathName.name(of: $0.moves[0].source) } == ["IMG_0350.CR2"], "\(plan.groups)")
        #expect(plan.left.map { PathName.name(of: $0.path) }.sorted() == ["IMG_0350.CR2", "IMG_0350.JPG"])
        #expect(plan.left.allSatisfy { $0.reason.contains("IMG_0350.JPG is not") }, "\(plan.left)")
    }

}

extension FolderImportTests {
    /// A move from a card whose write-protect tab is on (a read-only mount): every photo is
    /// imported, the originals the system would not let go are named with why and stay on the card,
    /// and the library opens afterwards (it failed at every opening, retrying the removal).
    @Test(.enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"))
    func aMoveFromAReadOnlyCardImportsEverythingAndKeepsTheOriginals() throws {
        let setup = try Setup()
        let card = setup.directory.path("card").path
        try FileManager.default.moveItem(atPath: setup.drop, toPath: card)
        try FileManager.default.createDirectory(atPath: setup.drop, withIntermediateDirectories: false)
        try BindMount.mount(card, at: setup.drop, readOnly: true)
        defer { BindMount.unmount(setup.drop) }
        let cardFiles = setup.files(card)
        do {
            let library = try setup.open()
            let (plan, report) = try setup.run(library)
            #expect(report.failed.isEmpty, "\(report.failed)")
            let placed = Set(report.placed.map(\.source))
            #expect(!placed.isEmpty && Set(report.keptOriginals.map(\.path)) == placed)
            #expect(report.keptOriginals.allSatisfy { $0.reason == "Read-only file system" }, "\(report.keptOriginals)")
            #expect(report.assets > 0 && plan.groups.count > 0)
            #expect(try library.database.fileJournal().isEmpty)
        }
        #expect(setup.files(card) == cardFiles, "nothing was removed from the card")
        // The library opens again, and the card read again is all duplicates.
        let library = try setup.open()
        let (again, report) = try setup.run(library)
        #expect(again.groups.isEmpty && !again.duplicates.isEmpty && report.placed.isEmpty)
        // Duplicates the Trash cannot take from it stay, named, and are not photos that failed (the
        // summary counted them off the imported ones, below zero).
        let trashing = FolderImport(
            library: library,
            definition: ImportDefinition(
                from: setup.drop, to: setup.pictures, layout: try ImportLayout(), duplicates: .trash),
            timeZone: TimeZone(identifier: "UTC")!)
        let (duplicates, untrashed) = try trashing.importFiles([setup.drop])
        #expect(duplicates.groups.isEmpty && untrashed.failed.isEmpty && untrashed.trashed.isEmpty)
        #expect(!untrashed.untrashed.isEmpty && untrashed.untrashed.allSatisfy { $0.reason.contains("Read-only") })
        #expect(setup.files(card) == cardFiles)
    }
}

extension FolderImportTests {
    /// A photo's XMP sidecar travels with it and the asset takes what it says (another tool's rating),
    /// read from beside the photo's new place.
    @Test func aSidecarTravelsWithItsPhotoAndTheAssetTakesItsRating() throws {
        let setup = try Setup()
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")).path,
            toPath: setup.drop + "/rated.jpg")
        try Data(
            """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
            <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='3'/></rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: URL(fileURLWithPath: setup.drop + "/rated.jpg.xmp"))
        let library = try setup.open()
        let (_, report) = try setup.run(library)
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(
            setup.files(setup.pictures).filter { $0.hasPrefix("2008/") } == [
                "2008/2008-05-30/rated.jpg", "2008/2008-05-30/rated.jpg.xmp",
            ])
        let options = PHFetchOptions()
        options.photoLibrary = library
        let rated = try #require(
            PHAsset.fetchAssets(with: options).first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.originalFilename == "rated.jpg" }
            })
        #expect(rated.rating.rawValue == 3)
    }
}

extension FolderImportTests {
    /// `duplicates = "trash"` stopped (as a killed process stops) after a duplicate's first or
    /// second file's `.trashinfo` is written or the file has moved: each of its files is then in
    /// the drop folder or in the Trash, exactly once, never both and never neither, and the next
    /// run finishes without a failure or an orphan `.trashinfo`.
    @Test(arguments: [(Trash.Step.infoWritten, 1), (.moved, 1), (.infoWritten, 2), (.moved, 2)])
    func duplicatesToTheTrashStoppedHalfwayLoseNothing(step: Trash.Step, time: Int) throws {
        struct Stopped: Error {}
        let setup = try Setup()
        func library(stoppingAt stop: (Trash.Step, Int)?) throws -> PHPhotoLibrary {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = [LibraryRoot(path: setup.pictures, write: .files)]
            configuration.timeZone = TimeZone(identifier: "UTC")!
            configuration.trash = Trash(environment: ["XDG_DATA_HOME": setup.directory.path("data").path])
            if let stop {
                let reached = Mutex(0)
                configuration.trash.stopHook = { step in
                    guard step == stop.0,
                        reached.withLock({
                            $0 += 1
                            return $0
                        }) == stop.1
                    else { return }
                    throw Stopped()
                }
            }
            return try PHPhotoLibrary(url: setup.directory.path("library.sqlite"), configuration: configuration)
        }
        func run(_ library: PHPhotoLibrary) throws -> FolderImport.Report {
            let importer = FolderImport(
                library: library,
                definition: ImportDefinition(
                    from: setup.drop, to: setup.pictures, layout: try ImportLayout(), duplicates: .trash),
                timeZone: TimeZone(identifier: "UTC")!)
            return try importer.run(try importer.plan([setup.drop]))
        }
        let trashed = setup.directory.path("data/Trash/files").path
        let info = setup.directory.path("data/Trash/info").path
        // In the Trash a file may have a second name (`IMG_4120.JPG_1`) if its first was taken.
        func places(_ name: String) -> Int {
            setup.files(setup.drop).filter { PathName.name(of: $0) == name }.count
                + setup.files(trashed).filter { $0 == name || $0.hasPrefix(name + "_") }.count
        }

        let stopped = try run(try library(stoppingAt: (step, time)))
        #expect(!stopped.untrashed.isEmpty, "the stop is reported")
        for name in ["IMG_4120.JPG", "IMG_4120.AAE"] { #expect(places(name) == 1, "\(name) after the stop") }

        let report = try run(try library(stoppingAt: nil))
        #expect(report.failed.isEmpty && report.untrashed.isEmpty, "\(report.failed) \(report.untrashed)")
        for name in ["IMG_4120.JPG", "IMG_4120.AAE"] { #expect(places(name) == 1, "\(name) after the next run") }
        #expect(setup.files(trashed).contains("IMG_4120.JPG"), "the duplicate photo is in the Trash, under its name")
        let infos = ((try? FileManager.default.contentsOfDirectory(atPath: info)) ?? []).sorted()
        #expect(
            infos == setup.files(trashed).map { $0 + ".trashinfo" }.sorted(),
            "one .trashinfo for each trashed file, no orphan: \(infos)")
    }
}

extension FolderImportTests {
    /// A group that cannot land whole is taken back whole: another program takes the name of a Live
    /// Photo's movie after its still is placed. The still's new name is removed again, the movie's
    /// name keeps the other program's file, both originals stay in the drop folder, and the rest of
    /// the folder is imported.
    @Test func aGroupThatCannotLandWholeIsTakenBackWhole() throws {
        let setup = try Setup()
        let library = try setup.open()
        let folder = setup.pictures + "/2021/2021-04-11"
        let imports = library.fileJournal.importDirectory
        FaultInjection.set(in: imports) { step in
            if step == .importPlaced, FileManager.default.fileExists(atPath: folder + "/IMG_5195.HEIC"),
                !FileManager.default.fileExists(atPath: folder + "/IMG_5195.MOV")
            {
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: folder + "/IMG_5195.MOV"))
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let (_, report) = try setup.run(library)
        #expect(report.failed.map { PathName.name(of: $0.path) } == ["IMG_5195.HEIC"], "\(report.failed)")
        #expect(try String(contentsOfFile: folder + "/IMG_5195.MOV", encoding: .utf8) == "theirs")
        #expect(!FileManager.default.fileExists(atPath: folder + "/IMG_5195.HEIC"), "the still is taken back")
        #expect(setup.files(setup.drop).contains("100APPLE/IMG_5195.HEIC"))
        #expect(setup.files(setup.drop).contains("100APPLE/IMG_5195.MOV"))
        #expect(report.placed.count == 11, "the other groups land")
        #expect(try library.database.fileJournal().isEmpty)
    }
}

extension FolderImportTests {
    /// A run stopped (as `kill -9` stops it) after a Live Photo's still is placed, while another
    /// program takes the name of its movie: the next opening cannot land the group whole, so it
    /// takes the still back, and the next run files the pair together under a new name.
    @Test func aStoppedGroupThatCannotLandWholeIsTakenBackAtTheNextOpening() throws {
        let setup = try Setup()
        let folder = setup.pictures + "/2021/2021-04-11"
        do {
            let library = try setup.open()
            let imports = library.fileJournal.importDirectory
            FaultInjection.set(in: imports) { step in
                guard step == .importPlaced, FileManager.default.fileExists(atPath: folder + "/IMG_5195.HEIC"),
                    !FileManager.default.fileExists(atPath: folder + "/IMG_5195.MOV")
                else { return false }
                try? Data("theirs".utf8).write(to: URL(fileURLWithPath: folder + "/IMG_5195.MOV"))
                return true
            }
            defer { FaultInjection.clear(in: imports) }
            #expect(throws: (any Error).self) { try setup.run(library) }
        }
        let library = try setup.open()
        #expect(try library.database.fileJournal().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder + "/IMG_5195.HEIC"), "the still is taken back")
        #expect(try String(contentsOfFile: folder + "/IMG_5195.MOV", encoding: .utf8) == "theirs")
        #expect(setup.files(setup.drop).contains("100APPLE/IMG_5195.HEIC"))
        #expect(setup.files(setup.drop).contains("100APPLE/IMG_5195.MOV"))

        let (_, report) = try setup.run(library)
        #expect(report.failed.isEmpty, "\(report.failed)")
        let landed = setup.files(setup.pictures).filter { $0.hasPrefix("2021/2021-04-11/") }
        #expect(
            landed == [
                "2021/2021-04-11/IMG_5195 (2).HEIC", "2021/2021-04-11/IMG_5195 (2).MOV", "2021/2021-04-11/IMG_5195.MOV",
            ])
        let options = PHFetchOptions()
        options.photoLibrary = library
        let live = try #require(
            PHAsset.fetchAssets(with: options).first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.originalFilename == "IMG_5195 (2).HEIC" }
            })
        #expect(live.mediaSubtypes.contains(.photoLive), "still and movie together again")
    }

    /// A run's journal entries cut into its groups: a primary, then the files named as it is up to
    /// its extension, in one folder.
    @Test func aStoppedRunsEntriesAreCutIntoItsGroups() {
        func entry(_ path: String) -> FileJournalEntry {
            FileJournalEntry(operation: .importFile, destination: path, source: "/drop/x", owner: 1)
        }
        let paths = [
            "/p/a/IMG_1.HEIC", "/p/a/IMG_1.MOV", "/p/a/IMG_1.HEIC.xmp", "/p/a/IMG_2.JPG", "/p/a/IMG_2.xmp",
            "/p/b/IMG_2.CR2", "/p/a/2021.04.11.JPG", "/p/a/2021.04.11.MOV", "/p/a/2021.04.11 (2).JPG",
            "/p/a/IMG_10.JPG",
        ]
        let groups = FileJournal.importGroups(paths.map(entry)).map { $0.map { PathName.name(of: $0.destination) } }
        #expect(
            groups == [
                ["IMG_1.HEIC", "IMG_1.MOV", "IMG_1.HEIC.xmp"], ["IMG_2.JPG", "IMG_2.xmp"], ["IMG_2.CR2"],
                ["2021.04.11.JPG", "2021.04.11.MOV"], ["2021.04.11 (2).JPG"], ["IMG_10.JPG"],
            ])
    }
}

extension FolderImportTests {
    /// A RAW+JPEG pair is a duplicate only when both of its files are: a new RAW beside a JPEG the
    /// library already has is left in the drop folder with both files and why, never trashed with
    /// it; once the library has the RAW too, `duplicates = "trash"` trashes the pair.
    @Test func aPairIsADuplicateOnlyWhenEachOfItsFilesIs() throws {
        let directory = try TemporaryDirectory(prefix: "photos-import-pair")
        let pictures = directory.path("Pictures").path
        let drop = directory.path("Drop").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: pictures + "/Old", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: drop, withIntermediateDirectories: true)
        let jpeg = try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")).path
        let raw = try #require(Corpus.file("Camera/RAW/IMG_0350.CR2")).path
        try manager.copyItem(atPath: jpeg, toPath: pictures + "/Old/Canon_40D.jpg")
        try manager.copyItem(atPath: jpeg, toPath: drop + "/IMG_9000.JPG")
        try manager.copyItem(atPath: raw, toPath: drop + "/IMG_9000.CR2")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: pictures, write: .files)]
        configuration.timeZone = TimeZone(identifier: "UTC")!
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures])
        let importer = FolderImport(
            library: library,
            definition: ImportDefinition(from: drop, to: pictures, layout: try ImportLayout(), duplicates: .trash),
            timeZone: TimeZone(identifier: "UTC")!)
        let files = { (path: String) in ((try? manager.contentsOfDirectory(atPath: path)) ?? []).sorted() }

        let plan = try importer.plan([drop])
        #expect(plan.duplicates.isEmpty && plan.groups.isEmpty)
        #expect(plan.left.map { PathName.name(of: $0.path) }.sorted() == ["IMG_9000.CR2", "IMG_9000.JPG"])
        #expect(plan.left.allSatisfy { $0.reason.contains("IMG_9000.CR2 is not") }, "\(plan.left)")
        let report = try importer.run(plan)
        #expect(report.trashed.isEmpty && report.failed.isEmpty, "\(report.failed)")
        #expect(files(drop) == ["IMG_9000.CR2", "IMG_9000.JPG"])
        #expect(files(directory.path("data/Trash/files").path).isEmpty)
        #expect(try library.database.assetCount(under: pictures) == 1)

        // The library gets the RAW too: now the pair is the library's, and goes to the Trash.
        try manager.copyItem(atPath: raw, toPath: pictures + "/Old/IMG_0350.CR2")
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures])
        let again = try importer.run(try importer.plan([drop]))
        #expect(again.failed.isEmpty, "\(again.failed)")
        #expect(again.trashed.map { PathName.name(of: $0.source) }.sorted() == ["IMG_9000.CR2", "IMG_9000.JPG"])
        #expect(files(drop).isEmpty)

        // The other way round: a new JPEG beside a RAW the library has is left too, with why (it
        // was imported, and the RAW's bytes were in the root twice).
        let other = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path
        try manager.copyItem(atPath: other, toPath: drop + "/IMG_9001.JPG")
        try manager.copyItem(atPath: raw, toPath: drop + "/IMG_9001.CR2")
        let mirrored = try importer.plan([drop])
        #expect(mirrored.duplicates.isEmpty && mirrored.groups.isEmpty)
        #expect(mirrored.left.map { PathName.name(of: $0.path) }.sorted() == ["IMG_9001.CR2", "IMG_9001.JPG"])
        #expect(
            mirrored.left.allSatisfy {
                $0.reason.contains("IMG_9001.CR2 is already in the library (\(pictures)/Old/IMG_0350.CR2)")
                    && $0.reason.contains("IMG_9001.JPG is not")
            }, "\(mirrored.left)")
        let kept = try importer.run(mirrored)
        #expect(kept.placed.isEmpty && kept.trashed.isEmpty && files(drop) == ["IMG_9001.CR2", "IMG_9001.JPG"])
    }
}
