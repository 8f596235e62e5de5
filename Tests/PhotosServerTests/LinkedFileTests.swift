import Foundation
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// A symbolic link swapped in where an asset's file was (at its name, or for a folder on its way)
/// is never followed: the API serves no byte, thumbnail or metadata of what the link points to.
/// Anyone who may write into a root could otherwise have photosd serve any file it may read.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct LinkedFileTests {
    static let photo = Corpus.file("Camera/2008/Misc/Canon_40D.jpg")!

    let files: FileAssetLibrary
    let directory: TemporaryDirectory
    /// The asset's file, in a folder of a root.
    let file: URL
    /// What a link would lead to: a secret, and a folder of the same names as the root's.
    let secret: URL
    let elsewhere: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-linked-file")
        let folder = directory.path("root/Trip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("a.jpg")
        try FileManager.default.copyItem(at: Self.photo, to: file)
        secret = directory.path("secret.txt")
        try Data("TOP SECRET\n".utf8).write(to: secret)
        elsewhere = directory.path("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        // The same photo under the same name: a folder swapped for a link to it would pass any
        // check of the file's type.
        try FileManager.default.copyItem(at: Self.photo, to: elsewhere.appendingPathComponent("a.jpg"))
        files = try FileAssetLibrary(files: [file], directory: directory)
    }

    var identifier: String { files.identifiers[file.path]! }

    /// Replaces `path` with a symbolic link to `target`, in one rename (as `mv -T` does).
    func swap(_ path: URL, forLinkTo target: URL) throws {
        let link = path.deletingLastPathComponent().appendingPathComponent(".link-\(path.lastPathComponent)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        if (try? path.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
            try FileManager.default.moveItem(at: path, to: path.appendingPathExtension("old"))
        }
        #expect(rename(link.path, path.path) == 0, "the link took the name")
    }

    func expectNothingServed(_ socket: String) async throws {
        for route in ["original", "resources/photo", "thumbnail", "metadata"] {
            let reply = try await APIServerTests.get(socket, "/v1/assets/\(identifier)/\(route)")
            #expect(reply.status == 404, "\(route): \(reply.status) \(reply.text.prefix(200))")
            #expect(!reply.text.contains("TOP SECRET"), "\(route)")
            #expect(reply.text.contains("symbolic link"), "\(route): \(reply.text.prefix(200))")
        }
    }

    @Test func aLinkAtTheFilesNameIsNotFollowed() async throws {
        try await APIServerTests.withServer(library: files.library, socket: directory.path("api.sock").path) {
            socket in
            let before = try await APIServerTests.get(socket, "/v1/assets/\(identifier)/original")
            let original = Array(try Data(contentsOf: Self.photo))
            #expect(before.status == 200 && before.body == original)
            try swap(file, forLinkTo: secret)
            try await expectNothingServed(socket)
            // A link to another photo is no more the asset's file than a link to a secret.
            try FileManager.default.removeItem(at: file)
            try swap(file, forLinkTo: elsewhere.appendingPathComponent("a.jpg"))
            let thumbnail = try await APIServerTests.get(socket, "/v1/assets/\(identifier)/thumbnail")
            #expect(thumbnail.status == 404)
        }
    }

    @Test func aFolderSwappedForALinkIsNotFollowed() async throws {
        try await APIServerTests.withServer(library: files.library, socket: directory.path("api.sock").path) {
            socket in
            try swap(file.deletingLastPathComponent(), forLinkTo: elsewhere)
            // The path now opens a regular JPEG of the same name, in another folder.
            #expect(FileManager.default.fileExists(atPath: file.path))
            try await expectNothingServed(socket)
        }
    }

    @Test func anAssetsFileIsNeverCopiedThroughALink() throws {
        try swap(file, forLinkTo: secret)
        let resource = PHAssetResource.assetResources(for: files.asset(file))[0]
        let destination = directory.path("copy.jpg")
        #expect(throws: PHPhotosError.self) {
            try ResourceFileCopy.copy(resource.fileURL.path, to: destination.path)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}
