import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The `async` forms Swift gives PhotoKit's and AVFoundation's completion-handler methods, each
/// called and its result checked against the corpus file it read.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct AsyncFormsTests {
    static let photo = Corpus.file("Phone/DCIM/100APPLE/IMG_0005.JPG")!
    static let movie = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!

    @Test func writeDataAsyncWritesTheResourcesBytesAndThrowsRatherThanWriteOverAFile() async throws {
        let library = try FileAssetLibrary(files: [Self.photo])
        let resource = PHAssetResource.assetResources(for: library.asset(Self.photo))[0]
        let destination = library.directory.path("copy.jpg")
        try await PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil)
        #expect(try Data(contentsOf: destination) == Data(contentsOf: Self.photo))

        let mine = library.directory.path("mine.jpg")
        try Data("mine".utf8).write(to: mine)
        await #expect(throws: PHPhotosError.self) {
            try await PHAssetResourceManager.default().writeData(for: resource, toFile: mine, options: nil)
        }
        #expect(try Data(contentsOf: mine) == Data("mine".utf8), "the file there is left as it was")
    }

    @Test func exportAsyncReturnsWhenTheCopyIsWritten() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-async-export")
        let output = directory.path("clip.mov")
        let session = try #require(
            AVAssetExportSession(asset: AVURLAsset(url: Self.movie), presetName: AVAssetExportPresetPassthrough))
        session.outputURL = output
        session.outputFileType = .mov
        await session.export()
        #expect(session.status == .completed)
        #expect(try Data(contentsOf: output) == Data(contentsOf: Self.movie), "byte for byte")

        // A second export to the same name fails and leaves the file.
        let again = try #require(
            AVAssetExportSession(asset: AVURLAsset(url: Self.movie), presetName: AVAssetExportPresetPassthrough))
        again.outputURL = output
        await again.export()
        #expect(again.status == .failed && again.error != nil)
    }

    @Test func requestAuthorizationAsyncAnswersTheStatus() async throws {
        for level in [PHAccessLevel.readWrite, .addOnly] {
            let status = await PHPhotoLibrary.requestAuthorization(for: level)
            #expect(status == PHPhotoLibrary.authorizationStatus(for: level))
        }
    }
}
