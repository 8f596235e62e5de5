import Foundation
import Glibc
import PhotosTestSupport
import Testing

@testable import PhotosImaging

/// The disk cache of small images: what is kept is read back whole by another instance (another
/// run, another process), a file changed since is a miss, a damaged entry is a miss and is removed,
/// the bound holds with the least recently served going first, and nothing that is not one of its
/// entries is ever removed.
@Suite struct ThumbnailDiskCacheTests {
    let directory: TemporaryDirectory
    let source: String
    let request = ImageRequest(target: PixelSize(width: 256, height: 256), fill: true)

    init() throws {
        directory = try TemporaryDirectory(prefix: "thumbnail-cache")
        source = directory.path("photo.jpg").path
        try Data("not really a JPEG".utf8).write(to: URL(fileURLWithPath: source))
    }

    var cacheDirectory: String { directory.path("cache/photosd/thumbnails").path }

    static func image(_ size: Int, seed: UInt8 = 1) -> RenderedImage {
        RenderedImage(
            size: PixelSize(width: 256, height: 192), data: (0..<size).map { UInt8(truncatingIfNeeded: $0) &+ seed },
            format: .jpeg, hasAlpha: false, isFromEmbeddedThumbnail: seed % 2 == 0)
    }

    /// The entry files under the cache directory.
    func entries() -> [String] {
        let all = FileManager.default.enumerator(atPath: cacheDirectory)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".thumb") }.sorted()
    }

    @Test func anotherInstanceReadsWhatOneKept() throws {
        let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        let writer = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 20)
        #expect(writer.image(for: key) == nil)
        let image = Self.image(5_000, seed: 2)
        writer.store(image, for: key)
        // A new instance knows nothing but the files: as after a restart, or in another process.
        let reader = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 20)
        #expect(reader.image(for: key) == image)
        #expect(reader.counts.hits == 1 && writer.counts.writes == 1 && writer.counts.misses == 1)
        #expect(entries().count == 1)
        // The directory is the user's alone.
        var status = stat()
        #expect(stat(cacheDirectory, &status) == 0 && status.st_mode & 0o777 == 0o700)
    }

    @Test func keysFollowTheFileAndTheRequest() throws {
        let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        #expect(ThumbnailDiskCache.Key(fileAt: source, request) == key)
        var fit = request
        fit.fill = false
        #expect(ThumbnailDiskCache.Key(fileAt: source, fit) != key)
        var cropped = request
        cropped.crop = NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(ThumbnailDiskCache.Key(fileAt: source, cropped) != key)
        var webp = request
        webp.format = .webp
        #expect(ThumbnailDiskCache.Key(fileAt: source, webp) != key)
        // Not a small image, or no file: not kept.
        #expect(ThumbnailDiskCache.Key(fileAt: source, ImageRequest(target: PixelSize(width: 1025, height: 10))) == nil)
        #expect(ThumbnailDiskCache.Key(fileAt: source, ImageRequest()) == nil)
        #expect(ThumbnailDiskCache.Key(fileAt: directory.path("gone.jpg").path, request) == nil)

        // The file written again: another key, and the old image is not served for it.
        let cache = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 20)
        cache.store(Self.image(1_000), for: key)
        try Data("another picture".utf8).write(to: URL(fileURLWithPath: source))
        let changed = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        #expect(changed != key)
        #expect(cache.image(for: changed) == nil)
        // Renamed, it is the same file: the same key.
        let moved = directory.path("moved.jpg").path
        #expect(rename(source, moved) == 0)
        #expect(ThumbnailDiskCache.Key(fileAt: moved, request) == changed)
    }

    @Test func aDamagedEntryIsAMissAndIsRemoved() throws {
        let cache = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 20)
        let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        let path = cache.path(of: key)
        for damage in ["flip", "cut", "empty"] {
            cache.store(Self.image(3_000), for: key)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            switch damage {
            case "flip": bytes[bytes.count - 10] ^= 0xFF
            case "cut": bytes.removeLast(100)
            case "empty": bytes = []
            default: bytes[0] = UInt8(ascii: "X")
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(cache.image(for: key) == nil, "\(damage)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(damage)")
        }
    }

    /// A file at an entry's name that does not begin as entries do (a user's, or an entry whose
    /// header was overwritten) is a miss, and is neither removed nor written over.
    @Test func aForeignFileAtAnEntrysNameIsLeftAlone() throws {
        let cache = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 20)
        let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        let path = cache.path(of: key)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let foreign = Data("someone's notes, not an entry".utf8)
        try foreign.write(to: URL(fileURLWithPath: path))
        #expect(cache.image(for: key) == nil)
        cache.store(Self.image(1_000), for: key)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == foreign)
        #expect(cache.image(for: key) == nil)
        // The store's temporary file went too: nothing else is left in the folder.
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [(path as NSString).lastPathComponent])
    }

    /// Past the bound, the least recently served go first, to nine tenths of it; files that are not
    /// entries (in the directory, in a subdirectory, or named almost like one) stay.
    @Test func theBoundHoldsAndOnlyEntriesAreRemoved() throws {
        let cache = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 100_000)
        var keys: [ThumbnailDiskCache.Key] = []
        for index in 0..<10 {
            var request = request
            request.quality = index + 1
            let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
            cache.store(Self.image(9_000, seed: UInt8(index)), for: key)
            keys.append(key)
        }
        #expect(entries().count == 10)
        // Foreign files, which must outlive any trim.
        let subfolder = (cache.path(of: keys[0]) as NSString).deletingLastPathComponent
        let foreign = [
            "\(cacheDirectory)/notes.txt", "\(subfolder)/IMG_0001.JPG",
            "\(subfolder)/\(keys[0].name.dropLast()).thumb", "\(subfolder)/\(keys[0].name).thumb.jpg",
        ]
        for path in foreign { try Data(repeating: 7, count: 50_000).write(to: URL(fileURLWithPath: path)) }
        // Named as an entry, but not one by its content: a file the cache did not write.
        let impostor = "\(subfolder)/\(keys[0].name.dropLast(4))0000.thumb"
        try Data(repeating: 7, count: 5_000).write(to: URL(fileURLWithPath: impostor))
        var old = [timespec(tv_sec: 10, tv_nsec: 0), timespec(tv_sec: 10, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, impostor, &old, 0) == 0)
        // Served long ago, in order; keys[3] served just now.
        for (index, key) in keys.enumerated() {
            var times = [
                timespec(tv_sec: 1_000_000 + index, tv_nsec: 0), timespec(tv_sec: 1_000_000 + index, tv_nsec: 0),
            ]
            #expect(utimensat(AT_FDCWD, cache.path(of: key), &times, 0) == 0)
        }
        #expect(cache.image(for: keys[3]) != nil)

        // Two more entries pass the bound (12 x ~9 KB): the oldest go.
        for index in 10..<12 {
            var request = request
            request.quality = index + 1
            let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
            cache.store(Self.image(9_000, seed: UInt8(index)), for: key)
            keys.append(key)
        }
        let kept = cache.trim()
        #expect(kept <= 100_000)
        #expect(cache.image(for: keys[0]) == nil && cache.image(for: keys[1]) == nil, "the least recently served")
        #expect(cache.image(for: keys[3]) != nil, "served recently")
        #expect(cache.image(for: keys[11]) != nil, "written last")
        for path in foreign + [impostor] { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
        #expect(cache.counts.removed >= 2)
    }

    /// A temporary file an hour old is a writer that died: removed. A fresh one is being written.
    @Test func staleTemporaryFilesAreRemoved() throws {
        let cache = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 20)
        let key = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        cache.store(Self.image(1_000), for: key)
        let folder = (cache.path(of: key) as NSString).deletingLastPathComponent
        let stale = "\(folder)/.tmp-1-2"
        let fresh = "\(folder)/.tmp-1-3"
        let notOurs = "\(folder)/.tmp-1-4"  // an old temporary name, not of an entry's content
        let unlike = "\(folder)/.tmp-notes"
        for path in [stale, fresh] { try Data(Entry.magic + [1]).write(to: URL(fileURLWithPath: path)) }
        for path in [notOurs, unlike] { try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: path)) }
        var times = [timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0)]
        for path in [stale, notOurs, unlike] { #expect(utimensat(AT_FDCWD, path, &times, 0) == 0) }
        cache.trim()
        #expect(!FileManager.default.fileExists(atPath: stale))
        for path in [fresh, notOurs, unlike] { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
        #expect(cache.image(for: key) != nil)
    }

    /// Writers at once, of the same entry and of others: every entry read back whole.
    @Test func writersAtOnceLeaveWholeEntries() async throws {
        let cache = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 24)
        let other = ThumbnailDiskCache(directory: cacheDirectory, maximumBytes: 1 << 24)
        let shared = try #require(ThumbnailDiskCache.Key(fileAt: source, request))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let writer = index % 2 == 0 ? cache : other
                    writer.store(Self.image(20_000, seed: 4), for: shared)
                    var request = self.request
                    request.quality = 50 + index
                    if let key = ThumbnailDiskCache.Key(fileAt: self.source, request) {
                        writer.store(Self.image(10_000, seed: UInt8(index)), for: key)
                    }
                }
            }
        }
        #expect(cache.image(for: shared) == Self.image(20_000, seed: 4))
        #expect(entries().count == 17)
        let leftovers = (FileManager.default.enumerator(atPath: cacheDirectory)?.allObjects as? [String] ?? [])
            .filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func theDefaultDirectoryFollowsXDG() {
        #expect(
            ThumbnailDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
                == "/c/photosd/thumbnails")
        #expect(
            ThumbnailDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])
                == "/h/.cache/photosd/thumbnails")
        #expect(ThumbnailDiskCache.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.cache/photosd/thumbnails")
    }
}
