import Foundation
import Glibc
import Photos
import PhotosIngest
import PhotosTestSupport
import Testing

/// A photo is its file (device and inode), not its path: where a path holds another file than the
/// one the library knew there, the scan follows the files, whichever directory it compares first.
@Suite struct FileIdentityTests {
    private static let first = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"
    private static let second = "Camera/2002/Fujifilm/DSCF0001.JPG"

    private func rename(_ tree: Tree, _ from: String, _ to: String) throws {
        try FileManager.default.moveItem(
            at: tree.root.appendingPathComponent(from), to: tree.root.appendingPathComponent(to))
    }

    private func favorite(_ asset: PHAsset, in tree: Tree) throws {
        try tree.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func namesSwappedKeepEachPhotosAsset() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.copy(Self.second, to: "x/b.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        let b = try #require(tree.asset(at: "x/b.jpg"))
        try favorite(a, in: tree)

        try rename(tree, "x/a.jpg", "x/t.jpg")
        try rename(tree, "x/b.jpg", "x/a.jpg")
        try rename(tree, "x/t.jpg", "x/b.jpg")
        let report = try tree.scan()
        #expect(report.moved == 2 && report.updated == 0 && report.ingested == 0 && report.removed == 0, "\(report)")
        let nowB = try #require(tree.asset(at: "x/b.jpg"))
        let nowA = try #require(tree.asset(at: "x/a.jpg"))
        #expect(nowB.localIdentifier == a.localIdentifier && nowB.isFavorite)
        #expect(nowA.localIdentifier == b.localIdentifier && !nowA.isFavorite)
        #expect(nowB.pixelWidth == a.pixelWidth && nowA.pixelWidth == b.pixelWidth, "the metadata went with the file")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aPhotoMovedOverAnotherTakesItsAssetAlong() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.copy(Self.second, to: "y/b.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        let b = try #require(tree.asset(at: "y/b.jpg"))
        try favorite(b, in: tree)

        // `mv y/b.jpg x/a.jpg`: a.jpg's photo is gone, b's is at its name.
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("x/a.jpg"))
        try rename(tree, "y/b.jpg", "x/a.jpg")
        let report = try tree.scan()
        #expect(report.moved == 1 && report.removed == 1 && report.updated == 0 && report.ingested == 0, "\(report)")
        let there = try #require(tree.asset(at: "x/a.jpg"))
        #expect(there.localIdentifier == b.localIdentifier && there.isFavorite)
        let gone = PHAsset.fetchAssets(withLocalIdentifiers: [a.localIdentifier], options: tree.options)
        #expect(gone.count == 0)
    }

    /// A folder renamed, and a copy of one of its photos (`cp -p`: same size and time, another
    /// inode) put under the folder's old name: the renamed folder's photos keep their assets and
    /// its album; the copy is a new asset in a new album. The old name sorts both before and after
    /// the new one, so the scan meets the copy first and last.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"), arguments: ["a-renamed", "z-renamed"])
    func aCopyAtARenamedFoldersOldNameIsANewAsset(renamedTo: String) throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "m/a.jpg")
        try tree.copy(Self.second, to: "m/b.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "m/a.jpg"))
        let album = try #require(tree.album(at: "m"))
        try favorite(a, in: tree)

        try rename(tree, "m", renamedTo)
        try tree.copy(Self.first, to: "m/a.jpg")
        let original = tree.root.appendingPathComponent("\(renamedTo)/a.jpg").path
        let time = try #require(try FileManager.default.attributesOfItem(atPath: original)[.modificationDate] as? Date)
        try FileManager.default.setAttributes(
            [.modificationDate: time], ofItemAtPath: tree.root.appendingPathComponent("m/a.jpg").path)
        let report = try tree.scan()
        #expect(report.moved == 2 && report.ingested == 1 && report.updated == 0 && report.removed == 0, "\(report)")
        let moved = try #require(tree.asset(at: "\(renamedTo)/a.jpg"))
        #expect(moved.localIdentifier == a.localIdentifier && moved.isFavorite)
        #expect(tree.album(at: renamedTo)?.localIdentifier == album.localIdentifier)
        let copy = try #require(tree.asset(at: "m/a.jpg"))
        #expect(copy.localIdentifier != a.localIdentifier && !copy.isFavorite)
        let newAlbum = try #require(tree.album(at: "m"))
        #expect(newAlbum.localIdentifier != album.localIdentifier && newAlbum.estimatedAssetCount == 1)
        #expect(tree.album(at: renamedTo)?.estimatedAssetCount == 2)

        // Nothing left to settle.
        let again = try tree.scan()
        #expect(again.unchanged == 3 && again.moved == 0 && again.ingested == 0, "\(again)")
    }

    /// An editor saving through a temporary file renamed over the photo (a new inode the library
    /// never saw): the same photo written anew, its asset kept.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aSaveThroughATemporaryFileKeepsTheAsset() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        try favorite(a, in: tree)

        try tree.copy(Self.second, to: "x/.a.jpg.tmp")
        let temporary = tree.root.appendingPathComponent("x/.a.jpg.tmp").path
        #expect(Glibc.rename(temporary, tree.root.appendingPathComponent("x/a.jpg").path) == 0)
        let report = try tree.scan()
        #expect(report.updated == 1 && report.moved == 0 && report.ingested == 0 && report.removed == 0, "\(report)")
        let saved = try #require(tree.asset(at: "x/a.jpg"))
        #expect(saved.localIdentifier == a.localIdentifier && saved.isFavorite)
        #expect(saved.pixelWidth != a.pixelWidth, "read again")
        let again = try tree.scan()
        #expect(again.unchanged == 1 && again.updated == 0, "the new inode is known: \(again)")
    }

    /// A photo gone, and a new file at another path that has its inode number (ext4 hands a freed
    /// inode to the next file made), its size, but another time: another photo, read as new, not
    /// the gone one moved. (Made here with a link, so that the inode is the same for sure.)
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aNewFileWithAGonePhotosInodeButAnotherTimeIsNotThatPhoto() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        try favorite(a, in: tree)

        let (old, new) = (
            tree.root.appendingPathComponent("x/a.jpg").path, tree.root.appendingPathComponent("x/n.jpg").path
        )
        #expect(link(old, new) == 0 && unlink(old) == 0)
        // Other bytes of the same length written in place (a byte of the picture changed), and a
        // later time.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: new))
        bytes[bytes.count - 100] ^= 0xFF
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: new))
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: new)

        let report = try tree.scan()
        #expect(report.moved == 0 && report.removed == 1, "\(report)")
        let n = try #require(tree.asset(at: "x/n.jpg"))
        #expect(n.localIdentifier != a.localIdentifier && !n.isFavorite)
    }
}
