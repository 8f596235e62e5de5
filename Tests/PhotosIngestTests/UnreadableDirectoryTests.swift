import Foundation
import Glibc
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// A directory that cannot be listed for a while (permissions, a stale mount) is unavailable, never
/// deleted: its assets keep their identifiers, favorites and albums, and come back when it reads.
///
/// Tests run as root, which `chmod 000` does not stop, so the failure comes through the crawler's
/// directory-listing seam with the errno a real failure gives; `PhotosCLITests` makes a real one
/// by running `photos scan` as `nobody`.
@Suite struct UnreadableDirectoryTests {
    /// A scanner whose listing of `failing` fails with `code`, as `opendir` or `readdir` would.
    static func scanner(_ tree: Tree, failing: Set<String>, code: Int32) -> FolderScanner {
        FolderScanner(database: tree.library.database) { path in
            failing.contains(path) ? .failure(DirectoryReadError(code: code)) : Crawler.readDirectory(path)
        }
    }

    /// The user albums holding `asset`.
    static func userAlbums(of asset: PHAsset, _ tree: Tree) -> [String] {
        PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: tree.options)
            .filter { $0.directoryPath == nil }.map(\.localIdentifier)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"), arguments: [EACCES, EIO, ESTALE, ENOTCONN])
    func anUnreadableDirectoryKeepsItsAssetsAlbumsAndUserState(code: Int32) throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Trip/a.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn2.jpg", to: "Trip/b.jpg")
        try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "Trip/Day 1/d.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "Other/c.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "Trip/a.jpg"))
        let d = try #require(tree.asset(at: "Trip/Day 1/d.jpg"))
        let tripAlbum = try #require(tree.album(at: "Trip"))
        let tripFolder = try #require(tree.folder(at: "Trip"))
        let dayAlbum = try #require(tree.album(at: "Trip/Day 1"))
        var best = ""
        try tree.library.performChangesAndWait {
            PHAssetChangeRequest(for: a).isFavorite = true
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            request.addAssets([a, d] as NSArray)
            best = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        let trip = tree.root.appendingPathComponent("Trip").path

        // Trip cannot be listed: nothing under it is removed or changed, all of it is unavailable.
        let token = try tree.library.database.currentToken()
        var report = try Self.scanner(tree, failing: [trip], code: code).scan(roots: [tree.root.path])
        #expect(report.removed == 0 && report.moved == 0 && report.ingested == 0, "\(report)")
        #expect(report.unreadableDirectories.map(\.path) == [trip])
        #expect(report.unreadableDirectories.first?.code == code)
        #expect(try tree.library.database.unreadableDirectories().map(\.path) == [trip])
        #expect(try tree.library.database.currentToken() == token, "no asset or album changed")
        let keptA = try #require(tree.asset(at: "Trip/a.jpg"))
        #expect(keptA.localIdentifier == a.localIdentifier && keptA.isFavorite && !keptA.isAvailable)
        #expect(Self.userAlbums(of: keptA, tree) == [best])
        let keptD = try #require(tree.asset(at: "Trip/Day 1/d.jpg"))
        #expect(keptD.localIdentifier == d.localIdentifier && !keptD.isAvailable)
        #expect(tree.album(at: "Trip")?.localIdentifier == tripAlbum.localIdentifier)
        #expect(tree.album(at: "Trip")?.estimatedAssetCount == 2)
        #expect(tree.folder(at: "Trip")?.localIdentifier == tripFolder.localIdentifier)
        #expect(tree.album(at: "Trip/Day 1")?.localIdentifier == dayAlbum.localIdentifier)
        #expect(tree.asset(at: "Other/c.jpg")?.isAvailable == true, "other directories are not affected")

        // Another change elsewhere rebuilds the mirror: the unreadable subtree still stays whole.
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("Other"))
        // Another size than c.jpg: a new inode number may be the one c.jpg freed (taken as a move).
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn2.jpg", to: "New/c2.jpg")
        // Kept: a one-off scan takes a file modified in the last half second as still being written
        // (FolderScanner's quiet time, measured against the clock): only time settles it.
        Thread.sleep(forTimeInterval: 0.6)  // Let the new file settle.
        report = try Self.scanner(tree, failing: [trip], code: code).scan(roots: [tree.root.path])
        #expect(report.removed == 1 && report.ingested == 1, "a directory really gone is still removed: \(report)")
        #expect(tree.album(at: "Other") == nil && tree.asset(at: "Other/c.jpg") == nil)
        #expect(tree.album(at: "Trip")?.localIdentifier == tripAlbum.localIdentifier)
        #expect(tree.folder(at: "Trip")?.localIdentifier == tripFolder.localIdentifier)
        #expect(tree.album(at: "Trip/Day 1")?.localIdentifier == dayAlbum.localIdentifier)
        #expect(tree.asset(at: "Trip/a.jpg")?.localIdentifier == a.localIdentifier)

        // Readable again: available, same identifiers, nothing re-read.
        report = try tree.scan()
        #expect(report.unreadableDirectories.isEmpty && report.removed == 0 && report.ingested == 0, "\(report)")
        #expect(try tree.library.database.unreadableDirectories().isEmpty)
        let back = try #require(tree.asset(at: "Trip/a.jpg"))
        #expect(back.localIdentifier == a.localIdentifier && back.isFavorite && back.isAvailable)
        #expect(Self.userAlbums(of: back, tree) == [best])
        #expect(tree.asset(at: "Trip/Day 1/d.jpg")?.isAvailable == true)
        #expect(tree.album(at: "Trip")?.localIdentifier == tripAlbum.localIdentifier)
        #expect(tree.album(at: "Trip/Day 1")?.localIdentifier == dayAlbum.localIdentifier)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aDaemonRescanOfAnUnreadableDirectoryKeepsItsAssets() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Trip/a.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "Other/c.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "Trip/a.jpg"))
        let album = try #require(tree.album(at: "Trip"))
        let trip = tree.root.appendingPathComponent("Trip").path

        // The daemon rescans only the directories it saw change.
        var report = try Self.scanner(tree, failing: [trip], code: EIO).scan(root: tree.root.path, directories: [trip])
        #expect(report.removed == 0 && report.unreadableDirectories.map(\.path) == [trip], "\(report)")
        #expect(tree.asset(at: "Trip/a.jpg")?.localIdentifier == a.localIdentifier)
        #expect(tree.asset(at: "Trip/a.jpg")?.isAvailable == false)
        #expect(tree.album(at: "Trip")?.localIdentifier == album.localIdentifier)

        report = try FolderScanner(database: tree.library.database).scan(root: tree.root.path, directories: [trip])
        #expect(report.removed == 0 && report.unreadableDirectories.isEmpty, "\(report)")
        #expect(tree.asset(at: "Trip/a.jpg")?.isAvailable == true)
        #expect(tree.asset(at: "Trip/a.jpg")?.localIdentifier == a.localIdentifier)
        #expect(try tree.library.database.unreadableDirectories().isEmpty)

        // Gone for real: removed, as before.
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("Trip"))
        report = try FolderScanner(database: tree.library.database).scan(root: tree.root.path, directories: [trip])
        #expect(report.removed == 1 && tree.asset(at: "Trip/a.jpg") == nil, "\(report)")
    }

    @Test func aListingThatFailsPartWayIsAnErrorNotAShortList() throws {
        let directory = try TemporaryDirectory()
        let crawler = Crawler { _ in .failure(DirectoryReadError(code: EIO)) }
        switch crawler.crawlFiles(in: directory.url.path) {
        case .success(let files): Issue.record("an unreadable directory listed as \(files.count) files")
        case .failure(let error): #expect(error.code == EIO)
        }
        let gone = Crawler { _ in .failure(DirectoryReadError(code: ENOENT)) }
        #expect((try? gone.crawlFiles(in: directory.url.path).get())?.isEmpty == true, "a directory gone is empty")
        #expect(Crawler().crawl(directory.url.path + "/missing") == nil, "a missing root is offline")
    }
}
