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

    /// What `states(updateInterval:)` reported, by name.
    static func names(_ states: [AVAssetExportSession.State]) -> [String] {
        states.map { state in
            switch state {
            case .pending: "pending"
            case .waiting: "waiting"
            case .exporting: "exporting"
            }
        }
    }

    @Test func exportToAsWritesTheMovieAndItsStatesEndWithIt() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-export-to")
        let output = directory.path("clip.mov")
        let session = try #require(
            AVAssetExportSession(asset: AVURLAsset(url: Self.movie), presetName: AVAssetExportPresetPassthrough))
        let states = session.states(updateInterval: 0.1)
        async let seen: [AVAssetExportSession.State] = {
            var seen: [AVAssetExportSession.State] = []
            for await state in states { seen.append(state) }
            return seen
        }()
        try await session.export(to: output, as: .mov)
        let reported = await seen
        #expect(Self.names(reported) == ["pending", "waiting", "exporting"])
        if case .exporting(let progress) = reported.last {
            #expect(progress.fractionCompleted == 1)
        }
        #expect(session.status == .completed && session.outputURL == output && session.outputFileType == .mov)
        #expect(try Data(contentsOf: output) == Data(contentsOf: Self.movie), "byte for byte")
        // Over: a new sequence ends at once.
        var after = 0
        for await _ in session.states() { after += 1 }
        #expect(after == 0)

        // A file at the name is left as it was, and the export throws.
        let again = try #require(
            AVAssetExportSession(asset: AVURLAsset(url: Self.movie), presetName: AVAssetExportPresetPassthrough))
        await #expect(throws: (any Error).self) { try await again.export(to: output, as: .mov) }
        #expect(again.status == .failed)
        #expect(try Data(contentsOf: output) == Data(contentsOf: Self.movie))
    }

    @Test func exportToAsRefusesAContainerThePassthroughCannotWrite() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-export-to")
        let session = try #require(
            AVAssetExportSession(asset: AVURLAsset(url: Self.movie), presetName: AVAssetExportPresetPassthrough))
        let error = await #expect(throws: PHPhotosError.self) {
            try await session.export(to: directory.path("clip.mp4"), as: .mp4)
        }
        #expect(error?.code == .invalidResource)
        #expect(!FileManager.default.fileExists(atPath: directory.path("clip.mp4").path))
    }

    @Test func exportToAsInACancelledTaskThrowsCancellationAndWritesNothing() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-export-to")
        let output = directory.path("clip.mov")
        let session = try #require(
            AVAssetExportSession(asset: AVURLAsset(url: Self.movie), presetName: AVAssetExportPresetPassthrough))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await session.export(to: output, as: .mov)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func assetPropertiesLoadAsAVFoundationLoadsThem() async throws {
        // ExifTool: 4.002 s, 320x568 as displayed, stored on its side (rotation 90), 29.988 frames a second.
        let asset = AVURLAsset(url: Self.movie)
        let duration = try await asset.load(.duration)
        #expect(abs(duration.seconds - 4.002) < 0.05)
        let (sameDuration, tracks) = try await asset.load(.duration, .tracks)
        #expect(sameDuration == duration)
        #expect(tracks.count == asset.tracks.count)
        #expect(try await asset.load(.isPlayable))
        let videos = try await asset.loadTracks(withMediaType: .video)
        let video = try #require(videos.first)
        #expect(videos.count == 1)
        #expect(try await asset.loadTrack(withTrackID: video.trackID)?.trackID == video.trackID)
        let size = try await video.load(.naturalSize)
        #expect(size == CGSize(width: 568, height: 320))
        let (rate, kind) = try await video.load(.nominalFrameRate, .mediaType)
        #expect(abs(Double(rate) - 29.988) < 0.1)
        #expect(kind == .video)
        let transform = try await video.load(.preferredTransform)
        #expect(transform.m12 == 1 && transform.m21 == -1)
    }

    @Test func loadingAnUnreadableFileThrowsWhyItCannotBeRead() async throws {
        let asset = AVURLAsset(url: Self.photo)
        await #expect(throws: (any Error).self) { try await asset.load(.duration) }
        await #expect(throws: (any Error).self) { try await asset.loadTracks(withMediaType: .video) }
    }

    @Test func requestAuthorizationAsyncAnswersTheStatus() async throws {
        for level in [PHAccessLevel.readWrite, .addOnly] {
            let status = await PHPhotoLibrary.requestAuthorization(for: level)
            #expect(status == PHPhotoLibrary.authorizationStatus(for: level))
        }
    }
}
