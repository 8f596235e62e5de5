import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// The reused directory listings that keep a deletion's sidecar plan linear: a listing is taken
/// again whenever the directory changed, and a sidecar is found for its photo either way.
@Suite struct DirectoryListingsTests {
    @Test func aListingIsTakenAgainWhenTheDirectoryChangesAndFindsEachPhotosSidecars() throws {
        let directory = try TemporaryDirectory(prefix: "photos-listings")
        let folder = directory.path("album").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["IMG_1.JPG", "IMG_1.JPG.xmp", "IMG_2.CR2", "IMG_2.JPG", "IMG_2.xmp", "IMG_3.jpg"] {
            try Data().write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        // Old enough to be reused.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: folder)
        let listings = DirectoryListings()
        let first = try #require(listings.listing(of: folder))
        #expect(
            first.sidecarsByBase["img_1.jpg"] == ["IMG_1.JPG.xmp"] && first.sidecarsByBase["img_2"] == ["IMG_2.xmp"])
        #expect(Set(first.mediaByStem["img_2"] ?? []) == ["IMG_2.CR2", "IMG_2.JPG"])

        #expect(PHPhotoLibrary.sidecars(of: [folder + "/IMG_1.JPG"]) == [folder + "/IMG_1.JPG.xmp"])
        #expect(PHPhotoLibrary.sidecars(of: [folder + "/IMG_2.JPG"]).isEmpty, "IMG_2.xmp is shared with the RAW")
        #expect(
            PHPhotoLibrary.sidecars(of: [folder + "/IMG_2.JPG", folder + "/IMG_2.CR2"]) == [folder + "/IMG_2.xmp"])
        #expect(PHPhotoLibrary.sidecars(of: [folder + "/IMG_3.jpg"]).isEmpty)

        // A sidecar written since: the directory's time moves, the listing is taken again.
        try Data().write(to: URL(fileURLWithPath: folder + "/IMG_3.jpg.xmp"))
        #expect(listings.listing(of: folder)?.sidecarsByBase["img_3.jpg"] == ["IMG_3.jpg.xmp"])
        #expect(PHPhotoLibrary.sidecars(of: [folder + "/IMG_3.jpg"]) == [folder + "/IMG_3.jpg.xmp"])
    }

    /// Only a regular file is a photo's sidecar: a directory or a symbolic link of that name is the
    /// user's, and never moves or goes to the Trash with the photo.
    @Test func aDirectoryOrALinkNamedAsASidecarIsNotOne() throws {
        let directory = try TemporaryDirectory(prefix: "photos-listings-kinds")
        let folder = directory.path("album").path
        try FileManager.default.createDirectory(atPath: folder + "/x.jpg.xmp", withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/x.jpg.xmp/notes.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/y.jpg.xmp", withDestinationPath: "x.jpg.xmp")
        for name in ["x.jpg", "y.jpg", "z.jpg", "z.jpg.xmp"] {
            if !FileManager.default.fileExists(atPath: folder + "/" + name) {
                try Data().write(to: URL(fileURLWithPath: folder + "/" + name))
            }
        }
        #expect(PHPhotoLibrary.sidecars(of: [folder + "/x.jpg"]).isEmpty, "a directory")
        #expect(PHPhotoLibrary.sidecars(of: [folder + "/y.jpg"]).isEmpty, "a symbolic link")
        #expect(PHPhotoLibrary.sidecars(of: [folder + "/z.jpg"]) == [folder + "/z.jpg.xmp"])
    }
}
