import Foundation
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosStore

/// PhotoKit's fetches on each engine: one library made the same way on SQLite and on PostgreSQL,
/// then the same asset queries (predicates compiled for each engine, sorts with NULLs and ties,
/// limits, smart albums, Recently Deleted, an album's order, listed assets, hidden assets and
/// bursts) must select the same assets in the same order.
@Suite struct FetchContractTests {
    @Test func sqliteSelectsWhatEachQueryAsks() throws {
        let database = try LibraryDatabase()
        let results = try database.writer.write { db in
            try FetchContract.makeLibrary(db)
            return try FetchContract.results(db)
        }
        // Each query's own expectation, so that SQLite's run alone pins the behaviour.
        for (name, identifiers) in results {
            if let expected = FetchContract.expected[name] { #expect(identifiers == expected, "\(name)") }
        }
        #expect(Set(FetchContract.expected.keys).isSubset(of: Set(results.map(\.name))))
        #expect(Set(results.map(\.identifiers)).count > results.count / 2, "the queries tell the assets apart")
    }

    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
    func postgreSQLSelectsWhatSQLiteSelects() throws {
        let database = try LibraryDatabase()
        let sqlite = try database.writer.write { db in
            try FetchContract.makeLibrary(db)
            return try FetchContract.results(db)
        }
        let postgreSQL = try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            return try db.transaction { db in
                try FetchContract.makeLibrary(db)
                return try FetchContract.results(db)
            }
        }
        #expect(postgreSQL.map(\.name) == sqlite.map(\.name) && sqlite.count > 40)
        for (ours, theirs) in zip(postgreSQL, sqlite) {
            #expect(ours.identifiers == theirs.identifiers, "\(ours.name)")
        }
    }
}

/// What the asset and collection JSON are made from, on each engine: the same descriptions of
/// every asset (files, albums, places, dates in a fixed time zone) and the same collection rows
/// (figures, smart album counts, folders).
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct DescriptionContractTests {
    @Test func assetAndCollectionRowsAreTheSameOnBothEngines() throws {
        let database = try LibraryDatabase()
        let sqlite = try database.writer.write { db in
            try FetchContract.makeLibrary(db)
            return try Self.descriptions(db)
        }
        let postgreSQL = try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            return try db.transaction { db in
                try FetchContract.makeLibrary(db)
                return try Self.descriptions(db)
            }
        }
        // Nine live assets and one asked for twice; the trashed one and an unknown id have no row.
        #expect(sqlite.assets.count == FetchContract.assets.count)
        #expect(sqlite.assets.contains { !$0.albums.isEmpty } && sqlite.assets.contains { $0.location != nil })
        #expect(postgreSQL.assets == sqlite.assets)
        #expect(postgreSQL.collections.count == sqlite.collections.count)
        for (ours, theirs) in zip(postgreSQL.collections, sqlite.collections) { #expect(ours == theirs) }
    }

    /// Every asset's description (a missing one and a repeat asked for too), and every collection's
    /// description rows, as text.
    static func descriptions(_ db: any StoreConnection) throws -> (assets: [AssetDescription], collections: [String]) {
        let zone = try #require(TimeZone(identifier: "Europe/Stockholm"))
        let ids = try db.rows("SELECT id FROM asset ORDER BY id", []) { try $0.int64(0) }
        let assets = try LibraryDatabase.withAssetRows(ids: ids + [999, ids[0]], db, schema: nil) { rows in
            try AssetRowJSON.describe(&rows, timeZone: zone)
        }
        let collections = try db.rows("SELECT id FROM collection ORDER BY id", []) { try $0.int64(0) }
        let rows = try LibraryDatabase.collectionDescriptionRows(ids: collections, db)
        // Row ids are each engine's own (SQLite's migrations used some up): the local identifiers say
        // which collection is which.
        let lines =
            rows.collections.map { info in
                var info = info
                info.record.id = nil
                return "\(info)"
            } + rows.smartAlbumCounts.sorted { $0.key < $1.key }.map { "\($0)" }
            + ["\(rows.parentIdentifiers)"]
        return (assets, lines)
    }
}

enum FetchContract {
    /// One asset of the library: its file's name and what sets it apart.
    struct Asset {
        var name: String
        var date: Double?
        var make: String? = nil
        var place: (Double, Double)? = nil
        var favorite = false
        var hidden = false
        var rating: Int64 = 0
        var width = 4000
        var video = false
        var screenshot = false
        var burst: (String, representative: Bool)? = nil
    }

    static let assets: [Asset] = [
        Asset(name: "Crème brûlée.jpg", date: 300, make: "Canon", place: (59.33, 18.07), favorite: true, rating: 4),
        Asset(name: "ÉCOLE.JPG", date: 100, make: "NIKON CORPORATION", place: (59.86, 17.64)),
        Asset(name: "img_0001.heic", date: nil, make: "Apple", rating: 1, width: 3024),
        Asset(name: "IMG_0002.HEIC", date: 200, make: "Apple", screenshot: true),
        Asset(name: "zürich.png", date: 200, hidden: true),
        Asset(name: "clip.mov", date: 250, make: "canon", width: 1920, video: true),
        Asset(name: "burst-1.jpg", date: 400, burst: ("B1", true)),
        Asset(name: "burst-2.jpg", date: 401, burst: ("B1", false)),
        Asset(name: "Paris.jpg", date: nil, place: (48.8566, 2.3522), rating: 5),
        Asset(name: "trashed.jpg", date: 150, make: "Canon"),
    ]

    static func identifier(_ index: Int) -> String { "A\(index)/L0/001" }

    /// Makes the library: the assets, an album of three in its own order, one asset in the Trash.
    static func makeLibrary(_ db: any StoreConnection) throws {
        let transaction = LibraryTransaction(db: db)
        var ids: [Int64] = []
        for (index, asset) in assets.enumerated() {
            var record = AssetRecord(
                localIdentifier: identifier(index), mediaType: asset.video ? .video : .image,
                addedDate: Date(timeIntervalSince1970: 1_000),
                creationDate: asset.date.map(Date.init(timeIntervalSince1970:)))
            record.make = asset.make
            (record.latitude, record.longitude) = (asset.place?.0, asset.place?.1)
            (record.isFavorite, record.isHidden, record.rating) = (asset.favorite, asset.hidden, asset.rating)
            (record.pixelWidth, record.pixelHeight) = (asset.width, 3000)
            if asset.screenshot { record.mediaSubtypes = Int64(PHAssetMediaSubtype.photoScreenshot.rawValue) }
            if let (burst, representative) = asset.burst {
                (record.burstIdentifier, record.representsBurst) = (burst, representative)
            }
            let file = ResourceRecord(
                assetId: 0, type: asset.video ? PHAssetResourceType.video.rawValue : PHAssetResourceType.photo.rawValue,
                path: "/p/" + asset.name, uniformTypeIdentifier: nil, mimeType: nil, fileSize: 1,
                originalFilename: asset.name)
            ids.append(try transaction.insertAsset(record, resources: [file]))
        }
        let albumID = try transaction.insertCollection(
            CollectionRecord(
                localIdentifier: "ALBUM/L0/040", isList: false, type: PHAssetCollectionType.album.rawValue,
                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: "Mixed", createdDate: 1))
        let album = try #require(try transaction.collection(id: albumID))
        try transaction.setMembers(ofCollection: album, to: [ids[5], ids[0], ids[2]])
        try transaction.trashAssets([ids[9]], files: [], date: 2_000)
        _ = try transaction.changes.append(to: db)
    }

    /// Each query's name and the assets it selects, by index in ``assets``.
    static func results(_ db: any StoreConnection) throws -> [(name: String, identifiers: [String])] {
        let albumID = try #require(try LibraryTransaction(db: db).collection(withLocalIdentifier: "ALBUM/L0/040")?.id)
        let allIDs = try LibraryDatabase.ids(table: "asset", localIdentifiers: assets.indices.map(identifier), db)
        var queries: [(String, AssetQuery)] = []
        func add(
            _ name: String, _ scope: AssetQuery.Scope = .library, _ change: (inout AssetQuery) throws -> Void = { _ in }
        )
            throws
        {
            var query = AssetQuery(scope: scope)
            try change(&query)
            queries.append((name, query))
        }
        func predicate(_ format: String, _ arguments: [Any] = []) throws -> SQLFragment {
            try PhotoKitPredicate(format: format, argumentArray: arguments)
                .sql(for: .asset, dialect: db.dialect, column: AssetQuery.column(for:))
        }
        try add("library")
        try add("newest first") { $0.sort = [SortKey(key: "creationDate", ascending: false)] }
        try add("by rating, then newest") {
            $0.sort = [SortKey(key: "rating", ascending: false), SortKey(key: "creationDate", ascending: false)]
        }
        try add("first three by date") {
            $0.sort = [SortKey(key: "creationDate", ascending: true)]
            $0.limit = 3
        }
        try add("hidden and all bursts") {
            ($0.includeHidden, $0.includeAllBursts) = (true, true)
        }
        let formats: [(String, [Any])] = [
            ("make CONTAINS[c] 'canon'", []), ("make == 'Canon'", []), ("make != 'Canon'", []), ("make == nil", []),
            ("filename LIKE[cd] '*ecole*'", []), ("filename LIKE 'img_000?.heic'", []),
            // SQL's own wildcards are plain characters in a LIKE pattern; a backslash escapes the next one.
            ("filename LIKE 'burst_1.jpg'", []), ("filename LIKE '*%*'", []), ("filename LIKE 'Paris\\\\.jpg'", []),
            ("filename LIKE 'Pari\\\\?.jpg'", []),
            ("filename BEGINSWITH[c] 'img_'", []), ("filename ENDSWITH[c] '.HEIC'", []),
            ("filename CONTAINS[cd] 'creme'", []), ("filename ==[cd] 'zurich.png'", []),
            ("favorite == YES", []), ("NOT (favorite == YES)", []), ("creationDate == nil", []),
            ("creationDate < %@", [Date(timeIntervalSince1970: 250)]), ("rating IN {1, 4}", []),
            ("pixelWidth BETWEEN {2000, 3500}", []), ("distanceToLocation(location, 59.33, 18.07) < 80", []),
            ("distanceToLocation(location, 59.33, 18.07) < 60", []), ("location == nil", []),
            ("creationDateHasOffset == NO", []), ("TRUEPREDICATE", []), ("FALSEPREDICATE", []),
            ("localIdentifier IN %@", [(0..<70).map { identifier($0 % 9) }]),
            ("make CONTAINS 'a' OR rating > 3", []), ("hidden == YES", []),
        ]
        for (format, arguments) in formats {
            try add(format) {
                $0.filter = try predicate(format, arguments)
                $0.includeHidden = format.hasPrefix("hidden")
            }
        }
        for subtype: PHAssetCollectionSubtype in [
            .smartAlbumUserLibrary, .smartAlbumFavorites, .smartAlbumRecentlyAdded, .smartAlbumScreenshots,
            .smartAlbumBursts, .smartAlbumVideos, .smartAlbumAllHidden, .smartAlbumRecentlyDeleted,
        ] {
            try add("smart album \(subtype.rawValue)", .smartAlbum(subtype))
        }
        try add("Recently Deleted with a predicate", .smartAlbum(.smartAlbumRecentlyDeleted)) {
            $0.filter = try predicate("make == 'Canon' AND filename ENDSWITH 'd.jpg'")
        }
        try add("album", .collection(albumID))
        try add("album by date", .collection(albumID)) { $0.sort = [SortKey(key: "creationDate", ascending: true)] }
        try add("listed", .listed([allIDs[identifier(8)]!, allIDs[identifier(1)]!, allIDs[identifier(8)]!]))
        try add("by identifier", .localIdentifiers([identifier(3), identifier(0), "missing"]))
        try add("burst", .burst("B1"))
        return try queries.map { name, query in
            let (sql, arguments) = query.sql(selecting: "asset.localIdentifier", dialect: db.dialect)
            let identifiers = try db.rows(sql, arguments) { try $0.text(0) }
            // What a count of the same query says.
            let (countSQL, countArguments) = query.countSQL(dialect: db.dialect)
            #expect(try db.scalarInt64(countSQL, countArguments) == Int64(identifiers.count), "\(name)")
            return (name, identifiers)
        }
    }

    /// What some queries must select, by index in ``assets``.
    static let expected: [String: [String]] = [
        // PhotoKit's order: by creation date (no date first), then as inserted; hidden assets and
        // burst members other than the representative left out, the trashed one gone.
        "library": [2, 8, 1, 3, 5, 0, 6].map(identifier),
        "newest first": [6, 0, 5, 3, 1, 8, 2].map(identifier),
        "first three by date": [2, 8, 1].map(identifier),
        "make CONTAINS[c] 'canon'": [5, 0].map(identifier),
        "make == nil": [8, 6].map(identifier),
        "filename LIKE[cd] '*ecole*'": [1].map(identifier),
        "filename LIKE 'burst_1.jpg'": [],
        "filename LIKE '*%*'": [],
        "filename LIKE 'Paris\\\\.jpg'": [8].map(identifier),
        "filename LIKE 'Pari\\\\?.jpg'": [],
        "filename ENDSWITH[c] '.HEIC'": [2, 3].map(identifier),
        "filename CONTAINS[cd] 'creme'": [0].map(identifier),
        "creationDate == nil": [2, 8].map(identifier),
        "distanceToLocation(location, 59.33, 18.07) < 80": [1, 0].map(identifier),
        "distanceToLocation(location, 59.33, 18.07) < 60": [0].map(identifier),
        "FALSEPREDICATE": [],
        "hidden == YES": [4].map(identifier),
        "smart album \(PHAssetCollectionSubtype.smartAlbumRecentlyDeleted.rawValue)": [9].map(identifier),
        "album": [5, 0, 2].map(identifier),
        "listed": [8, 1, 8].map(identifier),
        "burst": [6, 7].map(identifier),
    ]
}
