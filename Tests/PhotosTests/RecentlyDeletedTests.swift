import Foundation
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// Deleting a folder's photo under a root with `write = "files"`: its files go to the freedesktop
/// Trash of their file system, the asset waits in Recently Deleted, and comes back, the same asset,
/// however its files are restored. A process stopped at any step loses and duplicates nothing.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RecentlyDeletedTests {
    let directory: TemporaryDirectory
    let photo: Data

    init() throws {
        directory = try TemporaryDirectory(prefix: "recently-deleted")
        photo = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
    }

    var root: String { directory.path("Pictures").path }
    var dataHome: String { directory.path("data").path }
    var homeTrash: String { dataHome + "/Trash" }
    var photoPath: String { root + "/2024/IMG_0001.JPG" }
    var sidecarPath: String { root + "/2024/IMG_0001.JPG.xmp" }
    var otherPath: String { root + "/2024/IMG_0002.JPG" }

    func configuration(write: RootWritePolicy = .files, trashDays: Int = 30) -> PHPhotoLibrary.Configuration {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: root, write: write)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": dataHome])
        configuration.trashDays = trashDays
        return configuration
    }

    func open(write: RootWritePolicy = .files, trashDays: Int = 30) throws -> PHPhotoLibrary {
        try PHPhotoLibrary(
            url: directory.path("library.sqlite"), configuration: configuration(write: write, trashDays: trashDays))
    }

    /// Two photos and one's sidecar in the root, scanned; the first a favorite in the album "Trip".
    func makeLibrary(write: RootWritePolicy = .files) throws -> (PHPhotoLibrary, String) {
        try FileManager.default.createDirectory(atPath: root + "/2024", withIntermediateDirectories: true)
        try photo.write(to: URL(fileURLWithPath: photoPath))
        try photo.write(to: URL(fileURLWithPath: otherPath))
        try Data(
            """
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\
            <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='3'/></rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: URL(fileURLWithPath: sidecarPath))
        let library = try open(write: write)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let asset = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: asset).isFavorite = true
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip").addAssets(
                [asset] as NSArray)
        }
        return (library, asset.localIdentifier)
    }

    func options(_ library: PHPhotoLibrary) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        return options
    }

    func assetAt(_ path: String, in library: PHPhotoLibrary) -> PHAsset? {
        PHAsset.fetchAssets(with: options(library)).first { asset in
            PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == path }
        }
    }

    func album(_ library: PHPhotoLibrary) throws -> PHAssetCollection {
        try #require(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: options(library))
                .first { $0.localizedTitle == "Trip" })
    }

    /// The names in the home trash's `files/` and `info/`.
    func trashContents() -> (files: [String], info: [String]) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: homeTrash + "/files")) ?? []
        let info = (try? FileManager.default.contentsOfDirectory(atPath: homeTrash + "/info")) ?? []
        return (files.sorted(), info.sorted())
    }

    func exists(_ path: String) -> Bool { (try? FileOperations.identity(path)) != nil }

    @Test func deletingAFolderPhotoMovesItsFilesToTheTrashAndRestoringBringsBackTheSameAsset() throws {
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        #expect(asset.canPerform(.delete))
        let inode = try #require(try FileOperations.identity(photoPath)).inode

        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }

        #expect(!exists(photoPath) && !exists(sidecarPath), "the photo and its sidecar left the folder")
        #expect(exists(otherPath), "the other photo stays")
        let trash = trashContents()
        #expect(trash.files == ["IMG_0001.JPG", "IMG_0001.JPG.xmp"])
        #expect(trash.info == ["IMG_0001.JPG.trashinfo", "IMG_0001.JPG.xmp.trashinfo"])
        let info = try String(contentsOfFile: homeTrash + "/info/IMG_0001.JPG.trashinfo", encoding: .utf8)
        #expect(info.contains("Path=\(photoPath)"))
        #expect(try FileOperations.identity(homeTrash + "/files/IMG_0001.JPG")?.inode == inode, "moved, not copied")
        #expect(assetAt(photoPath, in: library) == nil, "out of every fetch")
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options(library)).count == 0)
        #expect(PHAsset.fetchAssets(in: try album(library), options: options(library)).count == 0)
        let trashed = try library.trashedAssets()
        #expect(trashed.map(\.localIdentifier) == [identifier])
        #expect(trashed.first?.files.map(\.path) == [photoPath, sidecarPath])
        #expect(try library.database.fileJournal().isEmpty)

        let restored = try library.restoreTrashedAssets([identifier])
        #expect(restored.map(\.0) == [identifier])
        #expect(exists(photoPath) && exists(sidecarPath))
        #expect(trashContents().files.isEmpty && trashContents().info.isEmpty)
        let back = try #require(assetAt(photoPath, in: library))
        #expect(back.localIdentifier == identifier)
        #expect(back.isFavorite)
        #expect(
            PHAsset.fetchAssets(in: try album(library), options: options(library)).map(\.localIdentifier) == [
                identifier
            ])
        #expect(try library.trashedAssets().isEmpty)
        // The library equals the disk: a scan finds nothing new.
        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == 0 && report.removed == 0)
        #expect(PHAsset.fetchAssets(with: options(library)).count == 2)
    }

    /// A photo restored after its folder's album was renamed goes back to its old path (as the Trash
    /// records it): the library files it in an album of that directory, not in the renamed one
    /// whose directory does not hold it, and the user's album keeps it.
    @Test func aPhotoRestoredAfterItsAlbumWasRenamedIsInTheAlbumOfItsDirectory() throws {
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        let year = try #require(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options(library))
                .first { $0.directoryPath == root + "/2024" })
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: year)?.title = "Year" }
        #expect(exists(root + "/Year/IMG_0002.JPG") && !exists(root + "/2024"))

        _ = try library.restoreTrashedAssets([identifier])
        #expect(exists(photoPath))
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options(library))
        let renamed = try #require(albums.first { $0.directoryPath == root + "/Year" })
        #expect(
            !PHAsset.fetchAssets(in: renamed, options: options(library)).map(\.localIdentifier).contains(identifier))
        let again = try #require(albums.first { $0.directoryPath == root + "/2024" }, "the directory has its album")
        #expect(PHAsset.fetchAssets(in: again, options: options(library)).map(\.localIdentifier) == [identifier])
        #expect(
            PHAsset.fetchAssets(in: try album(library), options: options(library)).map(\.localIdentifier) == [
                identifier
            ])
        // The library says what the disk holds: a scan changes nothing.
        let token = library.currentChangeToken
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(Array(try library.fetchPersistentChanges(since: token)).isEmpty)
    }

    /// The Trash emptied by another tool, then another file trashed under the photo's name: a
    /// restore fails naming the photo, before anything moves; the other file stays in the Trash
    /// with its `.trashinfo`, and the asset in Recently Deleted.
    @Test func aRestoreNeverTakesAnotherFileOfTheSameNameFromTheTrash() throws {
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        for name in [
            "files/IMG_0001.JPG", "files/IMG_0001.JPG.xmp", "info/IMG_0001.JPG.trashinfo",
            "info/IMG_0001.JPG.xmp.trashinfo",
        ] {
            try FileManager.default.removeItem(atPath: homeTrash + "/" + name)
        }
        for dryRun in [true, false] {
            let gone = #expect(throws: PHPhotosError.self) {
                try library.restoreTrashedAssets([identifier], dryRun: dryRun)
            }
            #expect(gone?.code == .missingResource)
            #expect(
                gone?.message.contains("cannot restore \(photoPath): it is no longer in the Trash") == true,
                "\(String(describing: gone?.message))")
        }
        #expect(!exists(photoPath))

        // trash-cli's way: the file under its name, its .trashinfo naming where it came from.
        let theirs = Data("another program's file".utf8)
        try theirs.write(to: URL(fileURLWithPath: homeTrash + "/files/IMG_0001.JPG"))
        let info =
            "[Trash Info]\nPath=\(directory.path("Documents").path)/IMG_0001.JPG\nDeletionDate=2026-12-01T10:00:00\n"
        try Data(info.utf8).write(to: URL(fileURLWithPath: homeTrash + "/info/IMG_0001.JPG.trashinfo"))
        let refused = #expect(throws: PHPhotosError.self) { try library.restoreTrashedAssets([identifier]) }
        #expect(refused?.code == .missingResource)
        #expect(!exists(photoPath), "their file did not come out of the Trash")
        #expect(FileManager.default.contents(atPath: homeTrash + "/files/IMG_0001.JPG") == theirs)
        #expect(FileManager.default.contents(atPath: homeTrash + "/info/IMG_0001.JPG.trashinfo") == Data(info.utf8))
        #expect(try library.trashedAssets().map(\.localIdentifier) == [identifier], "still in Recently Deleted")
        // Emptying the Trash forgets the asset and leaves their file alone.
        try library.eraseTrashedAssets(try library.trashedAssets())
        #expect(FileManager.default.contents(atPath: homeTrash + "/files/IMG_0001.JPG") == theirs)
        #expect(try library.trashedAssets().isEmpty)
    }

    /// Two assets restored at once, one of whose photos is gone from the Trash: neither comes back
    /// (the first did, and the command failed saying nothing of it); and a file at the photo's path
    /// with its inode but not its size (a new file given the freed inode) is not taken for it.
    @Test func aRestoreOfSeveralAssetsMovesNothingWhenOneCannotComeBack() throws {
        let (library, identifier) = try makeLibrary()
        let other = try #require(assetAt(otherPath, in: library))
        let photo = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([photo, other] as NSArray) }
        try FileManager.default.removeItem(atPath: homeTrash + "/files/IMG_0002.JPG")
        let refused = #expect(throws: PHPhotosError.self) {
            try library.restoreTrashedAssets([identifier, other.localIdentifier])
        }
        #expect(refused?.code == .missingResource && refused?.localIdentifiers == [other.localIdentifier])
        #expect(!exists(photoPath) && exists(homeTrash + "/files/IMG_0001.JPG"), "the first stayed in the Trash")
        #expect(try library.trashedAssets().count == 2)

        // Its inode back at the path, another size: another file.
        #expect(rename(homeTrash + "/files/IMG_0001.JPG", photoPath) == 0)
        try FileManager.default.removeItem(atPath: homeTrash + "/info/IMG_0001.JPG.trashinfo")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: photoPath))
        try handle.truncate(atOffset: 10)
        try handle.close()
        let notIt = #expect(throws: PHPhotosError.self) { try library.restoreTrashedAssets([identifier]) }
        #expect(notIt?.code == .missingResource)
    }

    /// A sidecar's path taken by another file since the deletion: the restore of both assets is
    /// refused before any file moves (never half a restore: the photo back, its sidecar left in
    /// the Trash with no asset to own it); the other file is untouched.
    @Test func aRestoreWhoseSidecarPathIsTakenMovesNothing() throws {
        let (library, identifier) = try makeLibrary()
        let other = try #require(assetAt(otherPath, in: library))
        let photo = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([other, photo] as NSArray) }
        #expect(trashContents().files.sorted() == ["IMG_0001.JPG", "IMG_0001.JPG.xmp", "IMG_0002.JPG"])
        try Data("another program's sidecar".utf8).write(to: URL(fileURLWithPath: sidecarPath))

        for dryRun in [true, false] {
            let refused = #expect(throws: PHPhotosError.self) {
                try library.restoreTrashedAssets([other.localIdentifier, identifier], dryRun: dryRun)
            }
            #expect(refused?.code == .accessRestricted && refused?.localIdentifiers == [identifier])
            #expect(refused?.message.contains("\(sidecarPath) from") == true, "\(String(describing: refused?.message))")
        }
        #expect(!exists(photoPath) && !exists(otherPath), "nothing came back")
        #expect(trashContents().files.sorted() == ["IMG_0001.JPG", "IMG_0001.JPG.xmp", "IMG_0002.JPG"])
        #expect(FileManager.default.contents(atPath: sidecarPath) == Data("another program's sidecar".utf8))
        #expect(try library.trashedAssets().count == 2)
    }

    /// A photo deleted, another saved under its name and deleted too: both are in the Trash under
    /// two names, and cannot both come back to the one path. Restoring them together is refused
    /// before either moves.
    @Test func twoTrashedFilesOfOnePathAreNotRestoredTogether() throws {
        let (library, identifier) = try makeLibrary()
        let first = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([first] as NSArray) }
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Test charts/Orientation/landscape_1.jpg")),
            to: URL(fileURLWithPath: photoPath))
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let second = try #require(assetAt(photoPath, in: library))
        #expect(second.localIdentifier != identifier)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([second] as NSArray) }
        #expect(trashContents().files.filter { $0.hasPrefix("IMG_0001.JPG") && !$0.hasSuffix(".xmp") }.count == 2)

        for dryRun in [true, false] {
            let refused = #expect(throws: PHPhotosError.self) {
                try library.restoreTrashedAssets([identifier, second.localIdentifier], dryRun: dryRun)
            }
            #expect(refused?.code == .accessRestricted && refused?.localIdentifiers == [second.localIdentifier])
        }
        #expect(!exists(photoPath), "neither came back")
        #expect(try library.trashedAssets().count == 2)
        try library.restoreTrashedAssets([identifier])
        #expect(assetAt(photoPath, in: library)?.localIdentifier == identifier)
    }

    /// Another program makes a file at the second of three photos' paths once the restore has
    /// checked them (a race no check can close): that asset stays in Recently Deleted and the error
    /// names its file, whose bytes are left as they are; the other two come back and are said to
    /// have (the restore threw, saying nothing of the first). The same restore run again once the
    /// file is gone brings the second, and says the others are restored already (it failed: "not in
    /// Recently Deleted"); an identifier the library never had is still refused, naming it.
    @Test func aPathTakenDuringARestoreKeepsThatAssetAloneAndTheSameRestoreAgainBringsIt() throws {
        let (library, _) = try makeLibrary()
        let thirdPath = root + "/2024/IMG_0003.JPG"
        try photo.write(to: URL(fileURLWithPath: thirdPath))
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let assets = try [photoPath, otherPath, thirdPath].map { try #require(assetAt($0, in: library)) }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets as NSArray) }
        // The order the restore takes them in: the second of them is the one blocked.
        let order = try library.trashedAssets().map(\.localIdentifier)
        let ids = assets.map(\.localIdentifier)
        #expect(Set(order) == Set(ids))
        let paths = Dictionary(uniqueKeysWithValues: zip(ids, [photoPath, otherPath, thirdPath]))
        let blocked = try #require(paths[order[1]])
        let theirs = Data("another program's file, made after the check".utf8)
        let imports = library.importDirectory.standardizedFileURL.path
        FaultInjection.set(in: imports) { step in
            if step == .restoreJournaled {
                FileManager.default.createFile(atPath: blocked, contents: theirs)
            }
            return false
        }
        let first: PHPhotoLibrary.TrashRestore
        do {
            defer { FaultInjection.clear(in: imports) }
            first = try library.restoreFromTrash(ids)
        }
        #expect(first.restored.map(\.0) == [order[0], order[2]], "the others come back and are said to")
        #expect(first.restored.first?.1.contains(paths[order[0]] ?? "") == true)
        #expect(first.alreadyRestored.isEmpty)
        let failure = try #require(first.failures.first)
        #expect(first.failures.count == 1)
        #expect(failure.localIdentifier == order[1] && failure.path == blocked)
        #expect(failure.error.code == .accessRestricted && failure.error.localIdentifiers == [order[1]])
        #expect(
            failure.error.message.contains("cannot restore \(blocked) from ")
                && failure.error.message.contains("a file is already there"), "\(failure.error.message)")
        #expect(FileManager.default.contents(atPath: blocked) == theirs, "their file is untouched")
        #expect(try library.trashedAssets().map(\.localIdentifier) == [order[1]], "it alone stays deleted")
        #expect(try library.database.fileJournal().isEmpty, "each asset's journal is finished")
        for id in [order[0], order[2]] {
            #expect(assetAt(try #require(paths[id]), in: library)?.localIdentifier == id)
        }
        // The library's own wrapper throws it, once the others are back.
        #expect(throws: PHPhotosError.self) { try library.restoreTrashedAssets([order[1]]) }
        #expect(FileManager.default.contents(atPath: blocked) == theirs)

        // An identifier the library never had: refused before anything moves, named.
        let unknown = "00000000-0000-0000-0000-000000000000/L0/001"
        let refused = #expect(throws: PHPhotosError.self) { try library.restoreFromTrash(ids + [unknown]) }
        #expect(refused?.code == .identifierNotFound && refused?.localIdentifiers == [unknown])
        #expect(refused?.message.contains(unknown) == true)

        try FileManager.default.removeItem(atPath: blocked)
        let dry = try library.restoreFromTrash(ids, dryRun: true)
        #expect(dry.restored.map(\.0) == [order[1]] && Set(dry.alreadyRestored) == [order[0], order[2]])
        #expect(!exists(blocked), "a dry run moves nothing")
        let again = try library.restoreFromTrash(ids)
        #expect(again.restored.map(\.0) == [order[1]] && again.failures.isEmpty)
        #expect(Set(again.alreadyRestored) == [order[0], order[2]], "the first restore's, said restored already")
        #expect(assetAt(blocked, in: library)?.localIdentifier == order[1])
        #expect(try library.trashedAssets().isEmpty)
        #expect(trashContents().files.isEmpty && trashContents().info.isEmpty)
    }

    /// The photo was moved away by another program (not yet seen) when its asset was deleted: only
    /// its sidecar went to the Trash. Restoring it is refused as missing, never an asset without its
    /// file; once the photo is back at its path, the asset comes back with it.
    @Test func anAssetWhosePhotoWasGoneWhenDeletedComesBackOnlyWithIt() throws {
        let (library, identifier) = try makeLibrary()
        let photo = try #require(assetAt(photoPath, in: library))
        let away = root + "/2024/IMG_0001-renamed.JPG"
        #expect(rename(photoPath, away) == 0)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([photo] as NSArray) }
        #expect(trashContents().files == ["IMG_0001.JPG.xmp"])

        let refused = #expect(throws: PHPhotosError.self) { try library.restoreTrashedAssets([identifier]) }
        #expect(refused?.code == .missingResource && refused?.localIdentifiers == [identifier])
        #expect(refused?.message.contains(photoPath) == true, "\(String(describing: refused?.message))")
        #expect(trashContents().files == ["IMG_0001.JPG.xmp"] && !exists(sidecarPath))
        #expect(try library.trashedAssets().map(\.localIdentifier) == [identifier])

        // Another photo saved under its name is not it.
        try Data(self.photo.reversed()).write(to: URL(fileURLWithPath: photoPath))
        let another = #expect(throws: PHPhotosError.self) { try library.restoreTrashedAssets([identifier]) }
        #expect(another?.code == .missingResource, "\(String(describing: another?.message))")
        #expect(try library.trashedAssets().map(\.localIdentifier) == [identifier] && !exists(sidecarPath))
        try FileManager.default.removeItem(atPath: photoPath)

        #expect(rename(away, photoPath) == 0)
        try library.restoreTrashedAssets([identifier])
        #expect(assetAt(photoPath, in: library)?.localIdentifier == identifier && exists(sidecarPath))
        #expect(try library.trashedAssets().isEmpty)
    }

    /// Another program saved over the photo since the scan (a new file renamed over it): deleting
    /// the asset fails naming the file, which stays where it is with the asset; once a scan has
    /// read it, it goes to the Trash.
    @Test func aFileSavedOverThePhotoSinceItsScanIsNotTrashedUntilReadAgain() throws {
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        let saved = photo + Data("saved again".utf8)
        try saved.write(to: URL(fileURLWithPath: photoPath + ".part"))
        #expect(rename(photoPath + ".part", photoPath) == 0)

        let refused = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        }
        #expect(refused?.code == .invalidResource)
        #expect(
            refused?.message.contains("\(photoPath) is not the file the library read there") == true,
            "\(String(describing: refused?.message))")
        #expect(FileManager.default.contents(atPath: photoPath) == saved && exists(sidecarPath))
        #expect(trashContents().files.isEmpty && trashContents().info.isEmpty)
        #expect(assetAt(photoPath, in: library)?.localIdentifier == identifier)
        #expect(try library.trashedAssets().isEmpty && library.database.fileJournal().isEmpty)

        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let read = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([read] as NSArray) }
        #expect(trashContents().files.contains("IMG_0001.JPG") && !exists(photoPath))
    }

    @Test func deletingUnderARootThatMayNotWriteFilesFailsAndKeepsEverything() throws {
        let (library, identifier) = try makeLibrary(write: .sidecars)
        let asset = try #require(assetAt(photoPath, in: library))
        #expect(!asset.canPerform(.delete))
        let refused = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        }
        #expect(refused?.code == .accessRestricted)
        #expect(
            refused?.message.contains(
                "cannot delete IMG_0001.JPG: \(photoPath) is under \(root), whose write policy is \"sidecars\"")
                == true,
            "\(String(describing: refused?.message))")
        #expect(exists(photoPath) && exists(sidecarPath))
        #expect(assetAt(photoPath, in: library)?.localIdentifier == identifier)
        #expect(try library.trashedAssets().isEmpty && trashContents().files.isEmpty)
    }

    @Test func aFileRestoredByTrashCLIBringsTheSameAssetBackAtTheNextScan() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/trash-restore"), "needs trash-cli")
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        try #require(!exists(photoPath))

        let environment = ["XDG_DATA_HOME": dataHome, "HOME": directory.url.path, "PATH": "/usr/bin:/bin"]
        let status = try await offPool {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/trash-restore")
            process.arguments = [photoPath]
            process.environment = environment
            process.currentDirectoryURL = URL(fileURLWithPath: root)
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // trash-restore lists the entries trashed from that very path (the photo) and asks which.
            input.fileHandleForWriting.write(Data("0\n".utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
        #expect(exists(photoPath))

        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(report.restored == 1 && report.ingested == 0, "\(report)")
        let back = try #require(assetAt(photoPath, in: library))
        #expect(back.localIdentifier == identifier)
        #expect(back.isFavorite)
        #expect(
            PHAsset.fetchAssets(in: try album(library), options: options(library)).map(\.localIdentifier) == [
                identifier
            ])
        #expect(try library.trashedAssets().isEmpty)
    }

    @Test func aLivePhotosMovieRestoredAloneByAnotherToolWaitsForItsStill() throws {
        try FileManager.default.createDirectory(atPath: root + "/2024", withIntermediateDirectories: true)
        for name in ["IMG_5195.HEIC", "IMG_5195.MOV"] {
            try FileManager.default.copyItem(
                at: try #require(Corpus.file("Phone/DCIM/100APPLE/" + name)),
                to: URL(fileURLWithPath: root + "/2024/" + name))
        }
        let library = try open()
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let still = root + "/2024/IMG_5195.HEIC"
        let movie = root + "/2024/IMG_5195.MOV"
        let live = try #require(assetAt(still, in: library))
        #expect(live.mediaSubtypes.contains(.photoLive))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([live] as NSArray) }
        #expect(!exists(still) && !exists(movie))

        // Another tool (trash-cli's trash-restore) brings back the movie alone.
        #expect(rename(homeTrash + "/files/IMG_5195.MOV", movie) == 0)
        try FileManager.default.removeItem(atPath: homeTrash + "/info/IMG_5195.MOV.trashinfo")
        var report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(report.restored == 0 && report.ingested == 0, "\(report)")
        #expect(try library.trashedAssets().map(\.localIdentifier) == [live.localIdentifier], "still deleted")
        #expect(assetAt(movie, in: library) == nil, "neither a new video nor a Live Photo without its still")

        // `photos trash restore` brings the rest: the same Live Photo.
        try library.restoreTrashedAssets([live.localIdentifier])
        let back = try #require(assetAt(still, in: library))
        #expect(back.localIdentifier == live.localIdentifier && back.mediaSubtypes.contains(.photoLive))
        #expect(exists(still) && exists(movie) && trashContents().files.isEmpty && trashContents().info.isEmpty)
        report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == 0 && report.restored == 0 && report.removed == 0, "\(report)")
    }

    @Test func emptyingTheTrashKeepsAnAssetWhosePhotoAStoppedRestoreBroughtBack() throws {
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        // A restore stopped after moving the photo back, before its sidecar and its commit.
        let trashed = try #require(try library.trashedAssets().first)
        let photoFile = try #require(trashed.files.first { $0.path == photoPath })
        let trashName = try #require(photoFile.trashName)
        #expect(rename(homeTrash + "/files/" + trashName, photoPath) == 0)
        try FileManager.default.removeItem(atPath: homeTrash + "/info/" + trashName + ".trashinfo")

        let erased = try library.eraseTrashedAssets(try library.trashedAssets())
        #expect(erased.isEmpty, "\(erased)")
        #expect(try library.trashedAssets().map(\.localIdentifier) == [identifier], "still in Recently Deleted")
        #expect(exists(photoPath))
        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(report.restored == 1 && report.ingested == 0, "\(report)")
        let back = try #require(assetAt(photoPath, in: library))
        #expect(back.localIdentifier == identifier && back.isFavorite, "the same asset, its state kept")
    }

    /// Where a deletion can stop: the commit (the journal written, nothing moved), then, the two
    /// files going to the Trash as one batch, each one's `.trashinfo` written, each file moved, and
    /// where they went recorded (one transaction for the batch).
    static let stops: [(FaultInjection.Step, Int)] = [
        (.committed, 1), (.trashInfoWritten, 1), (.trashInfoWritten, 2), (.trashed, 1), (.trashed, 2),
        (.trashRecorded, 1),
    ]

    @Test(arguments: 0..<stops.count)
    func aDeletionKilledAtAnyStepIsFinishedAtTheNextOpenWithNothingLostOrDuplicated(stop: Int) throws {
        let (step, occurrence) = Self.stops[stop]
        let identifier: String
        do {
            let (library, id) = try makeLibrary()
            identifier = id
            let asset = try #require(assetAt(photoPath, in: library))
            let imports = library.importDirectory.standardizedFileURL.path
            let seen = Mutex(0)
            FaultInjection.set(in: imports) { reached in
                guard reached == step else { return false }
                return seen.withLock { count in
                    count += 1
                    return count == occurrence
                }
            }
            defer { FaultInjection.clear(in: imports) }
            let interrupted = #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
            }
            #expect(interrupted?.code == .operationInterrupted, "\(step) \(occurrence)")
            // Committed: the asset is deleted whatever the disk says yet.
            #expect(assetAt(photoPath, in: library) == nil)
            // Every file is somewhere: at its path or in the trash, once.
            for name in ["IMG_0001.JPG", "IMG_0001.JPG.xmp"] {
                let places = [root + "/2024/" + name, homeTrash + "/files/" + name].filter(exists)
                #expect(places.count == 1, "\(name) after a stop at \(step) \(occurrence): \(places)")
            }
            if step == .committed {
                // A scan before the next open does not take the file still to trash for a new photo.
                let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
                #expect(report.ingested == 0, "\(report)")
            }
        }
        let reopened = try open()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(!exists(photoPath) && !exists(sidecarPath))
        let trash = trashContents()
        #expect(trash.files == ["IMG_0001.JPG", "IMG_0001.JPG.xmp"], "each file in the trash once")
        #expect(trash.info == ["IMG_0001.JPG.trashinfo", "IMG_0001.JPG.xmp.trashinfo"], "no stale .trashinfo")
        let trashed = try reopened.trashedAssets()
        #expect(trashed.map(\.localIdentifier) == [identifier])
        #expect(trashed.first?.files.allSatisfy { $0.trashName != nil } == true, "where each file went is known")
        // The library equals the disk.
        let report = try FolderScanner(database: reopened.database, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == 0 && report.restored == 0)
        #expect(PHAsset.fetchAssets(with: options(reopened)).count == 1)

        try reopened.restoreTrashedAssets([identifier])
        #expect(assetAt(photoPath, in: reopened)?.localIdentifier == identifier)
        #expect(exists(sidecarPath))
        #expect(trashContents().files.isEmpty && trashContents().info.isEmpty)
    }

    /// Where a restore can stop: its files journaled (nothing moved), the photo back (its
    /// `.trashinfo` still there), the sidecar back too, the asset back in the library (the journal
    /// not yet cleared); and the photo back with a scan before the next open (photosd running).
    static let restoreStops: [(step: FaultInjection.Step, time: Int, scanFirst: Bool)] = [
        (.restoreJournaled, 1, false), (.untrashed, 1, false), (.untrashed, 2, false), (.restoreCommitted, 1, false),
        (.untrashed, 1, true),
    ]

    @Test(arguments: 0..<restoreStops.count)
    func aRestoreKilledAtAnyStepIsFinishedAtTheNextOpen(stop: Int) throws {
        let (step, time, scanFirst) = Self.restoreStops[stop]
        let identifier: String
        do {
            let (library, id) = try makeLibrary()
            identifier = id
            let asset = try #require(assetAt(photoPath, in: library))
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
            let imports = library.importDirectory.standardizedFileURL.path
            FaultInjection.stop(at: step, time: time, in: imports)
            defer { FaultInjection.clear(in: imports) }
            let interrupted = #expect(throws: PHPhotosError.self) { try library.restoreTrashedAssets([identifier]) }
            #expect(interrupted?.code == .operationInterrupted, "\(step) \(time)")
            #expect(try !library.database.fileJournal().isEmpty, "the restore is journaled")
            // Every file is somewhere: at its path or in the trash, once.
            for name in ["IMG_0001.JPG", "IMG_0001.JPG.xmp"] {
                let places = [root + "/2024/" + name, homeTrash + "/files/" + name].filter(exists)
                #expect(places.count == 1, "\(name) after a stop at \(step) \(time): \(places)")
            }
            if scanFirst {
                let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
                #expect(report.restored == 1 && report.ingested == 0, "\(report)")
            }
        }
        let reopened = try open()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(exists(photoPath) && exists(sidecarPath), "every file back at its path")
        let trash = trashContents()
        #expect(trash.files.isEmpty && trash.info.isEmpty, "nothing left in the trash: \(trash)")
        #expect(try reopened.trashedAssets().isEmpty)
        let back = try #require(assetAt(photoPath, in: reopened))
        #expect(back.localIdentifier == identifier && back.isFavorite, "the same asset, its state kept")
        #expect(
            PHAsset.fetchAssets(in: try album(reopened), options: options(reopened)).map(\.localIdentifier) == [
                identifier
            ])
        // The library equals the disk.
        let report = try FolderScanner(database: reopened.database, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == 0 && report.restored == 0 && report.removed == 0, "\(report)")
        #expect(PHAsset.fetchAssets(with: options(reopened)).count == 2)
    }

    /// Where a deletion of four assets (five files, one batch) is stopped: halfway through the
    /// `.trashinfo` files, after the last of them (before any move), halfway through the moves, after
    /// the last move (before the records), after the records (before the journal is cleared).
    static let batchStops: [(FaultInjection.Step, Int)] = [
        (.trashInfoWritten, 3), (.trashInfoWritten, 5), (.trashed, 2), (.trashed, 5), (.trashRecorded, 1),
    ]

    @Test(arguments: 0..<batchStops.count)
    func aBatchDeletionKilledHalfwayIsFinishedAtTheNextOpenWithNothingLostOrDuplicated(stop: Int) throws {
        let (step, occurrence) = Self.batchStops[stop]
        let more = [root + "/2024/IMG_0003.JPG", root + "/2025/IMG_0004.JPG"]
        for folder in ["/2024", "/2025"] {
            try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
        for path in more { try photo.write(to: URL(fileURLWithPath: path)) }
        let paths = [photoPath, sidecarPath, otherPath] + more
        let names = paths.map { ($0 as NSString).lastPathComponent }.sorted()
        let identifiers: [String]
        do {
            let (library, _) = try makeLibrary()
            let assets = PHAsset.fetchAssets(with: options(library)).map { $0 }
            #expect(assets.count == 4)
            identifiers = assets.map(\.localIdentifier).sorted()
            let imports = library.importDirectory.standardizedFileURL.path
            let seen = Mutex(0)
            FaultInjection.set(in: imports) { reached in
                guard reached == step else { return false }
                return seen.withLock { count in
                    count += 1
                    return count == occurrence
                }
            }
            defer { FaultInjection.clear(in: imports) }
            let interrupted = #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets as NSArray) }
            }
            #expect(interrupted?.code == .operationInterrupted, "\(step) \(occurrence)")
            #expect(PHAsset.fetchAssets(with: options(library)).count == 0, "committed")
            // Halfway: every file is somewhere, at its path or in the trash, once; a moved one has its
            // .trashinfo.
            var moved = 0
            for path in paths {
                let name = (path as NSString).lastPathComponent
                let inTrash = exists(homeTrash + "/files/" + name)
                #expect(exists(path) != inTrash, "\(name) after a stop at \(step) \(occurrence)")
                if inTrash {
                    moved += 1
                    #expect(exists(homeTrash + "/info/" + name + ".trashinfo"), "\(name) has its .trashinfo")
                }
            }
            #expect(moved == (step == .trashInfoWritten ? 0 : step == .trashed ? occurrence : paths.count))
        }
        let reopened = try open()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(paths.allSatisfy { !exists($0) })
        let trash = trashContents()
        #expect(trash.files == names, "each file in the trash once")
        #expect(trash.info == names.map { $0 + ".trashinfo" }, "no stale .trashinfo")
        let trashed = try reopened.trashedAssets()
        #expect(trashed.map(\.localIdentifier).sorted() == identifiers)
        #expect(trashed.flatMap(\.files).count == paths.count)
        #expect(trashed.allSatisfy { $0.files.allSatisfy { $0.trashName != nil } }, "where each file went is known")
        // The library equals the disk.
        let report = try FolderScanner(database: reopened.database, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == 0 && report.restored == 0, "\(report)")
        #expect(PHAsset.fetchAssets(with: options(reopened)).count == 0)

        try reopened.restoreTrashedAssets(identifiers)
        #expect(paths.allSatisfy(exists))
        #expect(PHAsset.fetchAssets(with: options(reopened)).count == 4)
        #expect(trashContents().files.isEmpty && trashContents().info.isEmpty)
    }

    @Test func assetsPastTheirDaysAreErasedWithTheirFilesInTheTrash() throws {
        let (library, identifier) = try makeLibrary()
        let asset = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        #expect(try open(trashDays: 30).trashedAssets().map(\.localIdentifier) == [identifier], "within its days")
        #expect(trashContents().files.count == 2)

        let reopened = try open(trashDays: 0)
        #expect(try reopened.trashedAssets().isEmpty)
        #expect(trashContents().files.isEmpty && trashContents().info.isEmpty)
        #expect(!exists(photoPath) && exists(otherPath))
        #expect(PHAsset.fetchAssets(with: options(reopened)).count == 1)
    }

    @Test func anAssetTheLibraryPlacedIsStillRemovedWithoutTheTrash() throws {
        let library = try open()
        let source = directory.path("Desktop/import.jpg")
        try FileManager.default.createDirectory(
            at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try photo.write(to: source)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: nil)
        }
        let asset = try #require(PHAsset.fetchAssets(with: options(library)).firstObject)
        #expect(asset.canPerform(.delete))
        let copy = try #require(PHAssetResource.assetResources(for: asset).first?.fileURL.path)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        #expect(!exists(copy) && exists(source.path))
        #expect(try library.trashedAssets().isEmpty && trashContents().files.isEmpty)
    }
}

/// The Trash rules on a second file system: a file on a mount of its own goes to that mount's
/// `.Trash-$uid`, never copied to the home trash; where no trash can be had, nothing is deleted.
@Suite(.serialized, .enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs the corpus, root and tmpfs"))
struct RecentlyDeletedMountTests {
    func configuration(_ disk: SmallFileSystem, _ directory: TemporaryDirectory) -> PHPhotoLibrary.Configuration {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: disk.url.path, write: .files)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        return configuration
    }

    func setUp(_ disk: SmallFileSystem, _ directory: TemporaryDirectory) throws -> (PHPhotoLibrary, PHAsset, String) {
        let photo = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        let path = disk.url.path + "/Camera/IMG_0100.JPG"
        try FileManager.default.createDirectory(atPath: disk.url.path + "/Camera", withIntermediateDirectories: true)
        try photo.write(to: URL(fileURLWithPath: path))
        let library = try PHPhotoLibrary(
            url: directory.path("library.sqlite"), configuration: configuration(disk, directory))
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [disk.url.path])
        let options = PHFetchOptions()
        options.photoLibrary = library
        return (library, try #require(PHAsset.fetchAssets(with: options).firstObject), path)
    }

    @Test func aPhotoOnAnotherMountGoesToThatMountsTrash() throws {
        let disk = try SmallFileSystem(megabytes: 4)
        let directory = try TemporaryDirectory(prefix: "recently-deleted-mount")
        let (library, asset, path) = try setUp(disk, directory)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        let trash = disk.url.path + "/.Trash-\(getuid())"
        #expect(FileManager.default.fileExists(atPath: trash + "/files/IMG_0100.JPG"))
        let info = try String(contentsOfFile: trash + "/info/IMG_0100.JPG.trashinfo", encoding: .utf8)
        #expect(info.contains("Path=Camera/IMG_0100.JPG"), "relative to the mount's top, as the spec says")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: directory.path("data/Trash/files/IMG_0100.JPG").path))
        try library.restoreTrashedAssets([asset.localIdentifier])
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func withNoTrashOnItsMountTheDeletionFailsNamingTheFile() throws {
        let disk = try SmallFileSystem(megabytes: 4)
        let directory = try TemporaryDirectory(prefix: "recently-deleted-mount")
        let (library, asset, path) = try setUp(disk, directory)
        // A file where the mount's trash would be: `.Trash-$uid` cannot be made, and `.Trash` is missing.
        try Data("not a directory".utf8).write(to: disk.url.appendingPathComponent(".Trash-\(getuid())"))
        let refused = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        }
        #expect(refused?.code == .accessRestricted)
        #expect(
            refused?.message.contains("cannot delete IMG_0100.JPG: \(path) has no Trash on its file system") == true)
        #expect(FileManager.default.fileExists(atPath: path))
        let options = PHFetchOptions()
        options.photoLibrary = library
        #expect(PHAsset.fetchAssets(with: options).count == 1)
        #expect(try library.trashedAssets().isEmpty)
    }

    @Test func aTrashMadeUnusableAfterTheCommitKeepsTheFileAndTheLibraryStillOpens() throws {
        let disk = try SmallFileSystem(megabytes: 4)
        let directory = try TemporaryDirectory(prefix: "recently-deleted-mount")
        let identifier: String
        let path: String
        do {
            let (library, asset, photo) = try setUp(disk, directory)
            (identifier, path) = (asset.localIdentifier, photo)
            let imports = library.importDirectory.standardizedFileURL.path
            FaultInjection.set(in: imports) { $0 == .committed }
            defer { FaultInjection.clear(in: imports) }
            #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
            }
        }
        // Before the next open, the mount's trash becomes a plain file: the photo can go nowhere now.
        let trash = disk.url.path + "/.Trash-\(getuid())"
        try FileManager.default.removeItem(atPath: trash)
        try Data("not a trash".utf8).write(to: URL(fileURLWithPath: trash))
        let reopen = {
            try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration(disk, directory))
        }
        let reopened = try reopen()
        #expect(FileManager.default.fileExists(atPath: path), "nothing moved, nothing lost")
        #expect(try reopened.trashedAssets().first?.files.allSatisfy { $0.trashName == nil } == true)
        #expect(try !reopened.database.fileJournal().isEmpty, "tried again at the next open")

        try reopened.restoreTrashedAssets([identifier])
        let options = PHFetchOptions()
        options.photoLibrary = reopened
        #expect(PHAsset.fetchAssets(with: options).firstObject?.localIdentifier == identifier)
        #expect(try reopen().database.fileJournal().isEmpty, "a restored asset's entries have nothing left to do")
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
