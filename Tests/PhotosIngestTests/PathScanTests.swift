import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// `scan(root:files:)`: the daemon looks at the files its events named, not at their whole directory.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PathScanTests {
    let tree: Tree
    let scanner: FolderScanner

    init() throws {
        tree = try Tree()
        scanner = FolderScanner(database: tree.library.database, quietTime: 0)
    }

    func path(_ relative: String) -> String { tree.root.appendingPathComponent(relative).path }

    @Test func onlyTheNamedFilesAreReadAndTheyJoinTheirAlbum() throws {
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Trip/one.jpg")
        try tree.scan()
        let album = try #require(tree.album(at: "Trip"))
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "Trip/two.jpg")
        // Here without an event: a path scan does not list the directory, so it does not see it.
        try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "Trip/unnamed.jpg")

        let report = try scanner.scan(root: tree.root.path, files: [path("Trip/two.jpg")])
        #expect(report.ingested == 1 && report.seen == 1, "\(report)")
        let two = try #require(tree.asset(at: "Trip/two.jpg"))
        #expect(tree.asset(at: "Trip/unnamed.jpg") == nil)
        let members = PHAsset.fetchAssets(in: album, options: tree.options)
        #expect(members.count == 2 && members.contains(two))

        // Named again unchanged: nothing is written.
        let token = try tree.library.database.currentToken()
        #expect(try scanner.scan(root: tree.root.path, files: [path("Trip/two.jpg")]).unchanged == 1)
        #expect(try tree.library.database.currentToken() == token)
    }

    /// A newer photo is appended to its album; an older one puts the album back in date order.
    @Test func arrivalsKeepTheirAlbumInDateOrderNewerOrOlder() throws {
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "Trip/2002.jpg")
        try tree.scan()
        let album = try #require(tree.album(at: "Trip"))
        for name in ["2008", "1997"] {
            let source =
                name == "2008" ? "Camera/2008/Death Valley/FurnaceCreekInn.jpg" : "Camera/1997/Ricoh/RIMG0001.JPG"
            try tree.copy(source, to: "Trip/\(name).jpg")
            #expect(try scanner.scan(root: tree.root.path, files: [path("Trip/\(name).jpg")]).ingested == 1)
        }
        let members = PHAsset.fetchAssets(in: album, options: tree.options)
        let expected = try ["1997", "2002", "2008"].map { try #require(tree.asset(at: "Trip/\($0).jpg")) }
        #expect((0..<members.count).map { members.object(at: $0) } == expected)
    }

    @Test func aMoveKeepsIdentityAndADeletionRemovesAndAlbumsFollow() throws {
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "a/one.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "b/two.jpg")
        try tree.scan()
        let one = try #require(tree.asset(at: "a/one.jpg"))
        try FileManager.default.moveItem(atPath: path("a/one.jpg"), toPath: path("b/one.jpg"))
        try FileManager.default.removeItem(atPath: path("b/two.jpg"))

        let report = try scanner.scan(
            root: tree.root.path, files: [path("a/one.jpg"), path("b/one.jpg"), path("b/two.jpg")])
        #expect(report.moved == 1 && report.removed == 1 && report.ingested == 0, "\(report)")
        #expect(tree.asset(at: "b/one.jpg")?.localIdentifier == one.localIdentifier)
        #expect(tree.asset(at: "b/two.jpg") == nil)
        #expect(tree.album(at: "a") == nil, "a directory that lost its last photo loses its album")
        #expect(tree.album(at: "b")?.estimatedAssetCount == 1)
    }

    @Test func aLivePhotosMovieArrivingAfterItsStillJoinsItsAsset() throws {
        try tree.copy("Phone/DCIM/100APPLE/IMG_5195.HEIC", to: "Phone/IMG_5195.HEIC")
        for index in 0..<20 { try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Phone/\(index).jpg") }
        try tree.scan()
        let still = try #require(tree.asset(at: "Phone/IMG_5195.HEIC"))
        #expect(!still.mediaSubtypes.contains(.photoLive))

        try tree.copy("Phone/DCIM/100APPLE/IMG_5195.MOV", to: "Phone/IMG_5195.MOV")
        _ = try scanner.scan(root: tree.root.path, files: [path("Phone/IMG_5195.MOV")])
        let live = try #require(tree.asset(at: "Phone/IMG_5195.MOV"))
        #expect(live.localIdentifier == still.localIdentifier)
        #expect(live.mediaSubtypes.contains(.photoLive))
        #expect(PHAsset.fetchAssets(with: tree.options).count == 21)
    }

    @Test func aMarkerInTheDirectorySendsItToAWholeDirectoryScan() throws {
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Private/one.jpg")
        try tree.scan()
        #expect(tree.asset(at: "Private/one.jpg") != nil)
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "Private/two.jpg")
        _ = FileManager.default.createFile(atPath: path("Private/.nomedia"), contents: Data())

        _ = try scanner.scan(root: tree.root.path, files: [path("Private/two.jpg")])
        #expect(tree.asset(at: "Private/two.jpg") == nil)
        #expect(tree.asset(at: "Private/one.jpg") == nil, "the directory is excluded whole, as a listing finds it")
    }
}
