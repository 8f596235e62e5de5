import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Grouping a new file reads only the files of its directory it can pair with, and theirs in turn.
@Suite struct PairingRowsTests {
    let database: LibraryDatabase

    init() throws {
        database = try LibraryDatabase()
    }

    func insert(_ path: String, type: PHAssetResourceType = .photo, contentIdentifier: String? = nil) throws {
        try database.write { transaction in
            var resource = ResourceRecord(
                assetId: 0, type: type.rawValue, path: path, uniformTypeIdentifier: nil, mimeType: nil, fileSize: 1,
                originalFilename: (path as NSString).lastPathComponent)
            resource.contentIdentifier = contentIdentifier
            _ = try transaction.insertAsset(
                AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image), resources: [resource])
        }
    }

    func rows(at paths: Set<String> = [], names: Set<String>, identifiers: Set<String> = []) throws -> [String] {
        try database.write {
            try $0.resources(at: paths, inDirectory: "/p", pairingWith: names, contentIdentifiers: identifiers)
        }.value.map(\.path)
    }

    @Test func namesIdentifiersAndWhatPairsWithThemInTurn() throws {
        try insert("/p/IMG_1.HEIC", contentIdentifier: "X")
        try insert("/p/img_1.mov", type: .video)
        try insert("/p/IMG_2.JPG")
        try insert("/p/IMG_2.CR2")
        try insert("/p/renamed.jpg")
        try insert("/p/sub/IMG_2.JPG")
        try insert("/q/IMG_2.JPG")
        #expect(try rows(names: ["img_2"]) == ["/p/IMG_2.CR2", "/p/IMG_2.JPG"])
        // A movie with IMG_1's identifier under another name brings IMG_1, and IMG_1 its own movie.
        #expect(try rows(names: ["clip"], identifiers: ["X"]) == ["/p/IMG_1.HEIC", "/p/img_1.mov"])
        // A changed file's own row comes whatever its name says.
        #expect(try rows(at: ["/p/renamed.jpg"], names: ["other"]) == ["/p/renamed.jpg"])
        #expect(try rows(names: ["nothing"]).isEmpty)
    }
}
