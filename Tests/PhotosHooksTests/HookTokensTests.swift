import Foundation
import Logging
import Photos
import PhotosCore
import PhotosStore
import PhotosTestSupport
import Testing

@testable import PhotosHooks

/// The tokens photosd gives its hooks, against a real library: each hook's level, a limited one's
/// albums as they resolve, and the albums it follows as scans make them.
@Suite struct HookTokensTests {
    static let logger = Logger(label: "hook-tokens-test")

    /// A directory-backed album at `path`, as a scan makes one.
    static func directoryAlbum(_ title: String, at path: String, in database: LibraryDatabase) throws
        -> CollectionRecord
    {
        try database.write { transaction in
            var album = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: title, path: path, createdDate: 0)
            album.id = try transaction.insertCollection(album)
            return album
        }.value
    }

    static func limited(_ name: String, albums: [String]) -> HookDefinition {
        var hook = HookDefinition(name: name, command: ["/bin/true"])
        hook.access = .limited
        hook.albums = albums
        return hook
    }

    @Test func eachExecHookGetsATokenOfItsLevelAndALimitedOneItsAlbumsThatResolve() throws {
        let fixture = try LibraryFixture()
        let database = fixture.library.database
        let trip = try #require(fixture.collections["Trip"])
        var writer = HookDefinition(name: "writer", command: ["/bin/true"])
        writer.access = .readWrite
        let reader = HookDefinition(name: "reader", command: ["/bin/true"])
        var disabled = HookDefinition(name: "off", command: ["/bin/true"])
        disabled.enabled = false
        let webhook = HookDefinition(name: "web", url: try WebhookURL("http://127.0.0.1:9/x"))
        // A directory no scan has made an album yet: logged, and left out of the token until it is one.
        let pending = fixture.directory.path("Pictures/New").path
        let hooks = [writer, reader, disabled, webhook, Self.limited("some", albums: [pending, trip, trip])]
        let tokens = try HookTokens.mint(
            for: hooks, socketPath: "/run/test.sock", database: database, logger: Self.logger)

        #expect(tokens.token(for: "off") == nil && tokens.token(for: "web") == nil, "no program to give them to")
        #expect(tokens.environment(for: "web").isEmpty)
        for (name, level, albums) in [
            ("writer", AccessLevel.readWrite, [String]()), ("reader", .readOnly, []), ("some", .limited, [trip]),
        ] {
            let token = try #require(tokens.token(for: name))
            #expect(token.albums == albums)
            let stored = try #require(try database.accessToken(secret: token.secret), "\(name)")
            #expect(stored.id == token.id && stored.accessLevel == level && stored.albums == albums)
            #expect(stored.owner == "hook:\(name)")
            #expect(tokens.environment(for: name) == ["PHOTOS_SOCKET": "/run/test.sock", "PHOTOS_TOKEN": token.secret])
        }

        // The next start revokes these and makes new ones.
        let again = try HookTokens.mint(
            for: hooks, socketPath: "/run/test.sock", database: database, logger: Self.logger)
        let old = try #require(tokens.token(for: "reader"))
        #expect(try database.accessToken(secret: old.secret) == nil)
        #expect(try database.accessTokens().count == 3)
        #expect(try again.token(for: "reader").map { try database.accessToken(secret: $0.secret) != nil } == true)
        // Without the API, no tokens at all (and none left behind).
        let off = try HookTokens.mint(for: hooks, socketPath: "", database: database, logger: Self.logger)
        #expect(off.token(for: "reader") == nil && off.environment(for: "some").isEmpty)
        #expect(try database.accessTokens().isEmpty)
    }

    @Test func aLimitedTokenFollowsItsAlbumsAsTheyComeAndGo() throws {
        let fixture = try LibraryFixture()
        let database = fixture.library.database
        let family = fixture.directory.path("Pictures/Family").path
        let hook = Self.limited("family", albums: [family])
        let tokens = try HookTokens.mint(for: [hook], socketPath: "/s", database: database, logger: Self.logger)
        let token = try #require(tokens.token(for: "family"))
        // None of its albums exists: a token that sees nothing, not one that sees everything.
        #expect(token.albums.isEmpty)
        #expect(try database.accessToken(secret: token.secret)?.albums == [])
        #expect(try tokens.refreshAlbums(of: hook, in: database) == nil, "nothing to follow yet")

        // A scan makes the album: the token covers it from the next run on.
        let record = try Self.directoryAlbum("Family", at: family, in: database)
        let album = record.localIdentifier
        #expect(try tokens.refreshAlbums(of: hook, in: database) == [album])
        #expect(try database.accessToken(secret: token.secret)?.albums == [album])
        #expect(tokens.token(for: "family")?.albums == [album])
        #expect(try tokens.refreshAlbums(of: hook, in: database) == nil, "unchanged: no write")

        // Its directory is gone, and the album with it: the token sees nothing again.
        try database.write { transaction in _ = try transaction.deleteCollection(record) }
        #expect(try tokens.refreshAlbums(of: hook, in: database) == [])
        #expect(try database.accessToken(secret: token.secret)?.albums == [])

        // A token that is not limited does not follow albums.
        var reader = HookDefinition(name: "reader", command: ["/bin/true"])
        reader.albums = [family]
        let readers = try HookTokens.mint(for: [reader], socketPath: "/s", database: database, logger: Self.logger)
        #expect(try readers.refreshAlbums(of: reader, in: database) == nil)
        #expect(readers.token(for: "reader")?.albums == [])
    }
}
