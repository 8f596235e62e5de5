import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A directory's album follows its files: the members query and the diff that writes them.
@Suite struct AlbumMembershipTests {
    let database: LibraryDatabase

    init() throws {
        database = try LibraryDatabase()
    }

    /// An asset whose file (of `type`) is `path`, created at `date`.
    func insert(_ path: String, date: Double?, type: PHAssetResourceType = .photo) throws -> Int64 {
        try database.write { transaction in
            var record = AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image)
            record.creationDate = date
            let name = (path as NSString).lastPathComponent
            return try transaction.insertAsset(
                record,
                resources: [
                    ResourceRecord(
                        assetId: 0, type: type.rawValue, path: path, uniformTypeIdentifier: "public.jpeg",
                        mimeType: "image/jpeg", fileSize: 1, originalFilename: name)
                ])
        }.value
    }

    func album() throws -> CollectionRecord {
        try database.write { transaction in
            var album = CollectionRecord(
                localIdentifier: "A/L0/001", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "p", path: "/p", createdDate: 0)
            album.id = try transaction.insertCollection(album)
            return album
        }.value
    }

    @Test func primaryAssetsAreTheDirectorysOwnPhotosAndVideosOldestFirst() throws {
        let late = try insert("/p/late.jpg", date: 300)
        let undated = try insert("/p/undated.jpg", date: nil)
        let early = try insert("/p/early.jpg", date: 100)
        _ = try insert("/p/sub/below.jpg", date: 50)
        _ = try insert("/pp/beside.jpg", date: 50)
        _ = try insert("/p/edit.jpg", date: 10, type: .fullSizePhoto)
        let members = try database.write { try $0.primaryAssets(inDirectory: "/p") }.value
        #expect(members == [undated, early, late])
        #expect(try database.write { try $0.primaryAssets(inDirectory: "/p/") }.value == members)
    }

    @Test func settingMembersWritesTheDifferenceAndRecordsOneChange() throws {
        let ids = try (0..<5).map { try insert("/p/\($0).jpg", date: Double($0)) }
        let album = try album()
        try database.write { try $0.setMembers(ofCollection: album, to: [ids[0], ids[1], ids[2]]) }
        let before = try database.currentToken()
        // Moved, kept, removed, and new: the stored order is the one asked for.
        let wanted = [ids[2], ids[0], ids[3], ids[4]]
        let token = try database.write { try $0.setMembers(ofCollection: album, to: wanted) }.token
        #expect(try database.write { try $0.members(ofCollection: album.id!) }.value == wanted)
        let change = try #require(try database.changes(after: before).first)
        #expect(change.token == token)
        #expect(change.assetCollection.updated == [album.localIdentifier])
        #expect(change.assetCollection.changedProperties[album.localIdentifier] == ["assets"])
        // The same members again change nothing and log nothing.
        #expect(try database.write { try $0.setMembers(ofCollection: album, to: wanted) }.token == nil)
        // And emptied.
        try database.write { try $0.setMembers(ofCollection: album, to: []) }
        #expect(try database.write { try $0.members(ofCollection: album.id!) }.value.isEmpty)
    }

    /// Files that arrive newest are appended without listing the directory; anything else (an
    /// older file, a member's file, a paired video, an empty album) is left to `setMembers`. Either
    /// way the album ends as the directory orders it.
    @Test func arrivalsNewerThanTheAlbumAreAppendedAndOthersAreRefused() throws {
        let ids = try (0..<3).map { try insert("/p/\($0).jpg", date: Double($0 * 10)) }
        let album = try album()
        #expect(
            try database.write { try $0.appendArrivals(atPaths: ["/p/0.jpg"], toAlbum: album) }.value == false,
            "an empty album")
        try database.write { try $0.setMembers(ofCollection: album, to: ids) }
        let newer = try insert("/p/new.jpg", date: 25)
        let newest = try insert("/p/newest.jpg", date: 40)
        let before = try database.currentToken()
        let appended = try database.write {
            try $0.appendArrivals(atPaths: ["/p/newest.jpg", "/p/new.jpg"], toAlbum: album)
        }.value
        #expect(appended)
        let members = try database.write { try $0.members(ofCollection: album.id!) }.value
        #expect(members == ids + [newer, newest])
        #expect(members == (try database.write { try $0.primaryAssets(inDirectory: "/p") }.value))
        let change = try #require(try database.changes(after: before).first)
        #expect(change.assetCollection.updated == ["A/L0/001"])
        #expect(change.assetCollection.changedProperties["A/L0/001"] == ["assets"])

        _ = try insert("/p/older.jpg", date: 5)
        _ = try insert("/p/clip.mov", date: 50, type: .pairedVideo)
        for paths in [
            ["/p/older.jpg"], ["/p/1.jpg"], ["/p/clip.mov"], ["/p/missing.jpg"], ["/p/older.jpg", "/p/late"],
        ] {
            let refused = try database.write { try $0.appendArrivals(atPaths: paths, toAlbum: album) }.value
            #expect(!refused, "\(paths)")
        }
        #expect(try database.write { try $0.members(ofCollection: album.id!) }.value == members, "nothing written")
    }
}
