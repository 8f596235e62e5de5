import Dispatch
import Foundation
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Synchronization

/// The first scan of a tree of photos into a library kept in PostgreSQL beside the same scan into
/// a library file, in one run; and three hosts scanning trees of their own into one PostgreSQL
/// library at once beside one host alone.
///
/// Each host's tree is the shared corpus copied `copies` times (real copies, one inode each, kept
/// in the bench directory for the next run) and read once beforehand, so that every scan starts
/// from a warm page cache. Every scan goes into a new library (a new file, a new schema), the
/// engines in turns; a rate is files seen per second of wall time, the median of `rounds`. The
/// scans run in this process, as `photos scan` runs them (``FolderScanner``).
struct PostgreSQLScanMeasurement {
    static let scan = "postgresql: first scan, files/s"
    static let hosts = "postgresql: 3 hosts at once, files/s"
    /// The goals: a scan into PostgreSQL at 70% of the file's rate or better, and three
    /// hosts at once at twice one host's aggregate rate.
    static let scanGoal = 0.7
    static let hostsGoal = 2.0

    let url: String
    let directory: String
    let copies: Int
    let rounds: Int
    let table: ResultTable

    func run() throws {
        guard let corpus = Corpus.root else { throw BenchmarkError("the scan needs ../shared/corpus") }
        let trees = try (0..<3).map { try tree(host: $0, from: corpus) }
        let files = try trees.map(Self.warm)
        print(
            "postgresql: first scans of \(files[0]) files per host (\(copies) copies of the corpus), \(rounds) rounds")
        var (file, postgreSQL, alone, together) = ([Double](), [Double](), [Double](), [Double]())
        for round in 0..<rounds {
            // The engines in turns: a round starts with the one the last round ended with.
            for engine in round % 2 == 0 ? [false, true] : [true, false] {
                if engine {
                    postgreSQL.append(
                        try PostgreSQLTestServer.inNewSchema(on: url) { try scanRate(trees[0], into: $0) })
                } else {
                    file.append(try scanRateIntoFile(trees[0]))
                }
            }
            alone.append(postgreSQL.last ?? 0)
            together.append(try PostgreSQLTestServer.inNewSchema(on: url) { try hostsRate(trees, into: $0) })
        }
        table.add(
            ResultRow(
                Self.scan, size: files[0], value: Self.median(postgreSQL), floor: Self.median(file), unit: "files/s"))
        table.add(
            ResultRow(
                Self.hosts, size: files.reduce(0, +), value: Self.median(together), floor: Self.median(alone),
                unit: "files/s"))
    }

    /// Files per second of a first scan of `tree` into a new library at `location`.
    private func scanRate(_ tree: String, into location: String) throws -> Double {
        let database = try LibraryDatabase(postgreSQL: location, host: "host0")
        return try Self.rate { try FolderScanner(database: database, quietTime: 0).scan(roots: [tree]).seen }
    }

    /// The same into a new library file.
    private func scanRateIntoFile(_ tree: String) throws -> Double {
        let path = directory + "/scan-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try LibraryDatabase(path: path)
        return try Self.rate { try FolderScanner(database: database, quietTime: 0).scan(roots: [tree]).seen }
    }

    /// Files per second of three hosts (three libraries on one schema, each its own host) scanning
    /// their own trees at once: every host's files over the wall time until the last one ends.
    private func hostsRate(_ trees: [String], into location: String) throws -> Double {
        // Made first, one at a time: the first opening makes the library.
        let hosts = try (0..<trees.count).map { try LibraryDatabase(postgreSQL: location, host: "host\($0)") }
        let seen = Mutex([Int](repeating: 0, count: trees.count))
        let failure = Mutex<(any Error)?>(nil)
        return try Self.rate {
            DispatchQueue.concurrentPerform(iterations: trees.count) { host in
                do {
                    let report = try FolderScanner(database: hosts[host], quietTime: 0).scan(roots: [trees[host]])
                    seen.withLock { $0[host] = report.seen }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            return seen.withLock { $0.reduce(0, +) }
        }
    }

    /// The corpus copied `copies` times for one host, made once and kept.
    private func tree(host: Int, from corpus: URL) throws -> String {
        let tree = directory + "/scan-tree-\(copies)/host\(host)"
        let done = tree + "/.complete"
        guard !FileManager.default.fileExists(atPath: done) else { return tree }
        try? FileManager.default.removeItem(atPath: tree)
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        for copy in 0..<copies {
            try FileManager.default.copyItem(atPath: corpus.path, toPath: tree + "/copy\(copy)")
        }
        FileManager.default.createFile(atPath: done, contents: nil)
        return tree
    }

    /// Reads every file of `tree` once; returns how many files it holds (its dot files aside).
    private static func warm(_ tree: String) throws -> Int {
        var count = 0
        let enumerator = FileManager.default.enumerator(atPath: tree)
        while let name = enumerator?.nextObject() as? String {
            let path = tree + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !(name as NSString).lastPathComponent.hasPrefix(".")
            else { continue }
            _ = FileManager.default.contents(atPath: path)
            count += 1
        }
        return count
    }

    /// Files per second of `body`, which returns how many files it saw.
    private static func rate(_ body: () throws -> Int) throws -> Double {
        let start = ContinuousClock.now
        let files = try body()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(files) / max(seconds, 1e-9)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
