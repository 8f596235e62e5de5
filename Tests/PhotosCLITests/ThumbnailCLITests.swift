import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `photos thumbnail`, run as the built binary on corpus files.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ThumbnailCLITests {
    static let chart = Corpus.file("Test charts/Orientation/landscape_6.jpg")!  // 450x600 stored, 600x450 shown
    static let truncated = Corpus.file("Bad/truncated.jpg")!

    let library: FileAssetLibrary

    init() throws {
        library = try FileAssetLibrary(files: [Self.chart, Self.truncated])
    }

    func thumbnail(_ file: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run(
            "photos",
            ["thumbnail", library.identifiers[file.path]!, "--library", library.directory.path("library.sqlite").path]
                + arguments)
    }

    @Test func writesAnUprightJPEGOfTheSizeAsked() throws {
        let output = library.directory.path("thumb.jpg")
        let run = try thumbnail(Self.chart, ["--size", "120x120", "-o", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("120x90 jpeg"), "\(run.stdout)")
        let data = try Data(contentsOf: output)
        #expect(data.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "a JPEG")
        #expect(UIImage(data: data)?.size == CGSize(width: 120, height: 90), "upright: wider than tall")
        // The user's file, made as `cp` makes one: 0666 less the umask (the test process's, which
        // the command inherits), not the library's private 0600.
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let umask = try #require(
            status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.flatMap {
                Int($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
            })
        let mode = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int
        #expect(mode == 0o666 & ~umask, "\(String(mode ?? 0, radix: 8)) with umask \(String(umask, radix: 8))")
    }

    @Test func fillAndFormats() throws {
        let png = library.directory.path("thumb.png")
        let filled = try thumbnail(Self.chart, ["--size", "120", "--fill", "-o", png.path, "--json"])
        #expect(filled.status == 0, "\(filled.stderr)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(filled.stdout.utf8)) as? [String: Any])
        #expect(
            line["pixelWidth"] as? Int == 160 && line["pixelHeight"] as? Int == 120
                && line["format"] as? String == "png")
        #expect(try Data(contentsOf: png).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let webp = library.directory.path("thumb.bin")
        #expect(try thumbnail(Self.chart, ["--format", "webp", "-o", webp.path]).status == 0)
        #expect(try Data(contentsOf: webp).prefix(4) == Data("RIFF".utf8))
    }

    @Test func badInputIsAClearError() throws {
        let output = library.directory.path("bad.jpg")
        let damaged = try thumbnail(Self.truncated, ["-o", output.path])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains(Self.truncated.path), "\(damaged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let unknown = try BuiltProducts.run(
            "photos",
            ["thumbnail", "nope", "--library", library.directory.path("library.sqlite").path, "-o", output.path])
        #expect(unknown.status == 1 && unknown.stderr.contains("no asset nope"))
        let badSize = try thumbnail(Self.chart, ["--size", "0x10", "-o", output.path])
        #expect(badSize.status == 64 && badSize.stderr.contains("--size"))
    }

    @Test func neverWritesOverTheAssetsOwnFile() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.path("photo.jpg")
        try FileManager.default.copyItem(at: Self.chart, to: copy)
        let library = try FileAssetLibrary(files: [copy], directory: directory)
        let run = try BuiltProducts.run(
            "photos",
            [
                "thumbnail", library.identifiers[copy.path]!, "--library", directory.path("library.sqlite").path, "-o",
                copy.path,
            ])
        #expect(run.status == 1 && run.stderr.contains("exists: nothing is written over"), "\(run.stderr)")
        #expect(try Data(contentsOf: copy) == (try Data(contentsOf: Self.chart)))
        // Nor any other file that is there already; a new name is written, and no temporary is left.
        let mine = directory.path("mine.jpg")
        try Data("the user's own file".utf8).write(to: mine)
        let other = try BuiltProducts.run(
            "photos",
            [
                "thumbnail", library.identifiers[copy.path]!, "--library", directory.path("library.sqlite").path, "-o",
                mine.path,
            ])
        #expect(other.status == 1 && other.stderr.contains("exists"), "\(other.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "the user's own file")
        let fresh = try BuiltProducts.run(
            "photos",
            [
                "thumbnail", library.identifiers[copy.path]!, "--library", directory.path("library.sqlite").path, "-o",
                directory.path("new.jpg").path,
            ])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy {
                !$0.contains(".photos-copy-")
            })
    }
}
