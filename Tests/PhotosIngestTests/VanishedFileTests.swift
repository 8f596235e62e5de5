import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import PhotosIngest

/// A file its writer renamed away while the scanner read it (exiftool's `_exiftool_tmp`, an
/// editor's temporary file) is gone, not "still being written": the scan does not wait for it.
@Suite struct VanishedFileTests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFileRenamedAwayWhileReadIsVanishedNotChanging() throws {
        let directory = try TemporaryDirectory(prefix: "photos-vanished")
        let library = try LibraryDatabase(path: directory.path("library.sqlite").path)
        let scanner = FolderScanner(database: library, quietTime: 0)
        let photo = directory.path("a.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")), to: photo)
        let crawled = try #require(try Crawler().crawlFile(at: photo.path).get())

        let read = scanner.read([crawled])
        guard case .media = read[0] else {
            Issue.record("a settled photo reads as media, not \(read[0])")
            return
        }
        try FileManager.default.moveItem(at: photo, to: directory.path("b.jpg"))
        let again = scanner.read([crawled])
        guard case .vanished = again[0] else {
            Issue.record("a photo renamed away reads as vanished, not \(again[0])")
            return
        }
        #expect(FolderScanner.settlement(of: crawled, quietTime: 0) == .gone)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFileThatChangedSizeIsStillChanging() throws {
        let directory = try TemporaryDirectory(prefix: "photos-vanished")
        let photo = directory.path("a.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")), to: photo)
        let crawled = try #require(try Crawler().crawlFile(at: photo.path).get())
        #expect(FolderScanner.settlement(of: crawled, quietTime: 0) == .settled)
        #expect(FolderScanner.settlement(of: crawled, quietTime: 60) == .changing, "modified a moment ago")
        let handle = try FileHandle(forWritingTo: photo)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        #expect(FolderScanner.settlement(of: crawled, quietTime: 0) == .changing)
    }

    @Test func exiftoolsTemporaryFileIsIgnored() {
        let rules = IgnoreRules()
        #expect(rules.isIgnoredName("IMG_0001.JPG.xmp_exiftool_tmp"))
        #expect(rules.isIgnoredName("IMG_0001.JPG_exiftool_tmp"))
        #expect(!rules.isIgnoredName("IMG_0001.JPG.xmp"))
    }
}
