import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// A whole-root scan walks a directory at a time (issue 15): what it holds is one directory's files
/// and rows and the batches in flight, never the tree's; and a file keeps its asset whichever way
/// through the walk it moved.
@Suite struct StreamingScanTests {
    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"

    func scanner(_ tree: Tree) -> FolderScanner {
        FolderScanner(database: tree.library.database, batchSize: 10, listingAhead: 25, quietTime: 0)
    }

    /// 24 directories of 25 photos, in 3 folders: 600 files, batches of 10, 25 files listed ahead.
    /// The scan holds at most a directory being compared, the next one listed ahead of it, and two
    /// being read or committed (a batch never splits a directory), and the store's rows of one
    /// directory; a walk that held the tree would count 600.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aScanHoldsADirectoryAndTheBatchesInFlightNeverTheTree() throws {
        let tree = try Tree()
        let source = try #require(Corpus.file(Self.photo))
        for year in 0..<3 {
            for album in 0..<8 {
                let directory = tree.root.appendingPathComponent("\(2020 + year)/Album \(album)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for photo in 0..<25 {
                    try FileManager.default.copyItem(
                        at: source, to: directory.appendingPathComponent("IMG_\(photo).jpg"))
                }
            }
        }
        let scanner = scanner(tree)
        let first = try scanner.scan(roots: [tree.root.path])
        #expect(first.ingested == 600 && first.rejected == 0, "\(first)")
        #expect(scanner.lastFootprint.files <= 4 * 25, "files held: \(scanner.lastFootprint)")
        #expect(scanner.lastFootprint.rows == 0, "a first scan finds no rows")
        #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: tree.options).count == 24)

        let again = try scanner.scan(roots: [tree.root.path])
        #expect(again.unchanged == 600 && again.ingested == 0 && again.removed == 0, "\(again)")
        #expect(scanner.lastFootprint.rows == 25, "rows held: \(scanner.lastFootprint)")
        // The directory compared, and the next when its listing was ready first.
        #expect((25...50).contains(scanner.lastFootprint.files), "files held: \(scanner.lastFootprint)")
    }

    /// Moves to a directory the walk compares before or after the one left, a directory renamed,
    /// a file moved into a new subdirectory, a deletion, and a hard link to a file still in place
    /// (a new asset: a path still on disk is never where another moved from).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aMovedFileKeepsItsAssetWhicheverWayThroughTheWalkItWent() throws {
        let tree = try Tree()
        for path in ["A/1.jpg", "Z/2.jpg", "Z/6.jpg", "M/3.jpg", "M/4.jpg", "Old/5.jpg"] {
            try tree.copy(Self.photo, to: path)
        }
        try scanner(tree).scan(roots: [tree.root.path])
        let identifiers = try Dictionary(
            uniqueKeysWithValues: ["A/1.jpg", "Z/2.jpg", "Z/6.jpg", "M/3.jpg", "Old/5.jpg"].map {
                ($0, try #require(tree.asset(at: $0)).localIdentifier)
            })
        let manager = FileManager.default
        func move(_ from: String, _ to: String) throws {
            let destination = tree.root.appendingPathComponent(to)
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.moveItem(at: tree.root.appendingPathComponent(from), to: destination)
        }
        try move("Z/2.jpg", "A/2.jpg")  // From a directory compared later.
        try move("A/1.jpg", "Z/1.jpg")  // From one compared earlier.
        try move("Old", "New")  // A directory renamed: the old one is gone.
        try move("M/3.jpg", "M/sub/3.jpg")  // Into a new subdirectory.
        try manager.removeItem(at: tree.root.appendingPathComponent("M/4.jpg"))
        try manager.linkItem(
            at: tree.root.appendingPathComponent("Z/6.jpg"), to: tree.root.appendingPathComponent("A/6.jpg"))

        let report = try scanner(tree).scan(roots: [tree.root.path])
        #expect(report.moved == 4 && report.removed == 1 && report.ingested == 1, "\(report)")
        for (from, to) in [
            ("Z/2.jpg", "A/2.jpg"), ("A/1.jpg", "Z/1.jpg"), ("Old/5.jpg", "New/5.jpg"), ("M/3.jpg", "M/sub/3.jpg"),
        ] {
            #expect(tree.asset(at: to)?.localIdentifier == identifiers[from], "\(from) → \(to)")
        }
        #expect(tree.asset(at: "Z/6.jpg")?.localIdentifier == identifiers["Z/6.jpg"], "the linked file stays itself")
        let link = try #require(tree.asset(at: "A/6.jpg"))
        #expect(link.localIdentifier != identifiers["Z/6.jpg"], "a hard link to a file in place is a new asset")
        #expect(tree.album(at: "Old") == nil && tree.album(at: "New") != nil)
        #expect(tree.asset(at: "M/4.jpg") == nil)
    }
}
