import Foundation
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import Photos

/// The file journal of a library several hosts share: an entry names paths on the disk of the host
/// that journaled it, so no other host reads, takes over or carries it out, even where the same
/// path holds the same file identity and the entry's process id is dead there.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLFileJournalTests {
    @Test func anotherHostsFileWorkIsNeverDoneHere() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            let directory = try TemporaryDirectory(prefix: "journal-hosts")
            let imports = directory.path("Imports").path
            try FileManager.default.createDirectory(atPath: imports, withIntermediateDirectories: true)
            // A file this host placed, at a path where the NAS's import folder has one too.
            let photo = imports + "/IMG_0001.JPG"
            try Data("this host's photo".utf8).write(to: URL(fileURLWithPath: photo))
            let identity = try #require(try FileOperations.identity(photo))

            let here = LibraryDatabase.thisHost()
            let otherName = here == "nas" ? "nas2" : "nas"
            let nas = try LibraryDatabase(postgreSQL: url, host: otherName)
            // The NAS owes two pieces of work there: a removal any of its processes may do, and a
            // placement by a process that has stopped (no process has that id here either).
            _ = try nas.write { transaction in
                _ = try transaction.journal(
                    FileJournalEntry(
                        operation: .remove, destination: photo, device: identity.device, inode: identity.inode,
                        owner: FileJournalEntry.anyOwner))
                _ = try transaction.journal(
                    FileJournalEntry(
                        operation: .place, destination: imports + "/IMG_0002.JPG", source: photo,
                        removeSource: true, device: identity.device, inode: identity.inode,
                        owner: Int64(Int32.max)))
            }
            #expect(try nas.fileJournal().count == 2)

            // This host opens the library: its recovery and its unowned work leave the NAS's alone.
            var configuration = PHPhotoLibrary.Configuration()
            configuration.importDirectory = URL(fileURLWithPath: imports, isDirectory: true)
            configuration.thumbnailCacheDirectory = nil
            let library = try PHPhotoLibrary(location: url, creating: false, configuration: configuration)
            #expect(library.database.host == here)
            #expect(try library.database.fileJournal().isEmpty, "another host's entries are not this host's")
            #expect(try library.fileJournal.finishUnowned() == 0)
            #expect(try library.fileJournal.recover() == 0)
            #expect(FileManager.default.fileExists(atPath: photo), "this host's file is left alone")
            #expect(try String(contentsOfFile: photo, encoding: .utf8) == "this host's photo")
            #expect(!FileManager.default.fileExists(atPath: imports + "/IMG_0002.JPG"))
            #expect(try nas.fileJournal().count == 2, "the NAS's work is still the NAS's to do")

            // This host's own entry is its to finish.
            let scratch = imports + "/scratch.tmp"
            try Data("placed by the library".utf8).write(to: URL(fileURLWithPath: scratch))
            let scratchIdentity = try #require(try FileOperations.identity(scratch))
            _ = try library.database.write { transaction in
                _ = try transaction.journal(
                    FileJournalEntry(
                        operation: .remove, destination: scratch, device: scratchIdentity.device,
                        inode: scratchIdentity.inode, owner: FileJournalEntry.anyOwner))
            }
            #expect(try library.fileJournal.finishUnowned() == 1)
            #expect(!FileManager.default.fileExists(atPath: scratch))
            #expect(FileManager.default.fileExists(atPath: photo))
            #expect(try nas.fileJournal().count == 2)
        }
    }

    @Test func aChangeToAnotherHostsFilesIsRefusedNamingTheHost() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            let directory = try TemporaryDirectory(prefix: "journal-roots")
            let root = directory.path("Pictures").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            // This host's photo, at the path where the NAS's root holds a photo of its own.
            let photo = root + "/IMG_1.JPG"
            try Data("this host's photo".utf8).write(to: URL(fileURLWithPath: photo))
            let here = LibraryDatabase.thisHost()
            let otherName = here == "nas" ? "nas2" : "nas"
            let nas = try LibraryDatabase(postgreSQL: url, host: otherName)
            _ = try nas.write { try $0.setRoot(root, offline: false) }
            let theirs = try PostgreSQLTestServer.insertPhoto(at: photo, in: nas)

            var configuration = PHPhotoLibrary.Configuration()
            configuration.importDirectory = directory.path("Imports")
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = [LibraryRoot(path: root, write: .files)]
            let library = try PHPhotoLibrary(location: url, creating: false, configuration: configuration)
            let options = PHFetchOptions()
            options.photoLibrary = library
            let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [theirs], options: options).firstObject)
            // What this host reads of the NAS's photo names the NAS, and no root here holds it.
            let resource = try #require(PHAssetResource.assetResources(for: asset).first)
            #expect(resource.host == otherName && resource.fileURL.relativePath == "\(otherName):\(photo)")
            // Its URL leads nowhere here: not to a file of that name under the current directory.
            #expect(!FileManager.default.fileExists(atPath: resource.fileURL.path))
            #expect(!resource.fileURL.path.hasPrefix(FileManager.default.currentDirectoryPath + "/"))
            #expect(AssetDescription(asset).resources.first?.path == "\(otherName):\(photo)", "as photosd names it")
            #expect(library.writePolicy(at: resource.fileURL.relativePath) == .none)
            do {
                try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
                Issue.record("another host's photo was deleted here")
            } catch let error as PHPhotosError {
                #expect(error.code == .accessRestricted)
                #expect("\(error)".contains("host \(otherName)'s disk"), "\(error)")
            }
            #expect(try nas.read { db in try db.scalarInt64("SELECT COUNT(*) FROM asset", []) } == 1)
            // Deleted on the NAS, the photo is in the NAS's Trash: listed here, named by its host, and
            // restored or erased only there.
            let trashedID = try #require(try nas.assetIDs(forLocalIdentifiers: [theirs])[theirs])
            try nas.write { transaction in
                try transaction.trashAssets(
                    [trashedID],
                    files: [
                        TrashedFile(
                            assetId: trashedID, path: photo, device: 1, inode: 2, trashDirectory: "/nas/.Trash-0",
                            trashKind: "top", trashTop: "/nas", trashName: "IMG_1.JPG")
                    ], date: 0)
            }
            let trashed = try library.trashedAssets()
            #expect(trashed.map(\.host) == [otherName] && trashed.first?.files.map(\.path) == ["\(otherName):\(photo)"])
            #expect(try library.trashedAssetsHere().isEmpty && library.expiredTrashedAssets().isEmpty)
            for attempt in ["restore", "erase"] {
                do {
                    if attempt == "restore" {
                        try library.restoreTrashedAssets([theirs])
                    } else {
                        try library.eraseTrashedAssets(trashed)
                    }
                    Issue.record("another host's trashed photo was handled here: \(attempt)")
                } catch let error as PHPhotosError {
                    #expect(
                        error.code == .accessRestricted && "\(error)".contains("host \(otherName)'s Trash"), "\(error)")
                }
            }
            #expect(try nas.trashedAssets().count == 1 && nas.trashedAssets(deletedBefore: 1).count == 1)
            // This host's file at the same path is untouched, and its root is its own to write.
            #expect(try String(contentsOfFile: photo, encoding: .utf8) == "this host's photo")
            #expect(library.writePolicy(at: photo) == .files)
            #expect(library.mayWrite(.files, at: photo))
        }
    }
}
