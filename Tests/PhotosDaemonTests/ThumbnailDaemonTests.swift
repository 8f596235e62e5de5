import Foundation
import PhotosImaging
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// photosd with `thumbnail_sizes`: a photo dropped into a watched root gets those thumbnails in
/// the disk cache, as `PHImageManager` would ask for them, before anyone asks; without the key it
/// makes none.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ThumbnailDaemonTests: DaemonSuite {
    let fixture: DaemonFixture
    var cache: String { directory.path("cache/photosd/thumbnails").path }

    init() throws { fixture = try DaemonFixture(prefix: "photosd-thumbnails") }

    func start(config text: String) throws -> PhotosdProcess {
        try writeConfig(text)
        return try fixture.start(
            ["--watch", root.path, "--config", config.path, "--settle", "50"],
            environment: ["XDG_CACHE_HOME": directory.path("cache").path])
    }

    func drop() throws -> String {
        let file = root.appendingPathComponent("inn.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")), to: file)
        return file.path
    }

    @Test func aNewPhotoGetsItsThumbnailsAhead() throws {
        let daemon = try start(config: "thumbnail_sizes = [64, 160]\n")
        let photo = try drop()
        let reader = ThumbnailDiskCache(directory: cache, maximumBytes: 1 << 30)
        for side in [64, 160] {
            let request = ImageRequest(target: PixelSize(width: side, height: side), fill: true)
            let key = try #require(ThumbnailDiskCache.Key(fileAt: photo, request))
            try daemon.waitWhileRunning("a \(side) px thumbnail") { reader.contains(key) }
            // What PHImageManager would make for (side, side), aspectFill: the short side fills it.
            let image = try #require(reader.image(for: key))
            #expect(min(image.size.width, image.size.height) == side, "\(image.size)")
        }
        try daemon.stop()
    }

    /// A movie's thumbnail is its poster frame, made ahead as a photo's is, upright.
    @Test func aNewMovieGetsItsPosterFrameAhead() throws {
        let daemon = try start(config: "thumbnail_sizes = [64]\n")
        let movie = root.appendingPathComponent("clip.mov")
        try FileManager.default.copyItem(at: try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")), to: movie)
        let reader = ThumbnailDiskCache(directory: cache, maximumBytes: 1 << 30)
        let request = ImageRequest(target: PixelSize(width: 64, height: 64), fill: true)
        let key = try #require(ThumbnailDiskCache.Key(fileAt: movie.path, request))
        try daemon.waitWhileRunning("a poster frame") { reader.contains(key) }
        // 320x568 upright, filling 64x64: 64 wide.
        #expect(try #require(reader.image(for: key)).size == PixelSize(width: 64, height: 114))
        try daemon.stop()
    }

    /// Photos the library held before photosd was told to make thumbnails get them too.
    @Test func photosAlreadyInTheLibraryGetThemToo() throws {
        let first = try start(config: "settle_ms = 50\n")
        let photo = try drop()
        let database = try LibraryDatabase(path: library)
        try first.waitWhileRunning("the photo to be ingested") {
            try database.countAssets(matching: AssetQuery()) == 1
        }
        try first.stop()
        #expect(!FileManager.default.fileExists(atPath: cache))

        let second = try start(config: "thumbnail_sizes = [96]\n")
        let reader = ThumbnailDiskCache(directory: cache, maximumBytes: 1 << 30)
        let key = try #require(
            ThumbnailDiskCache.Key(fileAt: photo, ImageRequest(target: PixelSize(width: 96, height: 96), fill: true)))
        try second.waitWhileRunning("a thumbnail of the photo already there") { reader.contains(key) }

        // photos status tells what was made, and the cache's size.
        let environment = ["XDG_CACHE_HOME": directory.path("cache").path]
        var shown: ThumbnailStatus?
        try second.waitWhileRunning("photos status to show a finished backfill") {
            let status = try BuiltProducts.run(
                "photos", ["status", "--library", library, "--json"], environment: environment)
            let line = Data(status.stdout.utf8)
            shown = (try? JSONDecoder().decode(DaemonStatus.self, from: line))?.thumbnails
            return shown?.photosAtStartDone == 1
        }
        #expect(shown?.sizes == [96] && shown?.made == 1 && shown?.failed == 0 && shown?.photosAtStart == 1)
        #expect(shown?.directory == cache)
        #expect((shown?.bytes ?? 0) > 0 && shown?.maximumBytes == 512 << 20)
        let text = try BuiltProducts.run("photos", ["status", "--library", library], environment: environment)
        #expect(
            text.stdout.contains(
                "thumbnails (96 px): 1 made, 0 kept already, 0 failed; photos from before the start: 1 of 1 done"),
            "\(text.stdout)")
        #expect(text.stdout.contains("cache: 0 MB of 512 MB in \(cache)"), "\(text.stdout)")
        try second.stop()
    }

    @Test func withoutTheKeyNoneIsMade() throws {
        let daemon = try start(config: "settle_ms = 50\n")
        _ = try drop()
        let database = try LibraryDatabase(path: library)
        try daemon.waitWhileRunning("the photo to be ingested") {
            try database.countAssets(matching: AssetQuery()) == 1
        }
        // The service would have had a second to start on it (kept: a quiet period, proving that
        // nothing is made).
        Thread.sleep(forTimeInterval: 1)
        try daemon.stop()
        #expect(!FileManager.default.fileExists(atPath: cache))
    }
}
