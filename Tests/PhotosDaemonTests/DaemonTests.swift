import Foundation
import Glibc
import Photos
import PhotosDaemon
import PhotosLinux
import PhotosTestSupport
import PhotosWire
import Synchronization
import Testing

/// The real `photosd` binary on real directories: changes on disk reach the library, identity
/// and user state survive, and stops (graceful or not) lose nothing.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DaemonTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-test") }

    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"
    static let other = "Camera/1997/Ricoh/RIMG0001.JPG"

    @Test func newFilesAndDeepDirectoriesAreIngested() throws {
        let daemon = try Daemon(test: self)
        try put(Self.photo, at: "a.jpg")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("x/y/z"), withIntermediateDirectories: true)
        try put(Self.other, at: "x/y/z/b.jpg")
        try daemon.wait("both files ingested") { $0.count == 2 }
        let b = try #require(try daemon.asset(at: "x/y/z/b.jpg"))
        #expect(b.pixelWidth == 640 && b.pixelHeight == 480)
        try daemon.stop()
    }

    @Test func renamedDirectoryKeepsItsAlbumAndFavorites() throws {
        try put(Self.photo, at: "Trip/a.jpg")
        let daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 1 }
        let asset = try #require(try daemon.asset(at: "Trip/a.jpg"))
        try daemon.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        let album = try #require(daemon.album(at: "Trip"))
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("Trip"), to: root.appendingPathComponent("Holiday"))
        try daemon.wait("the file follows the directory") { _ in try daemon.asset(at: "Holiday/a.jpg") != nil }
        let moved = try #require(try daemon.asset(at: "Holiday/a.jpg"))
        #expect(moved.localIdentifier == asset.localIdentifier && moved.isFavorite)
        let renamed = try #require(daemon.album(at: "Holiday"))
        #expect(renamed.localIdentifier == album.localIdentifier && renamed.localizedTitle == "Holiday")
        try daemon.stop()
    }

    @Test func filesMovedBetweenAlbumsKeepIdentityAndUserAlbums() throws {
        try put(Self.photo, at: "A/one.jpg")
        try put(Self.other, at: "B/two.jpg")
        let daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 2 }
        let one = try #require(try daemon.asset(at: "A/one.jpg"))
        var best = ""
        try daemon.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            album.addAssets([one] as NSArray)
            PHAssetChangeRequest(for: one).isHidden = true
            best = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("A/one.jpg"), to: root.appendingPathComponent("B/one.jpg"))
        try daemon.wait("moved into B") { _ in try daemon.asset(at: "B/one.jpg") != nil }
        let moved = try #require(try daemon.asset(at: "B/one.jpg"))
        #expect(moved.localIdentifier == one.localIdentifier && moved.isHidden)
        #expect(daemon.album(at: "B")?.estimatedAssetCount == 2)
        #expect(daemon.album(at: "A") == nil)
        let options = PHFetchOptions()
        options.photoLibrary = daemon.library
        options.includeHiddenAssets = true
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [best], options: options).firstObject)
        #expect(PHAsset.fetchAssets(in: album, options: options).firstObject == moved)
        try daemon.stop()
    }

    @Test func aLivePhotosStillMovedToAnotherFolderLeavesItsMovieAVideoOfItsOwn() throws {
        try put("Phone/DCIM/100APPLE/IMG_5195.HEIC", at: "A/IMG_5195.HEIC")
        try put("Phone/DCIM/100APPLE/IMG_5195.MOV", at: "A/IMG_5195.MOV")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("B"), withIntermediateDirectories: true)
        let daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 1 }
        let live = try #require(try daemon.asset(at: "A/IMG_5195.HEIC"))
        try daemon.library.performChangesAndWait { PHAssetChangeRequest(for: live).isFavorite = true }
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("A/IMG_5195.HEIC"), to: root.appendingPathComponent("B/IMG_5195.HEIC"))
        try daemon.wait("the movie apart from its still") { _ in
            try daemon.asset(at: "A/IMG_5195.MOV")?.mediaType == .video
        }
        let kept = try #require(try daemon.asset(at: "B/IMG_5195.HEIC"))
        #expect(kept.localIdentifier == live.localIdentifier && kept.isFavorite)
        #expect(!kept.mediaSubtypes.contains(.photoLive))
        #expect(PHAssetResource.assetResources(for: kept).map(\.type) == [.photo])
        let video = try #require(try daemon.asset(at: "A/IMG_5195.MOV"))
        #expect(video.localIdentifier != live.localIdentifier)
        let options = PHFetchOptions()
        options.photoLibrary = daemon.library
        for (folder, asset) in [("A", video), ("B", kept)] {
            let album = try #require(daemon.album(at: folder), "the album of \(folder)")
            let members = PHAsset.fetchAssets(in: album, options: options)
            #expect(members.count == 1 && members.firstObject?.localIdentifier == asset.localIdentifier)
        }
        try daemon.stop()
    }

    @Test func aSlowlyWrittenFileIsIngestedOnceComplete() throws {
        let daemon = try Daemon(test: self)
        let content = try Data(contentsOf: try #require(Corpus.file(Self.photo)))
        let target = root.appendingPathComponent("slow.jpg")
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        let handle = try FileHandle(forWritingTo: target)
        let step = content.count / 20 + 1
        for offset in stride(from: 0, to: content.count, by: step) {
            handle.write(content[offset..<min(offset + step, content.count)])
            Thread.sleep(forTimeInterval: 0.05)  // Kept: a slow writer is what is tested.
        }
        try handle.close()
        try daemon.wait("the complete file ingested") { $0.count == 1 }
        let asset = try #require(try daemon.asset(at: "slow.jpg"))
        #expect(asset.pixelWidth == 400 && asset.pixelHeight == 300)
        #expect(try daemon.library.database.rejectedFiles().isEmpty, "never read half-written")
        try daemon.stop()
    }

    @Test func anAtomicSaveUpdatesTheSameAsset() throws {
        try put(Self.photo, at: "a.jpg")
        let daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 1 }
        let before = try #require(try daemon.asset(at: "a.jpg"))
        // Write a temporary file, then rename it over the original.
        try put(Self.other, at: ".a.jpg.tmp")
        rename(root.appendingPathComponent(".a.jpg.tmp").path, root.appendingPathComponent("a.jpg").path)
        try daemon.wait("the new content read") { _ in try daemon.asset(at: "a.jpg")?.pixelWidth == 640 }
        #expect(try daemon.asset(at: "a.jpg")?.localIdentifier == before.localIdentifier)
        try daemon.stop()
    }

    @Test func deletionsAndMovesOutAndBackIn() throws {
        try put(Self.photo, at: "keep/a.jpg")
        try put(Self.other, at: "gone/deep/b.jpg")
        let daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 2 }
        try FileManager.default.removeItem(at: root.appendingPathComponent("gone"))
        try daemon.wait("rm -rf applied") { $0.count == 1 }
        #expect(daemon.album(at: "gone/deep") == nil)
        let outside = directory.path("outside.jpg")
        try FileManager.default.moveItem(at: root.appendingPathComponent("keep/a.jpg"), to: outside)
        try daemon.wait("moved out") { $0.isEmpty }
        try FileManager.default.moveItem(at: outside, to: root.appendingPathComponent("keep/back.jpg"))
        try daemon.wait("moved back in") { _ in try daemon.asset(at: "keep/back.jpg") != nil }
        try daemon.stop()
    }

    @Test func changesWhileStoppedAreFoundAtStartup() throws {
        try put(Self.photo, at: "a/one.jpg")
        var daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 1 }
        let one = try #require(try daemon.asset(at: "a/one.jpg"))
        try daemon.stop()
        try FileManager.default.moveItem(at: root.appendingPathComponent("a"), to: root.appendingPathComponent("b"))
        try put(Self.other, at: "b/two.jpg")
        daemon = try Daemon(test: self)
        try daemon.wait("reconciled") { $0.count == 2 }
        #expect(try daemon.asset(at: "b/one.jpg")?.localIdentifier == one.localIdentifier)
        try daemon.stop()
    }

    @Test func killedDuringALargeIngestLosesNothing() throws {
        let daemon = try Daemon(test: self)
        for index in 0..<300 { try put(index % 2 == 0 ? Self.photo : Self.other, at: "burst/\(index).jpg") }
        // Killed once the ingest is under way (were it done already, the test would still pass: it
        // checks that nothing is lost, and the count below says how far it got).
        try daemon.wait("the ingest under way") { $0.count > 0 }
        daemon.kill9()
        let restarted = try Daemon(test: self)
        try restarted.wait("every file, once") { $0.count == 300 }
        let paths = PHAsset.fetchAssets(with: restarted.options).flatMap { asset in
            PHAssetResource.assetResources(for: asset).map(\.fileURL.path)
        }
        #expect(Set(paths).count == 300 && paths.count == 300, "no duplicates")
        try restarted.stop()
    }

    /// photosd lists each directory as soon as it is watched while it watches the rest: files
    /// copied into old directories, and new directories holding files (made whole, as `mkdir -p`
    /// and `cp -r` do), all the while it starts, are all in the library once the tree is quiet.
    @Test func whatIsMadeWhilePhotosdStartsIsAllIngested() throws {
        let source = try #require(Corpus.file(Self.other))
        let folders = (0..<40).map { "\(2000 + $0 / 10)/Album \($0)" }
        for folder in folders {
            for index in 0..<3 { try put(Self.other, at: "\(folder)/old \(index).jpg") }
        }
        let root = self.root
        let writing = Mutex(true)
        let made = Mutex(0)
        let writer = try SystemThread(name: "test-writer") {
            var round = 0
            while writing.withLock({ $0 }) {
                // A file into an old album, and every third round a new album two levels deep.
                let into = root.appendingPathComponent(folders[round % folders.count])
                try? FileManager.default.copyItem(at: source, to: into.appendingPathComponent("new \(round).jpg"))
                var count = 1
                if round % 3 == 0 {
                    let fresh = root.appendingPathComponent("\(2000 + round % 4)/New \(round)/Inner")
                    try? FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
                    try? FileManager.default.copyItem(at: source, to: fresh.appendingPathComponent("a.jpg"))
                    count += 1
                }
                made.withLock { $0 += count }
                round += 1
                usleep(2_000)
            }
        }
        let daemon: Daemon
        do {
            daemon = try Daemon(test: self)
        } catch {
            writing.withLock { $0 = false }
            writer.join()
            throw error
        }
        // Some more while it runs, then quiet.
        usleep(200_000)
        writing.withLock { $0 = false }
        writer.join()
        let expected = folders.count * 3 + made.withLock { $0 }
        try daemon.wait("all \(expected) files in the library") { $0.count == expected }
        try daemon.stop()
    }

    @Test func aConfigFileGivesRootsAndIgnorePatterns() throws {
        try writeConfig(
            """
            roots = ["\(root.path)"]
            ignore = ["*.skip.jpg"]
            settle_ms = 50
            """)
        let daemon = try Daemon(test: self, arguments: ["--config", config.path])
        try put(Self.photo, at: "kept.jpg")
        try put(Self.other, at: "left.skip.jpg")
        try daemon.wait("the kept file") { $0.count == 1 }
        Thread.sleep(forTimeInterval: 0.3)  // Kept: a quiet period, proving that nothing comes.
        #expect(PHAsset.fetchAssets(with: daemon.options).count == 1, "the ignored name stays out")
        try daemon.stop()
        let bad = directory.path("bad.toml")
        try "roots = \"/x\"".write(to: bad, atomically: true, encoding: .utf8)
        let output = try BuiltProducts.run("photosd", ["--library", libraryURL.path, "--config", bad.path])
        #expect(
            output.status != 0 && output.stderr.contains("bad.toml:1: roots: must be an array of directories"),
            "\(output.stderr)")
    }

    @Test func statusReportsRootsAndTotals() throws {
        try put(Self.photo, at: "a.jpg")
        let daemon = try Daemon(test: self)
        try daemon.wait("startup scan") { $0.count == 1 }
        let status = try DaemonStatus.read(from: DaemonConfiguration.statusPath(forLibrary: libraryURL.path))
        #expect(status.roots.map(\.state) == ["watching"])
        #expect(status.ingested == 1 && status.watches >= 1)
        let printed = try BuiltProducts.run("photos", ["status", "--library", libraryURL.path])
        #expect(printed.stdout.contains("photosd running") && printed.stdout.contains("watching"), "\(printed.stdout)")
        let json = try BuiltProducts.run("photos", ["status", "--library", libraryURL.path, "--json"])
        #expect(try JSONDecoder().decode(DaemonStatus.self, from: Data(json.stdout.utf8)).running == true)
        try daemon.stop()
        // Stopped, its last status says so: a monitoring script is not shown a root being watched.
        let stopped = try BuiltProducts.run("photos", ["status", "--library", libraryURL.path])
        #expect(stopped.stdout.contains("photosd not running (pid "), "\(stopped.stdout)")
        #expect(stopped.stdout.contains("LAST STATE"), "\(stopped.stdout)")
        let stoppedJSON = try BuiltProducts.run("photos", ["status", "--library", libraryURL.path, "--json"])
        #expect(try JSONDecoder().decode(DaemonStatus.self, from: Data(stoppedJSON.stdout.utf8)).running == false)
    }
}

/// A `photosd` process on a test's directory.
final class Daemon {
    let photosd: PhotosdProcess
    let library: PHPhotoLibrary
    let root: URL
    var options: PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        return options
    }

    /// photosd on the test's fixture with `arguments` after `--library` (by default its root,
    /// watched with settle 50 ms), ready.
    init(test: DaemonTests, arguments: [String]? = nil) throws {
        root = test.root
        photosd = try test.fixture.start(arguments ?? ["--watch", test.root.path, "--settle", "50"])
        library = try PHPhotoLibrary(url: test.libraryURL)
    }

    /// Waits until the library's assets satisfy `condition`, while photosd runs.
    func wait(_ what: String, _ condition: (PHFetchResult<PHAsset>) throws -> Bool) throws {
        try photosd.waitWhileRunning(what) { try condition(PHAsset.fetchAssets(with: options)) }
    }

    func asset(at relative: String) throws -> PHAsset? {
        let path = root.appendingPathComponent(relative).path
        return PHAsset.fetchAssets(with: options).first { asset in
            PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == path }
        }
    }

    func album(at relative: String) -> PHAssetCollection? {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
            .first { $0.directoryPath == root.appendingPathComponent(relative).path }
    }

    /// SIGTERM, and the exit status must be 0 within 10 s.
    func stop() throws { try photosd.stop() }

    func kill9() { photosd.kill9() }
}
