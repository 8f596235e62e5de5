import Foundation
import Logging
import PhotosDaemon
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// photosd erases what has been in Recently Deleted longer than `trash_days`, and finishes the file
/// work another process left when it stopped halfway, while it runs, not only when it starts:
/// ``PacedService`` paces both (every hour and every half minute in photosd; every few milliseconds
/// here).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PacedServiceTests {
    /// A library whose root allows `files`, with one photo deleted into a Trash of the test's own.
    func deletedPhoto(trashDays: Int, in directory: TemporaryDirectory, stoppedAt: FaultInjection.Step? = nil) throws
        -> (PHPhotoLibrary, trashed: String)
    {
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let sample = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        try FileManager.default.copyItem(atPath: sample.path, toPath: root + "/IMG_0001.JPG")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: root, write: .files)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        configuration.trashDays = trashDays
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let options = PHFetchOptions()
        options.photoLibrary = library
        let asset = try #require(PHAsset.fetchAssets(with: options).firstObject)
        let trashed = directory.path("data/Trash/files/IMG_0001.JPG").path
        if let stoppedAt {
            // The deletion committed, its files still to move: as a process killed there leaves it.
            let imports = library.importDirectory.standardizedFileURL.path
            FaultInjection.stop(at: stoppedAt, time: 1, in: imports)
            defer { FaultInjection.clear(in: imports) }
            #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
            }
            try #require(!FileManager.default.fileExists(atPath: trashed))
            return (library, trashed)
        }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        try #require(FileManager.default.fileExists(atPath: trashed))
        try #require(try library.trashedAssets().count == 1)
        return (library, trashed)
    }

    @Test func anAssetPastItsDaysIsErasedWhileTheServiceRuns() async throws {
        let directory = try TemporaryDirectory(prefix: "trash-expiry")
        // No day at all: past its days as soon as it is deleted, yet kept until the service's round.
        let (library, trashed) = try deletedPhoto(trashDays: 0, in: directory)
        let rounds = Atomic(0)
        let service = PacedService.trashExpiry(interval: .milliseconds(20), logger: Logger(label: "test")) {
            rounds.add(1, ordering: .relaxed)
            return library.eraseExpiredTrash()
        }
        try await withGroup([service]) {
            try await waitUntil("the expired asset erased") { try library.trashedAssets().isEmpty }
        }
        #expect(rounds.load(ordering: .relaxed) >= 1)
        #expect(!FileManager.default.fileExists(atPath: trashed), "its file is erased from the Trash")
        #expect(!FileManager.default.fileExists(atPath: directory.path("data/Trash/info/IMG_0001.JPG.trashinfo").path))
    }

    @Test func anAssetWithinItsDaysStaysWhateverTheRounds() async throws {
        let directory = try TemporaryDirectory(prefix: "trash-expiry")
        let (library, trashed) = try deletedPhoto(trashDays: 30, in: directory)
        let rounds = Atomic(0)
        let service = PacedService.trashExpiry(interval: .milliseconds(10), logger: Logger(label: "test")) {
            rounds.add(1, ordering: .relaxed)
            return library.eraseExpiredTrash()
        }
        try await withGroup([service]) {
            try await waitUntil("three rounds") { rounds.load(ordering: .relaxed) >= 3 }
        }
        #expect(try library.trashedAssets().count == 1)
        #expect(FileManager.default.fileExists(atPath: trashed))
        // The same library 31 days later: the round erases it.
        #expect(library.eraseExpiredTrash(now: Date().addingTimeInterval(31 * 86_400)) == 1)
        #expect(try library.trashedAssets().isEmpty && !FileManager.default.fileExists(atPath: trashed))
    }

    /// A photo the user took out of the Trash by hand (moved elsewhere, not restored): at its
    /// expiry the asset is forgotten, and the library's `.trashinfo`, which describes nothing now,
    /// goes with it; the photo where the user put it is untouched.
    @Test func anExpiredAssetWhosePhotoWasTakenOutOfTheTrashLeavesNoTrashInfo() throws {
        let directory = try TemporaryDirectory(prefix: "trash-expiry")
        let (library, trashed) = try deletedPhoto(trashDays: 30, in: directory)
        let kept = directory.path("kept.jpg").path
        #expect(rename(trashed, kept) == 0)
        let info = directory.path("data/Trash/info/IMG_0001.JPG.trashinfo").path
        #expect(FileManager.default.fileExists(atPath: info))

        #expect(library.eraseExpiredTrash(now: Date().addingTimeInterval(31 * 86_400)) == 1)
        #expect(try library.trashedAssets().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: info), "no .trashinfo describing nothing")
        #expect(FileManager.default.fileExists(atPath: kept), "the photo where the user put it")
    }

    /// A photo put back at its path by hand keeps its asset past its days, for the scan to bring
    /// back: the round erases nothing and says so.
    @Test func anExpiredAssetWhosePhotoIsBackIsKeptAndNotCounted() throws {
        let directory = try TemporaryDirectory(prefix: "trash-expiry")
        let (library, trashed) = try deletedPhoto(trashDays: 30, in: directory)
        #expect(rename(trashed, directory.path("Pictures/IMG_0001.JPG").path) == 0)

        #expect(library.eraseExpiredTrash(now: Date().addingTimeInterval(31 * 86_400)) == 0)
        #expect(try library.trashedAssets().count == 1)
        #expect(FileManager.default.fileExists(atPath: directory.path("Pictures/IMG_0001.JPG").path))
    }

    @Test func theServiceStopsAtOnceWhenTheDaemonShutsDown() async throws {
        let rounds = Atomic(0)
        let service = PacedService.trashExpiry(logger: Logger(label: "test")) {
            rounds.add(1, ordering: .relaxed)
            return 0
        }
        let started = ContinuousClock.now
        // An hour's wait is cut short by the graceful shutdown. The bound tells a cut wait from an
        // hour's; it is generous, as a full `swift test` on 2 cores was seen to hold this test 3 minutes.
        try await withGroup([service]) {}
        #expect(ContinuousClock.now - started < .seconds(1800))
        #expect(rounds.load(ordering: .relaxed) == 0, "the first round comes an interval after the start")
    }

    @Test func aDeletionAStoppedProcessLeftIsFinishedWhileTheServiceRuns() async throws {
        let directory = try TemporaryDirectory(prefix: "stopped-work")
        let (library, trashed) = try deletedPhoto(trashDays: 30, in: directory, stoppedAt: .committed)
        let photo = directory.path("Pictures/IMG_0001.JPG").path
        let rounds = Atomic(0)
        let service = PacedService.stoppedFileWork(interval: .milliseconds(10), logger: Logger(label: "test")) {
            rounds.add(1, ordering: .relaxed)
            return library.finishOtherProcessesStoppedFileWork()
        }
        // This process's own entry is its to finish (a block may still be at work on it): left alone.
        try await withGroup([service]) {
            try await waitUntil("three rounds") { rounds.load(ordering: .relaxed) >= 3 }
        }
        #expect(FileManager.default.fileExists(atPath: photo) && !FileManager.default.fileExists(atPath: trashed))
        #expect(try !library.database.fileJournal().isEmpty, "the deletion's work is still journaled")

        // The entries as another process, since gone, would have left them.
        let exited = TestProcess()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let gone = Int64(exited.processIdentifier)
        for entry in try library.database.fileJournal() {
            _ = try library.database.claimJournalEntry(try #require(entry.id), owner: gone) { _ in true }
        }
        try await withGroup([service]) {
            try await waitUntil("the stopped deletion finished") { try library.database.fileJournal().isEmpty }
        }
        #expect(!FileManager.default.fileExists(atPath: photo), "the photo left its folder")
        #expect(FileManager.default.fileExists(atPath: trashed), "for the Trash")
        #expect(try library.trashedAssets().first?.files.allSatisfy { $0.trashName != nil } == true)
    }
}
