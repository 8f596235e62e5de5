import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Synchronization

/// The library in PostgreSQL beside the same library file, in one run: the synthetic library is
/// copied into a schema of its own (`photos library copy`'s work), then a filtered, sorted fetch
/// of 50 assets with their records, and a commit on one host until another host's follower is
/// woken (two libraries opened on one schema; on SQLite, two on one file, woken through inotify).
struct PostgreSQLMeasurement {
    static let fetch = "postgresql: fetch 50 favorite images, records"
    static let notified = "postgresql: commit -> other host's follower"
    static let notifiedFile = "file: commit -> other process's follower"
    static let copy = "postgresql: copy of the library in"
    /// The goals: a fetch p50 within 3 ms, another host told p99 within 20 ms.
    static let fetchGoalP50 = 3.0
    static let notifiedGoalP99 = 20.0

    let url: String
    let path: String
    let size: Int
    let iterations: Int
    let table: ResultTable

    func run() throws {
        try PostgreSQLTestServer.inNewSchema(on: url) { location in try run(in: location) }
    }

    private func run(in location: String) throws {
        print(
            "postgresql: \(size) assets copied into \((try? PostgreSQLAddress(location).description) ?? "PostgreSQL")")
        let copied = try timed { try LibraryCopy.copy(from: path, to: location) }
        table.add(
            ResultRow(
                Self.copy, size: size, value: copied.duration.milliseconds / 1_000, floor: nil, unit: "s"))

        let file = (try LibraryDatabase(path: path), try LibraryDatabase(path: path))
        let postgreSQL = (try LibraryDatabase(postgreSQL: location), try LibraryDatabase(postgreSQL: location))
        try measureFetch(postgreSQL.0, beside: file.0)
        try measureNotified(postgreSQL, beside: file)
    }

    /// The fetch a timeline's favorites view makes, with its 50 records, on each engine in turns.
    private func measureFetch(_ postgreSQL: LibraryDatabase, beside file: LibraryDatabase) throws {
        func fetch(_ database: LibraryDatabase) throws -> Int {
            var query = AssetQuery()
            query.filter = try PhotoKitPredicate(format: "favorite == YES AND mediaType == 1", arguments: [])
                .sql(for: .asset, dialect: database.dialect, column: AssetQuery.column(for:))
            query.sort = [SortKey(key: "creationDate", ascending: false)]
            query.limit = 50
            return try database.assets(ids: database.assetIDs(matching: query)).count
        }
        var (ours, theirs) = (Samples(), Samples())
        let warmups = max(3, iterations / 10)
        for round in 0..<(warmups + iterations) {
            let first = try timed { try fetch(round % 2 == 0 ? postgreSQL : file) }
            let second = try timed { try fetch(round % 2 == 0 ? file : postgreSQL) }
            guard first.value == second.value else {
                throw BenchmarkError("the engines fetched \(first.value) and \(second.value) assets")
            }
            guard round >= warmups else { continue }
            ours.append(round % 2 == 0 ? first.duration : second.duration)
            theirs.append(round % 2 == 0 ? second.duration : first.duration)
        }
        table.add(ResultRow(Self.fetch, size: size, ours, floor: theirs))
    }

    /// From a commit's return on one host to the follower on another, on each engine.
    private func measureNotified(
        _ postgreSQL: (LibraryDatabase, LibraryDatabase), beside file: (LibraryDatabase, LibraryDatabase)
    ) throws {
        // No ratio: the file's follower is often woken before the committing thread gets control
        // back (0 ms), which no ratio can be taken to.
        table.add(ResultRow(Self.notified, size: size, try notified(postgreSQL), floor: nil))
        table.add(ResultRow(Self.notifiedFile, size: size, try notified(file), floor: nil))
    }

    private func notified(_ hosts: (LibraryDatabase, LibraryDatabase)) throws -> Samples {
        let (writer, reader) = hosts
        let woken = Mutex<[ContinuousClock.Instant]>([])
        let wakeups = DispatchSemaphore(value: 0)
        let follower = reader.followCommits {
            woken.withLock { $0.append(.now) }
            wakeups.signal()
        }
        defer { follower.cancel() }
        // The follower listens once it has been woken for the first time (PostgreSQL) or at once.
        _ = wakeups.wait(timeout: .now() + 2)
        Thread.sleep(forTimeInterval: 0.2)
        while wakeups.wait(timeout: .now()) == .success {}
        var samples = Samples()
        let identifier = try writer.read { db in try db.scalarText("SELECT localIdentifier FROM asset LIMIT 1") } ?? ""
        for round in 0..<iterations {
            woken.withLock { $0 = [] }
            try writer.write { transaction in
                try transaction.updateAsset(
                    localIdentifier: identifier, setting: [("isFavorite", .int(Int64(round % 2)))],
                    properties: ["isFavorite"])
            }
            let committed = ContinuousClock.now
            guard wakeups.wait(timeout: .now() + 5) == .success else {
                throw BenchmarkError("no follower was woken within 5 s of a commit")
            }
            let first = woken.withLock { $0.first } ?? .now
            samples.append(max(.zero, first - committed))
            // Later wakeups of the same commit (a settle pass) are not the next one's.
            Thread.sleep(forTimeInterval: 0.03)
            while wakeups.wait(timeout: .now()) == .success {}
        }
        return samples
    }
}
