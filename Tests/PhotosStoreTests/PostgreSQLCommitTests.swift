import Dispatch
import Foundation
import PhotosCore
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// Hosts sharing a library in PostgreSQL, each a connection of its own to the real server: writes
/// take turns, so tokens commit in their order, and a listener hears every commit of every writer,
/// in that order, without polling; a follower reading the log past its cursor at each notice reads
/// every change once.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLCommitTests {
    /// A library in a schema of its own, and connections to it.
    final class SharedLibrary: Sendable {
        let address: PostgreSQLAddress
        let schema = PostgreSQLTestServer.uniqueName("commits")
        let commits: PostgreSQLCommits

        init() throws {
            address = try PostgreSQLAddress(try #require(PostgreSQLTestServer.url))
            commits = PostgreSQLCommits(schema: schema)
            let setup = try PostgreSQLConnection.connect(to: address)
            defer { setup.close() }
            try setup.execute("CREATE SCHEMA \(schema)", [])
            try setup.execute("SET search_path TO \(schema)", [])
            try PostgreSQLSchema.create(in: setup)
        }

        /// A host's connection to the library.
        func connect() throws -> PostgreSQLConnection {
            let connection = try PostgreSQLConnection.connect(to: address)
            try connection.execute("SET search_path TO \(schema)", [])
            return connection
        }

        /// Logs one change through the store's change-log writer (an asset named `identifier`
        /// inserted); its token.
        static func logChange(_ db: PostgreSQLConnection, _ identifier: String) throws -> Int64 {
            var log = ChangeLogWriter()
            log.recorder.inserted(.asset, identifier)
            return try #require(try log.append(to: db)).token
        }

        deinit {
            if let cleanup = try? PostgreSQLConnection.connect(to: address) {
                _ = try? cleanup.execute("DROP SCHEMA \(schema) CASCADE", [])
                cleanup.close()
            }
        }
    }

    @Test func aWriterWhoseChangeWasLoggedLaterCommitsLaterAndIsHeardLater() async throws {
        let library = try SharedLibrary()
        let listener = try await PostgreSQLCommitListener.start(library.address, library.commits)
        defer { listener.stop() }
        let (first, second, observer) = (try library.connect(), try library.connect(), try library.connect())
        defer { for connection in [first, second, observer] { connection.close() } }
        // The first host logs its change and holds its commit until the second waits for the lock.
        let (logged, proceed, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchGroup())
        let tokens = Mutex<[String: Int64]>([:])
        func write(_ connection: PostgreSQLConnection, _ name: String, then: @escaping @Sendable () -> Void) {
            done.enter()
            Thread {
                defer { done.leave() }
                _ = try? connection.write(library.commits) { db in
                    tokens.withLock { $0[name] = try? SharedLibrary.logChange(db, name) }
                    then()
                }
            }.start()
        }
        write(first, "first") {
            logged.signal()
            _ = proceed.wait(timeout: .now() + 60)
        }
        try #require(logged.wait(timeout: .now() + 60) == .success, "the first host never logged its change")
        write(second, "second") {}
        defer { proceed.signal() }  // a failed wait lets the first host go on
        try await waitUntil("the second writer to wait for the lock", timeout: .seconds(20)) {
            try Self.waiters(on: library.commits, observer) == 1
        }
        #expect(tokens.withLock { $0["second"] } == nil)
        proceed.signal()
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
        // The second logged its change once the first had committed: its token is the later one.
        let (one, two) = try tokens.withLock { (try #require($0["first"]), try #require($0["second"])) }
        #expect(one < two)
        var heard: [Int64] = []
        let watchdog = Self.stopping(listener)
        defer { watchdog.cancel() }
        for await token in listener.tokens {
            heard.append(token)
            if heard.count == 2 { break }
        }
        #expect(heard == [one, two])
    }

    @Test func withoutTheWriterLockALaterTokenCanCommitFirst() throws {
        // Why writes take the lock: a plain transaction's token is handed out at its insert, so the
        // slow host's token commits after a newer one, and a follower past the newer one misses it.
        let library = try SharedLibrary()
        let (first, second) = (try library.connect(), try library.connect())
        defer { for connection in [first, second] { connection.close() } }
        let (logged, proceed, committed) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        let firstToken = Mutex<Int64?>(nil)
        Thread {
            _ = try? first.transaction { db in
                firstToken.withLock { $0 = try? SharedLibrary.logChange(db, "first") }
                logged.signal()
                _ = proceed.wait(timeout: .now() + 60)
            }
            committed.signal()
        }.start()
        try #require(logged.wait(timeout: .now() + 60) == .success, "the first host never logged its change")
        let secondToken = try second.transaction { db in try SharedLibrary.logChange(db, "second") }
        // A follower reading now sees the newer token and not the older, still uncommitted one.
        let seen = try second.rows("SELECT token FROM change ORDER BY token", []) { try $0.int64(0) }
        proceed.signal()
        try #require(committed.wait(timeout: .now() + 60) == .success, "the first host never committed")
        let older = try #require(firstToken.withLock { $0 })
        #expect(older < secondToken && seen == [secondToken])
    }

    /// Stops `listener` after `timeout` unless cancelled first: a commit never heard ends the wait
    /// on its tokens (and fails the test's counts) instead of hanging the run.
    static func stopping(_ listener: PostgreSQLCommitListener, after timeout: Duration = .seconds(60)) -> Task<
        Void, Never
    > {
        Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            listener.stop()
        }
    }

    /// How many connections wait for `commits`' lock (a bigint advisory lock is its two halves).
    static func waiters(on commits: PostgreSQLCommits, _ db: PostgreSQLConnection) throws -> Int64 {
        let key = UInt64(bitPattern: commits.lockKey)
        return try db.rows(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                + "AND classid::bigint = ? AND objid::bigint = ? AND objsubid = 1",
            [.int(Int64(key >> 32)), .int(Int64(key & 0xFFFF_FFFF))]
        ) { try $0.int64(0) }[0]
    }

    @Test func aListenerHearsEveryCommitOfEveryHostAndAFollowerReadsEachChangeOnce() async throws {
        let library = try SharedLibrary()
        let listener = try await PostgreSQLCommitListener.start(library.address, library.commits)
        defer { listener.stop() }
        let reader = try library.connect()
        defer { reader.close() }
        let hosts = 3
        let writes = 20
        let writers = try (0..<hosts).map { _ in try library.connect() }
        defer { for writer in writers { writer.close() } }
        let done = DispatchGroup()
        let failures = Mutex<[String]>([])
        for (host, writer) in writers.enumerated() {
            done.enter()
            Thread {
                defer { done.leave() }
                for write in 0..<writes {
                    do {
                        try writer.write(library.commits) { db in
                            _ = try SharedLibrary.logChange(db, "host \(host) write \(write)")
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }.start()
        }
        // The follower: at each notice, the log past its cursor.
        var cursor: Int64 = 0
        var followed: [String] = []
        var notices: [Int64] = []
        let watchdog = Self.stopping(listener)
        defer { watchdog.cancel() }
        for await token in listener.tokens {
            notices.append(token)
            // The store's one reader of the log, as a follower on SQLite reads it.
            let entries = try LibraryDatabase.entries(after: cursor, limit: 0, reader)
            cursor = entries.last?.token ?? cursor
            followed += entries.flatMap(\.asset.inserted)
            // The last commit's token (the log's ids start at 1 in a new library).
            if token >= Int64(hosts * writes) { break }
        }
        try #require(done.wait(timeout: .now() + 60) == .success, "a writer never finished")
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(notices == notices.sorted() && Set(notices).count == notices.count)
        #expect(followed.count == hosts * writes && Set(followed).count == hosts * writes)
        for host in 0..<hosts {
            let own = followed.filter { $0.hasPrefix("host \(host) ") }
            #expect(own == (0..<writes).map { "host \(host) write \($0)" })
        }
    }

    @Test func theLogIsReadAndPrunedAsOnSQLite() throws {
        // Ten changes; a hook whose cursor is at 4 holds the entries after it against pruning.
        func play(_ db: some StoreConnection) throws -> [String] {
            for index in 1...10 {
                var log = ChangeLogWriter()
                log.recorder.inserted(.asset, "asset \(index)")
                _ = try log.append(to: db)
            }
            var hook = HookState(name: "backup", cursor: 4)
            hook.enabled = true
            try hook.insert(in: db)
            let removed = try LibraryDatabase.prune(db, keeping: 2)
            let kept = try LibraryDatabase.entries(after: 0, limit: 0, db)
            let page = try LibraryDatabase.entries(after: 6, limit: 2, db)
            return [
                "removed \(removed)", "pruned through \(try LibraryDatabase.prunedThrough(db))",
                "kept \(kept.map(\.token))", "page \(page.flatMap(\.asset.inserted))",
                "newest \(try LibraryDatabase.newestToken(db))",
            ]
        }
        let sqlite = try LibraryDatabase().writer.write { db in try play(db) }
        #expect(
            sqlite == [
                "removed 4", "pruned through 4", "kept [5, 6, 7, 8, 9, 10]", "page [\"asset 7\", \"asset 8\"]",
                "newest 10",
            ])
        let library = try SharedLibrary()
        let connection = try library.connect()
        defer { connection.close() }
        #expect(try connection.write(library.commits) { db in try play(db) } == sqlite)
    }

    @Test func eachLibraryOfADatabaseHasItsOwnChannelAndLock() {
        let one = PostgreSQLCommits(schema: "library_one")
        let two = PostgreSQLCommits(schema: "library_two")
        #expect(one.channel == "photos_commit_library_one" && one.lockKey != two.lockKey)
        #expect(PostgreSQLCommits(schema: "library_one") == one)
        #expect(PostgreSQLCommits.library.channel == "photos_commit")
        let long = PostgreSQLCommits(schema: String(repeating: "a", count: 63))
        #expect(long.channel.utf8.count <= PostgreSQLCommits.longestChannel && long.channel.hasPrefix("photos_commit_"))
        #expect(long != PostgreSQLCommits(schema: String(repeating: "a", count: 62)))
    }

    /// An address without a schema lands in `public`: its lock is the one `?schema=public` takes,
    /// and a host's two spellings of one library's address are one library, whose writers wait
    /// for each other.
    @Test func everySpellingOfOneLibrarysAddressTakesOneLock() throws {
        let server = try #require(PostgreSQLTestServer.url)
        func schema(_ url: String) throws -> String {
            let address = try PostgreSQLAddress(url)
            let connection = try PostgreSQLConnection.connect(to: address)
            defer { connection.close() }
            return try PostgreSQLLibrary.resolvedSchema(connection, address)
        }
        let separator = server.contains("?") ? "&" : "?"
        #expect(try schema(server) == "")
        #expect(try schema(server + separator + "schema=public") == "")
        #expect(try schema(server + separator + "schema=PUBLIC") == "")
        let named = PostgreSQLTestServer.uniqueName("spelled")
        #expect(try schema(server + separator + "schema=\(named)") == named)
        #expect(PostgreSQLCommits(schema: "public") == .library)
    }

    /// A schema of the longest name an address takes (63 bytes) is a library that writes: its
    /// channel fits PostgreSQL's names, where `photos_commit_<schema>` would not.
    @Test func aLibraryInASchemaOfTheLongestNameWritesAndIsHeard() async throws {
        let server = try #require(PostgreSQLTestServer.url)
        let schema = PostgreSQLTestServer.uniqueName(String(repeating: "l", count: 30))
        #expect(schema.utf8.count == 63)
        let url = server + (server.contains("?") ? "&" : "?") + "schema=\(schema)"
        let database = try LibraryDatabase(postgreSQL: url)
        defer {
            if let cleanup = try? PostgreSQLConnection.connect(to: PostgreSQLAddress(server)) {
                _ = try? cleanup.execute("DROP SCHEMA \(schema) CASCADE", [])
                cleanup.close()
            }
        }
        let identifier = try PostgreSQLTestServer.insertPhoto(at: "/photos/long.jpg", in: database)
        #expect(try database.changes(after: 0).contains { $0.asset.inserted.contains(identifier) })
    }
}
