import Foundation
import Logging
import PostgresNIO

/// How the hosts that share a library in PostgreSQL take turns writing and hear one another's
/// commits: the library's writer lock and its notification channel.
///
/// The change log's tokens are the order followers read in (`token > cursor`). PostgreSQL hands out
/// identity values when rows are inserted, not when transactions commit: two writers at once could
/// commit token 6 before token 5, and a follower that read up to 6 would never see 5. So each
/// write transaction first takes the library's advisory lock (``PostgreSQLConnection/write(_:_:)``),
/// held to its COMMIT: one writer at a time, on every host, as SQLite has one writer, and tokens
/// committed in their order. Each write ends with a NOTIFY on the channel carrying the newest
/// token; PostgreSQL delivers notifications at commit, in commit order, to every listening
/// connection (``PostgreSQLCommitListener``): a follower on any host wakes without polling.
///
/// ```swift
/// let commits = PostgreSQLCommits.library
/// try connection.write(commits) { db in try db.insert("INSERT INTO change …", values) }
/// let listener = try await PostgreSQLCommitListener.start(address, commits)
/// for await token in listener.tokens { /* read the log past the cursor */ }
/// ```
struct PostgreSQLCommits: Sendable, Hashable {
    /// The channel a write's NOTIFY goes to.
    let channel: String
    /// The key of the advisory lock a write holds to its COMMIT.
    let lockKey: Int64

    /// A library's channel and lock, a database holding one library.
    static let library = PostgreSQLCommits(channel: "photos_commit", lockKey: 0x7068_6f74_6f73)

    /// The channel and lock of the library in `schema`, one of several in a database: its own, so
    /// that the others' writers neither wait for it nor wake its followers. The lock's key is a
    /// hash of the name (the same on every host); the channel is `photos_commit_<schema>`, or the
    /// hash in hexadecimal where that would be longer than a channel's name may be (63 bytes).
    /// `public`, the schema an address without one lands in, is ``library``: however the address
    /// is written, one library has one lock.
    init(schema: String) {
        guard schema != "public" else {
            self = .library
            return
        }
        // FNV-1a of the name: the same key on every host.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in schema.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let plain = schema.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 < 0x80 && isalnum(Int32($0)) != 0) }
        let named = "photos_commit_\(schema)"
        let channel =
            plain && named.utf8.count <= Self.longestChannel
            ? named : "photos_commit_" + String(hash, radix: 16)
        self.init(channel: channel, lockKey: Int64(bitPattern: hash))
    }

    /// The longest name a channel may have: PostgreSQL's identifiers' (NAMEDATALEN - 1).
    static let longestChannel = 63

    init(channel: String, lockKey: Int64) {
        self.channel = channel
        self.lockKey = lockKey
    }
}

extension PostgreSQLConnection {
    /// Runs `body` as the library's one writer: a transaction that first waits for the library's
    /// lock (``PostgreSQLCommits``), held until it commits or rolls back, and tells the channel's
    /// listeners the newest token of the change log as it commits. Rolled back when `body` throws.
    func write<Value>(_ commits: PostgreSQLCommits, _ body: (PostgreSQLConnection) throws -> Value) throws -> Value {
        try transaction { db in
            try db.execute("SELECT pg_advisory_xact_lock(?)", [.int(commits.lockKey)])
            let value = try body(db)
            try db.execute(
                "SELECT pg_notify(?, (SELECT COALESCE(MAX(token), 0) FROM change)::text)", [.text(commits.channel)])
            return value
        }
    }
}

/// A connection of its own that listens on a library's channel (``PostgreSQLCommits``) and hands
/// on the newest token of each commit any host made, in commit order, until stopped.
final class PostgreSQLCommitListener: Sendable {
    /// The newest change token of each commit heard (a commit that logged no change repeats the
    /// token before it). Ends when the listener stops or its connection is lost.
    let tokens: AsyncStream<Int64>
    private let connection: PostgreSQLConnection
    private let task: Task<Void, Never>

    private init(tokens: AsyncStream<Int64>, connection: PostgreSQLConnection, task: Task<Void, Never>) {
        self.tokens = tokens
        self.connection = connection
        self.task = task
    }

    /// Connects to `address` and listens on `commits`' channel; returns once the server listens, so
    /// that every commit after this is heard.
    static func start(_ address: PostgreSQLAddress, _ commits: PostgreSQLCommits) async throws
        -> PostgreSQLCommitListener
    {
        let connection = try PostgreSQLConnection.connect(to: address)
        let (tokens, continuation) = AsyncStream.makeStream(of: Int64.self)
        let (listening, ready) = AsyncStream.makeStream(of: Result<Void, StoreError>.self)
        let postgres = connection.connection
        let task = Task {
            do {
                try await postgres.listen(on: commits.channel) { notifications in
                    ready.yield(.success(()))
                    ready.finish()
                    for try await notification in notifications {
                        if let token = Int64(notification.payload) { continuation.yield(token) }
                    }
                }
            } catch {
                ready.yield(.failure(StoreError(postgreSQL: error, address: address)))
                ready.finish()
            }
            continuation.finish()
        }
        for await outcome in listening {
            if case .failure(let error) = outcome {
                connection.close()
                throw error
            }
        }
        return PostgreSQLCommitListener(tokens: tokens, connection: connection, task: task)
    }

    /// Stops listening and closes the connection; ``tokens`` ends.
    func stop() {
        task.cancel()
        connection.close()
    }
}
