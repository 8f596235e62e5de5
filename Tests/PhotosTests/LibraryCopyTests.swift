import Foundation
import Photos
import PhotosCore
import PhotosIngest
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A library copied between engines: the corpus scanned, curated through PhotoKit (albums in a
/// folder, favorites, a hidden photo, a deletion, a hook's cursor, an access token), copied into
/// the real PostgreSQL server and back into a new file, and every row of every table of the two
/// SQLite files compared, id counters included; then the copy opened through PhotoKit answers as
/// the original did, to the same change tokens. A copy never goes over a library, and one that
/// fails halfway leaves none.
@Suite(
    .enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"),
    .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct LibraryCopyTests {
    @Test func aLibraryGoesToPostgreSQLAndBackWithEverythingInIt() throws {
        let directory = try TemporaryDirectory(prefix: "library-copy")
        let original = directory.path("original.sqlite")
        let (token, assetCount) = try Self.curatedLibrary(at: original)
        let schema = try PostgreSQLDatabaseSchema()
        let copied = try LibraryCopy.copy(from: original.path, to: schema.url)
        let assetRows = try Self.rows(of: "asset", order: "id", in: original.path).count
        let changeRows = try Self.rows(of: "change", order: "token", in: original.path).count
        #expect(assetRows >= assetCount && assetCount > 50 && changeRows >= 4)
        #expect(copied.rows["asset"] == assetRows && copied.rows["change"] == changeRows, "\(copied.rows)")
        #expect(copied.rows["tombstone"] ?? 0 > 0 && copied.rows["hook"] == 1 && copied.rows["accessToken"] == 1)
        #expect(copied.destination.hasPrefix("postgresql://") && !copied.destination.contains("password"))
        // Every table of the library is copied, and nothing else.
        let tables = try LibraryDatabase(existingAt: original.path).read { db in
            try db.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                    + "AND name <> 'grdb_migrations'", []
            ) { try $0.text(0) }
        }
        #expect(Set(copied.rows.keys) == Set(tables))

        let back = directory.path("back.sqlite")
        let returned = try LibraryCopy.copy(from: schema.url, to: back.path)
        #expect(returned.rows == copied.rows)
        for table in tables + ["sqlite_sequence"] {
            let order = table == "sqlite_sequence" ? "name" : "1"
            #expect(
                try Self.rows(of: table, order: order, in: back.path)
                    == (try Self.rows(of: table, order: order, in: original.path)),
                "\(table)")
        }
        // The copy, opened through PhotoKit, is the same library to the same tokens.
        let library = try PHPhotoLibrary(url: back)
        let before = try PHPhotoLibrary(url: original)
        #expect(try library.database.libraryIdentifier() == (try before.database.libraryIdentifier()))
        let identifiers = { (library: PHPhotoLibrary) -> [String] in
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.sortDescriptors = [NSSortDescriptor(key: "localIdentifier", ascending: true)]
            let result = PHAsset.fetchAssets(with: options)
            return (0..<result.count).map { result.object(at: $0).localIdentifier }
        }
        #expect(identifiers(library) == identifiers(before) && identifiers(library).count >= assetCount)
        let changes = try library.fetchPersistentChanges(since: token).map { $0.changeToken.description }
        #expect(changes == (try before.fetchPersistentChanges(since: token).map { $0.changeToken.description }))
        #expect(!changes.isEmpty)
        // New ids on either side of the copy are never ids the original handed out.
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "After the copy")
        }
        let largest = try Self.rows(of: "sqlite_sequence", order: "name", in: original.path)
        let collectionSequence = largest.first { $0.first == .text("collection") }?.last
        let newest = try LibraryDatabase(existingAt: back.path).read { db in
            try db.scalarInt64("SELECT MAX(id) FROM collection")
        }
        if case .int(let used) = collectionSequence { #expect((newest ?? 0) > used) }
    }

    @Test func aCopyNeverGoesOverALibrary() throws {
        let directory = try TemporaryDirectory(prefix: "library-copy-refused")
        let original = directory.path("original.sqlite")
        _ = try LibraryDatabase(path: original.path)
        let taken = directory.path("taken.sqlite")
        FileManager.default.createFile(atPath: taken.path, contents: Data("mine".utf8))
        let overFile = #expect(throws: StoreError.self) { try LibraryCopy.copy(from: original.path, to: taken.path) }
        #expect(overFile?.message.contains("already exists") == true)
        #expect(try Data(contentsOf: taken) == Data("mine".utf8))
        let schema = try PostgreSQLDatabaseSchema()
        _ = try LibraryCopy.copy(from: original.path, to: schema.url)
        let overLibrary = #expect(throws: StoreError.self) { try LibraryCopy.copy(from: original.path, to: schema.url) }
        #expect(overLibrary?.message.contains("already holds a library") == true)
        let missing = #expect(throws: StoreError.self) {
            try LibraryCopy.copy(from: directory.path("none.sqlite").path, to: directory.path("x.sqlite").path)
        }
        #expect(missing?.code == .notFound)
        let empty = try PostgreSQLDatabaseSchema()
        let noLibrary = #expect(throws: StoreError.self) {
            try LibraryCopy.copy(from: empty.url, to: directory.path("y.sqlite").path)
        }
        #expect(
            noLibrary?.code == .notFound && !FileManager.default.fileExists(atPath: directory.path("y.sqlite").path))
    }

    @Test func aLibraryOfSeveralHostsGoesIntoAFileAsOneMachinesOrNotAtAll() throws {
        let directory = try TemporaryDirectory(prefix: "library-copy-hosts")
        try PostgreSQLTestServer.inNewSchema { url in
            let nas = try LibraryDatabase(postgreSQL: url, host: "nas")
            let laptop = try LibraryDatabase(postgreSQL: url, host: "laptop")
            try nas.write { try $0.setRoot("/srv/photos", offline: false) }
            try laptop.write { try $0.setRoot("/home/me/Pictures", offline: false) }
            try PostgreSQLTestServer.insertPhoto(at: "/srv/photos/a.jpg", in: nas)
            try PostgreSQLTestServer.insertPhoto(at: "/home/me/Pictures/b.jpg", in: laptop)
            // A file is one machine's: its paths are named by path alone, no host.
            let one = directory.path("one.sqlite")
            _ = try LibraryCopy.copy(from: url, to: one.path)
            let (hosts, paths) = try LibraryDatabase(path: one.path).read { db in
                (
                    try db.rows("SELECT host FROM directory UNION SELECT host FROM root", []) { try $0.text(0) },
                    try db.rows(
                        "SELECT \(FileDirectories.path(db.dialect)) FROM \(FileDirectories.join) ORDER BY 1", []
                    ) {
                        try $0.text(0)
                    }
                )
            }
            #expect(hosts == [""] && paths == ["/home/me/Pictures/b.jpg", "/srv/photos/a.jpg"])
            // Two hosts holding one path: no file holds both, and none is left behind.
            try laptop.write { try $0.setRoot("/srv/photos", offline: false) }
            try PostgreSQLTestServer.insertPhoto(at: "/srv/photos/c.jpg", in: laptop)
            let two = directory.path("two.sqlite")
            let refused = #expect(throws: StoreError.self) { try LibraryCopy.copy(from: url, to: two.path) }
            #expect(
                refused?.message.contains("two hosts of the library hold /srv/photos") == true,
                "\(String(describing: refused))")
            #expect(!FileManager.default.fileExists(atPath: two.path))
        }
    }

    /// A root with photos at its top and in a folder below is a folder and an album at one path:
    /// one machine's, which a file holds, copied from a file or from PostgreSQL.
    @Test func aRootThatIsAFolderAndAnAlbumIsCopiedIntoAFile() throws {
        let directory = try TemporaryDirectory(prefix: "library-copy-root-album")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/Trip", withIntermediateDirectories: true)
        let photo = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path
        for path in [root + "/top.jpg", root + "/Trip/below.jpg"] {
            try FileManager.default.copyItem(atPath: photo, toPath: path)
        }
        let original = directory.path("original.sqlite").path
        #expect(
            try FolderScanner(database: LibraryDatabase(path: original), quietTime: 0).scan(roots: [root]).ingested == 2
        )
        let copy = directory.path("copy.sqlite").path
        #expect(try LibraryCopy.copy(from: original, to: copy).rows["asset"] == 2)
        let schema = try PostgreSQLDatabaseSchema()
        _ = try LibraryCopy.copy(from: original, to: schema.url)
        let back = directory.path("back.sqlite").path
        #expect(
            try LibraryCopy.copy(from: schema.url, to: back).rows["collection"]
                == (try Self.rows(
                    of: "collection", order: "id", in: original
                ).count))
    }

    @Test func aCopyThatFailsHalfwayLeavesNoLibrary() throws {
        let directory = try TemporaryDirectory(prefix: "library-copy-halfway")
        let original = directory.path("original.sqlite")
        let database = try LibraryDatabase(path: original.path)
        // A row PostgreSQL refuses (text where a whole number goes: SQLite keeps what it is given),
        // in a table copied after others.
        try database.writer.write { db in
            try db.execute(
                "INSERT INTO rejected (path, code, reason, fileSize, modificationTime, rejectedDate) "
                    + "VALUES (?, 'notMedia', 'x', 'large', 0, 0)", [.text("/p/bad.jpg")])
        }
        let schema = try PostgreSQLDatabaseSchema()
        let error = #expect(throws: StoreError.self) { try LibraryCopy.copy(from: original.path, to: schema.url) }
        #expect(error?.message.contains("copying rejected") == true, "\(String(describing: error))")
        #expect(try schema.holdsALibrary() == false)

        // Into a file: a member whose asset is not there fails at the commit; no file is left.
        let dangling = directory.path("dangling.sqlite")
        let damaged = try LibraryDatabase(path: dangling.path)
        try damaged.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO collection_asset (collectionId, assetId, position) VALUES (1, 999, 0)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let target = directory.path("copy.sqlite")
        #expect(throws: (any Error).self) { try LibraryCopy.copy(from: dangling.path, to: target.path) }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!left.contains { $0.contains("copy.sqlite") }, "\(left)")
    }

    /// The corpus scanned into a file library and curated; the token before the curation and the
    /// number of assets scanned.
    static func curatedLibrary(at url: URL) throws -> (PHPersistentChangeToken, Int) {
        let library = try PHPhotoLibrary(url: url)
        let root = try #require(Corpus.root).resolvingSymlinksInPath().path
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [root])
        let token = library.currentChangeToken
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.sortDescriptors = [NSSortDescriptor(key: "localIdentifier", ascending: true)]
        let result = PHAsset.fetchAssets(with: options)
        let assets = (0..<result.count).map { result.object(at: $0) }
        try library.performChangesAndWait {
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            album.addAssets(Array(assets.prefix(5)) as NSArray)
            folder.addChildCollections([album.placeholderForCreatedAssetCollection!] as NSArray)
            PHAssetChangeRequest(for: assets[1]).isFavorite = true
            PHAssetChangeRequest(for: assets[2]).isHidden = true
        }
        // A deletion leaves a tombstone (the photos' roots are read-only here: an album goes).
        var gone = ""
        try library.performChangesAndWait {
            gone =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Draft")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        let draft = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [gone], options: options)
        try #require(draft.count == 1)
        try library.performChangesAndWait { PHAssetCollectionChangeRequest.deleteAssetCollections(draft) }
        try library.database.enrollHooks(["backup"], historyLimit: 1_000_000)
        _ = try library.database.createAccessToken(level: .readOnly, name: "phone")
        return (token, assets.count)
    }

    /// A table's rows in a SQLite file, every column.
    static func rows(of table: String, order: String, in path: String) throws -> [[SQLValue]] {
        try LibraryDatabase(existingAt: path).read { db in
            try db.rows("SELECT * FROM \(table) ORDER BY \(order)", []) { $0.values }
        }
    }
}

/// A database of its own on the test server for a copy's PostgreSQL side: a schema named in the
/// URL's `options`, dropped afterwards.
final class PostgreSQLDatabaseSchema {
    let url: String
    private let schema = PostgreSQLTestServer.uniqueName("copy")
    private let address: PostgreSQLAddress

    init() throws {
        let server = try #require(PostgreSQLTestServer.url)
        address = try PostgreSQLAddress(server)
        let connection = try PostgreSQLConnection.connect(to: address)
        defer { connection.close() }
        try connection.execute("CREATE SCHEMA \(schema)", [])
        url = "\(server)\(server.contains("?") ? "&" : "?")schema=\(schema)"
    }

    /// Whether a library's tables are in the schema.
    func holdsALibrary() throws -> Bool {
        let connection = try PostgreSQLConnection.connect(to: address)
        defer { connection.close() }
        return try connection.scalarInt64(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ?", [.text(schema)]) ?? 0 > 0
    }

    deinit {
        if let connection = try? PostgreSQLConnection.connect(to: address) {
            _ = try? connection.execute("DROP SCHEMA \(schema) CASCADE", [])
            connection.close()
        }
    }
}
