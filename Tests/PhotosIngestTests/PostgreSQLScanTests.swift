import Foundation
import PhotosCore
import PhotosIngest
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosStore

/// The shared corpus scanned into a library kept in PostgreSQL and into a library file: the same
/// assets with the same metadata, files, Live Photo and RAW pairs, bursts and directory albums, and
/// a rescan of either finds nothing to do.
@Suite(
    .enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"),
    .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PostgreSQLScanTests {
    @Test func theCorpusScansIntoPostgreSQLAsIntoAFile() throws {
        let root = try #require(Corpus.root).path
        let zone = try #require(TimeZone(identifier: "Europe/Stockholm"))
        let sqlite = try LibraryDatabase()
        let sqliteReport = try FolderScanner(database: sqlite, timeZone: zone, quietTime: 0).scan(roots: [root])
        try PostgreSQLTestServer.inNewSchema { url in
            let postgreSQL = try LibraryDatabase(postgreSQL: url)
            let report = try FolderScanner(database: postgreSQL, timeZone: zone, quietTime: 0).scan(roots: [root])
            #expect(report.ingested == sqliteReport.ingested && report.ingested > 50, "\(report)")
            #expect(report.rejected == sqliteReport.rejected, "\(report)")
            let ours = try Self.assets(postgreSQL, zone)
            let theirs = try Self.assets(sqlite, zone)
            #expect(ours.count == theirs.count)
            for (mine, other) in zip(ours, theirs) { #expect(mine == other) }
            #expect(try Self.albums(postgreSQL) == Self.albums(sqlite))

            let again = try FolderScanner(database: postgreSQL, timeZone: zone, quietTime: 0).scan(roots: [root])
            #expect(again.ingested == 0 && again.removed == 0, "a rescan finds nothing new: \(again)")
        }
    }

    /// A library file copied into PostgreSQL names no host: the first host to scan a root takes it,
    /// with its photos, their identifiers and favorites; nothing is ingested again.
    @Test func aLibraryCopiedFromAFileIsTakenByTheFirstHostThatScansItsRoot() throws {
        let directory = try TemporaryDirectory(prefix: "postgresql-copied")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/Trip", withIntermediateDirectories: true)
        for name in ["FurnaceCreekInn.jpg", "FurnaceCreekInn2.jpg"] {
            let source = try #require(Corpus.file("Camera/2008/Death Valley/\(name)"))
            try FileManager.default.copyItem(atPath: source.path, toPath: root + "/Trip/" + name)
        }
        let file = directory.path("library.sqlite").path
        let original = try LibraryDatabase(path: file)
        #expect(try FolderScanner(database: original, quietTime: 0).scan(roots: [root]).ingested == 2)
        let before = try original.assetFiles(under: root).files.map(\.localIdentifier).sorted()
        try PostgreSQLTestServer.inNewSchema { url in
            _ = try LibraryCopy.copy(from: file, to: url)
            let nas = try LibraryDatabase(postgreSQL: url, host: "nas")
            let report = try FolderScanner(database: nas, quietTime: 0).scan(roots: [root])
            #expect(report.ingested == 0 && report.removed == 0 && report.unchanged == 2, "\(report)")
            #expect(try nas.countAssets(matching: AssetQuery()) == 2)
            #expect(try nas.assetFiles(under: root).files.map(\.localIdentifier).sorted() == before)
            let hosts = try nas.read { db in
                try db.rows("SELECT DISTINCT host FROM directory UNION SELECT DISTINCT host FROM root", []) {
                    try $0.text(0)
                }
            }
            #expect(hosts == ["nas"], "the root and its directories are the host's now")
        }
    }

    @Test func twoHostsRootsAtOnePathAreTwoRootsAndKeepEachOthersPhotos() throws {
        let directory = try TemporaryDirectory(prefix: "postgresql-roots")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        func put(_ corpus: String, as name: String) throws {
            let source = try #require(Corpus.file(corpus))
            try FileManager.default.copyItem(atPath: source.path, toPath: root + "/" + name)
        }
        for name in ["FurnaceCreekInn.jpg", "FurnaceCreekInn2.jpg"] {
            try put("Camera/2008/Death Valley/\(name)", as: name)
        }
        try PostgreSQLTestServer.inNewSchema { url in
            let nas = try LibraryDatabase(postgreSQL: url, host: "nas")
            let laptop = try LibraryDatabase(postgreSQL: url, host: "laptop")
            #expect(try FolderScanner(database: nas, quietTime: 0).scan(roots: [root]).ingested == 2)
            // The laptop's disk at the same path: one photo of the same name, one of its own, and
            // none of the NAS's other. Its scan takes its own two and leaves the NAS's alone.
            try FileManager.default.removeItem(atPath: root + "/FurnaceCreekInn2.jpg")
            try put("Camera/2007/Fujifilm/DSCF1234.JPG", as: "DSCF1234.JPG")
            let scanned = try FolderScanner(database: laptop, quietTime: 0).scan(roots: [root])
            #expect(scanned.ingested == 2 && scanned.removed == 0, "\(scanned)")
            #expect(try nas.countAssets(matching: AssetQuery()) == 4)
            // Each host's directory is an album of its own.
            let albums = try nas.read { db in
                try db.rows("SELECT host FROM collection WHERE path = ? AND isList = 0 ORDER BY host", [.text(root)]) {
                    try $0.text(0)
                }
            }
            #expect(albums == ["laptop", "nas"])
            // Each host's rescan compares its own rows with the disk (here one directory for both):
            // the NAS lost a photo and gained one, the laptop nothing.
            let rescanned = try FolderScanner(database: nas, quietTime: 0).scan(roots: [root])
            #expect(rescanned.removed == 1 && rescanned.ingested == 1, "\(rescanned)")
            let again = try FolderScanner(database: laptop, quietTime: 0).scan(roots: [root])
            #expect(again.removed == 0 && again.ingested == 0, "\(again)")
            let paths = try laptop.read { db in
                try db.rows("SELECT \(FileDirectories.path(db.dialect)) FROM \(FileDirectories.join) ORDER BY 1", []) {
                    try $0.text(0)
                }
            }
            #expect(
                paths == [
                    root + "/DSCF1234.JPG", root + "/FurnaceCreekInn.jpg", "nas:" + root + "/DSCF1234.JPG",
                    "nas:" + root + "/FurnaceCreekInn.jpg",
                ])
        }
    }

    @Test func anotherHostsTrashedFileIsNotThisHostsFileBack() throws {
        // Two machines made from one disk image have the same devices and inodes: a file at a
        // path another host trashed, with the device and inode it had there, is this host's own.
        let directory = try TemporaryDirectory(prefix: "postgresql-trash-hosts")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let path = root + "/FurnaceCreekInn.jpg"
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path, toPath: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        try PostgreSQLTestServer.inNewSchema { url in
            let nas = try LibraryDatabase(postgreSQL: url, host: "nas")
            let laptop = try LibraryDatabase(postgreSQL: url, host: "laptop")
            #expect(try FolderScanner(database: nas, quietTime: 0).scan(roots: [root]).ingested == 1)
            let id = try #require(try nas.assetIDs(matching: AssetQuery()).first)
            // The NAS deleted its photo to its Trash (the file's move is what its journal does).
            try nas.write { transaction in
                try transaction.trashAssets(
                    [id],
                    files: [
                        TrashedFile(
                            assetId: id, path: path, device: Int64(info.st_dev), inode: Int64(info.st_ino),
                            trashDirectory: "/home/me/.local/share/Trash", trashKind: "home", trashTop: "/",
                            trashName: "FurnaceCreekInn.jpg")
                    ], date: 1_700_000_000)
            }
            // The laptop's file is a photo of its own, not the NAS's back from its Trash.
            let scanned = try FolderScanner(database: laptop, quietTime: 0).scan(roots: [root])
            #expect(scanned.ingested == 1 && scanned.restored == 0, "\(scanned)")
            #expect(try nas.trashedAssets().map(\.assetId) == [id])
            // A trash still to be moved on the NAS does not hide the laptop's file either.
            let laptops = try laptop.assetIDs(matching: AssetQuery())
            #expect(laptops.count == 1)
            try laptop.write { try $0.deleteAssets(laptops) }
            try nas.write { _ = try $0.db.execute("UPDATE trashedFile SET trashName = NULL", []) }
            #expect(try FolderScanner(database: laptop, quietTime: 0).scan(roots: [root]).ingested == 1)
        }
    }

    /// Every asset's description without what each library makes its own (identifiers, the dates
    /// of the scan), by the path of its first file.
    static func assets(_ database: LibraryDatabase, _ zone: TimeZone) throws -> [String] {
        let ids = try database.assetIDs(
            matching: {
                var query = AssetQuery()
                (query.includeHidden, query.includeAllBursts) = (true, true)
                return query
            }())
        return try DescriptionReader(database: database, timeZone: zone).assets(.rowIDs(ids)).map { asset in
            var asset = asset
            asset.localIdentifier = ""
            asset.modificationDate = nil
            asset.albums = asset.albums.map { album in
                var album = album
                album.localIdentifier = ""
                return album
            }
            return "\(asset.resources.first?.path ?? "") \(asset)"
        }.sorted()
    }

    @Test func aTreeOfManyAlbumsGetsTheSameMembersInTheSameOrder() throws {
        // More directories than the engine's album members are read at once (64 a statement).
        let photo = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let tree = try TemporaryDirectory(prefix: "many-albums")
        for index in 0..<150 {
            let directory = tree.path(String(format: "Trips/%03d", index)).path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for name in ["b.jpg", "a.jpg"].prefix(index % 3 == 0 ? 2 : 1) {
                try FileManager.default.linkItem(atPath: photo.path, toPath: directory + "/" + name)
            }
        }
        let sqlite = try LibraryDatabase()
        _ = try FolderScanner(database: sqlite, quietTime: 0).scan(roots: [tree.url.path])
        try PostgreSQLTestServer.inNewSchema { url in
            let postgreSQL = try LibraryDatabase(postgreSQL: url)
            _ = try FolderScanner(database: postgreSQL, quietTime: 0).scan(roots: [tree.url.path])
            let members = try Self.members(postgreSQL)
            #expect(members.count == 200, "every photo is in its directory's album")
            #expect(members == (try Self.members(sqlite)))
        }
    }

    @Test func aRescanOfManyDirectoriesFindsEachFileInItsOwn() throws {
        // More directories than are read at once (64 a statement), some with a subdirectory, a
        // file that is not a photo, or both; then a subdirectory and a photo go from disk. Each row
        // read must go to the directory whose ranges hold it (a gone subdirectory's to its parent).
        let photo = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let tree = try TemporaryDirectory(prefix: "many-directories")
        for index in 0..<150 {
            let directory = tree.path(String(format: "Trips/%03d", index)).path
            try FileManager.default.createDirectory(atPath: directory + "/Sub", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo.path, toPath: directory + "/a.jpg")
            if index % 10 == 0 {
                try FileManager.default.copyItem(atPath: photo.path, toPath: directory + "/Sub/c.jpg")
            }
            if index % 7 == 0 { try Data("not a photo".utf8).write(to: URL(fileURLWithPath: directory + "/bad.jpg")) }
        }
        let root = tree.url.path
        let sqlite = try LibraryDatabase()
        try PostgreSQLTestServer.inNewSchema { url in
            let postgreSQL = try LibraryDatabase(postgreSQL: url)
            for database in [sqlite, postgreSQL] {
                let first = try FolderScanner(database: database, quietTime: 0).scan(roots: [root])
                #expect(first.ingested == 165 && first.rejected == 22, "\(first)")
                let again = try FolderScanner(database: database, quietTime: 0).scan(roots: [root])
                #expect(again.unchanged == 165 && again.ingested == 0 && again.removed == 0, "\(again)")
                #expect(again.rejected == 22, "the rejections are still there: \(again)")
            }
            try FileManager.default.removeItem(atPath: tree.path("Trips/070/Sub").path)
            try FileManager.default.removeItem(atPath: tree.path("Trips/100/a.jpg").path)
            for database in [sqlite, postgreSQL] {
                let after = try FolderScanner(database: database, quietTime: 0).scan(roots: [root])
                #expect(after.removed == 2 && after.unchanged == 163 && after.ingested == 0, "\(after)")
            }
            #expect(try Self.albums(postgreSQL) == Self.albums(sqlite))
        }
    }

    /// Each directory album's members in order, as album path and file name.
    static func members(_ database: LibraryDatabase) throws -> [String] {
        try database.read { db in
            try db.rows(
                """
                SELECT c.path, r.name FROM collection c JOIN collection_asset ca ON ca.collectionId = c.id
                JOIN resource r ON r.assetId = ca.assetId
                WHERE c.isList = 0 AND c.path IS NOT NULL ORDER BY c.path, ca.position, r.name
                """, []
            ) { "\(try $0.text(0)) \(try $0.text(1))" }
        }
    }

    /// The directory albums and folders, by path, with their member counts.
    static func albums(_ database: LibraryDatabase) throws -> [String] {
        try database.read { db in
            try db.rows(
                """
                SELECT c.path, c.isList, c.title, (SELECT COUNT(*) FROM collection_asset ca WHERE ca.collectionId = c.id)
                FROM collection c WHERE c.path IS NOT NULL ORDER BY c.path, c.isList
                """, []
            ) { "\(try $0.text(0)) \(try $0.int64(1)) \($0.optionalText(2) ?? "") \(try $0.int64(3))" }
        }
    }
}
