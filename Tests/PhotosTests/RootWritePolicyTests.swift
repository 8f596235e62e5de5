import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// What a change may write under each watched root: the check every change that reaches the disk passes.
@Suite struct RootWritePolicyTests {
    @Test func aChangeMayWriteOnlyWhereItsRootsPolicyAllows() throws {
        let directory = try TemporaryDirectory(prefix: "photos-roots")
        let files = directory.path("Pictures").path
        let archive = files + "/Archive"
        let sidecars = directory.path("Camera").path
        for path in [archive, sidecars] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        var configuration = PHPhotoLibrary.Configuration()
        configuration.roots = [
            LibraryRoot(path: files, write: .files), LibraryRoot(path: archive),
            LibraryRoot(path: sidecars + "/", write: .sidecars),
        ]
        let library = try PHPhotoLibrary(inMemoryWith: configuration)

        #expect(try library.requireWrite(.files, at: files + "/a.jpg", for: "delete a.jpg").path == files)
        #expect(try library.requireWrite(.sidecars, at: files + "/a.jpg", for: "favorite a.jpg").path == files)
        #expect(try library.requireWrite(.sidecars, at: sidecars + "/b.jpg", for: "favorite b.jpg").path == sidecars)
        #expect(library.writePolicy(at: archive + "/c.jpg") == .none, "the innermost root decides")

        let archived = #expect(throws: PHPhotosError.self) {
            try library.requireWrite(.files, at: archive + "/c.jpg", for: "delete c.jpg", localIdentifiers: ["X"])
        }
        #expect(archived?.code == .accessRestricted)
        #expect(
            archived?.message.contains(
                "cannot delete c.jpg: \(archive)/c.jpg is under \(archive), whose write policy is \"none\"") == true)
        #expect(archived?.localIdentifiers == ["X"])
        let sidecarsOnly = #expect(throws: PHPhotosError.self) {
            try library.requireWrite(.files, at: sidecars + "/b.jpg", for: "delete b.jpg")
        }
        #expect(sidecarsOnly?.message.contains("whose write policy is \"sidecars\"") == true)
        let outside = #expect(throws: PHPhotosError.self) {
            try library.requireWrite(.sidecars, at: "/elsewhere/d.jpg", for: "favorite d.jpg")
        }
        #expect(outside?.message.contains("/elsewhere/d.jpg is in no watched root") == true)
        #expect(!library.mayWrite(.files, at: archive + "/c.jpg") && library.mayWrite(.files, at: files + "/e.jpg"))
    }

    /// A root configured through a symbolic link is the directory it leads to, where the scan
    /// records the photos: their paths are within it, and its policy is theirs.
    @Test func aRootReachedThroughALinkHasItsPolicyForThePathsTheScanRecords() throws {
        let directory = try TemporaryDirectory(prefix: "photos-roots-link")
        let real = directory.path("real").path
        let linked = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: real + "/A", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: "real")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.roots = [LibraryRoot(path: linked, write: .files)]
        let library = try PHPhotoLibrary(inMemoryWith: configuration)
        #expect(library.writePolicy(at: real + "/A/a.jpg") == .files)
        #expect(try library.requireWrite(.files, at: real + "/A/a.jpg", for: "delete a.jpg").path == real)
        // Under a linked parent too.
        #expect(LibraryRoot(path: linked + "/A", write: .files).path == real + "/A")
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs"))
    func aRootOnAReadOnlyMountSaysSoAndRefusesTheChange() throws {
        let disk = try SmallFileSystem(megabytes: 1)
        var configuration = PHPhotoLibrary.Configuration()
        configuration.roots = [LibraryRoot(path: disk.url.path, write: .files)]
        let library = try PHPhotoLibrary(inMemoryWith: configuration)
        #expect(library.rootWriteStates().map(\.restriction) == [nil])
        #expect(library.mayWrite(.files, at: disk.url.path + "/a.jpg"))

        try disk.makeReadOnly()
        #expect(library.rootWriteStates().map(\.restriction) == ["a read-only file system"])
        let refused = #expect(throws: PHPhotosError.self) {
            try library.requireWrite(.files, at: disk.url.path + "/a.jpg", for: "delete a.jpg")
        }
        #expect(refused?.code == .accessRestricted)
        #expect(
            refused?.message.contains("cannot delete a.jpg: \(disk.url.path): a read-only file system")
                == true)
    }
}
