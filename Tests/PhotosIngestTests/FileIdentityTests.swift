import Foundation
import Glibc
import Photos
@testable import PhotosIngest
@testable import PhotosStore
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

    /// Sets the birth time the store keeps for every file (nil: none, as a file system without
    /// birth times, or a library kept before they were, has).
    private func storeBirthTimes(_ time: Int64?, in tree: Tree) throws {
        _ = try tree.library.database.bookkeeping { db in
            try db.execute("UPDATE resource SET birthTime = ?", [.int(time)])
        }
    }

    private func storedBirthTimes(in tree: Tree) throws -> [Int64?] {
        try tree.library.database.bookkeeping { db in
            try db.rows("SELECT birthTime FROM resource ORDER BY id", []) { $0.optionalInt64(0) }
        }
    }

    /// Overwrites `relative`'s bytes in place (the same inode, as an editor saving into the file
    /// does), one byte of its picture changed, and dates it an hour later.
    private func editInPlace(_ relative: String, in tree: Tree) throws {
        let path = tree.root.appendingPathComponent(relative).path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 100] ^= 0xFF
        bytes.append(contentsOf: [0xFF, 0xD9])  // Another size too: bytes after the picture's end.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: path)
    }

    /// The crawl gives each file its birth time, which a rename keeps and a copy does not.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFilesBirthTimeFollowsItThroughARenameNotIntoACopy() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        let path = tree.root.appendingPathComponent("x/a.jpg").path
        guard case .success(let file?) = Crawler().crawlFile(at: path), let born = file.birthTime else {
            Issue.record("no birth time for \(path): the tests' file system keeps them (ext4, tmpfs)")
            return
        }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        #expect(abs(now - born) < 60_000_000_000, "born now: \(born) against \(now)")
        try rename(tree, "x/a.jpg", "x/b.jpg")
        let renamed = Crawler().crawlFile(at: tree.root.appendingPathComponent("x/b.jpg").path)
        #expect((try? renamed.get())??.birthTime == born)
        try tree.copy(Self.first, to: "x/c.jpg")
        let copy = Crawler().crawlFile(at: tree.root.appendingPathComponent("x/c.jpg").path)
        #expect((try? copy.get())??.birthTime != born)
    }

    /// A photo renamed, then saved in place by an editor (other bytes, another size and time, the
    /// same inode): its birth time says it is the same file, so its asset follows it, with its
    /// favorite and its user album, and is read again.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aPhotoRenamedThenEditedInPlaceKeepsItsAsset() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        try favorite(a, in: tree)
        var albumID = ""
        try tree.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Keep")
            request.addAssets([a] as NSArray)
            albumID = request.placeholderForCreatedAssetCollection.localIdentifier
        }

        try rename(tree, "x/a.jpg", "x/n.jpg")
        try editInPlace("x/n.jpg", in: tree)
        let report = try tree.scan()
        #expect(report.moved == 1 && report.ingested == 0 && report.removed == 0, "\(report)")
        let n = try #require(tree.asset(at: "x/n.jpg"))
        #expect(n.localIdentifier == a.localIdentifier && n.isFavorite)
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: tree.options).firstObject)
        #expect(PHAsset.fetchAssets(in: album, options: tree.options).firstObject?.localIdentifier == a.localIdentifier)
        let again = try tree.scan()
        #expect(again.unchanged == 1 && again.updated == 0 && again.moved == 0, "read again after the move: \(again)")
    }

    /// A photo gone, and a new file at another path with its inode number, its size and its
    /// modification time, but born at another time: a file given the freed inode (ext4 hands one
    /// to the next file made), such as a backup restored with `cp -p` or rsync. Another photo,
    /// read as new, not the gone one moved. (Made here by renaming the photo and giving the store
    /// another birth time for it: the inode, size and time are then the same for sure.)
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFileGivenAGonePhotosInodeIsAnotherPhotoThoughItsSizeAndTimeAreTheSame() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        try favorite(a, in: tree)
        let born = try #require(try storedBirthTimes(in: tree).first ?? nil)
        try storeBirthTimes(born - 86_400_000_000_000, in: tree)

        try rename(tree, "x/a.jpg", "x/n.jpg")
        let report = try tree.scan()
        #expect(report.moved == 0 && report.removed == 1 && report.ingested == 1, "\(report)")
        let n = try #require(tree.asset(at: "x/n.jpg"))
        #expect(n.localIdentifier != a.localIdentifier && !n.isFavorite)
    }

    /// `ln a.jpg b.jpg` (another folder), both scanned: two assets of one file. Then `rm a.jpg`:
    /// the file is still there under b.jpg, so what the user set on a's asset (its favorite, stars
    /// and user album) passes to b's as a's goes.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aHardLinkedPhotoRemovedUnderOneNameKeepsItsStateUnderTheOther() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try FileManager.default.createDirectory(
            at: tree.root.appendingPathComponent("y"), withIntermediateDirectories: true)
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        var albumID = ""
        try tree.library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: a)
            request.isFavorite = true
            request.rating = .four
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Keep")
            album.addAssets([a] as NSArray)
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        let (path, link) = (
            tree.root.appendingPathComponent("x/a.jpg").path, tree.root.appendingPathComponent("y/b.jpg").path
        )
        #expect(Glibc.link(path, link) == 0)
        #expect(try tree.scan().ingested == 1)
        let b = try #require(tree.asset(at: "y/b.jpg"))
        #expect(b.localIdentifier != a.localIdentifier && !b.isFavorite)

        #expect(unlink(path) == 0)
        let report = try tree.scan()
        #expect(report.removed == 1 && report.ingested == 0, "\(report)")
        let kept = try #require(tree.asset(at: "y/b.jpg"))
        #expect(kept.localIdentifier == b.localIdentifier && kept.isFavorite && kept.rating == .four)
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: tree.options).firstObject)
        #expect(PHAsset.fetchAssets(in: album, options: tree.options).firstObject?.localIdentifier == b.localIdentifier)
    }

    /// A library that kept no birth times (made before they were kept, or moved from a file
    /// system without them) learns each unchanged file's in its next scan, as bookkeeping.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aScanLearnsTheBirthTimesTheStoreLacks() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.copy(Self.second, to: "y/b.jpg")
        try tree.scan()
        let born = try storedBirthTimes(in: tree)
        #expect(born.count == 2 && born.allSatisfy { $0 != nil })
        try storeBirthTimes(nil, in: tree)
        let token = tree.library.currentChangeToken

        let report = try tree.scan()
        #expect(report.unchanged == 2, "\(report)")
        #expect(try storedBirthTimes(in: tree) == born)
        #expect(tree.library.currentChangeToken == token, "bookkeeping, no change")
    }

    /// A photo gone, and a new file at another path that has its inode number (ext4 hands a freed
    /// inode to the next file made), its size, but another time, where no birth time tells them
    /// apart (a file system without them): another photo, read as new, not the gone one moved.
    /// (Made here with a link, so that the inode is the same for sure.)
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aNewFileWithAGonePhotosInodeButAnotherTimeIsNotThatPhoto() throws {
        let tree = try Tree()
        try tree.copy(Self.first, to: "x/a.jpg")
        try tree.scan()
        let a = try #require(tree.asset(at: "x/a.jpg"))
        try favorite(a, in: tree)
        try storeBirthTimes(nil, in: tree)

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
