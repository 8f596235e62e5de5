import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A scope's rules as a table: a scope and an entry in, what of the entry passes out, over a real
/// library holding two directory albums (`/p/trip` with a favorite `beach` and `dune`, `/p/home`
/// with `cat`) and an asset in no album (`loose`).
@Suite struct ChangeScopeTests {
    static let trip = "trip/L0/040"
    static let home = "home/L0/040"
    static let folder = "F/L0/020"
    static func id(_ name: String) -> String { "\(name)/L0/001" }

    /// A library file: a deleted asset's directories are read from its tombstone inside a read,
    /// which an in-memory library (one serial connection) does not allow.
    let directory: TemporaryDirectory
    let database: LibraryDatabase
    /// Row ids of the assets, by name.
    let assets: [String: Int64]
    /// The albums, by local identifier.
    let albums: [String: CollectionRecord]

    init() throws {
        directory = try TemporaryDirectory(prefix: "scope")
        database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        var assets: [String: Int64] = [:]
        var albums: [String: CollectionRecord] = [:]
        for (identifier, path, names) in [(Self.trip, "/p/trip", ["beach", "dune"]), (Self.home, "/p/home", ["cat"])] {
            for name in names {
                assets[name] = try Self.insertAsset(name, in: path, favorite: name == "beach", database)
            }
            albums[identifier] = try Self.addAlbum(identifier, at: path, with: names.map { assets[$0]! }, database)
        }
        assets["loose"] = try Self.insertAsset("loose", in: "/q", database)
        self.assets = assets
        self.albums = albums
    }

    static func insertAsset(
        _ name: String, in directory: String, favorite: Bool = false, _ database: LibraryDatabase
    ) throws -> Int64 {
        try database.write { transaction in
            var record = AssetRecord(localIdentifier: Self.id(name), mediaType: .image)
            record.isFavorite = favorite
            return try transaction.insertAsset(
                record,
                resources: [
                    ResourceRecord(
                        assetId: 0, type: PHAssetResourceType.photo.rawValue, path: "\(directory)/\(name).jpg",
                        uniformTypeIdentifier: "public.jpeg", mimeType: "image/jpeg", fileSize: 1,
                        originalFilename: "\(name).jpg")
                ])
        }.value
    }

    /// An album (directory-backed when it has a path) holding `members`.
    static func addAlbum(_ identifier: String, at path: String?, with members: [Int64], _ database: LibraryDatabase)
        throws -> CollectionRecord
    {
        try database.write { transaction in
            var album = CollectionRecord(
                localIdentifier: identifier, isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: identifier, path: path, createdDate: 0)
            album.id = try transaction.insertCollection(album)
            try transaction.setMembers(ofCollection: album, to: members)
            return album
        }.value
    }

    func delete(_ names: [String], _ more: [String: Int64] = [:]) throws {
        try database.write { try $0.deleteAssets(names.map { assets[$0] ?? more[$0]! }) }
    }

    /// An entry naming assets, albums and folders by kind of change.
    static func entry(
        assets: ObjectChanges = ObjectChanges(), albums: ObjectChanges = ObjectChanges(),
        folders: ObjectChanges = ObjectChanges()
    ) -> LibraryChange {
        LibraryChange(
            token: 7, timestamp: 1_800_000_000, asset: assets, assetCollection: albums, collectionList: folders)
    }

    static func ids(_ names: String...) -> [String] { names.map(id) }

    /// One row of the table.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var scope: ChangeScope
        var entry: LibraryChange
        /// What passes; nil: the entry is left out.
        var kept: LibraryChange?
        var testDescription: String { name }
    }

    static let everything = entry(
        assets: ObjectChanges(
            inserted: ids("beach", "cat", "loose"), updated: ids("dune"),
            changedProperties: [id("dune"): ["isFavorite"]]),
        albums: ObjectChanges(updated: [trip, home], changedProperties: [trip: ["assets"], home: ["assets"]]),
        folders: ObjectChanges(updated: [folder]))

    static let table: [Row] = [
        Row(name: "a scope of defaults keeps everything", scope: ChangeScope(), entry: everything, kept: everything),
        Row(
            name: "object types not named are left out", scope: ChangeScope(objects: [.asset]), entry: everything,
            kept: entry(assets: everything.asset)),
        Row(
            name: "kinds not named are left out, with their changed properties",
            scope: ChangeScope(kinds: [.inserted]), entry: everything,
            kept: entry(assets: ObjectChanges(inserted: ids("beach", "cat", "loose")))),
        Row(
            name: "a hook's albums, by directory, keep their assets; other albums and folders pass",
            scope: ChangeScope(albums: ["/p/trip/"]), entry: everything,
            kept: entry(
                assets: ObjectChanges(
                    inserted: ids("beach"), updated: ids("dune"), changedProperties: [id("dune"): ["isFavorite"]]),
                albums: everything.assetCollection, folders: everything.collectionList)),
        Row(
            name: "a hook's albums by local identifier are the same albums",
            scope: ChangeScope(objects: [.asset], albums: [trip]), entry: everything,
            kept: entry(
                assets: ObjectChanges(
                    inserted: ids("beach"), updated: ids("dune"), changedProperties: [id("dune"): ["isFavorite"]]))),
        Row(
            name: "a predicate keeps the assets that match it",
            scope: ChangeScope(objects: [.asset], predicate: "favorite == YES"), entry: everything,
            kept: entry(assets: ObjectChanges(inserted: ids("beach")))),
        Row(
            name: "a predicate and albums both hold",
            scope: ChangeScope(objects: [.asset], predicate: "favorite == NO", albums: ["/p/home"]),
            entry: everything, kept: entry(assets: ObjectChanges(inserted: ids("cat")))),
        Row(
            name: "an entry nothing passes is left out", scope: ChangeScope(albums: ["/p/trip"]),
            entry: entry(assets: ObjectChanges(inserted: ids("cat", "loose"))), kept: nil),
        Row(
            name: "a limited scope keeps its albums and their assets, and no folder",
            scope: .limited(toAlbums: [trip]), entry: everything,
            kept: entry(
                assets: ObjectChanges(
                    inserted: ids("beach"), updated: ids("dune"), changedProperties: [id("dune"): ["isFavorite"]]),
                albums: ObjectChanges(updated: [trip], changedProperties: [trip: ["assets"]]))),
        Row(
            name: "a limited scope of no album keeps nothing", scope: .limited(toAlbums: []), entry: everything,
            kept: nil),
        Row(
            name: "a limited scope with a predicate keeps its albums' assets that match",
            scope: ChangeScope(
                objects: [.asset, .assetCollection], predicate: "favorite == NO", albums: [trip],
                bound: .albumsAndTheirAssets),
            entry: everything,
            kept: entry(
                assets: ObjectChanges(updated: ids("dune"), changedProperties: [id("dune"): ["isFavorite"]]),
                albums: ObjectChanges(updated: [trip], changedProperties: [trip: ["assets"]]))),
    ]

    @Test(arguments: table)
    func aScopeKeepsWhatItsRulesSay(row: Row) throws {
        var selector = try row.scope.selector(in: database)
        #expect(try selector.select([row.entry]) == (row.kept.map { [$0] } ?? []))
    }

    /// An entry's import origins and sidecar conflicts pass with their assets, and only theirs: a
    /// hook is told where its photos came from, a limited scope nothing of another album's.
    @Test func importsAndSidecarConflictsPassWithTheirAssets() throws {
        var entry = Self.everything
        entry.imports = ["beach", "cat"].map {
            ImportOrigin(localIdentifier: Self.id($0), source: "/drop/\($0).jpg", path: "/p/x/\($0).jpg")
        }
        entry.sidecarConflicts = ["dune", "cat"].map {
            SidecarConflict(
                localIdentifier: Self.id($0), sidecar: "/p/x/\($0).jpg.xmp", field: "rating", libraryValue: "2",
                sidecarValue: "4", kept: .sidecar)
        }
        var all = try ChangeScope().selector(in: database)
        #expect(try all.select([entry]) == [entry])
        var trip = try ChangeScope.limited(toAlbums: [Self.trip]).selector(in: database)
        let kept = try #require(try trip.select([entry]).first)
        #expect(kept.imports?.map(\.localIdentifier) == [Self.id("beach")])
        #expect(kept.sidecarConflicts?.map(\.localIdentifier) == [Self.id("dune")])
        var albumsOnly = try ChangeScope(objects: [.assetCollection]).selector(in: database)
        let albums = try #require(try albumsOnly.select([entry]).first)
        #expect(albums.imports == nil && albums.sidecarConflicts == nil)
    }

    @Test func entriesAreSelectedOneByOneInOrder() throws {
        var selector = try ChangeScope(objects: [.asset], albums: ["/p/home"]).selector(in: database)
        var first = Self.entry(assets: ObjectChanges(inserted: Self.ids("cat")))
        var second = Self.entry(assets: ObjectChanges(inserted: Self.ids("beach")))
        var third = Self.entry(assets: ObjectChanges(updated: Self.ids("cat")))
        (first.token, second.token, third.token) = (1, 2, 3)
        #expect(try selector.select([first, second, third]) == [first, third])
    }

    @Test
    func aHooksDeletedAssetPassesWhenItsFilesLayInAnAlbumsDirectory() throws {
        try delete(["dune", "cat", "loose"])
        let deleted = Self.entry(assets: ObjectChanges(deleted: Self.ids("dune", "cat", "loose")))
        var trip = try ChangeScope(albums: [Self.trip]).selector(in: database)
        #expect(try trip.select([deleted]).first?.asset.deleted == Self.ids("dune"))
        // A directory that is no album (yet, or any more) still names where files lay.
        var later = try ChangeScope(albums: ["/q"]).selector(in: database)
        #expect(try later.select([deleted]).first?.asset.deleted == Self.ids("loose"))
        // The predicate reads the tombstone, the asset's last description.
        var favorites = try ChangeScope(predicate: "favorite == YES").selector(in: database)
        try delete(["beach"])
        let beach = Self.entry(assets: ObjectChanges(deleted: Self.ids("beach", "dune")))
        #expect(try favorites.select([beach]).first?.asset.deleted == Self.ids("beach"))
    }

    /// A predicate on the files (`filename`, `isLibraryOwned`) reads a deleted asset's files from its
    /// tombstone, as it reads a live asset's rows: a hook on some names hears of their deletion.
    @Test func aHooksPredicateOnFilesReadsTheDeletedAssetsFiles() throws {
        try delete(["dune", "cat", "loose"])
        let deleted = Self.entry(assets: ObjectChanges(deleted: Self.ids("dune", "cat", "loose")))
        var named = try ChangeScope(predicate: "filename BEGINSWITH 'du'").selector(in: database)
        #expect(try named.select([deleted]).first?.asset.deleted == Self.ids("dune"))
        // Files the scanner found, not placed by the library.
        var found = try ChangeScope(predicate: "isLibraryOwned == NO").selector(in: database)
        #expect(try found.select([deleted]).first?.asset.deleted == Self.ids("dune", "cat", "loose"))
        var placed = try ChangeScope(predicate: "isLibraryOwned == YES").selector(in: database)
        #expect(try placed.select([deleted]).isEmpty)
    }

    @Test
    func aHooksUserAlbumCannotTellItsDeletedAssets() throws {
        let kept = try Self.insertAsset("kept", in: "/q", database)
        _ = try Self.addAlbum("mine/L0/040", at: nil, with: [kept], database)
        try delete(["kept"], ["kept": kept])
        var mine = try ChangeScope(albums: ["mine/L0/040"]).selector(in: database)
        #expect(try mine.select([Self.entry(assets: ObjectChanges(deleted: Self.ids("kept")))]).isEmpty)
    }

    @Test func aLimitedScopeTellsTheDeletionOfWhatItSawInItsAlbums() throws {
        let kept = try Self.insertAsset("kept", in: "/q", database)
        _ = try Self.addAlbum("mine/L0/040", at: nil, with: [kept], database)
        var limited = try ChangeScope.limited(toAlbums: [Self.trip, "mine/L0/040"]).selector(in: database)
        // Added to the album after the selector was made: seen at the next read.
        let new = try Self.insertAsset("new", in: "/p/trip", database)
        let members = [assets["beach"]!, assets["dune"]!, new]
        try database.write { [trip = albums[Self.trip]!] in try $0.setMembers(ofCollection: trip, to: members) }
        let added = Self.entry(assets: ObjectChanges(inserted: Self.ids("new")))
        #expect(try limited.select([added]) == [added])
        try delete(["dune", "kept", "new", "cat"], ["kept": kept, "new": new])
        let deleted = Self.entry(assets: ObjectChanges(deleted: Self.ids("dune", "kept", "new", "cat")))
        #expect(try limited.select([deleted]).first?.asset.deleted == Self.ids("dune", "kept", "new"))
        // A stream opened after the deletions never saw them in its albums.
        var late = try ChangeScope.limited(toAlbums: [Self.trip, "mine/L0/040"]).selector(in: database)
        #expect(try late.select([deleted]).isEmpty)
    }

    @Test func aPredicateThatDoesNotCompileIsRefused() throws {
        #expect(throws: PredicateFormatError.self) {
            try ChangeScope(predicate: "nonsense ==").selector(in: database)
        }
        #expect(try ChangeScope().compiledPredicate() == nil)
    }
}
