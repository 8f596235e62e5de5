import Foundation
import GRDB
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Schema v37 on a library file: the rows kept by path gain the host of the root that holds them
/// (a file copied from a shared library keeps them until copied back), roots of no host name "",
/// and each table finds a path on a host by one index. A file's paths stay unique alone.
struct RootHostsTests {
    @Test func aFileOfTheEarlierSchemaGetsItsRootsHosts() throws {
        let directory = try TemporaryDirectory(prefix: "root-hosts")
        let path = directory.path("library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibraryDatabase.migrator.migrate(queue, upTo: "v36: counts kept once a statement")
        try queue.write { db in
            for statement in [
                "INSERT INTO root (path, isOffline, host) VALUES ('/srv/photos', 0, 'nas'), ('/home/me', 0, NULL)",
                "INSERT INTO directory (path) VALUES ('/srv/photos/2024/'), ('/srv/photos-old/'), ('/home/me/a/')",
                """
                INSERT INTO collection (localIdentifier, isList, type, subtype, title, path, createdDate)
                VALUES ('C/L0/001', 0, 1, 2, '2024', '/srv/photos/2024', 0), ('D/L0/001', 0, 1, 2, 'x', NULL, 0)
                """,
                "INSERT INTO unreadable_directory (path, code, reason, since) VALUES ('/srv/photos/locked', 13, 'x', 0)",
            ] { try db.execute(sql: statement) }
        }
        try queue.close()
        let database = try LibraryDatabase(path: path)
        let hosts = try database.read { db in
            try db.rows(
                """
                SELECT path, host FROM directory UNION ALL SELECT path, host FROM root
                UNION ALL SELECT COALESCE(path, '-'), host FROM collection WHERE localIdentifier IN ('C/L0/001', 'D/L0/001')
                UNION ALL SELECT path, host FROM unreadable_directory ORDER BY 1
                """, []
            ) { "\(try $0.text(0)) \(try $0.text(1))" }
        }
        #expect(
            hosts == [
                "- ", "/home/me ", "/home/me/a/ ", "/srv/photos nas", "/srv/photos-old/ ", "/srv/photos/2024 nas",
                "/srv/photos/2024/ nas", "/srv/photos/locked nas",
            ])
        // A file's paths stay unique alone: it is one machine's.
        #expect(throws: (any Error).self) {
            try database.bookkeeping { db in
                try db.execute("INSERT INTO directory (path, host) VALUES ('/srv/photos/2024/', 'laptop')", [])
            }
        }
    }
}
