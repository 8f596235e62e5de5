import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Odd things in a watched folder that worked before issue 10 and must keep working: odd names,
/// symlink loops, special files, a full disk.
@Suite struct ScanEdgeTests {
    let directory: TemporaryDirectory
    let photo: Data

    init() throws {
        directory = try TemporaryDirectory(prefix: "scan-edges")
        photo = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
    }

    func paths(_ library: PHPhotoLibrary) -> Set<String> {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return Set(
            PHAsset.fetchAssets(with: options).flatMap { asset in
                PHAssetResource.assetResources(for: asset).map { $0.fileURL.path }
            })
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func namesWithNewlinesQuotesAndTheLongestLengthAreIngestedAsTheyAre() throws {
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/Trip", withIntermediateDirectories: true)
        let names = [
            "line\nbreak.jpg", "quote\"d 'it'.jpg", "tab\there.jpg", String(repeating: "x", count: 251) + ".jpg",
        ]
        for name in names { try photo.write(to: URL(fileURLWithPath: root + "/Trip/" + name)) }
        let library = try PHPhotoLibrary(inMemoryWith: .init())
        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == names.count)
        #expect(paths(library) == Set(names.map { root + "/Trip/" + $0 }))
        let again = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(again.ingested == 0 && again.removed == 0, "a rescan finds nothing new")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func symlinkLoopsAndSpecialFilesAreNeverFollowedOrOpened() throws {
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/Album", withIntermediateDirectories: true)
        try photo.write(to: URL(fileURLWithPath: root + "/Album/real.jpg"))
        // A loop back to the root, and a link to a photo outside it.
        try FileManager.default.createSymbolicLink(atPath: root + "/Album/loop", withDestinationPath: root)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/Album/link.jpg", withDestinationPath: root + "/Album/real.jpg")
        // A FIFO named like a photo: opening it for reading would block forever.
        #expect(mkfifo(root + "/Album/pipe.jpg", 0o644) == 0)
        // A socket named like a photo.
        let socketPath = root + "/Album/socket.jpg"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            socketPath.utf8CString.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(buffer.count)))
            }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        // A character device named like a photo (as root: /dev/zero's numbers; reading it never ends).
        let madeDevice = mknod(root + "/Album/device.jpg", S_IFCHR | 0o644, dev_t((1 << 8) | 5)) == 0

        let library = try PHPhotoLibrary(inMemoryWith: .init())
        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        #expect(paths(library) == [root + "/Album/real.jpg"], "only the regular file; links are not followed")
        #expect(report.ingested == 1)
        let rejected = try library.database.rejectedFiles().map(\.path)
        #expect(rejected.isEmpty, "special files are not media to reject: \(rejected)")
        if !madeDevice {
            FileHandle.standardError.write(Data("⚠️  mknod needs root: the device-file case is SKIPPED\n".utf8))
        }
    }

    @Test(.enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs ../shared/corpus, root and tmpfs"))
    func aFullDiskFailsTheScanLoudlyAndLosesNothing() throws {
        // Room for the write-ahead log of the whole scan once the filler is gone: SQLite checkpoints
        // at 4 MB of log, and the scan of these 400 photos leaves 2.1 MB of it (measured), more than
        // a 2 MB disk holds since each transaction also writes the kept smart album counts.
        let disk = try SmallFileSystem(megabytes: 3)
        let root = directory.path("Pictures").path
        for index in 0..<400 {
            let album = root + "/Album \(index / 50)"
            try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
            try photo.write(to: URL(fileURLWithPath: album + "/IMG_\(index).jpg"))
        }
        let library = try PHPhotoLibrary(url: disk.url.appendingPathComponent("library.sqlite"))
        // Fill what the library does not use, so that its file cannot grow.
        try disk.fill()

        #expect(throws: (any Error).self, "a full disk is an error, not a silent partial scan") {
            _ = try FolderScanner(database: library.database, batchSize: 50, quietTime: 0).scan(roots: [root])
        }
        let committed = paths(library)
        // What committed is whole: each batch is all there or absent (no asset without its file row).
        let orphans = try library.database.read { db in
            try db.scalarInt64("SELECT COUNT(*) FROM asset WHERE id NOT IN (SELECT assetId FROM resource)")
        }
        #expect(orphans == 0)
        #expect(committed.count < 400)

        try disk.free()
        let report = try FolderScanner(database: library.database, batchSize: 50, quietTime: 0).scan(roots: [root])
        #expect(report.ingested == 400 - committed.count, "the rest arrives once there is room")
        #expect(paths(library).count == 400)
        for index in [0, 199, 399] {
            let file = root + "/Album \(index / 50)/IMG_\(index).jpg"
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == photo, "the photos were only read")
        }
    }
}
