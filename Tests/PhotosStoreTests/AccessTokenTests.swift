import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The API's access tokens as the library keeps them: made, found by their secret until they
/// expire or are revoked, and scoped to a level and, for `limited`, to albums.
@Suite struct AccessTokenTests {
    let directory: TemporaryDirectory
    let database: LibraryDatabase

    init() throws {
        directory = try TemporaryDirectory(prefix: "tokens")
        database = try LibraryDatabase(path: directory.path("library.sqlite").path)
    }

    /// An album at `path` holding a new asset each of `members`; returns the album's and the assets' identifiers.
    func album(_ name: String, members: [String]) throws -> (album: String, assets: [String]) {
        try database.write { transaction in
            var album = CollectionRecord(
                localIdentifier: "\(name)/L0/040", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: name, path: "/p/\(name)",
                createdDate: 0)
            album.id = try transaction.insertCollection(album)
            let assets = try members.map { member in
                try transaction.insertAsset(AssetRecord(localIdentifier: "\(member)/L0/001", mediaType: .image))
            }
            try transaction.setMembers(ofCollection: album, to: assets)
            return (album.localIdentifier, members.map { "\($0)/L0/001" })
        }.value
    }

    @Test func aTokenIsFoundByItsSecretAndTheLibraryKeepsOnlyItsHash() throws {
        let (token, secret) = try database.createAccessToken(level: .readOnly, name: "backup")
        #expect(secret.hasPrefix(AccessToken.secretPrefix) && secret.count > 40)
        #expect(token.id.hasPrefix("tok-") && token.name == "backup" && token.accessLevel == .readOnly)
        #expect(token.secretHash == AccessToken.hash(ofSecret: secret))
        // Nothing stored holds the secret itself.
        let file =
            try Data(contentsOf: directory.path("library.sqlite"))
            + ((try? Data(contentsOf: directory.path("library.sqlite-wal"))) ?? Data())
        #expect(file.range(of: Data(secret.utf8)) == nil)
        #expect(try database.accessToken(secret: secret)?.id == token.id)
        #expect(try database.accessToken(secret: secret + "x") == nil)
        #expect(try database.accessToken(secret: AccessToken.makeSecret()) == nil)
        // Another connection (the CLI, another process) finds it too.
        let other = try LibraryDatabase(existingAt: directory.path("library.sqlite").path)
        #expect(try other.accessToken(secret: secret)?.id == token.id)
    }

    @Test func eachTokenHasItsOwnSecretAndIdentifier() throws {
        let made = try (0..<20).map { _ in try database.createAccessToken(level: .readWrite) }
        #expect(Set(made.map(\.secret)).count == 20 && Set(made.map(\.token.id)).count == 20)
        #expect(try database.accessTokens().map(\.id).sorted() == made.map(\.token.id).sorted())
    }

    @Test func aTokenStopsWorkingWhenItExpires() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (token, secret) = try database.createAccessToken(
            level: .readWrite, expiresAt: now.addingTimeInterval(60), now: now)
        #expect(token.createdAt == now.timeIntervalSince1970)
        #expect(try database.accessToken(secret: secret, now: now.addingTimeInterval(59))?.id == token.id)
        #expect(try database.accessToken(secret: secret, now: now.addingTimeInterval(60)) == nil)
        #expect(token.isExpired(at: now.addingTimeInterval(61)) && !token.isExpired(at: now))
        // Expired is not revoked: it is still listed, for `photos token list` to show.
        #expect(try database.accessTokens().map(\.id) == [token.id])
        let forever = try database.createAccessToken(level: .readOnly, now: now)
        #expect(try database.accessToken(secret: forever.secret, now: .distantFuture) != nil)
    }

    @Test func aRevokedTokenStopsAtOnceForEveryConnection() throws {
        let (token, secret) = try database.createAccessToken(level: .readWrite)
        let kept = try database.createAccessToken(level: .readOnly)
        let other = try LibraryDatabase(existingAt: directory.path("library.sqlite").path)
        #expect(try other.accessToken(secret: secret) != nil)
        try database.revokeAccessToken(token.id)
        #expect(try other.accessToken(secret: secret) == nil)
        #expect(try database.accessToken(secret: kept.secret) != nil)
        #expect(try database.accessTokens().map(\.id) == [kept.token.id])
        #expect { try database.revokeAccessToken(token.id) } throws: { ($0 as? StoreError)?.code == .notFound }
    }

    @Test func aHooksTokensAreRevokedTogetherByOwner() throws {
        try database.createAccessToken(level: .readOnly, owner: "hook:thumbs")
        try database.createAccessToken(level: .readOnly, owner: "hook:thumbs")
        let other = try database.createAccessToken(level: .readOnly, owner: "hook:backup")
        let person = try database.createAccessToken(level: .readWrite, name: "me")
        #expect(try database.revokeAccessTokens(owner: "hook:thumbs") == 2)
        #expect(try database.revokeAccessTokens(owner: "hook:thumbs") == 0)
        #expect(Set(try database.accessTokens().map(\.id)) == [other.token.id, person.token.id])
    }

    @Test func usingATokenIsRecorded() throws {
        let (token, secret) = try database.createAccessToken(level: .readOnly)
        #expect(token.lastUsedAt == nil)
        try database.touchAccessToken(token.id, at: Date(timeIntervalSince1970: 1_800_000_123))
        #expect(try database.accessToken(secret: secret)?.lastUsedAt == 1_800_000_123)
    }

    @Test func aLimitedTokenSeesTheAssetsOfItsAlbumsOnly() throws {
        let trip = try album("trip", members: ["beach", "dune"])
        let home = try album("home", members: ["cat"])
        let (token, secret) = try database.createAccessToken(level: .limited, albums: [trip.album])
        let found = try #require(try database.accessToken(secret: secret))
        #expect(found.accessLevel == .limited && found.albums == [trip.album])
        #expect(try database.assetIdentifiers(inAlbums: found.albums) == Set(trip.assets))
        #expect(try database.asset("beach/L0/001", isInAlbums: found.albums))
        #expect(try !database.asset("cat/L0/001", isInAlbums: found.albums))
        #expect(try !database.asset("beach/L0/001", isInAlbums: []))
        #expect(try database.assetIdentifiers(inAlbums: []).isEmpty)
        // Its albums follow what the hook's `albums` resolve to, at once.
        try database.setAccessTokenAlbums(token.id, albums: [trip.album, home.album])
        let widened = try #require(try database.accessToken(secret: secret))
        #expect(try database.assetIdentifiers(inAlbums: widened.albums) == Set(trip.assets + home.assets))
        #expect { try database.setAccessTokenAlbums("tok-none", albums: []) } throws: {
            ($0 as? StoreError)?.code == .notFound
        }
    }

    /// A request's look-up (a connection of its own, not the reader pool) reads every field as the
    /// pool does, sees another process's changes at its next look-up, and keeps no snapshot of the
    /// log between look-ups, which would stop the log from being checkpointed and restarted.
    @Test func aLookUpReadsTheTokenAsItIsNowAndHoldsNothingAfter() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let trip = try album("trip", members: ["beach"])
        let limited = try database.createAccessToken(
            level: .limited, albums: [trip.album], name: "frame", expiresAt: now.addingTimeInterval(3600),
            owner: "hook:frame", now: now)
        let plain = try database.createAccessToken(level: .readOnly, now: now)
        try database.touchAccessToken(plain.token.id, at: now.addingTimeInterval(5))
        let listed = Dictionary(uniqueKeysWithValues: try database.accessTokens().map { ($0.id, $0) })
        for secret in [limited.secret, plain.secret] {
            let found = try #require(try database.accessToken(secret: secret, now: now))
            #expect(found == listed[found.id])
        }
        #expect(try database.accessToken(secret: plain.secret, now: now)?.name == nil)

        // Another process narrows one token and revokes the other: the next look-ups see it.
        let other = try LibraryDatabase(existingAt: directory.path("library.sqlite").path)
        try other.setAccessTokenAlbums(limited.token.id, albums: [])
        try other.revokeAccessToken(plain.token.id)
        #expect(try database.accessToken(secret: plain.secret, now: now) == nil)
        // Last, a look-up that finds its row (one that finds none ends its read by itself).
        #expect(try database.accessToken(secret: limited.secret, now: now)?.albums == [])

        // The log can be copied back whole and restarted: no look-up left a read open.
        let row = try #require(
            try database.writer.writeWithoutTransaction { db in
                try Row.fetchOne(db, sql: "PRAGMA main.wal_checkpoint(TRUNCATE)")
            })
        let (busy, logPages, copied): (Int, Int, Int) = (row[0], row[1], row[2])
        #expect(busy == 0 && logPages == copied)
    }

    /// The newest change token, read on the look-ups' connection for every `GET /v1/health`: 0
    /// for an empty log, another process's commit at the next read, the snapshot's own inside
    /// `withinOneRead`, and no read left open after it.
    @Test func theNewestTokenIsReadAsItIsNowAndHoldsNothingAfter() throws {
        #expect(try database.currentToken() == 0)
        let other = try LibraryDatabase(existingAt: directory.path("library.sqlite").path)
        try other.write { try $0.insertAsset(AssetRecord(localIdentifier: "A/L0/001", mediaType: .image)) }
        #expect(try database.currentToken() == 1)
        try database.withinOneRead {
            #expect(try database.assetIDs(matching: AssetQuery()).count == 1)
            try other.write { try $0.insertAsset(AssetRecord(localIdentifier: "B/L0/001", mediaType: .image)) }
            #expect(try database.currentToken() == 1)
        }
        #expect(try database.currentToken() == 2)

        let row = try #require(
            try database.writer.writeWithoutTransaction { db in
                try Row.fetchOne(db, sql: "PRAGMA main.wal_checkpoint(TRUNCATE)")
            })
        let (busy, logPages, copied): (Int, Int, Int) = (row[0], row[1], row[2])
        #expect(busy == 0 && logPages == copied)
        // Its failures are the store's errors, as the pool's are.
        database.lookups?.close()
        #expect(throws: StoreError.self) { try database.currentToken() }
    }

    @Test func aLevelThisBuildDoesNotKnowAllowsNothing() throws {
        var (token, _) = try database.createAccessToken(level: .readOnly)
        token.level = "admin"
        #expect(token.accessLevel == nil)
        token.albumList = "not json"
        #expect(token.albums.isEmpty)
    }
}
