import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A new library's schema in PostgreSQL against a new SQLite library's, read from each engine's own
/// catalogue: the same migrations, tables, columns in the same order with the same kinds and NOT
/// NULLs, the same named indexes, and the same first rows (the smart albums, their counts). A
/// migration added to one engine and not the other fails here.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLSchemaTests {
    /// A column as both catalogues describe it.
    struct Column: Hashable, CustomStringConvertible {
        var name: String
        var kind: String
        var notNull: Bool
        var description: String { "\(name) \(kind)\(notNull ? " NOT NULL" : "")" }
    }

    @Test func bothEnginesMakeTheSameTablesColumnsAndIndexes() throws {
        let sqlite = try LibraryDatabase()
        let (sqliteTables, sqliteIndexes, sqliteMigrations) = try sqlite.read { db in
            let tables = try db.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                    + "AND name <> 'grdb_migrations' ORDER BY name", []
            ) { try $0.text(0) }
            var columns: [String: [Column]] = [:]
            for table in tables {
                // table_xinfo: with the generated column (hidden 2 or 3). A primary key's column is
                // never NULL (SQLite's INTEGER PRIMARY KEY is the rowid), as PostgreSQL says of it.
                columns[table.lowercased()] = try db.rows(
                    "SELECT name, type, \"notnull\" OR pk > 0 FROM pragma_table_xinfo(?) ORDER BY cid", [.text(table)]
                ) {
                    Column(
                        name: try $0.text(0).lowercased(), kind: Self.kind(sqlite: try $0.text(1)),
                        notNull: try $0.bool(2))
                }
            }
            let indexes = try db.rows(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'", []
            ) { try $0.text(0).lowercased() }
            let migrations = try db.rows("SELECT identifier FROM grdb_migrations ORDER BY rowid", []) {
                try $0.text(0)
            }
            return (columns, Set(indexes), migrations)
        }
        try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            let rows = try db.rows(
                """
                SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name <> 'schema_migration'
                ORDER BY table_name, ordinal_position
                """, []
            ) { (try $0.text(0), Column(name: try $0.text(1), kind: try $0.text(2), notNull: try $0.text(3) == "NO")) }
            let tables = Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
            #expect(tables.keys.sorted() == sqliteTables.keys.sorted())
            for (table, columns) in sqliteTables { #expect(tables[table] == columns, "\(table)") }
            let indexes = try db.rows(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
                    + "AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'", []
            ) { try $0.text(0) }
            #expect(Set(indexes) == sqliteIndexes)
            let migrations = try db.rows("SELECT identifier FROM schema_migration", []) { try $0.text(0) }
            #expect(Set(migrations) == Set(sqliteMigrations) && migrations.count == sqliteMigrations.count)
            #expect(PostgreSQLSchema.migrations == sqliteMigrations)
        }
    }

    /// The timeline's fetches read an index in the order they ask for, with nothing left to sort:
    /// the indexes hold NULLs where the store's sort puts them (first ascending, as SQLite does) and
    /// the row id that breaks ties. With sorting turned off, PostgreSQL still sorts where no index
    /// gives the order, so a Sort in the plan is an index that does not match.
    @Test(
        arguments: [
            ("favorite == YES AND mediaType == 1", "creationDate", false),
            ("mediaType == 2", "creationDate", true),
            (nil, "creationDate", false),
            (nil, "creationDate", true),
            (nil, "addedDate", false),
        ] as [(String?, String, Bool)])
    func timelineFetchesReadAnIndexInOrder(predicate: String?, key: String, ascending: Bool) throws {
        try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            var query = AssetQuery()
            if let predicate {
                query.filter = try PhotoKitPredicate(format: predicate, arguments: [])
                    .sql(for: .asset, dialect: .postgreSQL, column: AssetQuery.column(for:))
            }
            query.sort = [SortKey(key: key, ascending: ascending)]
            query.limit = 50
            let (sql, arguments) = query.sql(dialect: .postgreSQL)
            let plan = try db.transaction { db in
                try db.execute("SET LOCAL enable_sort = off", [])
                try db.execute("SET LOCAL enable_seqscan = off", [])
                return try db.rows("EXPLAIN " + sql, arguments) { try $0.text(0) }.joined(separator: "\n")
            }
            #expect(plan.contains("Index"), "\(plan)")
            #expect(!plan.contains("Sort"), "\(sql)\n\(plan)")
        }
    }

    @Test func aNewLibraryStartsWithTheSameRowsOnBothEngines() throws {
        let sqlite = try LibraryDatabase()
        let collections =
            "SELECT id, localIdentifier, isList, type, subtype, title, position FROM collection ORDER BY id"
        let counts = "SELECT * FROM smart_album_count"
        let identity = "SELECT identifier, prunedThrough, hookHistoryLimit FROM library"
        let (sqliteCollections, sqliteCounts, sqliteIdentity) = try sqlite.read { db in
            (
                try db.rows(collections, []) { $0.values }, try db.rows(counts, []) { $0.values },
                try db.rows(identity, []) { $0.values }
            )
        }
        try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            #expect(try db.rows(collections, []) { $0.values } == sqliteCollections)
            #expect(try db.rows(counts, []) { $0.values } == sqliteCounts)
            let library = try db.rows(identity, []) { $0.values }
            // Its own identity (tokens of another library are refused), the same bounds.
            #expect(library.count == 1 && library.first?.dropFirst() == sqliteIdentity.first?.dropFirst())
            #expect(library.first?.first != sqliteIdentity.first?.first)
            // The generated column, computed as SQLite's.
            let insert = "INSERT INTO asset (localIdentifier, mediaType, addedDate, burstIdentifier, representsBurst) "
            try db.execute(insert + "VALUES ('a', 1, 0, NULL, 0), ('b', 1, 0, 'x', 0), ('c', 1, 0, 'x', 1)", [])
            #expect(try db.rows("SELECT isBurstVisible FROM asset ORDER BY id", []) { try $0.int64(0) } == [1, 0, 1])
            // Text is ordered byte for byte, as SQLite's BINARY collation orders it.
            try db.execute("INSERT INTO root (path) VALUES ('/b'), ('/B'), ('/a'), ('/é'), ('/e')", [])
            #expect(
                try db.rows("SELECT path FROM root ORDER BY path", []) { try $0.text(0) }
                    == ["/B", "/a", "/b", "/e", "/é"])
        }
    }

    @Test func theTriggersKeepTheSameFiguresOnBothEngines() throws {
        let sqlite = try LibraryDatabase()
        let expected = try sqlite.writer.write { db in try Self.playChanges(db) }
        #expect(expected.stats.count == 3 && expected.directories.count == 1, "\(expected)")
        // The counts are the assets' own, as counting them again finds.
        let counted = try sqlite.read { db in try SmartAlbumCounts.countedAgain(db) }
        let kept = try sqlite.read { db in try SmartAlbumCounts.read(db) }
        #expect(kept == counted && counted.values.contains { $0 > 0 })
        try PostgreSQLConnectionTests.inSchema { db in
            try PostgreSQLSchema.create(in: db)
            let figures = try db.transaction { try Self.playChanges($0) }
            #expect(figures.stats == expected.stats)
            #expect(figures.counts == expected.counts)
            #expect(figures.directories == expected.directories)
            let names = try db.rows(
                "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                    + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                    + "AND NOT t.tgisinternal", []
            ) { try $0.text(0) }
            let sqliteNames = try sqlite.read { db in
                try db.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'", []) { try $0.text(0) }
            }
            #expect(Set(names) == Set(sqliteNames) && names.count == sqliteNames.count)
        }
    }

    /// Album members added, dated again and removed, assets flagged and deleted, files leaving their
    /// directories: the same statements on either engine. Returns the figures the triggers kept.
    static func playChanges(_ db: some StoreConnection) throws -> (
        stats: [[SQLValue]], counts: [[SQLValue]], directories: [[SQLValue]]
    ) {
        let insertAsset = SQLText.insert(
            into: "asset",
            [
                "localIdentifier", "mediaType", "mediaSubtypes", "addedDate", "creationDate", "isFavorite", "isHidden",
                "burstIdentifier", "representsBurst", "isRAW",
            ])
        let rows: [[SQLValue]] = [
            [.text("a"), .int(1), .int(0), .double(0), .double(100), .int(1), .int(0), .null, .int(0), .int(0)],
            [.text("b"), .int(2), .int(0), .double(0), .double(50), .int(0), .int(0), .null, .int(0), .int(0)],
            [.text("c"), .int(1), .int(4), .double(0), .null, .int(0), .int(1), .null, .int(0), .int(1)],
            [.text("d"), .int(1), .int(8), .double(0), .double(300), .int(1), .int(0), .text("x"), .int(1), .int(0)],
            [.text("e"), .int(1), .int(0), .double(0), .double(200), .int(0), .int(0), .text("x"), .int(0), .int(0)],
        ]
        var assets: [Int64] = []
        for row in rows { assets.append(try db.insert(insertAsset, row)) }
        let insertAlbum = SQLText.insert(
            into: "collection", ["localIdentifier", "isList", "type", "subtype", "title", "position", "createdDate"])
        let trip = try db.insert(
            insertAlbum, [.text("trip"), .int(0), .int(1), .int(2), .text("Trip"), .int(0), .int(0)])
        let home = try db.insert(
            insertAlbum, [.text("home"), .int(0), .int(1), .int(2), .text("Home"), .int(1), .int(0)])
        let member = "INSERT INTO collection_asset (collectionId, assetId, position) VALUES (?, ?, ?)"
        for (position, asset) in assets.enumerated() {
            try db.execute(member, [.int(trip), .int(asset), .int(Int64(position))])
        }
        try db.execute(member, [.int(home), .int(assets[1]), .int(0)])
        try db.execute(member, [.int(home), .int(assets[3]), .int(1)])
        // Statements of many rows (PostgreSQL's triggers count a statement's rows at once): two
        // assets, one undated, and an album's three members.
        try db.execute(
            insertAsset.replacingOccurrences(of: "VALUES (", with: "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?), ("),
            [.text("f"), .int(1), .int(0), .double(0), .double(20), .int(1), .int(0), .null, .int(0), .int(0)]
                + [.text("g"), .int(2), .int(0), .double(0), .null, .int(0), .int(0), .null, .int(0), .int(1)])
        let both = try db.integers("SELECT id FROM asset WHERE localIdentifier IN ('f', 'g') ORDER BY id", [])
        let many = try db.insert(
            insertAlbum, [.text("many"), .int(0), .int(1), .int(2), .text("Many"), .int(2), .int(0)])
        try db.execute(
            "INSERT INTO collection_asset (collectionId, assetId, position) VALUES (?, ?, 0), (?, ?, 1), (?, ?, 2)",
            [.int(many), .int(both[0]), .int(many), .int(both[1]), .int(many), .int(assets[4])])
        try db.execute("UPDATE asset SET isFavorite = 1 - isFavorite WHERE localIdentifier IN ('f', 'g', 'b')", [])
        try db.execute("DELETE FROM asset WHERE localIdentifier IN ('g', 'e')", [])
        // A member's date moves; flags change; a member that held a bound leaves; an asset goes.
        try db.execute("UPDATE asset SET creationDate = ? WHERE id = ?", [.double(400), .int(assets[0])])
        try db.execute("UPDATE asset SET isFavorite = 1, isHidden = 0 WHERE id = ?", [.int(assets[2])])
        try db.execute("UPDATE asset SET representsBurst = 1 WHERE id = ?", [.int(assets[4])])
        try db.execute(
            "DELETE FROM collection_asset WHERE collectionId = ? AND assetId = ?", [.int(home), .int(assets[1])])
        try db.execute("DELETE FROM asset WHERE id = ?", [.int(assets[3])])
        // Files: a directory left by its last file goes; one still holding a file stays.
        let insertDirectory = SQLText.insert(into: "directory", ["path"])
        let first = try db.insert(insertDirectory, [.text("/p/one/")])
        let second = try db.insert(insertDirectory, [.text("/p/two/")])
        let third = try db.insert(insertDirectory, [.text("/p/three/")])
        let insertResource = SQLText.insert(into: "resource", ["assetId", "type", "directoryId", "name"])
        let kept = try db.insert(insertResource, [.int(assets[0]), .int(1), .int(first), .text("a.jpg")])
        let moved = try db.insert(insertResource, [.int(assets[1]), .int(1), .int(second), .text("b.mov")])
        let gone = try db.insert(insertResource, [.int(assets[2]), .int(1), .int(third), .text("c.png")])
        try db.execute("UPDATE resource SET directoryId = ? WHERE id = ?", [.int(first), .int(moved)])
        try db.execute("DELETE FROM resource WHERE id = ?", [.int(gone)])
        _ = kept
        return (
            try db.rows(
                "SELECT c.localIdentifier, s.assetCount, s.startDate, s.endDate, s.dirty FROM collection_stats s "
                    + "JOIN collection c ON c.id = s.collectionId WHERE s.collectionId IN (?, ?, ?) "
                    + "ORDER BY c.localIdentifier", [.int(trip), .int(home), .int(many)]
            ) { $0.values },
            try db.rows("SELECT * FROM smart_album_count", []) { $0.values },
            try db.rows("SELECT path FROM directory ORDER BY path", []) { $0.values }
        )
    }

    /// PostgreSQL's name for the kind of a SQLite column type.
    static func kind(sqlite type: String) -> String {
        switch type.uppercased() {
        case "INTEGER": "bigint"
        case "REAL": "double precision"
        case "TEXT": "text"
        case "BLOB": "bytea"
        default: "unknown \(type)"
        }
    }

}

/// The planner's statistics of a new library's tables, which autovacuum gathers only a minute or
/// more after a first scan began.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLStatisticsTests {
    @Test func aBatchGathersTheStatisticsOfTablesPastAFewPagesAndNotOfSmallerOnes() throws {
        try PostgreSQLTestServer.inNewSchema { location in
            let database = try LibraryDatabase(postgreSQL: location, host: "host0")
            func analysed() throws -> [String: Bool] {
                try database.read { db in
                    try db.rows(
                        """
                        SELECT relname, reltuples >= 0 FROM pg_class
                        WHERE relnamespace = current_schema()::regnamespace AND relname IN ('rejected', 'directory')
                        """, []
                    ) { (try $0.text(0), try $0.bool(1)) }
                }.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(try analysed() == ["rejected": false, "directory": false])
            // A few rows: no statistics yet, whose plans would read a table of a few rows through.
            try database.write { transaction in
                for index in 0..<200 { try transaction.reject(Self.rejection(index)) }
            }
            #expect(try analysed() == ["rejected": false, "directory": false])
            // Past a few pages, the rejections' table has them; the directories' has none yet (no row).
            try database.write { transaction in
                for index in 200..<3_000 { try transaction.reject(Self.rejection(index)) }
            }
            #expect(try analysed() == ["rejected": true, "directory": false])
            let rejected = try database.read {
                try $0.scalarInt64(
                    "SELECT reltuples::bigint FROM pg_class WHERE relname = 'rejected' AND relnamespace = current_schema()::regnamespace"
                )
            }
            #expect(rejected == 3_000)
        }
    }

    static func rejection(_ index: Int) -> RejectedFile {
        RejectedFile(
            path: "/photos/an album with a long name/IMG_\(index).JPG", code: "corrupt",
            reason: "the JPEG stream ends before its first scan: truncated", fileSize: 4_096,
            modificationTime: 1_700_000_000, rejectedDate: 1_700_000_100)
    }
}
