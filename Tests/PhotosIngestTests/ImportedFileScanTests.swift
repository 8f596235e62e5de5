import Foundation
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import Testing

@testable import PhotosIngest

/// A file a live import placed and has already scanned (its journal entry still there, its
/// process running) is left to the import by every other scan, on disk and in the store: not read
/// as new, and not taken for gone. photosd's own scans, woken by the files the import links, ran
/// exactly so, and removed the import's assets a moment after it made them.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ImportedFileScanTests {
    enum Kind: String, CaseIterable { case files, directories, roots }

    @Test(arguments: Kind.allCases)
    func aFileALiveImportScannedIsNeitherReadAgainNorRemoved(kind: Kind) throws {
        let directory = try TemporaryDirectory(prefix: "photos-imported-scan")
        let root = directory.path("Pictures").path
        let folder = root + "/2008"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = folder + "/IMG_1.JPG"
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")).path, toPath: photo)
        let library = try LibraryDatabase(path: directory.path("library.sqlite").path)
        // The import's own scan, which names where the file came from, takes it.
        let source = directory.path("Drop/IMG_1.JPG").path
        let imported = try FolderScanner(database: library, quietTime: 0, origins: [photo: source])
            .scan(root: root, files: [photo])
        #expect(imported.ingested == 1)
        // Its journal entry is not finished yet: this process, the importer, runs.
        _ = try library.journalAhead([
            FileJournalEntry(
                operation: .importFile, destination: photo, source: source, removeSource: true,
                owner: FileOperations.processID)
        ])

        let other = FolderScanner(database: library, quietTime: 0)
        let report =
            switch kind {
            case .files: try other.scan(root: root, files: [photo])
            case .directories: try other.scan(root: root, directories: [folder])
            case .roots: try other.scan(roots: [root])
            }
        #expect(report.removed == 0 && report.ingested == 0, "\(report)")
        #expect(try library.assetCount(under: root) == 1, "the import's asset stays")
    }
}
