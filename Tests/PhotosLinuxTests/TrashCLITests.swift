import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosLinux

/// The Trash agrees with Debian's trash-cli both ways, in a data home of the test's own: what it
/// trashes, `trash-list` lists and `trash-restore` brings back; what `trash-put` trashes, it lists
/// and restores.
@Suite(.enabled(if: TrashTools.isInstalled, "needs trash-cli (scripts/setup installs it)"))
struct TrashCLITests {
    @Test func trashCLIListsAndRestoresWhatTheLibraryTrashed() async throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("Café Paris/IMG 0001.JPG", "jpeg bytes")
        let before = try #require(identity(path))
        let entry = try fixture.trash.trash(path)
        let date = try #require(entry.deletionDate).replacingOccurrences(of: "T", with: " ")

        let list = try await TrashTools.run("trash-list", [], environment: fixture.environment)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").contains("\(date) \(path)"), "\(list.stdout)")

        let restore = try await TrashTools.run(
            "trash-restore", [path], input: "0\n", environment: fixture.environment)
        #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
        #expect(identity(path)?.inode == before.inode)
        #expect(contents(path) == "jpeg bytes")
        #expect(identity(entry.infoPath) == nil)
        #expect(identity(entry.filePath) == nil)
    }

    @Test func whatTrashPutTrashedIsListedAndRestoredByTheLibrary() async throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("Album 2024/IMG_0002.JPG", "photo")
        let before = try #require(identity(path))

        // The deletion date trash-put writes lies between these two (to its whole seconds), however
        // long a full test run keeps this test waiting in between.
        let putStarted = Date()
        let put = try await TrashTools.run("trash-put", [path], environment: fixture.environment)
        let putEnded = Date()
        #expect(put.status == 0, "\(put.stderr)")
        #expect(identity(path) == nil)

        let directory = try #require(fixture.trash.existingDirectories().first { $0.kind == .home })
        #expect(directory.path == fixture.homeTrash)
        let listing = try fixture.trash.listing(of: directory)
        #expect(listing.unreadable.isEmpty)
        let entry = try #require(listing.entries.first)
        #expect(listing.entries.count == 1)
        #expect(entry.originalPath == path)
        #expect(entry.isOwn == false)
        #expect(entry.file?.inode == before.inode)
        let deleted = try #require(entry.deletionInstant)
        #expect(
            deleted.timeIntervalSince(putStarted) > -2 && deleted.timeIntervalSince(putEnded) < 2,
            "\(deleted) is not between \(putStarted) and \(putEnded)")

        try fixture.trash.restore(entry)

        #expect(contents(path) == "photo")
        #expect(identity(path)?.inode == before.inode)
        let list = try await TrashTools.run("trash-list", [], environment: fixture.environment)
        #expect(!list.stdout.contains(path), "\(list.stdout)")
    }

    /// A directory trashed by the library comes back whole through trash-cli.
    @Test func aTrashedAlbumDirectoryIsRestoredWholeByTrashCLI() async throws {
        let fixture = try TrashFixture()
        try fixture.write("Holiday/IMG_1.JPG", "one")
        try fixture.write("Holiday/IMG_2.JPG", "two")
        let album = fixture.photos + "/Holiday"
        _ = try fixture.trash.trash(album)
        #expect(identity(album) == nil)

        let restore = try await TrashTools.run(
            "trash-restore", [album], input: "0\n", environment: fixture.environment)

        #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
        #expect(contents(album + "/IMG_1.JPG") == "one")
        #expect(contents(album + "/IMG_2.JPG") == "two")
    }
}
