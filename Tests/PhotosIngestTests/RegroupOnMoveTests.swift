import Foundation
import Photos
import PhotosIngest
import PhotosSidecars
import PhotosTestSupport
import Testing

/// Files moved beside files of another asset they pair with are grouped as a scan of the folder
/// groups them: one asset, which keeps the identifier of the asset of its photo and takes in what
/// the user set on the other (favorite, hidden, stars, user albums). Before, the two stayed two
/// assets where a scan into a new library made one.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RegroupOnMoveTests {
    private func move(_ from: String, _ to: String, in tree: Tree) throws {
        let destination = tree.root.appendingPathComponent(to)
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: tree.root.appendingPathComponent(from), to: destination)
    }

    /// The user album named `title`, made with `assets` in it.
    private func album(_ title: String, with assets: [PHAsset], in tree: Tree) throws -> PHAssetCollection {
        var identifier = ""
        try tree.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            request.addAssets(assets as NSArray)
            identifier = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        return try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: tree.options)
                .firstObject)
    }

    private func count(_ tree: Tree) -> Int { PHAsset.fetchAssets(with: tree.options).count }

    @Test func aJPEGMovedBesideItsRAWJoinsItWithTheRAWsState() throws {
        let tree = try Tree()
        try tree.copy("Camera/RAW/IMG_0350.CR2", to: "raw/IMG_0350.CR2")
        try tree.copy("Camera/2008/Misc/Canon_40D.jpg", to: "jpeg/IMG_0350.JPG")
        try tree.copy("Camera/2008/Misc/Canon_40D.jpg", to: "jpeg/other.jpg")
        try tree.scan()
        let raw = try #require(tree.asset(at: "raw/IMG_0350.CR2"))
        let jpeg = try #require(tree.asset(at: "jpeg/IMG_0350.JPG"))
        let other = try #require(tree.asset(at: "jpeg/other.jpg"))
        try tree.library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: raw)
            request.isFavorite = true
            request.rating = .four
        }
        // An album holding the RAW alone, one holding both (the JPEG's place is kept), and the
        // RAW's place between two others.
        let best = try album("Best", with: [other, raw], in: tree)
        let both = try album("Both", with: [jpeg, raw, other], in: tree)

        try move("jpeg/IMG_0350.JPG", "raw/IMG_0350.JPG", in: tree)
        let report = try tree.scan()
        #expect(report.moved == 1 && report.ingested == 0, "\(report)")

        let pair = try #require(tree.asset(at: "raw/IMG_0350.JPG"))
        #expect(pair.localIdentifier == jpeg.localIdentifier, "the photo's asset is the pair's")
        #expect(PHAssetResource.assetResources(for: pair).map(\.type) == [.photo, .alternatePhoto])
        #expect(tree.asset(at: "raw/IMG_0350.CR2") == pair)
        #expect(pair.isFavorite && pair.rating == .four, "what the user set on the RAW's asset")
        #expect(
            PHAsset.fetchAssets(in: best, options: tree.options).map(\.localIdentifier) == [
                other.localIdentifier, pair.localIdentifier,
            ])
        #expect(
            PHAsset.fetchAssets(in: both, options: tree.options).map(\.localIdentifier) == [
                pair.localIdentifier, other.localIdentifier,
            ])
        #expect(count(tree) == 2)
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [raw.localIdentifier], options: tree.options).count == 0)

        // A scan of the same tree into a new library makes as many assets.
        let fresh = try Tree()
        try FileManager.default.removeItem(at: fresh.root)
        try FileManager.default.copyItem(at: tree.root, to: fresh.root)
        try fresh.scan()
        #expect(count(fresh) == count(tree))
    }

    @Test func aLivePhotosHalvesMovedOneAtATimeAreOneAssetAgain() throws {
        let tree = try Tree()
        try tree.copy("Phone/DCIM/100APPLE/IMG_5195.HEIC", to: "a/IMG_5195.HEIC")
        try tree.copy("Phone/DCIM/100APPLE/IMG_5195.MOV", to: "a/IMG_5195.MOV")
        try tree.scan()
        let live = try #require(tree.asset(at: "a/IMG_5195.HEIC"))
        #expect(live.mediaSubtypes.contains(.photoLive))

        // The still first: the movie left behind is a video of its own, which the user marks.
        try move("a/IMG_5195.HEIC", "b/IMG_5195.HEIC", in: tree)
        try tree.scan()
        let video = try #require(tree.asset(at: "a/IMG_5195.MOV"))
        #expect(video.localIdentifier != live.localIdentifier && video.mediaType == .video)
        try tree.library.performChangesAndWait {
            PHAssetChangeRequest(for: video).isHidden = true
        }
        let kept = try album("Kept", with: [video], in: tree)

        // Then the movie.
        try move("a/IMG_5195.MOV", "b/IMG_5195.MOV", in: tree)
        try tree.scan()
        let joined = try #require(tree.asset(at: "b/IMG_5195.MOV"))
        #expect(joined.localIdentifier == live.localIdentifier)
        #expect(joined.mediaSubtypes.contains(.photoLive))
        #expect(PHAssetResource.assetResources(for: joined).map(\.type) == [.photo, .pairedVideo])
        #expect(joined.isHidden, "the video's hidden flag")
        let all = tree.options
        all.includeHiddenAssets = true
        #expect(PHAsset.fetchAssets(in: kept, options: all).map(\.localIdentifier) == [live.localIdentifier])
        #expect(PHAsset.fetchAssets(with: all).count == 1)
    }

    /// The state the asset took reaches its photo's sidecar, so that a rebuild finds it: the still's
    /// sidecar said no stars, the movie's five; once joined, the still's says five, and a scan of
    /// the folder into a new library gives the Live Photo its five stars.
    @Test func theJoinedStateReachesThePhotosSidecar() throws {
        let tree = try Tree()
        try tree.copy("Phone/DCIM/100APPLE/IMG_5195.HEIC", to: "b/IMG_5195.HEIC")
        try tree.copy("Phone/DCIM/100APPLE/IMG_5195.MOV", to: "c/IMG_5195.MOV")
        let still = tree.root.appendingPathComponent("b/IMG_5195.HEIC.xmp").path
        try SidecarFile.write(SidecarState(rating: 0, isFavorite: false), to: still)
        try SidecarFile.write(SidecarState(rating: 5), to: tree.root.appendingPathComponent("c/IMG_5195.MOV.xmp").path)
        try tree.scan()
        #expect(tree.asset(at: "c/IMG_5195.MOV")?.rating == .five)

        try move("c/IMG_5195.MOV", "b/IMG_5195.MOV", in: tree)
        try move("c/IMG_5195.MOV.xmp", "b/IMG_5195.MOV.xmp", in: tree)
        let report = try tree.scan()
        let photo = tree.root.appendingPathComponent("b/IMG_5195.HEIC").path
        #expect(report.joinedPhotos == [photo], "\(report.joinedPhotos)")
        #expect(tree.asset(at: "b/IMG_5195.HEIC")?.rating == .five)
        let sync = SidecarSync(database: tree.library.database)
        let outcomes = sync.syncJoinedPhotos(at: report.joinedPhotos) { _ in true }
        #expect(try outcomes.map { try $0.outcome.get()?.wrote } == [true])
        #expect(try SidecarFile.read(still)?.state.rating == 5)

        let fresh = try Tree()
        try FileManager.default.removeItem(at: fresh.root)
        try FileManager.default.copyItem(at: tree.root, to: fresh.root)
        try fresh.scan()
        let rebuilt = try #require(fresh.asset(at: "b/IMG_5195.MOV"))
        #expect(rebuilt.mediaSubtypes.contains(.photoLive) && rebuilt.rating == .five)
    }
}
