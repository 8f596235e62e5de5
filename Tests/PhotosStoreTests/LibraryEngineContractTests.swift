import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// A library opened on each engine and used through ``LibraryDatabase`` alone, as the rest of the
/// program uses it: change blocks and their tokens, a fetch result's snapshot brought up to date,
/// the change log, hooks' cursors, access tokens, the file journal and the Trash must tell the
/// same story. Two libraries opened on one PostgreSQL schema are two hosts: each sees the other's
/// commits, and their writes at once are serialised, none lost, tokens in order.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct LibraryEngineContractTests {
    @Test func aLibraryInPostgreSQLBehavesAsALibraryFile() throws {
        let sqlite = try Self.story(try LibraryDatabase())
        let postgreSQL = try PostgreSQLTestServer.inNewSchema { url in
            try Self.story(try LibraryDatabase(postgreSQL: url))
        }
        #expect(sqlite.count == postgreSQL.count && sqlite.count > 10)
        for (ours, theirs) in zip(postgreSQL, sqlite) { #expect(ours == theirs) }
    }

    @Test func twoHostsShareOneLibraryAndTheirWritesAreSerialised() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            let (first, second) = (try LibraryDatabase(postgreSQL: url), try LibraryDatabase(postgreSQL: url))
            let token = try #require(
                try first.write { try $0.insertAsset(AssetRecord(localIdentifier: "H1/L0/001", mediaType: .image)) }
                    .token)
            #expect(try second.currentToken() == token)
            #expect(try second.changes(after: token - 1).first?.asset.inserted == ["H1/L0/001"])

            // Each host writes 20 blocks at once with the other: every block commits, under its own
            // token, in order, none lost.
            let rounds = 20
            DispatchQueue.concurrentPerform(iterations: 2) { host in
                let library = host == 0 ? first : second
                for round in 0..<rounds {
                    _ = try? library.write { transaction in
                        try transaction.insertAsset(
                            AssetRecord(localIdentifier: "H\(host)/L0/\(1_000 + round)", mediaType: .image))
                    }
                }
            }
            let entries = try first.changes(after: token)
            #expect(entries.count == 2 * rounds)
            #expect(entries.map(\.token) == Array((token + 1)...(token + Int64(2 * rounds))))
            #expect(Set(entries.flatMap(\.asset.inserted)).count == 2 * rounds)
            #expect(try second.countAssets(matching: AssetQuery()) == 2 * rounds + 1)
        }
    }

    @Test func aChangeFeedOnOneHostFollowsCommitsOnAnother() async throws {
        try await PostgreSQLTestServer.inNewSchema { location in try await Self.follow(location) }
    }

    /// A feed on one library of `location` and three blocks written on another.
    static func follow(_ location: String) async throws {
        let (writer, reader) = (try LibraryDatabase(postgreSQL: location), try LibraryDatabase(postgreSQL: location))
        let start = try reader.currentToken()
        let follower = Task { () -> [String] in
            var seen: [String] = []
            for try await entry in reader.changeFeed(after: start) {
                seen += entry.asset.inserted
                if seen.count == 3 { break }
            }
            return seen
        }
        // The reader's feed listens before the writer commits: each commit wakes it, none is polled.
        try await waitUntil("the feed to listen", timeout: .seconds(30)) { reader.commitSignalMechanism == .notify }
        for index in 1...3 {
            try writer.write { transaction in
                try transaction.insertAsset(AssetRecord(localIdentifier: "F\(index)/L0/001", mediaType: .image))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            follower.cancel()
        }
        defer { watchdog.cancel() }
        #expect(try await follower.value == ["F1/L0/001", "F2/L0/001", "F3/L0/001"])
    }

    @Test func aNewerBuildsLibraryIsRefused() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            _ = try LibraryDatabase(postgreSQL: url)
            let connection = try PostgreSQLConnection.connect(to: PostgreSQLAddress(url))
            defer { connection.close() }
            try connection.execute("INSERT INTO schema_migration (identifier) VALUES ('v99: from the future')", [])
            let error = #expect(throws: StoreError.self) { try LibraryDatabase(postgreSQL: url) }
            #expect(error?.code == .newerSchema && error?.message.contains("v99") == true)
        }
    }

    @Test func aLibraryMadeBeforeALaterMigrationIsGivenItWhenOpened() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            _ = try LibraryDatabase(postgreSQL: url)
            let connection = try PostgreSQLConnection.connect(to: PostgreSQLAddress(url))
            defer { connection.close() }
            // The library as v36 left it: paths named alone, each root held by the first host to
            // scan it (the NAS's /srv/photos) or by none (a card copied from a file).
            for statement in [
                "DROP INDEX directory_by_path_host, root_by_path_host, rejected_by_path_host, "
                    + "unreadable_directory_by_path_host, collection_by_path",
                "ALTER TABLE directory DROP COLUMN host", "ALTER TABLE collection DROP COLUMN host",
                "ALTER TABLE rejected DROP COLUMN host", "ALTER TABLE unreadable_directory DROP COLUMN host",
                "ALTER TABLE trashedAsset DROP COLUMN host",
                "ALTER TABLE directory ADD CONSTRAINT directory_path_key UNIQUE (path)",
                "ALTER TABLE root ADD PRIMARY KEY (path)", "ALTER TABLE rejected ADD PRIMARY KEY (path)",
                "ALTER TABLE unreadable_directory ADD PRIMARY KEY (path)",
                "CREATE INDEX collection_by_path ON collection(path) WHERE path IS NOT NULL",
                "DELETE FROM schema_migration WHERE identifier = 'v37: roots named by host and path'",
                "INSERT INTO root (path, isOffline, host) VALUES ('/srv/photos', 0, 'nas'), ('/mnt/card', 0, NULL)",
                "INSERT INTO directory (path) VALUES ('/srv/photos/2024/'), ('/mnt/card/DCIM/'), ('/srv/photos-old/')",
                "INSERT INTO rejected (path, code, reason, fileSize, modificationTime, rejectedDate) "
                    + "VALUES ('/srv/photos/bad.jpg', 'corrupt', 'x', 1, 0, 0)",
            ] { try connection.execute(statement, []) }
            let reopened = try LibraryDatabase(postgreSQL: url, host: "laptop")
            let hosts = try connection.rows(
                "SELECT path, host FROM directory UNION ALL SELECT path, host FROM rejected "
                    + "UNION ALL SELECT path, host FROM root ORDER BY 1", []
            ) { "\(try $0.text(0)) \(try $0.text(1))" }
            #expect(
                hosts == [
                    "/mnt/card ", "/mnt/card/DCIM/ ", "/srv/photos nas", "/srv/photos-old/ ", "/srv/photos/2024/ nas",
                    "/srv/photos/bad.jpg nas",
                ])
            // The laptop's /srv/photos is another root than the NAS's.
            try reopened.write { try $0.setRoot("/srv/photos", offline: false) }
            #expect(
                try connection.rows("SELECT host FROM root WHERE path = '/srv/photos' ORDER BY host", []) {
                    try $0.text(0)
                } == ["laptop", "nas"])
            let applied = try connection.rows("SELECT identifier FROM schema_migration", []) { try $0.text(0) }
            #expect(Set(applied) == Set(PostgreSQLSchema.migrations))
        }
    }

    @Test func twoHostsPicturesAtOnePathAreTwoRoots() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            let nas = try LibraryDatabase(postgreSQL: url, host: "nas")
            let laptop = try LibraryDatabase(postgreSQL: url, host: "laptop")
            let (root, photo) = ("/home/me/Pictures", "/home/me/Pictures/2024/IMG_0001.JPG")
            for host in [nas, laptop] { try host.write { try $0.setRoot(root, offline: false) } }
            let onNAS = try PostgreSQLTestServer.insertPhoto(at: photo, in: nas)
            let onLaptop = try PostgreSQLTestServer.insertPhoto(at: photo, in: laptop)
            for host in [nas, laptop] {
                try host.write { transaction in
                    try transaction.reject(
                        RejectedFile(
                            path: root + "/bad.jpg", code: "corrupt", reason: host.host!, fileSize: 1,
                            modificationTime: 0, rejectedDate: 0))
                    try transaction.markUnreadable(
                        UnreadableDirectoryRecord(path: root + "/locked", code: 13, reason: "x"))
                }
            }
            // Each host's scan sees its own files, rejections and unreadable directories there.
            for (host, own) in [(nas, onNAS), (laptop, onLaptop)] {
                let seen = try host.write { transaction in
                    (
                        try transaction.storedFiles(under: root).map(\.assetID),
                        try transaction.storedFiles(atPaths: [photo]).count,
                        try transaction.rejectedFiles(under: root)[root + "/bad.jpg"]?.reason,
                        try transaction.unreadableDirectories(under: root), try transaction.isOnlineRoot(root)
                    )
                }.value
                let ownID = try host.read { db in
                    try db.scalarInt64("SELECT id FROM asset WHERE localIdentifier = ?", [.text(own)])
                }
                #expect(seen.0 == [ownID!] && seen.1 == 1 && seen.2 == host.host, "\(host.host!): \(seen)")
                #expect(seen.3 == [root + "/locked"] && seen.4, "\(host.host!): \(seen)")
            }
            // What either reads of the other's photo names the host whose disk holds it.
            let files = try laptop.read { db in
                try db.rows(
                    "SELECT \(FileDirectories.path(db.dialect)) FROM \(FileDirectories.join) ORDER BY 1", []
                ) { try $0.text(0) }
            }
            #expect(files == [photo, "nas:" + photo])
            #expect(try laptop.rejectedFiles().map(\.path) == [root + "/bad.jpg", "nas:" + root + "/bad.jpg"])
            #expect(try laptop.unreadableDirectories().map(\.path) == [root + "/locked"])
            #expect(laptop.hostHolding(file: "nas:" + photo) == "nas" && laptop.hostHolding(file: photo) == nil)
            // One host's root going offline is not the other's.
            try nas.write { try $0.setRoot(root, offline: true) }
            #expect(try nas.offlineRoots() == [root] && laptop.offlineRoots().isEmpty)
            #expect(try laptop.write { try $0.isOnlineRoot(root) }.value)
            // A root no host holds (a library copied from a file) is the first scanner's, its rows too.
            _ = try nas.bookkeeping { db in
                try db.execute("INSERT INTO root (path, isOffline, host) VALUES ('/mnt/card', 0, '')", [])
                try db.execute("INSERT INTO directory (path, host) VALUES ('/mnt/card/DCIM/', '')", [])
            }
            try laptop.write { try $0.setRoot("/mnt/card", offline: false) }
            let hosts = try laptop.read { db in
                try db.rows(
                    "SELECT host FROM root WHERE path = '/mnt/card' UNION ALL SELECT host FROM directory "
                        + "WHERE path = '/mnt/card/DCIM/'", []
                ) { try $0.text(0) }
            }
            #expect(hosts == ["laptop", "laptop"])
            // A library file has one host: its roots are nobody's.
            let file = try LibraryDatabase()
            #expect(file.host == nil)
            try file.write { try $0.setRoot(root, offline: false) }
            #expect(try file.read { db in try db.scalarText("SELECT host FROM root", []) } == "")
        }
    }

    @Test func anotherHostsRootsAreAvailableWhileItsPhotosdIsConnected() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            let nas = try LibraryDatabase(postgreSQL: url, host: "nas")
            let laptop = try LibraryDatabase(postgreSQL: url, host: "laptop")
            try nas.write { try $0.setRoot("/srv/nas", offline: false) }
            // No photosd of the NAS is connected to this library: its root is offline elsewhere,
            // named by its host.
            #expect(try laptop.unavailablePaths() == ["nas:/srv/nas"])
            #expect(try nas.unavailablePaths().isEmpty)
            // One connects, named as photosd names its connections; then it goes.
            var address = try PostgreSQLAddress(url)
            address.applicationName = LibraryDatabase.presenceName(
                program: "photosd", host: "nas", schema: address.schema)
            let photosd = try PostgreSQLConnection.connect(to: address)
            #expect(try laptop.unavailablePaths().isEmpty)
            photosd.close()
            try blockUntil("the NAS's photosd to be gone", timeout: .seconds(30)) {
                (try? laptop.unavailablePaths()) == ["nas:/srv/nas"]
            }
            // Another library's photosd of the same host says nothing of this one.
            try PostgreSQLTestServer.inNewSchema { other in
                var elsewhere = try PostgreSQLAddress(other)
                elsewhere.applicationName = LibraryDatabase.presenceName(
                    program: "photosd", host: "nas", schema: elsewhere.schema)
                let connection = try PostgreSQLConnection.connect(to: elsewhere)
                defer { connection.close() }
                #expect(try laptop.unavailablePaths() == ["nas:/srv/nas"])
            }
        }
    }

    /// A library in a database's own schema, opened by one host as `?schema=public` and by another
    /// without a schema: one library, whose hosts see each other's photosd, and whose writers take
    /// one lock.
    @Test func aLibraryInTheDatabasesOwnSchemaIsOneHoweverItsAddressIsWritten() throws {
        let server = try #require(PostgreSQLTestServer.url)
        let name = PostgreSQLTestServer.uniqueName("spelling")
        let admin = try PostgreSQLConnection.connect(to: PostgreSQLAddress(server))
        defer { admin.close() }
        try admin.execute("CREATE DATABASE \(name)", [])
        defer { _ = try? admin.execute("DROP DATABASE \(name) WITH (FORCE)", []) }
        var components = try #require(URLComponents(string: server))
        components.path = "/" + name
        let bare = try #require(components.string)
        let spelled = bare + (bare.contains("?") ? "&" : "?") + "schema=public"
        let nas = try LibraryDatabase(postgreSQL: bare, host: "nas")
        let laptop = try LibraryDatabase(postgreSQL: spelled, host: "laptop")
        #expect(nas.schema == "" && laptop.schema == "")
        try nas.write { try $0.setRoot("/srv/nas", offline: false) }
        try laptop.write { try $0.setRoot("/home/me/Pictures", offline: false) }
        // Each host's photosd, named as it names its connections through its own spelling.
        func photosd(_ url: String, _ host: String) throws -> PostgreSQLConnection {
            var address = try PostgreSQLAddress(url)
            address.applicationName = LibraryDatabase.presenceName(program: "photosd", host: host, schema: "")
            return try PostgreSQLConnection.connect(to: address)
        }
        let (nasDaemon, laptopDaemon) = (try photosd(bare, "nas"), try photosd(spelled, "laptop"))
        defer { for connection in [nasDaemon, laptopDaemon] { connection.close() } }
        #expect(try laptop.unavailablePaths().isEmpty)
        #expect(try nas.unavailablePaths().isEmpty)
        guard case .postgreSQL(let one) = nas.engine, case .postgreSQL(let other) = laptop.engine else {
            Issue.record("not libraries in PostgreSQL")
            return
        }
        #expect(one.commits == other.commits)
        // The library's own connections are named alike through either spelling.
        let named = try admin.rows(
            "SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = ? AND application_name LIKE '%@laptop%'",
            [.text(name)]
        ) { try $0.text(0) }
        let program = ProcessInfo.processInfo.processName
        #expect(
            Set(named) == [
                LibraryDatabase.presenceName(program: program, host: "laptop", schema: ""),
                LibraryDatabase.presenceName(program: "photosd", host: "laptop", schema: ""),
            ])
    }

    /// What a program sees of the library as it uses it, a line per observation.
    static func story(_ database: LibraryDatabase) throws -> [String] {
        var story: [String] = []
        func tell(_ line: String) { story.append(line) }
        let start = try database.currentToken()
        let made = try database.write { try FetchContract.makeLibrary($0.db) }
        tell("made \(made.token.map { $0 - start } ?? -1)")
        var query = AssetQuery()
        query.sort = [SortKey(key: "creationDate", ascending: false)]
        let snapshot = try database.assetSnapshot(matching: query)
        tell("snapshot \(snapshot.ids.count) at \(snapshot.token - start)")

        // A favorite (nothing moves), then a date (a row moves), each brought into the snapshot.
        let favorite = try database.write { transaction in
            try transaction.updateAsset(
                localIdentifier: FetchContract.identifier(1), setting: [("isFavorite", .int(1))],
                properties: ["isFavorite"])
        }
        let edited = try database.update(snapshot, query: query)
        if case .edited(let indexes) = edited.update {
            tell("edited \(Array(indexes))")
        } else {
            tell("\(edited.update)")
        }
        try database.write { transaction in
            try transaction.updateAsset(
                localIdentifier: FetchContract.identifier(1), setting: [("creationDate", .double(1_000))],
                properties: ["creationDate"])
        }
        let moved = try database.update(snapshot, query: query)
        if case .spliced(let ids, _, _, let changed) = moved.update {
            tell("spliced \(ids == snapshot.ids) \(changed.count) first \(ids.first == snapshot.ids[4])")
        } else {
            tell("\(moved.update)")
        }
        tell("current \(try database.assetIDs(matching: query).count)")

        // The log, and a token from before it all.
        let entries = try database.changes(after: start)
        tell("entries \(entries.map { $0.token - start }) \(entries.map(\.asset.updated))")
        tell("favorite entry \(favorite.token.map { $0 - start } ?? -1)")
        tell("count \(try database.countAssets(matching: AssetQuery()))")
        tell("deleted \(try database.deletedObjects(localIdentifiers: [FetchContract.identifier(9)]).keys.sorted())")
        tell("trash \(try database.trashedAssets().map(\.localIdentifier))")

        // Hooks, access tokens, the file journal: the store's bookkeeping.
        let hooks = try database.enrollHooks(["sync"], historyLimit: 10)
        tell("hooks \(hooks.map { "\($0.name) \($0.cursor - start) \($0.enabled)" })")
        let (token, secret) = try database.createAccessToken(level: .readOnly, name: "laptop")
        tell("token \(try database.accessToken(secret: secret)?.id == token.id) \(try database.accessTokens().count)")
        let journaled = try database.journalAhead([
            FileJournalEntry(operation: .importFile, destination: "/p/new.jpg", owner: 7)
        ])
        tell("journal \(journaled.map(\.destination)) \(try database.fileJournal().map(\.operation.rawValue))")
        try database.finishJournalEntries(journaled.compactMap(\.id))
        tell("journal after \(try database.fileJournal().count)")
        tell("pruned \(try database.pruneHistory(keeping: 1)) oldest \((try database.oldestToken() ?? 0) - start)")
        let expired = #expect(throws: StoreError.self) { try database.changes(after: start) }
        tell("expired \(expired?.code == .historyExpired)")
        return story
    }
}
