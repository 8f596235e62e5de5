import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The store keeps each directory's path once (`FileDirectories`): a resource's path read back is
/// the path written, whatever moves and deletions did, and libraries of the earlier schema keep
/// every path and name when they are opened.
struct FileDirectoryTests {
    /// Paths with a root-level file, a name that is another's prefix, names only their directory
    /// tells apart, non-ASCII, and a name that is not its file's original name.
    static let files: [(path: String, original: String)] = [
        ("/p/2024/a.jpg", "a.jpg"),
        ("/p/2024/a.jpg.mov", "a.jpg.mov"),
        ("/p/2024/June/a.jpg", "a.jpg"),
        ("/p/2024/June/b.jpg", "b.jpg"),
        ("/p/2024-b/é.heic", "é.heic"),
        ("/top.png", "top.png"),
        ("/library/imports/0001.jpg", "../../Pictures/precious.jpg"),
    ]

    static func resource(_ file: (path: String, original: String)) -> ResourceRecord {
        ResourceRecord(
            assetId: 0, type: PHAssetResourceType.photo.rawValue, path: file.path, uniformTypeIdentifier: "public.jpeg",
            mimeType: "image/jpeg", fileSize: 10, originalFilename: file.original)
    }

    static func storedPaths(_ database: LibraryDatabase) throws -> [String: String] {
        let ids = try database.sqliteRead { db in try Int64.fetchAll(db, sql: "SELECT id FROM asset") }
        let resources = try database.resources(assetIDs: ids).values.joined()
        return Dictionary(uniqueKeysWithValues: resources.map { ($0.path, $0.originalFilename) })
    }

    @Test func aLibraryOfTheEarlierSchemaKeepsEveryPathAndName() throws {
        let directory = try TemporaryDirectory(prefix: "file-directories")
        let path = directory.path("library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibraryDatabase.migrator.migrate(queue, upTo: "v18: smart album counts kept")
        try queue.write { db in
            for (index, file) in Self.files.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO asset (id, localIdentifier, mediaType, addedDate, pixelWidth, pixelHeight)
                        VALUES (?, ?, 1, 0, ?, 30)
                        """,
                    arguments: [index + 1, "A\(index)/L0/001", 40 + index])
                try db.execute(
                    sql: """
                        INSERT INTO resource (assetId, type, path, originalFilename, pairingName, fileSize)
                        VALUES (?, 1, ?, ?, ?, 10)
                        """,
                    arguments: [index + 1, file.path, file.original, PairingName.of(file.original)])
            }
            // The first asset is a Live Photo: its movie's size was never kept.
            try db.execute(
                sql: """
                    INSERT INTO resource (assetId, type, path, originalFilename, pairingName, fileSize)
                    VALUES (1, 9, '/p/2024/a.mov', 'a.mov', 'a', 10)
                    """)
        }
        try queue.close()

        let database = try LibraryDatabase(path: path)
        let stored = try Self.storedPaths(database)
        #expect(
            stored
                == Dictionary(
                    uniqueKeysWithValues: (Self.files + [("/p/2024/a.mov", "a.mov")]).map { ($0.path, $0.original) }))
        // An unedited asset's photo has the asset's size; its movie's is not known.
        let sizes = try database.sqliteRead { db in
            try Row.fetchAll(
                db, sql: "SELECT assetId, type, pixelWidth, pixelHeight FROM resource ORDER BY assetId, type")
        }
        #expect(sizes.count == Self.files.count + 1)
        for row in sizes {
            let asset: Int = row["assetId"]
            if row["type"] as Int == 9 {
                #expect(row["pixelWidth"] as Int? == nil && row["pixelHeight"] as Int? == nil)
            } else {
                #expect(row["pixelWidth"] as Int? == 39 + asset && row["pixelHeight"] as Int? == 30)
            }
        }
        let (directories, namesKept, indexes) = try database.sqliteRead { db in
            (
                try String.fetchAll(db, sql: "SELECT path FROM directory ORDER BY path"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM resource WHERE originalFilename IS NOT NULL"),
                try db.indexes(on: "resource").map(\.name)
            )
        }
        #expect(directories == ["/", "/library/imports/", "/p/2024-b/", "/p/2024/", "/p/2024/June/"])
        #expect(namesKept == 1, "only the name that differs from its file's is kept")
        #expect(!indexes.contains("resource_by_path") && indexes.contains("resource_by_file"))
        // The rows are found by path as before.
        let found = try database.write { transaction in
            try transaction.storedFiles(atPaths: ["/p/2024/June/a.jpg", "/top.png"]).map(\.path).sorted()
        }.value
        #expect(found == ["/p/2024/June/a.jpg", "/top.png"])
    }

    @Test func filesAtPathsAreThoseExactPathsNotTheirDirectoriesAndNamesCrossed() throws {
        let database = try LibraryDatabase()
        _ = try database.write { transaction in
            for file in Self.files + [("/p/2024/June/c.jpg", "c.jpg"), ("/p/2024/c.jpg", "c.jpg")] {
                _ = try transaction.insertAsset(
                    AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image),
                    resources: [Self.resource(file)])
            }
        }
        // "/p/2024/" and "June/" each hold a.jpg and c.jpg: asking for /p/2024/a.jpg and
        // /p/2024/June/c.jpg must not bring /p/2024/c.jpg or /p/2024/June/a.jpg.
        let asked: Set = ["/p/2024/a.jpg", "/p/2024/June/c.jpg", "/p/nowhere/a.jpg"]
        let found = try database.write { transaction in
            try transaction.storedFiles(atPaths: asked).map(\.path)
        }.value
        #expect(Set(found) == ["/p/2024/a.jpg", "/p/2024/June/c.jpg"])
        #expect(found.count == 2)
    }

    @Test func aDirectorysRowLivesAsLongAsAFileIsInIt() throws {
        let database = try LibraryDatabase()
        let ids = try database.write { transaction in
            try Self.files.prefix(4).map { file in
                try transaction.insertAsset(
                    AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image),
                    resources: [Self.resource(file)])
            }
        }.value
        func directories() throws -> [String] {
            try database.sqliteRead { db in try String.fetchAll(db, sql: "SELECT path FROM directory ORDER BY path") }
        }
        #expect(try directories() == ["/p/2024/", "/p/2024/June/"])

        // June's a.jpg moves up beside the others, renamed: June keeps b.jpg.
        try database.write { transaction in
            let file = try transaction.storedFiles(atPaths: ["/p/2024/June/a.jpg"])[0]
            try transaction.moveResource(file, to: "/p/2024/a2.jpg", name: "a2.jpg")
        }
        #expect(try directories() == ["/p/2024/", "/p/2024/June/"])
        // b.jpg moves to a new directory: June is gone, and the new one is there.
        try database.write { transaction in
            let file = try transaction.storedFiles(atPaths: ["/p/2024/June/b.jpg"])[0]
            try transaction.moveResource(file, to: "/p/2025/b.jpg", name: "b.jpg")
        }
        #expect(try directories() == ["/p/2024/", "/p/2025/"])
        #expect(
            Set(try Self.storedPaths(database).keys)
                == ["/p/2024/a.jpg", "/p/2024/a.jpg.mov", "/p/2024/a2.jpg", "/p/2025/b.jpg"])

        // Deleting the assets of /p/2024 (their rows go by cascade) leaves only /p/2025.
        try database.write { transaction in try transaction.deleteAssets(Array(ids.prefix(3))) }
        #expect(try directories() == ["/p/2025/"])
        try database.write { transaction in
            try transaction.deleteResources(try transaction.storedFiles(under: "/p"))
        }
        #expect(try directories() == [])
        #expect(try database.write { transaction in try transaction.hasFiles(under: "/p") }.value == false)
    }
}
