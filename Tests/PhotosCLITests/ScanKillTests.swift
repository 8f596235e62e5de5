import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `photos scan` killed with SIGKILL mid-way: the library stays whole, and the next scan finishes
/// the job with every file once.
@Suite struct ScanKillTests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aScanKilledMidWayIsFinishedByTheNextWithEveryFileOnce() throws {
        let directory = try TemporaryDirectory(prefix: "scan-kill")
        let root = directory.path("Pictures")
        let corpus = try #require(Corpus.root)
        // The corpus's photos, 30 times over: enough batches that the kill lands mid-scan.
        let photos = try FileManager.default.subpathsOfDirectory(atPath: corpus.path)
            .filter {
                ["jpg", "heic", "png"].contains(($0 as NSString).pathExtension.lowercased()) && !$0.hasPrefix("Bad/")
            }
        for copy in 0..<30 {
            let album = root.appendingPathComponent("Copy \(copy)")
            try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
            for (index, photo) in photos.enumerated() {
                try FileManager.default.copyItem(
                    at: corpus.appendingPathComponent(photo),
                    to: album.appendingPathComponent("\(index)-" + (photo as NSString).lastPathComponent))
            }
        }
        let library = directory.path("library.sqlite").path

        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        process.arguments = ["scan", "--library", library, root.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once the first batches have committed (or, on a very slow machine, after a minute
        // of scanning: that is mid-way too).
        try? blockUntil("the scan to commit 500 assets", timeout: .seconds(60), whileRunning: process) {
            (try? committedAssets(library)) ?? 0 >= 500
        }
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(wasRunning, "the scan ended before it could be killed: make the tree larger")
        let before = try committedAssets(library)
        #expect(before > 0)

        let rerun = try BuiltProducts.run("photos", ["scan", "--library", library, root.path])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let reference = directory.path("reference.sqlite").path
        let clean = try BuiltProducts.run("photos", ["scan", "--library", reference, root.path])
        #expect(clean.status == 0, "\(clean.stderr)")

        #expect(try committedAssets(library) == committedAssets(reference), "as many assets as a scan never killed")
        let duplicated = try PHPhotoLibrary(url: URL(fileURLWithPath: library)).database.read { db in
            try db.scalarInt64(
                "SELECT COUNT(*) FROM (SELECT 1 FROM resource GROUP BY directoryId, name HAVING COUNT(*) > 1) AS twice")
        }
        #expect(duplicated == 0, "no file is ingested twice")
    }

    /// The assets committed so far (0 while the scanning process has not made the library yet).
    func committedAssets(_ path: String) throws -> Int {
        // Opening makes a library: leave that to the scanning process, which does it first.
        guard FileManager.default.fileExists(atPath: path + "-wal") else { return 0 }
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        return try library.database.read { db in Int(try db.scalarInt64("SELECT COUNT(*) FROM asset") ?? 0) }
    }
}
