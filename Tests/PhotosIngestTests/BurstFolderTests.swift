import Foundation
import Photos
import PhotosIngest
import PhotosTestSupport
import Testing

/// A burst is a folder's: its frames in two folders (a copy, a frame moved out) are a burst in
/// each, with a representative in each, so that a fetch showing representatives only (PhotoKit's
/// default) hides neither folder's photos.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct BurstFolderTests {
    private static let frames = (1...4).map { "IMG_300\($0).JPG" }

    private func putBurst(in directory: String, of tree: Tree) throws {
        for frame in Self.frames { try tree.copy("Phone/DCIM/100APPLE/\(frame)", to: "\(directory)/\(frame)") }
    }

    /// The paths of the assets a default fetch (one frame a burst) shows, relative to the root.
    private func shown(_ tree: Tree, in album: PHAssetCollection? = nil) -> [String] {
        let assets =
            album.map { PHAsset.fetchAssets(in: $0, options: tree.options) } ?? PHAsset.fetchAssets(with: tree.options)
        return assets.compactMap { asset in
            PHAssetResource.assetResources(for: asset).first.map {
                String($0.fileURL.path.dropFirst(tree.root.path.count + 1))
            }
        }.sorted()
    }

    @Test func aBurstCopiedToAnotherFolderHasARepresentativeInEach() throws {
        let tree = try Tree()
        try putBurst(in: "A", of: tree)
        try tree.scan()
        #expect(shown(tree) == ["A/IMG_3001.JPG"])
        try putBurst(in: "B", of: tree)
        try tree.scan()
        #expect(shown(tree) == ["A/IMG_3001.JPG", "B/IMG_3001.JPG"])
        let b = try #require(tree.album(at: "B"))
        #expect(shown(tree, in: b) == ["B/IMG_3001.JPG"], "the copy's album is not empty")
        let burst = try #require(tree.asset(at: "A/IMG_3001.JPG")?.burstIdentifier)
        let options = tree.options
        options.includeAllBurstAssets = true
        #expect(PHAsset.fetchAssets(withBurstIdentifier: burst, options: options).count == 8, "one identifier")
    }

    @Test func aRepresentativeMovedToAnotherFolderLeavesOneBehind() throws {
        let tree = try Tree()
        try putBurst(in: "A", of: tree)
        try tree.scan()
        try FileManager.default.createDirectory(
            at: tree.root.appendingPathComponent("C"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: tree.root.appendingPathComponent("A/IMG_3001.JPG"),
            to: tree.root.appendingPathComponent("C/IMG_3001.JPG"))
        let report = try tree.scan()
        #expect(report.moved == 1, "\(report)")
        #expect(shown(tree) == ["A/IMG_3002.JPG", "C/IMG_3001.JPG"])
        // Moved back, the burst is one folder's again, with one representative.
        try FileManager.default.moveItem(
            at: tree.root.appendingPathComponent("C/IMG_3001.JPG"),
            to: tree.root.appendingPathComponent("A/IMG_3001.JPG"))
        try tree.scan()
        #expect(shown(tree) == ["A/IMG_3001.JPG"])
    }
}
