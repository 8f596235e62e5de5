import Foundation
import PhotosLinux
import PhotosStore
import PhotosTestSupport
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
            let mine = directory.path("Mine").path
            for path in [root, mine] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            }
            let here = LibraryDatabase.thisHost()
            let otherName = here == "nas" ? "nas2" : "nas"
            let nas = try LibraryDatabase(postgreSQL: url, host: otherName)
            _ = try nas.write { try $0.setRoot(root, offline: false) }

            // A program here whose configuration names the NAS's root (the same path exists here).
            var configuration = PHPhotoLibrary.Configuration()
            configuration.importDirectory = directory.path("Imports")
            configuration.thumbnailCacheDirectory = nil
            configuration.roots = [LibraryRoot(path: root, write: .files), LibraryRoot(path: mine, write: .files)]
            let library = try PHPhotoLibrary(location: url, creating: false, configuration: configuration)
            #expect(library.writePolicy(at: root + "/IMG_1.JPG") == .none)
            #expect(!library.mayWrite(.files, at: root + "/IMG_1.JPG"))
            #expect(throws: PHPhotosError.self) {
                try library.requireWrite(.files, at: root + "/IMG_1.JPG", for: "delete IMG_1.JPG")
            }
            do {
                try library.requireWrite(.files, at: root, for: "rename Pictures")
                Issue.record("another host's root was writable here")
            } catch let error as PHPhotosError {
                #expect(error.code == .accessRestricted)
                #expect("\(error)".contains("host \(otherName)'s disk"), "\(error)")
            }
            // This host's own root is its to write.
            #expect(library.writePolicy(at: mine + "/IMG_2.JPG") == .files)
            #expect(library.mayWrite(.files, at: mine + "/IMG_2.JPG"))
        }
    }
}
