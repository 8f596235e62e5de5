import Foundation
import GRDB
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

    /// A file new at a path is looked for among the files of its size and time by the index on both:
    /// with one on the size alone, every file of that size was read for each new file (a folder of
    /// files of one size scanned in quadratic time).
    @Test func filesOfASizeAndTimeAreFoundByTheIndexOnBoth() throws {
        let (condition, arguments) = ScanReader.bySizeAndTime(1, 1_700_000_000, under: "/p", .sqlite)
        let plan = try database.sqliteRead { db in
            try db.rows("EXPLAIN QUERY PLAN " + LibraryTransaction.storedFilesSQL(where: condition), arguments) {
                try $0.text(3)
            }
        }
        #expect(
            plan.contains { $0.contains("USING INDEX resource_by_size_time (fileSize=? AND modificationTime=?)") },
            "\(plan)")
    }

    /// Names are searched in the directory's part of the index on (directory, pairing name), not
    /// among every file of that name: a camera's IMG_0001 is in thousands of folders.
    @Test func namesAreSearchedWithinTheDirectory() throws {
        for directory in ["/p", "/q", "/r"] { try insert("\(directory)/IMG_0001.JPG") }
        let (condition, arguments) = FileDirectories.directlyIn("/p", .sqlite)
        let (atPaths, pathArguments) = FileDirectories.ids(at: [String](), .sqlite)
        let sql = LibraryTransaction.pairingRowsSQL(atPaths: atPaths, directory: condition, .sqlite)
        let plan = try database.sqliteRead { db in
            try db.rows(
                "EXPLAIN QUERY PLAN " + sql,
                pathArguments + arguments + [.text(#"["img_0001"]"#), .text("[]")] + arguments
            ) { try $0.text(3) }
        }
        // The names by the directory's part of the index; each row found by its id, not by a walk
        // of the directory's rows.
        #expect(
            plan.contains {
                $0.contains("USING COVERING INDEX resource_by_directory_pairing_name (directoryId=? AND pairingName=?)")
            }, "\(plan)")
        #expect(plan.first == "SEARCH r USING INTEGER PRIMARY KEY (rowid=?)", "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SEARCH r USING") && $0.hasSuffix("(directoryId=?)") }, "\(plan)")
        #expect(try rows(names: ["img_0001"]) == ["/p/IMG_0001.JPG"])
    }

    /// A library made before schema v22 gets the index by directory in place of the one by name,
    /// and its files pair as before, within their directory.
    @Test func anEarlierLibraryGetsTheIndexByDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "pairing-rows")
        let path = directory.path("library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibraryDatabase.migrator.migrate(queue, upTo: "v21: original resource choice")
        func indexes() throws -> [String] {
            try queue.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'resource'")
            }
        }
        #expect(try indexes().contains("resource_by_pairing_name"))
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO directory (id, path) VALUES (1, '/p/'), (2, '/q/');
                    INSERT INTO asset (id, localIdentifier, mediaType, addedDate, pixelWidth, pixelHeight)
                        VALUES (1, 'A/L0/001', 1, 0, 4, 3), (2, 'B/L0/001', 2, 0, 4, 3), (3, 'C/L0/001', 1, 0, 4, 3);
                    INSERT INTO resource (assetId, type, directoryId, name, pairingName, fileSize)
                        VALUES (1, 1, 1, 'IMG_1.HEIC', 'img_1', 10), (2, 2, 1, 'IMG_1.MOV', 'img_1', 10),
                            (3, 1, 2, 'IMG_1.HEIC', 'img_1', 10);
                    """)
        }
        try queue.close()
        let migrated = try LibraryDatabase(path: path)
        let names = try migrated.sqliteRead { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'resource'")
        }
        #expect(!names.contains("resource_by_pairing_name"))
        #expect(names.contains("resource_by_directory_pairing_name"))
        let columns = try migrated.sqliteRead { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info('resource_by_directory_pairing_name')")
        }
        #expect(columns == ["directoryId", "pairingName"])
        let paired = try migrated.write {
            try $0.resources(at: [], inDirectory: "/p", pairingWith: ["img_1"], contentIdentifiers: [])
        }.value.map(\.path)
        #expect(paired == ["/p/IMG_1.HEIC", "/p/IMG_1.MOV"])
    }
}
