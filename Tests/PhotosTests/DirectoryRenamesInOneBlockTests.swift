import Foundation
import PhotosIngest
import PhotosTestSupport
import Testing

@testable import Photos

/// Several directories renamed or moved in one change block, one inside another: each journal entry
/// names the paths the disk holds when it runs (after the entries before it), so the disk and the
/// library agree afterwards, whatever the order of the requests, and after a stop at any rename.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DirectoryRenamesInOneBlockTests {
    typealias Tree = DirectoryAlbumTests.Tree

    /// Pictures/2023/Beach (d.jpg), Pictures/2024/Trip (a.jpg, b.jpg), Pictures/2024/Zoo (c.jpg).
    static func tree() throws -> Tree {
        try Tree(more: [("2023/Beach/d.jpg", DirectoryAlbumTests.photo)])
    }

    static func folder(_ title: String, _ tree: Tree, in library: PHPhotoLibrary? = nil) -> PHCollectionList? {
        PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: tree.options(library))
            .first { $0.localizedTitle == title }
    }

    /// What the library records of every directory-backed collection: title and path under the root.
    static func recorded(_ tree: Tree, in library: PHPhotoLibrary? = nil) -> [String] {
        let albums = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .any, options: tree.options(library))
        return albums.compactMap { album in
            album.directoryPath.map { "\(album.localizedTitle ?? "") " + $0.dropFirst(tree.pictures.count) }
        }.sorted()
    }

    /// Renames the folder 2024 to "Year" and the album Zoo in it to "Aquarium", in one block, in the
    /// order asked.
    static func renameFolderAndAlbum(_ tree: Tree, folderFirst: Bool) throws {
        let year = try #require(folder("2024", tree))
        let zoo = try #require(tree.album("Zoo"))
        try tree.library.performChangesAndWait {
            if folderFirst {
                PHCollectionListChangeRequest(for: year)?.title = "Year"
                PHAssetCollectionChangeRequest(for: zoo)?.title = "Aquarium"
            } else {
                PHAssetCollectionChangeRequest(for: zoo)?.title = "Aquarium"
                PHCollectionListChangeRequest(for: year)?.title = "Year"
            }
        }
    }

    @Test(arguments: [true, false])
    func aFolderAndAnAlbumInItRenamedInOneBlockAreBothRenamedOnDisk(folderFirst: Bool) throws {
        let tree = try Self.tree()
        let zoo = try #require(tree.album("Zoo"))
        let members = tree.members(zoo)
        let before = tree.library.currentChangeToken

        try Self.renameFolderAndAlbum(tree, folderFirst: folderFirst)

        #expect(tree.entries("") == ["2023", "Year"])
        #expect(tree.entries("Year") == ["Aquarium", "Trip"], "the album's directory is renamed inside the folder's")
        #expect(tree.entries("Year/Aquarium") == ["c.jpg"])
        #expect(Self.recorded(tree) == ["Aquarium /Year/Aquarium", "Beach /2023/Beach", "Trip /Year/Trip"])
        let renamed = try #require(tree.album("Aquarium"))
        #expect(renamed.localIdentifier == zoo.localIdentifier && tree.members(renamed) == members)
        #expect(try tree.changes(since: before) == 1)
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "the library says what the disk holds: no echo")
    }

    @Test func anAlbumMovedBetweenTwoFoldersRenamedInTheSameBlockLandsInTheRenamedOne() throws {
        let tree = try Self.tree()
        let (y2023, y2024) = (try #require(Self.folder("2023", tree)), try #require(Self.folder("2024", tree)))
        let zoo = try #require(tree.album("Zoo"))
        let members = tree.members(zoo)

        try tree.library.performChangesAndWait {
            PHCollectionListChangeRequest(for: y2024)?.title = "Later"
            let earlier = PHCollectionListChangeRequest(for: y2023)
            earlier?.title = "Earlier"
            earlier?.addChildCollections([zoo] as NSArray)
        }

        #expect(tree.entries("") == ["Earlier", "Later"])
        #expect(tree.entries("Earlier") == ["Beach", "Zoo"] && tree.entries("Later") == ["Trip"])
        #expect(tree.entries("Earlier/Zoo") == ["c.jpg"])
        #expect(Self.recorded(tree) == ["Beach /Earlier/Beach", "Trip /Later/Trip", "Zoo /Earlier/Zoo"])
        #expect(tree.members(try #require(tree.album("Zoo"))) == members)
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "no echo")
    }

    @Test func anAlbumRenamedTwiceInOneBlockTakesTheLastName() throws {
        let tree = try Self.tree()
        let zoo = try #require(tree.album("Zoo"))
        try tree.library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: zoo)?.title = "Aquarium"
            PHAssetCollectionChangeRequest(for: zoo)?.title = "Reef"
        }
        #expect(tree.entries("2024") == ["Reef", "Trip"])
        #expect(Self.recorded(tree).contains("Reef /2024/Reef"))
        #expect(try tree.rescanChanges() == 0, "no echo")
    }

    @Test(arguments: [true, false])
    func aPhotoAddedToAnAlbumOfAFolderRenamedInTheSameBlockMovesIntoTheRenamedDirectory(renameFirst: Bool) throws {
        let tree = try Self.tree()
        let year = try #require(Self.folder("2024", tree))
        let zoo = try #require(tree.album("Zoo"))
        let photo = try #require(tree.asset("2023/Beach/d.jpg"))
        try tree.library.performChangesAndWait {
            if renameFirst { PHCollectionListChangeRequest(for: year)?.title = "Year" }
            PHAssetCollectionChangeRequest(for: zoo)?.addAssets([photo] as NSArray)
            if !renameFirst { PHCollectionListChangeRequest(for: year)?.title = "Year" }
        }
        #expect(tree.entries("Year/Zoo") == ["c.jpg", "d.jpg"])
        #expect(tree.asset("Year/Zoo/d.jpg")?.localIdentifier == photo.localIdentifier)
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "no echo")
    }

    /// Where the block that renames 2024, 2023 and moves Zoo is stopped: a step and its nth time.
    static let stops: [(FaultInjection.Step, Int)] = [
        (.committed, 1), (.renamed, 1), (.renamed, 2), (.renamed, 3), (.renamed, 4),
    ]

    @Test(arguments: 0..<stops.count)
    func renamesInsideRenamesKilledAtEachStepAreFinishedAtTheNextOpen(stop: Int) throws {
        let (step, time) = Self.stops[stop]
        let tree = try Self.tree()
        let (y2023, y2024) = (try #require(Self.folder("2023", tree)), try #require(Self.folder("2024", tree)))
        let zoo = try #require(tree.album("Zoo"))
        let trip = try #require(tree.album("Trip"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        FaultInjection.stop(at: step, time: time, in: imports)
        #expect(throws: PHPhotosError.self) {
            try tree.library.performChangesAndWait {
                PHCollectionListChangeRequest(for: y2024)?.title = "Later"
                PHAssetCollectionChangeRequest(for: trip)?.title = "Journey"
                let earlier = PHCollectionListChangeRequest(for: y2023)
                earlier?.title = "Earlier"
                earlier?.addChildCollections([zoo] as NSArray)
            }
        }
        FaultInjection.clear(in: imports)

        let reopened = try tree.reopened()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        #expect(tree.entries("") == ["Earlier", "Later"])
        #expect(tree.entries("Earlier") == ["Beach", "Zoo"] && tree.entries("Later") == ["Journey"])
        #expect(tree.entries("Later/Journey") == ["a.jpg", "b.jpg"] && tree.entries("Earlier/Zoo") == ["c.jpg"])
        #expect(
            Self.recorded(tree, in: reopened) == ["Beach /Earlier/Beach", "Journey /Later/Journey", "Zoo /Earlier/Zoo"])
        #expect(tree.album("Zoo", in: reopened)?.localIdentifier == zoo.localIdentifier)
        #expect(tree.album("Journey", in: reopened)?.localIdentifier == trip.localIdentifier)
        #expect(try tree.rescanChanges(in: reopened) == 0, "nothing lost, nothing duplicated")
    }

    @Test func anAlbumRenamedInsideAFolderWhoseRenameTheDiskRefusesIsRenamedUnderTheOldName() throws {
        let tree = try Self.tree()
        let zoo = try #require(tree.album("Zoo"))
        let imports = tree.library.importDirectory.standardizedFileURL.path
        // Another program takes the folder's new name between the commit and the rename.
        FaultInjection.set(in: imports) { step in
            if step == .committed {
                try? FileManager.default.createDirectory(
                    atPath: tree.pictures + "/Year", withIntermediateDirectories: false)
            }
            return false
        }
        defer { FaultInjection.clear(in: imports) }
        let error = #expect(throws: PHPhotosError.self) { try Self.renameFolderAndAlbum(tree, folderFirst: true) }
        #expect(error?.message.contains("the library keeps its old name") == true)
        #expect(tree.entries("") == ["2023", "2024", "Year"] && tree.entries("Year") == [], "nothing replaced")
        #expect(tree.entries("2024") == ["Aquarium", "Trip"], "the album is renamed where its folder still is")
        #expect(Self.recorded(tree) == ["Aquarium /2024/Aquarium", "Beach /2023/Beach", "Trip /2024/Trip"])
        #expect(tree.album("Aquarium")?.localIdentifier == zoo.localIdentifier)
        #expect(try tree.library.database.fileJournal().isEmpty)
        #expect(try tree.rescanChanges() == 0, "the library says what the disk holds")
    }
}
