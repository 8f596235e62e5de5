import Foundation
import Photos
import PhotosImaging
import PhotosTestSupport
import Synchronization
import Testing

/// `photos export`, run as the built binary on a Live Photo of the corpus (a HEIC still and its
/// movie) scanned into a library.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ExportCLITests {
    static let still = Corpus.file("Phone/DCIM/100APPLE/IMG_5195.HEIC")!
    static let movie = Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV")!

    let directory: TemporaryDirectory
    let root: URL
    var library: String { directory.path("library.sqlite").path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-export")
        root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for file in [Self.still, Self.movie] {
            try FileManager.default.copyItem(at: file, to: root.appendingPathComponent(file.lastPathComponent))
        }
        let scan = try BuiltProducts.run("photos", ["scan", "--library", library, root.path])
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    /// The Live Photo's local identifier.
    func livePhoto() throws -> String {
        let listed = try BuiltProducts.run("photos", ["assets", "--json", "--library", library])
        let assets = try listed.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let live = assets.first { ($0["mediaSubtypes"] as? [String])?.contains("photoLive") == true }
        return try #require(live?["localIdentifier"] as? String, "\(listed.stdout)")
    }

    func export(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", ["export", "--library", library] + arguments)
    }

    @Test func aLivePhotosStillAndMovieAreCopiedTogetherUnderTheirNames() throws {
        let out = directory.path("out/nested")
        let run = try export([try livePhoto(), "-o", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("pairedVideo"), "\(run.stdout)")
        for file in [Self.still, Self.movie] {
            let copy = out.appendingPathComponent(file.lastPathComponent)
            #expect(try Data(contentsOf: copy) == Data(contentsOf: file), "\(copy.path)")
        }
        // No temporary name is left behind, and the library's own files are as they were.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["IMG_5195.HEIC", "IMG_5195.MOV"])
        #expect(try Data(contentsOf: root.appendingPathComponent("IMG_5195.MOV")) == Data(contentsOf: Self.movie))
    }

    @Test func aTakenNameStopsTheExportBeforeAnythingIsCopied() throws {
        let out = directory.path("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = out.appendingPathComponent("IMG_5195.MOV")
        try Data("the user's own file".utf8).write(to: mine)
        let run = try export([try livePhoto(), "-o", out.path])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("IMG_5195.MOV exists") && run.stderr.contains("nothing was copied"), "\(run.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "the user's own file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["IMG_5195.MOV"])
    }

    /// The movie went missing after the scan: the still is copied first, then the movie fails, and
    /// the export takes back its own copy of the still, and only that.
    @Test func aFailureHalfwayRemovesOnlyTheCopiesThisExportMade() throws {
        let identifier = try livePhoto()
        try FileManager.default.removeItem(at: root.appendingPathComponent("IMG_5195.MOV"))
        let out = directory.path("half")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let other = out.appendingPathComponent("notes.txt")
        try Data("kept".utf8).write(to: other)
        let run = try export([identifier, "-o", out.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot read") && run.stderr.contains("IMG_5195.MOV"), "\(run.stderr)")
        #expect(run.stderr.contains("the 1 copied before it were removed"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["notes.txt"])
        #expect(try String(contentsOf: other, encoding: .utf8) == "kept")
        #expect(try Data(contentsOf: root.appendingPathComponent("IMG_5195.HEIC")) == Data(contentsOf: Self.still))
    }

    @Test func jsonLinesNameEachCopyAndAnUnknownAssetIsAnError() throws {
        let out = directory.path("json")
        let run = try export([try livePhoto(), "-o", out.path, "--json", "--current"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(lines.compactMap { $0["type"] as? String }.sorted() == ["pairedVideo", "photo"])
        #expect(lines.allSatisfy { $0["version"] as? String == "current" })
        #expect(
            Set(lines.compactMap { $0["path"] as? String })
                == Set(["IMG_5195.HEIC", "IMG_5195.MOV"].map { out.appendingPathComponent($0).path }))
        let unknown = try export(["nope", "-o", out.path])
        #expect(unknown.status == 1 && unknown.stderr.contains("no asset nope"), "\(unknown.stderr)")
    }

    /// Edits the Live Photo's still through PhotoKit's API: a 300-pixel JPEG render.
    func editLivePhoto() throws -> Data {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        let photos = try PHPhotoLibrary(url: URL(fileURLWithPath: library), configuration: configuration)
        let options = PHFetchOptions()
        options.photoLibrary = photos
        let asset = try #require(PHAsset.fetchAssets(with: .image, options: options).firstObject)
        let box = Mutex<PHContentEditingInput?>(nil)
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: nil) { input, _ in
            box.withLock { $0 = input }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
        let input = try #require(box.withLock { $0 })
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = PHAdjustmentData(
            formatIdentifier: "org.example.test", formatVersion: "1", data: Data([1]))
        let render = Data(
            try ImageRenderer().render(
                fileAt: input.fullSizeImageURL!.path, ImageRequest(target: PixelSize(width: 300, height: 300))
            ).data)
        try render.write(to: output.renderedContentURL)
        try photos.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        return render
    }

    @Test func anEditedAssetExportsItsRenderAndSidecarAsItLooksNowAndItsOriginalsOtherwise() throws {
        let identifier = try livePhoto()
        let render = try editLivePhoto()

        let current = directory.path("current")
        let run = try export([identifier, "--current", "-o", current.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: current.path).sorted() == [
                "IMG_5195.AAE", "IMG_5195.MOV", "IMG_5195.jpg",
            ])
        #expect(
            try Data(contentsOf: current.appendingPathComponent("IMG_5195.jpg")) == render,
            "the render, as the app wrote it")
        let sidecar = try Data(contentsOf: current.appendingPathComponent("IMG_5195.AAE"))
        let list = try #require(PropertyListSerialization.propertyList(from: sidecar, format: nil) as? [String: Any])
        #expect(list["adjustmentFormatIdentifier"] as? String == "org.example.test")

        let original = directory.path("original")
        let plain = try export([identifier, "-o", original.path])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: original.path).sorted() == [
                "IMG_5195.HEIC", "IMG_5195.MOV",
            ])
        #expect(try Data(contentsOf: original.appendingPathComponent("IMG_5195.HEIC")) == Data(contentsOf: Self.still))
    }
}
