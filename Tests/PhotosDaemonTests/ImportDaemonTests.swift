import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The real `photosd` with an `[[imports]]` drop folder: what arrives is filed under the root by
/// date, groups together, the rest left; what arrived while it was stopped is taken when it starts;
/// a file still being written is taken once, whole.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ImportDaemonTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-import", folders: ["Drop"]) }

    var drop: String { directory.path("Drop").path }

    /// Where the example hook `log-new-photos.sh` writes a line per new photo.
    var hookLog: String { directory.path("new-photos.log").path }

    func configure(settle: Int) throws {
        try writeConfig(
            """
            roots = [{ path = "\(root.path)", write = "files" }]
            time_zone = "UTC"

            [[imports]]
            from = "\(drop)"
            to = "\(root.path)"
            settle_ms = \(settle)

            [[hooks]]
            name = "log-new-photos"
            command = ["\(HookDaemonTests.example("log-new-photos.sh"))", "\(hookLog)"]
            objects = ["asset"]
            changes = ["inserted"]

            """)
    }

    /// photosd's API socket: `photos imports status` asks it.
    var socket: String { directory.path("photosd.sock").path }

    func start() async throws -> PhotosdProcess {
        try await offPool { [fixture, socket] in
            try fixture.start(["--config", fixture.config.path, "--settle", "0", "--socket", socket])
        }
    }

    /// `photos imports status --json`, through photosd's socket and from its status file: the same lines.
    func importStatus() async throws -> [[String: Any]] {
        let (socket, library, config) = (self.socket, self.library, self.config.path)
        let asked = try await offPool {
            try BuiltProducts.run("photos", ["imports", "status", "--json", "--socket", socket])
        }
        #expect(asked.status == 0, "\(asked.stderr)")
        let read = try await offPool {
            try BuiltProducts.run(
                "photos", ["imports", "status", "--json", "--no-daemon", "--library", library, "--config", config])
        }
        #expect(read.status == 0, "\(read.stderr)")
        func objects(_ text: String) throws -> [[String: Any]] {
            try text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        // The same imports either way; what they say may move between the two reads (a run that
        // finds nothing new still counts as one, a folder that comes is watched from then on).
        let (fromSocket, fromFile) = (try objects(asked.stdout), try objects(read.stdout))
        for key in ["from", "to", "mode"] {
            #expect(fromSocket.map { $0[key] as? String } == fromFile.map { $0[key] as? String }, "\(key)")
        }
        return fromSocket
    }

    func names(_ directory: String) -> [String] {
        ((FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? [])
            .filter { !($0 as NSString).lastPathComponent.hasPrefix(".") && $0.contains(".") }.sorted()
    }

    func assets() throws -> PHFetchResult<PHAsset> {
        let options = PHFetchOptions()
        options.photoLibrary = try PHPhotoLibrary(url: libraryURL)
        options.includeAllBurstAssets = true
        return PHAsset.fetchAssets(with: options)
    }

    @Test func aPhoneFolderDroppedInIsFiledByDateWithTheRestLeft() async throws {
        try configure(settle: 300)
        // Dropped while photosd was stopped: taken when it starts.
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Phone/DCIM/Camera/20180530_212539.jpg")).path, toPath: drop + "/early.jpg"
        )
        let daemon = try await start()
        try await waitUntil("the early photo is filed", whileRunning: daemon.process) {
            names(root.path) == ["2018/2018-05-30/early.jpg"]
        }
        try await waitUntil("the early photo is in the library", whileRunning: daemon.process) {
            try assets().count == 1
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let token = library.currentChangeToken

        // The folder arrives whole, as a sync tool moves a finished folder in (a copy that pauses
        // longer than settle_ms would be taken in parts, as it should).
        let staging = directory.path("staging").path
        try FileManager.default.copyItem(atPath: try #require(Corpus.file("Phone/DCIM/100APPLE")).path, toPath: staging)
        try FileManager.default.moveItem(atPath: staging, toPath: drop + "/100APPLE")
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Bad/truncated.jpg")).path, toPath: drop + "/truncated.jpg")
        // Everything but the truncated JPEG leaves the drop folder.
        try await waitUntil("the folder is filed", whileRunning: daemon.process) { names(drop) == ["truncated.jpg"] }
        #expect(names(root.path).contains("2021/2021-04-11/IMG_5195.HEIC"))
        #expect(names(root.path).contains("2021/2021-04-11/IMG_5195.MOV"))
        #expect(names(root.path).contains("2019/2019-06-09/IMG_4120.AAE"))
        try await waitUntil("every photo is in the library", whileRunning: daemon.process) {
            try assets().count == 14
        }
        // Ordinary insertions, as observers, hooks and the API see them.
        let inserted = try Array(library.fetchPersistentChanges(since: token)).flatMap {
            try $0.changeDetails(for: .asset).insertedLocalIdentifiers
        }
        #expect(Set(inserted).count == 13)
        let origins = try Array(library.fetchPersistentChanges(since: token)).flatMap(\.imports)
        #expect(Set(origins.map(\.source)).contains(drop + "/100APPLE/IMG_5195.HEIC"), "\(origins)")
        #expect(Set(origins.map(\.localIdentifier)) == Set(inserted))
        // A hook hears of each imported photo at its final place (at least once, as hooks are told:
        // the example's log may repeat a line).
        func loggedPhotos() -> Set<Substring> {
            Set(((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").split(separator: "\n"))
        }
        try await waitUntil("the hook logged every photo", whileRunning: daemon.process) { loggedPhotos().count == 14 }
        let logged = try String(contentsOfFile: hookLog, encoding: .utf8)
        #expect(logged.contains("\t" + root.path + "/2021/2021-04-11/IMG_5195.HEIC"), "\(logged)")
        #expect(!logged.contains(drop + "/"), "no drop-folder path: \(logged)")
        // Where the import stands: watched, 14 photos since the start, the truncated JPEG left.
        try await waitUntil("the status counts the last run", whileRunning: daemon.process) {
            try await importStatus().first?["imported"] as? Int == 14
        }
        let status = try #require(try await importStatus().first)
        #expect(status["from"] as? String == drop && status["state"] as? String == "watching")
        #expect(status["rejected"] as? Int == 1 && status["duplicates"] as? Int == 0)
        try await offPool { try daemon.stop() }
    }

    /// A drop folder that is not there when photosd starts (a card not inserted) is said to be
    /// unwatched, and imported once it comes.
    @Test func aDropFolderThatComesLaterIsImportedWhenItComes() async throws {
        try FileManager.default.removeItem(atPath: drop)
        try configure(settle: 200)
        let daemon = try await start()
        let before = try #require(try await importStatus().first)
        #expect(before["state"] as? String == "unwatched", "\(before)")
        #expect((before["reason"] as? String)?.contains("not there") == true, "\(before)")
        // The card: its folder made elsewhere, then moved in whole.
        let card = directory.path("card").path
        try FileManager.default.createDirectory(atPath: card + "/DCIM", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_6100.JPG")).path,
            toPath: card + "/DCIM/IMG_6100.JPG")
        try FileManager.default.moveItem(atPath: card, toPath: drop)
        try await waitUntil("the card's photo is filed", whileRunning: daemon.process) {
            names(root.path) == ["2015/2015-04-10/IMG_6100.JPG"]
        }
        try await waitUntil("the status says it is watched", whileRunning: daemon.process) {
            try await importStatus().first?["state"] as? String == "watching"
        }
        try await offPool { try daemon.stop() }
    }

    /// A file written over three seconds in pieces, each pause shorter than the quiet time: taken
    /// once, whole, after the last piece.
    @Test func aFileStillBeingWrittenIsTakenOnceWhole() async throws {
        // Pieces 300 ms apart against a quiet time of 4 s: a full run's load can stretch a pause
        // past 1 s (the writer's thread stalls), and a pause longer than the quiet time is a
        // finished file to photosd, as it would be to anyone.
        try configure(settle: 4000)
        let daemon = try await start()
        let source = try Data(contentsOf: try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_6100.JPG")))
        let path = drop + "/slow.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let pieces = 10
        let size = (source.count + pieces - 1) / pieces
        for piece in 0..<pieces {
            try handle.write(contentsOf: source[(piece * size)..<min(source.count, (piece + 1) * size)])
            try await Task.sleep(for: .milliseconds(300))
            #expect(names(root.path).isEmpty, "nothing is taken while the file grows")
        }
        try handle.close()
        let filed = root.path + "/2015/2015-04-10/slow.jpg"
        try await waitUntil("the file is filed and its original gone", whileRunning: daemon.process) {
            FileManager.default.fileExists(atPath: filed) && !FileManager.default.fileExists(atPath: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: filed)) == source, "whole")
        #expect(names(root.path) == ["2015/2015-04-10/slow.jpg"], "once")
        try await waitUntil("the photo is in the library", whileRunning: daemon.process) { try assets().count == 1 }
        try await offPool { try daemon.stop() }
    }
}

extension ImportDaemonTests {
    /// photosd killed (SIGKILL) in the middle of an import of 3,000 photos, once the first has
    /// landed: started again, it finishes what the journal holds and takes the rest. Every photo is
    /// then in exactly one place, the library has each once, and no temporary copy is left.
    @Test func photosdKilledInTheMiddleOfAnImportLosesAndDoublesNothing() async throws {
        try configure(settle: 100)
        // 3,000 distinct photos (one camera JPEG, each with bytes of its own after its end), made
        // beside the drop folder and moved into it at once.
        let count = 3000
        let photo = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")))
        let batch = directory.path("batch").path
        try FileManager.default.createDirectory(atPath: batch, withIntermediateDirectories: false)
        let names = (0..<count).map { String(format: "IMG_%04d.JPG", $0) }
        for (index, name) in names.enumerated() {
            try (photo + Data("\(index)".utf8)).write(to: URL(fileURLWithPath: batch + "/" + name))
        }
        let filed = root.path + "/2008/2008-05-30"
        let daemon = try await start()
        try FileManager.default.moveItem(atPath: batch, toPath: drop + "/batch")
        try await waitUntil("the first photo lands", whileRunning: daemon.process) {
            !((try? FileManager.default.contentsOfDirectory(atPath: filed)) ?? []).isEmpty
        }
        daemon.kill9()
        let left = names.filter { FileManager.default.fileExists(atPath: drop + "/batch/" + $0) }.count
        #expect(left > 0, "killed in the middle of the import (\(left) photos still in the drop folder)")

        let again = try await start()
        try await waitUntil("every photo is filed", whileRunning: again.process) {
            names.allSatisfy { !FileManager.default.fileExists(atPath: drop + "/batch/" + $0) }
        }
        try await waitUntil("every photo is in the library", whileRunning: again.process) {
            try assets().count >= count
        }
        try await offPool { try again.stop() }
        let landed = try FileManager.default.contentsOfDirectory(atPath: filed)
        #expect(landed.sorted() == names, "each photo once, under its own name, no temporary copy")
        let paths = try assets().map { PHAssetResource.assetResources(for: $0).map(\.fileURL.path) }
        #expect(paths.count == count && Set(paths.flatMap { $0 }).count == count, "each photo once in the library")
        let doubled = Dictionary(grouping: paths.flatMap { $0 }, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(doubled.isEmpty, "\(paths.count) assets; in two: \(doubled.sorted().prefix(5))")
        #expect(paths.allSatisfy { $0.count == 1 }, "\(paths.filter { $0.count != 1 }.prefix(5))")
    }
}

extension ImportDaemonTests {
    /// The drop folder is a card's mount point (a bind mount here): photosd imports what is on it,
    /// the card is pulled out, and when it is mounted again with new photos photosd imports those
    /// too, without a restart: the watch follows the file system at the folder's path.
    @Test(.enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"))
    func aCardMountedAgainIsImportedAgain() async throws {
        try configure(settle: 100)
        let card = directory.path("card").path
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_6100.JPG")).path, toPath: card + "/IMG_6100.JPG")
        try BindMount.mount(card, at: drop)
        defer { BindMount.unmount(drop) }
        let daemon = try await start()
        let first = root.path + "/2015/2015-04-10/IMG_6100.JPG"
        try await waitUntil("the card's photo is filed", whileRunning: daemon.process) {
            FileManager.default.fileExists(atPath: first)
        }

        BindMount.unmount(drop)
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_0004.JPG")).path, toPath: card + "/IMG_0004.JPG")
        // Long enough for photosd to see the card gone (it looks every 5 seconds).
        try await Task.sleep(for: .seconds(6))
        try BindMount.mount(card, at: drop)
        let second = root.path + "/2011/2011-01-13/IMG_0004.JPG"
        try await waitUntil(
            "the photo on the card mounted again is filed, and moved off the card", whileRunning: daemon.process
        ) {
            FileManager.default.fileExists(atPath: second)
                && !FileManager.default.fileExists(atPath: card + "/IMG_0004.JPG")
        }
        try await waitUntil("both photos are in the library", whileRunning: daemon.process) { try assets().count == 2 }
        try await offPool { try daemon.stop() }
    }
}
