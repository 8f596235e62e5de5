import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The writes of a change block (``LibraryTransaction``) and the reads they lean on, made on each
/// engine's connection from a new library: the same scenario on SQLite and on PostgreSQL must tell
/// the same story, row ids and change tokens included. Each step also checks what it must do, so
/// that SQLite's run alone pins the behaviour and PostgreSQL's is held to it.
@Suite struct TransactionContractTests {
    @Test func sqliteRunsTheScenario() throws {
        let database = try LibraryDatabase()
        let story = try database.writer.write { db in try TransactionContract.scenario(db) }
        #expect(story.count == TransactionContract.steps)
    }

    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
    func postgreSQLTellsTheSameStoryAsSQLite() throws {
        let database = try LibraryDatabase()
        let sqlite = try database.writer.write { db in try TransactionContract.scenario(db) }
        let postgreSQL = try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            return try db.transaction { try TransactionContract.scenario($0) }
        }
        #expect(postgreSQL.count == sqlite.count)
        for (ours, theirs) in zip(postgreSQL, sqlite) { #expect(ours == theirs) }
    }
}

/// The scenario: assets with their files, albums and their members, moves, rejections, roots, a
/// burst, the Trash and back, an asset deleted with its last file, and the change-log entry the
/// block appends. Returns one line per observation.
enum TransactionContract {
    /// How many observations the scenario makes.
    static let steps = 26

    static func scenario(_ db: any StoreConnection) throws -> [String] {
        var story: [String] = []
        func tell(_ line: String) { story.append(line) }
        let transaction = LibraryTransaction(db: db)

        // Three assets: a Live Photo in /p, a photo in /p/sub, a burst of two in /p.
        var live = AssetRecord(
            localIdentifier: "A/L0/001", mediaType: .image, addedDate: Date(timeIntervalSince1970: 1_000),
            creationDate: Date(timeIntervalSince1970: 500))
        (live.latitude, live.longitude, live.make, live.isFavorite, live.rating) = (59.3, 18.06, "Canon", true, 4)
        live.mediaSubtypes = Int64(PHAssetMediaSubtype.photoLive.rawValue)
        let liveID = try transaction.insertAsset(
            live,
            resources: [
                resource(.photo, "/p/IMG_0001.JPG"), resource(.pairedVideo, "/p/IMG_0001.MOV", identifier: "LIVE-1"),
            ])
        let sub = AssetRecord(
            localIdentifier: "B/L0/001", mediaType: .image, addedDate: Date(timeIntervalSince1970: 1_000),
            creationDate: Date(timeIntervalSince1970: 400))
        let subID = try transaction.insertAsset(sub, resources: [resource(.photo, "/p/sub/b.jpg")])
        var burstIDs: [Int64] = []
        for (index, name) in ["/p/burst-1.jpg", "/p/burst-2.jpg"].enumerated() {
            var member = AssetRecord(
                localIdentifier: "C/L0/00\(index)", mediaType: .image, addedDate: Date(timeIntervalSince1970: 1_000),
                creationDate: Date(timeIntervalSince1970: 600 - Double(index)))
            member.burstIdentifier = "BURST"
            member.representsBurst = index == 0
            burstIDs.append(try transaction.insertAsset(member, resources: [resource(.photo, name)]))
        }
        let read = try #require(try transaction.asset(withLocalIdentifier: "A/L0/001"))
        #expect(read.latitude == 59.3 && read.make == "Canon" && read.isFavorite && read.rating == 4)
        tell("asset \(read)")
        tell("by id \(try transaction.asset(id: subID).map(\.localIdentifier) ?? "none")")
        tell("resources \(try transaction.resources(ofAsset: liveID).map { "\($0.type) \($0.path)" })")
        let underP = try transaction.storedFiles(under: "/p").map(\.path).sorted()
        #expect(underP.count == 5)
        tell("under /p \(underP)")
        let inP = try transaction.storedFiles(inDirectory: "/p").map(\.path).sorted()
        #expect(inP.count == 4)
        tell("in /p \(inP)")
        tell("at \(try transaction.storedFiles(atPaths: ["/p/IMG_0001.MOV", "/nowhere/x.jpg"]).map(\.path))")
        let partners = try transaction.resources(
            at: [], inDirectory: "/p", pairingWith: ["img_0001"], contentIdentifiers: [])
        #expect(partners.map(\.path) == ["/p/IMG_0001.JPG", "/p/IMG_0001.MOV"])
        tell("partners \(partners.map(\.path))")
        tell("has files \(try transaction.hasFiles(under: "/p/sub")) \(try transaction.hasFiles(under: "/q"))")

        // An album of the directory and its members.
        let albumID = try transaction.insertCollection(
            CollectionRecord(
                localIdentifier: "ALBUM/L0/040", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "p", path: "/p", createdDate: 1))
        let album = try #require(try transaction.collection(id: albumID))
        try transaction.setMembers(ofCollection: album, to: [subID, liveID])
        try transaction.setMembers(ofCollection: album, to: [liveID, subID, burstIDs[0]])
        #expect(try transaction.members(ofCollection: albumID) == [liveID, subID, burstIDs[0]])
        tell("members \(try transaction.members(ofCollection: albumID))")
        tell("primary \(try transaction.primaryAssets(inDirectory: "/p"))")
        tell("top level \(try transaction.children(ofList: nil).contains(albumID))")

        // Moves: a file renamed, a directory renamed (the album of /p/sub with it).
        let movie = try #require(try transaction.storedFiles(atPaths: ["/p/IMG_0001.MOV"]).first)
        try transaction.moveResource(movie, to: "/p/IMG_0001-moved.MOV", name: "IMG_0001.MOV")
        let subAlbumID = try transaction.insertCollection(
            CollectionRecord(
                localIdentifier: "ALBUM/L0/041", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "sub", path: "/p/sub", createdDate: 1))
        let renamed = try transaction.moveDirectory(from: "/p/sub", to: "/p/renamed")
        #expect(renamed.map(\.title) == ["renamed"])
        tell("renamed \(renamed.map { "\($0.title ?? "") \($0.path ?? "")" })")
        tell("after moves \(try transaction.storedFiles(under: "/p").map(\.path).sorted())")
        tell("sub album \(try transaction.collection(id: subAlbumID)?.path ?? "none")")

        // Rejections and roots.
        let bad = RejectedFile(
            path: "/p/broken.jpg", code: "corrupt", reason: "truncated", fileSize: 3, modificationTime: 7,
            rejectedDate: 9)
        try transaction.reject(bad)
        var again = bad
        again.reason = "still truncated"
        try transaction.reject(again)
        tell("rejected \(try transaction.rejectedFiles(atPaths: ["/p/broken.jpg"]).mapValues(\.reason))")
        var first = bad
        first.path = "/p/a.jpg"
        try transaction.reject(first)
        let page = try LibraryDatabase.rejectedFiles(db, first: 1)
        #expect(page.files.map(\.path) == ["/p/a.jpg"] && page.total == 2)
        tell("first rejected \(page.files.map(\.path)) of \(page.total)")
        try transaction.forgetRejections(["/p/broken.jpg", "/p/a.jpg"])
        tell("forgotten \(try transaction.rejectedFiles(under: "/p").count)")
        try transaction.setRoot("/p", offline: true)
        let offline = try transaction.isOnlineRoot("/p")
        try transaction.setRoot("/p", offline: false)
        let online = try transaction.isOnlineRoot("/p")
        #expect(!offline && online)
        tell("root \(offline) \(try transaction.isOnlineRoot("/p")) \(try LibraryDatabase.offlineRoots(db))")

        // The burst's earliest member represents it.
        try transaction.pickBurstRepresentatives(["BURST"])
        let burst = try LibraryDatabase.assets(ids: burstIDs, db)
        #expect(burst[burstIDs[1]]?.representsBurst == true && burst[burstIDs[0]]?.representsBurst == false)
        tell("burst \(burstIDs.map { burst[$0]?.representsBurst ?? false })")

        // The Trash and back: the same row, its files and its album.
        try transaction.trashAssets(
            [liveID],
            files: [
                TrashedFile(
                    assetId: liveID, path: "/p/IMG_0001.JPG", device: 1, inode: 2, trashDirectory: "/t",
                    trashKind: "home", trashTop: "/")
            ], date: 10)
        tell("trashed \(try LibraryDatabase.trashedAssets(where: "1 = 1", [], db).map(\.localIdentifier))")
        tell("in album while trashed \(try transaction.members(ofCollection: albumID))")
        #expect(try transaction.restoreTrashedAsset(liveID) == "A/L0/001")
        let restoredFiles = try transaction.resources(ofAsset: liveID).count
        tell("restored \(try transaction.members(ofCollection: albumID)) \(restoredFiles)")

        // The burst's second member loses its only file: it goes, with a tombstone.
        try transaction.deleteResources(try transaction.storedFiles(atPaths: ["/p/burst-2.jpg"]))
        #expect(try transaction.asset(id: burstIDs[1]) == nil)
        let tombstones = try LibraryDatabase.tombstones(AssetRecord.self, isAsset: true, ids: [burstIDs[1]], db)
        tell("tombstone \(tombstones[burstIDs[1]]?.localIdentifier ?? "none")")

        // The block's entry, and the tombstones that name its token.
        let entry = try #require(try transaction.changes.append(to: db))
        let tokens = try db.rows("SELECT token FROM tombstone ORDER BY rowId", []) { try $0.int64(0) }
        #expect(!tokens.isEmpty && tokens.allSatisfy { $0 == entry.token })
        tell("entry \(entry.token) \(entry.asset.inserted.count) \(entry.asset.deleted) tombstones \(tokens)")
        tell("ids \(try LibraryDatabase.ids(table: "asset", localIdentifiers: ["A/L0/001", "Z"], db))")
        let info = try LibraryDatabase.info(for: try #require(try transaction.collection(id: albumID)), db)
        tell("album \(info.estimatedAssetCount ?? -1) \(info.startDate ?? -1) \(info.endDate ?? -1)")
        return story
    }

    private static func resource(_ type: PHAssetResourceType, _ path: String, identifier: String? = nil)
        -> ResourceRecord
    {
        var record = ResourceRecord(
            assetId: 0, type: type.rawValue, path: path, uniformTypeIdentifier: "public.jpeg", mimeType: "image/jpeg",
            fileSize: 100, originalFilename: PathName.name(of: path))
        record.contentIdentifier = identifier
        return record
    }
}
