import Dispatch
import Foundation
import Photos
import PhotosTestSupport
import Testing

// PhotoKitPrograms.swift (linked from PhotosTests) compiled in Swift 5 language mode and run:
// the three programs do in this mode what PhotoKitProgramTests holds them to in Swift 6 mode.

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PhotoKitSwift5ProgramTests {
    @Test func theExporterReviewerAndSyncLoopRunInSwift5Mode() async throws {
        let corpus = try await offPool {
            try CorpusLibrary(files: [
                "Phone/DCIM/100APPLE/IMG_0815.HEIC", "Camera/2021/Norway/aurora.jpg",
                "Phone/DCIM/100APPLE/IMG_3001.JPG",
            ])
        }
        let suite = "photos-tests.swift5-sync.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let sync = LibraryMirrorSync(defaults: defaults)
        #expect(try sync.run(with: corpus.library).fullResync)

        // The exporter: every dated asset, its bytes those of the corpus file.
        let destination = corpus.directory.path("Export")
        let exporter = PhotoArchiveExporter(library: corpus.library, destination: destination)
        let exported = try await offPool {
            try exporter.export(takenFrom: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 2e9))
        }
        #expect(exporter.failures.isEmpty)
        let aurora = try #require(exported.first { $0.files.first?.lastPathComponent == "aurora.jpg" })
        #expect(aurora.folder.path == destination.appendingPathComponent("2021/10").path)
        let original = try #require(Corpus.file("Camera/2021/Norway/aurora.jpg"))
        #expect(try Data(contentsOf: aurora.files[0]) == Data(contentsOf: original))

        // The reviewer: one asset kept, seen leaving one album and entering the other.
        let reviewer = AlbumReviewer(library: corpus.library)
        let assets = Array(PHAsset.fetchAssets(with: corpus.options))
        _ = try await offPool { try reviewer.setUp(reviewing: assets) }
        #expect(try await offPool { reviewer.noticed.wait(timeout: .now() + 300) == .success })
        let committed = try await offPool { () -> Bool in
            let done = DispatchSemaphore(value: 0)
            var committed = false
            reviewer.decide(assets[0], keep: true) { success, _ in
                committed = success
                done.signal()
            }
            done.wait()
            return committed
        }
        #expect(committed)
        #expect(try await offPool { reviewer.noticed.wait(timeout: .now() + 300) == .success })
        #expect(reviewer.notices.last?.inserted == ["Keep": [assets[0].localIdentifier]])
        #expect(reviewer.identifiers(in: "To Review") == assets.dropFirst().map(\.localIdentifier))

        // The sync loop: a favourite made since the last run, read through the stored token.
        try await offPool {
            try corpus.library.performChangesAndWait { PHAssetChangeRequest(for: assets[1]).isFavorite = true }
        }
        let next = LibraryMirrorSync(defaults: defaults)
        let report = try next.run(with: corpus.reopen())
        #expect(!report.fullResync && report.updated.contains(assets[1].localIdentifier))
        #expect(next.mirror[assets[1].localIdentifier]?.favorite == true)
        #expect(next.mirror.count == 3)
    }
}
