import Dispatch
import Foundation
import GRDB
import Photos
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

/// Counts `photoLibraryDidBecomeUnavailable` calls and lets a test wait for the first.
final class AvailabilityRecorder: PHPhotoLibraryAvailabilityObserver {
    let calls = Mutex<[String]>([])
    private let told = DispatchSemaphore(value: 0)

    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary) {
        calls.withLock { $0.append("\(photoLibrary.unavailabilityReason.map { "\($0)" } ?? "no reason")") }
        told.signal()
    }

    /// Waits for a call (a bound, not a timing goal: the call is queued right after the failure).
    func waitForCall() -> Bool { told.wait(timeout: .now() + 10) == .success }
}

/// A library that is damaged, locked, unreadable, full or newer never looks empty or half-written:
/// fetches say why they are empty, change blocks and opening throw PhotoKit's codes.
@Suite struct UnavailableLibraryTests {
    let fixture: LibraryFixture

    init() throws {
        fixture = try LibraryFixture()
    }

    func options(_ library: PHPhotoLibrary) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    @Test func damagedPagesGiveAnEmptyFetchWithAReasonAndTellObservers() throws {
        let path = fixture.directory.path("damaged.sqlite").path
        try DamagedLibrary.copyWithDamagedAssets(of: fixture.library.database, to: path)
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        let recorder = AvailabilityRecorder()
        library.register(recorder)
        #expect(library.unavailabilityReason == nil)

        let assets = PHAsset.fetchAssets(with: options(library))

        #expect(assets.count == 0)
        let reason = try #require(library.unavailabilityReason as? PHPhotosError)
        #expect(reason.code == .invalidResource)
        let sqlite = try #require(reason.underlyingError as? NSError)
        #expect(sqlite.domain == PHPhotosError.sqliteErrorDomain && sqlite.code == 11)  // SQLITE_CORRUPT
        #expect(reason.filePath == path)
        #expect(recorder.waitForCall())
        #expect(recorder.calls.withLock { $0.first?.contains("3302") } == true)
        // One outage, one call: a second failing fetch does not tell again.
        _ = PHAsset.fetchAssets(with: options(library))
        // Albums keep their counts and dates apart from the assets (issue 15): they still answer,
        // with the counts they had, and an answer clears the reason.
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options(library))
        #expect(albums.count == 2)
        #expect(albums.map(\.estimatedAssetCount).sorted() == [1, 3])
        #expect(library.unavailabilityReason == nil)
        // Other tables that are intact answer too.
        let smart = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options(library))
        #expect(smart.count > 0)
        #expect(library.unavailabilityReason == nil)
        #expect(recorder.calls.withLock { $0.count } == 1)
    }

    @Test func aFileThatIsNoDatabaseIsRefusedWithTheCause() throws {
        let path = fixture.directory.path("garbage.sqlite").path
        try DamagedLibrary.writeGarbage(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
            Issue.record("a file of garbage opened as a library")
        } catch let error as PHPhotosError where error.code == .invalidResource {
            #expect((error.underlyingError as? NSError)?.code == 26)  // SQLITE_NOTADB
            #expect(error.filePath == path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is left as it was")
    }

    @Test func anOfflineRootIsReportedForItsAssets() throws {
        let recorder = AvailabilityRecorder()
        fixture.library.register(recorder)
        #expect(PHAsset.fetchAssets(with: options(fixture.library)).count == 10)
        #expect(fixture.library.unavailabilityReason == nil)
        // The fixture's files are under /fixture: that root's disk is unmounted.
        try fixture.library.database.write { transaction in try transaction.setRoot("/fixture", offline: true) }

        let assets = PHAsset.fetchAssets(with: options(fixture.library))

        #expect(assets.count == 10, "the offline root's assets are kept and fetched")
        #expect(assets.firstObject?.isAvailable == false)
        let reason = try #require(fixture.library.unavailabilityReason as? PHPhotosError)
        #expect(reason.code == .libraryVolumeOffline && reason.filePath == "/fixture")
        #expect(recorder.waitForCall())
        // Back online: the next asset fetch clears it.
        try fixture.library.database.write { transaction in try transaction.setRoot("/fixture", offline: false) }
        _ = PHAsset.fetchAssets(with: options(fixture.library))
        #expect(fixture.library.unavailabilityReason == nil)
        #expect(recorder.calls.withLock { $0.count } == 1)
    }

    @Test func aTruncatedLibraryIsDamagedNotEmpty() throws {
        let path = fixture.directory.path("truncated.sqlite").path
        try DamagedLibrary.copy(fixture.library.database, to: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        // Half the file: the schema on the first page names tables whose pages are gone.
        truncate(path, off_t(size / 2))
        // The schema check before opening reads pages that are gone: refused at once.
        #expect {
            _ = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        } throws: { error in
            guard let error = error as? PHPhotosError else { return false }
            return error.code == .invalidResource && (error.underlyingError as? NSError)?.code == 11  // SQLITE_CORRUPT
        }
    }

    @Test func aDirectoryInPlaceOfTheLibraryIsOffline() throws {
        // Root reads any file whatever its mode, so an unreadable file cannot be made here; a
        // directory where the file should be fails the same open.
        let path = fixture.directory.path("folder.sqlite")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        #expect {
            _ = try PHPhotoLibrary(url: path)
        } throws: { error in
            guard let error = error as? PHPhotosError else { return false }
            let sqlite = error.underlyingError as? NSError
            let posix = sqlite?.userInfo[NSUnderlyingErrorKey] as? NSError
            return error.code == .libraryVolumeOffline && sqlite?.domain == PHPhotosError.sqliteErrorDomain
                && posix?.domain == NSPOSIXErrorDomain && posix?.code == Int(EISDIR)
        }
    }

    @Test func aLibraryOfANewerBuildIsRefusedUntouched() throws {
        let path = fixture.directory.path("newer.sqlite").path
        try DamagedLibrary.copy(fixture.library.database, to: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        } throws: { error in
            guard let error = error as? PHPhotosError else { return false }
            return error.code == .changeNotSupported && error.message.contains("v99: from the future")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aHigherUserVersionIsANewerSchemaToo() throws {
        let path = fixture.directory.path("newer-version.sqlite").path
        try DamagedLibrary.copy(fixture.library.database, to: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "PRAGMA user_version = \(LibraryDatabase.schemaVersion + 1)")
        }
        do { _ = try PHPhotoLibrary(url: URL(fileURLWithPath: path)) } catch PHPhotosError.changeNotSupported {} catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aNewLibraryRecordsItsSchemaVersion() throws {
        let version = try fixture.library.database.sqliteRead { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        #expect(version == LibraryDatabase.schemaVersion)
    }

    @Test func aWriterHoldingTheLockPastTheTimeoutInterruptsAChangeBlock() throws {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.busyTimeout = 0.2
        let library = try PHPhotoLibrary(url: fixture.libraryURL, configuration: configuration)
        // Another connection (as another process would) takes the write lock and keeps it.
        let lock = try HeldWriteLock(path: fixture.libraryURL.path)
        defer { lock.release() }
        #expect {
            try library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Blocked")
            }
        } throws: { error in
            guard let error = error as? PHPhotosError else { return false }
            let sqlite = (error.underlyingError as? NSError)?.code
            return error.code == .operationInterrupted && sqlite.map { $0 & 0xFF } == 5  // SQLITE_BUSY
        }
        // Readers are not blocked by a writer (WAL): the library stays available.
        #expect(PHAsset.fetchAssets(with: options(library)).count == 10)
        #expect(library.unavailabilityReason == nil)
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs"))
    func aFullDiskFailsAChangeBlockWithNotEnoughSpace() throws {
        let disk = try SmallFileSystem(megabytes: 4)
        let library = try PHPhotoLibrary(url: disk.url.appendingPathComponent("library.sqlite"))
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Before")
        }
        try disk.fill()
        let title = String(repeating: "x", count: 2000)
        #expect {
            try library.performChangesAndWait {
                for index in 0..<3000 {
                    _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "\(index) \(title)")
                }
            }
        } throws: { error in
            guard let error = error as? PHPhotosError else { return false }
            let sqlite = (error.underlyingError as? NSError)?.code
            return error.code == .notEnoughSpace && sqlite.map { $0 & 0xFF } == 13  // SQLITE_FULL
        }
        // Nothing of the failed block is there, and what was committed before is.
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options(library))
        #expect(albums.map(\.localizedTitle) == ["Before"])
        try disk.free()
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "After")
        }
    }
}
