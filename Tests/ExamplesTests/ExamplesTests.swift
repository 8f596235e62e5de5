import Foundation
import PhotosTestSupport
import Testing

/// Runs the seed listings in Examples/ against a temporary library (PHOTOS_LIBRARY) and checks what
/// they did through the `photos` CLI.
@Suite(.serialized) struct ExamplesTests {
    let directory: TemporaryDirectory
    /// The library, and cache and temporary directories of the test's own (the thumbnail cache goes
    /// there, and the files listings write to `FileManager.default.temporaryDirectory`, as seed
    /// 004's Live Photo listing does, go with the test's directory instead of piling up in /tmp).
    var environment: [String: String] {
        [
            "PHOTOS_LIBRARY": directory.path("library.sqlite").path, "XDG_CACHE_HOME": directory.path("cache").path,
            "TMPDIR": directory.url.path,
        ]
    }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-examples")
    }

    static let images = [
        "Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Camera/2002/Fujifilm/DSCF0001.JPG",
        "Phone/Screenshots/IMG_0999.PNG",
    ]

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func seedListingsRunAgainstATemporaryLibrary() throws {
        let files = Self.images.compactMap { Corpus.file($0)?.path }
        let added = try BuiltProducts.run("add-asset-to-album", files, environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("album Added holds 3 assets"), "\(added.stdout)")
        #expect(added.stdout.contains("400x300 photo-1.jpg"), "\(added.stdout)")

        let query = try BuiltProducts.run("query-library", [], environment: environment)
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("recent images: 3"))
        #expect(query.stdout.contains("album Added: 3 assets"))
        #expect(query.stdout.contains("smart album Recents: 3 assets"))

        // Seed 004's thumbnail (opportunistic: degraded, then final) and full-size listings.
        let images = try BuiltProducts.run("get-images", [], environment: environment)
        #expect(images.status == 0, "\(images.stderr)\n\(images.stdout)")
        for line in [
            "thumbnail 1 of photo-1.jpg: 171x128", "thumbnail 2 of photo-1.jpg: 171x128",
            "full size of photo-1.jpg: 400x300",
        ] {
            #expect(images.stdout.contains(line), "missing '\(line)' in:\n\(images.stdout)")
        }
        #expect(images.stdout.components(separatedBy: "full size of").count == 4, "three images: \(images.stdout)")

        let modify = try BuiltProducts.run("modify-albums", [], environment: environment)
        #expect(modify.status == 0, "\(modify.stderr)")
        for line in [
            "created album Seed album", "added 2 assets: true, album has 2", "removed 1 asset: true, album has 1",
            "moved album into folder: true, folder holds 1", "location set: true, favorite set: true, now 48.8584 true",
            "inserted favorites at indexes: true", "deleted 2 deletable albums",
        ] {
            #expect(modify.stdout.contains(line), "missing '\(line)' in:\n\(modify.stdout)")
        }

        let favorites = try BuiltProducts.run(
            "photos", ["assets", "--json", "--predicate", "favorite == YES"], environment: environment)
        #expect(favorites.stdout.split(separator: "\n").count == 1)
        #expect(favorites.stdout.contains("\"latitude\":48.8584"))
        let albums = try BuiltProducts.run("photos", ["albums", "--user", "--json"], environment: environment)
        #expect(albums.stdout.isEmpty, "the listing deleted every deletable album: \(albums.stdout)")
    }

    /// Seed 004's video and Live Photo listings, on a scanned folder holding a movie and a Live Photo.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func videoAndLivePhotoListingsRun() throws {
        let folder = directory.path("Pictures/Phone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["IMG_0420.MOV", "IMG_5195.HEIC", "IMG_5195.MOV"] {
            try FileManager.default.copyItem(
                at: Corpus.file("Phone/DCIM/100APPLE/\(name)")!, to: folder.appendingPathComponent(name))
        }
        let scan = try BuiltProducts.run("photos", ["scan", folder.path], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")

        let videos = try BuiltProducts.run("get-videos", [], environment: environment)
        #expect(videos.status == 0, "\(videos.stderr)\n\(videos.stdout)")
        for line in [
            // AVFoundation's natural size: as stored, before the quarter turn.
            "video IMG_0420.MOV: 568x320, 4.0 s",
            "live photo IMG_5195.HEIC: 232x300",
            // The listing copies the paired movie out through PHAssetResourceManager, then reads it.
            "live photo video of IMG_5195.HEIC: 742x960, 1.5 s",
        ] {
            #expect(videos.stdout.contains(line), "missing '\(line)' in:\n\(videos.stdout)")
        }
    }

    @Test func addAssetToAlbumExplainsItsUsage() throws {
        let output = try BuiltProducts.run("add-asset-to-album", [], environment: environment)
        #expect(output.status == 2)
        #expect(output.stdout.contains("usage: add-asset-to-album IMAGE..."))
    }
}
