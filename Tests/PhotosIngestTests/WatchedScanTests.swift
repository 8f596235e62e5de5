import Foundation
import PhotosCore
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosIngest

/// A scan beside a watch walk still going on (a daemon's startup,
/// `FolderScanner.scan(roots:progress:watching:)`): each directory's files are listed only once the
/// walk has watched it, so a photo made there just before its watch is in the listing; and a
/// subdirectory made after the crawl, before its parent's watch, is scanned once the walk is done.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct WatchedScanTests {
    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"

    /// A walk the test plays: at each directory's wait, `watching` makes what the test says there,
    /// as if it were made a moment before the watch.
    final class PlayedWalk: WatchProgress {
        let watching: @Sendable (String) throws -> Void
        let waited = Mutex<[String]>([])
        let ends = Mutex(0)

        init(_ watching: @escaping @Sendable (String) throws -> Void) { self.watching = watching }

        func waitUntilWatched(_ directory: String) {
            waited.withLock { $0.append(directory) }
            try! watching(directory)
        }

        func waitUntilEnded() { ends.withLock { $0 += 1 } }
    }

    func scan(_ tree: Tree, _ walk: PlayedWalk) throws -> ScanReport {
        try FolderScanner(database: tree.library.database, quietTime: 0)
            .scan(roots: [tree.root.path], watching: [tree.root.path: walk])
    }

    @Test func eachDirectoryIsListedOnlyOnceItIsWatched() throws {
        let tree = try Tree()
        for path in ["2020/A/1.jpg", "2020/B/2.jpg", "2021/C/3.jpg"] { try tree.copy(Self.photo, to: path) }
        let source = try #require(Corpus.file(Self.photo))
        let root = tree.root.path
        let walk = PlayedWalk { directory in
            // A photo copied into each album after the crawl, a moment before the album's watch.
            guard directory.count > root.count + 5 else { return }
            try FileManager.default.copyItem(
                at: source, to: URL(fileURLWithPath: directory).appendingPathComponent("late.jpg"))
        }
        let report = try scan(tree, walk)
        #expect(report.ingested == 6 && report.seen == 6, "\(report)")
        for album in ["2020/A", "2020/B", "2021/C"] { #expect(tree.asset(at: "\(album)/late.jpg") != nil, "\(album)") }
        let directories = ["", "/2020", "/2020/A", "/2020/B", "/2021", "/2021/C"].map { tree.root.path + $0 }
        #expect(walk.waited.withLock { $0 }.sorted() == directories)
        #expect(walk.ends.withLock { $0 } == 0, "no directory appeared: one pass")
    }

    @Test func aSubdirectoryMadeBeforeItsParentsWatchIsScannedOnceTheWalkIsDone() throws {
        let tree = try Tree()
        try tree.copy(Self.photo, to: "2020/A/1.jpg")
        let made = Mutex(false)
        let root = tree.root
        let source = try #require(Corpus.file(Self.photo))
        let walk = PlayedWalk { directory in
            // After the crawl found 2020 with A alone, New/Deeper is made in it before 2020's watch.
            guard directory == root.path + "/2020", !made.withLock({ $0 }) else { return }
            made.withLock { $0 = true }
            let deeper = root.appendingPathComponent("2020/New/Deeper")
            try FileManager.default.createDirectory(at: deeper, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: deeper.appendingPathComponent("late.jpg"))
        }
        let report = try scan(tree, walk)
        #expect(tree.asset(at: "2020/New/Deeper/late.jpg") != nil)
        #expect(tree.album(at: "2020/New/Deeper") != nil)
        #expect(walk.ends.withLock { $0 } == 1, "the second pass waits for the walk's end")
        // The tree as it is now, each file read once.
        #expect(report.seen == 2 && report.ingested == 2 && report.unchanged == 0, "\(report)")
        let again = try FolderScanner(database: tree.library.database, quietTime: 0).scan(roots: [tree.root.path])
        #expect(again.seen == 2 && again.unchanged == 2 && again.ingested == 0, "\(again)")
    }
}
