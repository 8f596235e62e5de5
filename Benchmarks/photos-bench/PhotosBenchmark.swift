import Foundation
import GRDB

/// One run: the machine context, each library size's measures, and whether the goals are met.
struct PhotosBenchmark {
    /// The goals of the issue, judged at 1M assets.
    enum Goal {
        static let size = 1_000_000
        static let fetchP50 = 5.0
        static let fetchOverFloor = 2.0
        static let fetchResultMegabytes = 50.0
    }

    let options: BenchmarkOptions
    let table = ResultTable()

    func run() throws {
        defer { if options.removesDirectory { try? FileManager.default.removeItem(atPath: options.directory) } }
        printContext()
        try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        for size in options.sizes {
            let synthetic = SyntheticLibrary(size: size, directory: options.directory)
            print("library \(size): \(synthetic.path)")
            if let seconds = try synthetic.prepare() {
                print("  built in \(String(format: "%.1f", seconds)) s (\(Int(Double(size) / seconds)) assets/s)")
            } else {
                print("  reused")
            }
            let measurements = try LibraryMeasurements(
                path: synthetic.path, size: size, options: options, table: table)
            // Memory first, before other measures leave freed memory for it to reuse.
            measurements.measureMemory()
            try measurements.measureFetches()
            try measurements.measureCount()
            try measurements.measureCommit()
        }
        // Change observation last, so its allocations and writes touch no other measure.
        if let size = options.changesSize, options.sizes.contains(size) {
            let synthetic = SyntheticLibrary(size: size, directory: options.directory)
            try LibraryMeasurements(path: synthetic.path, size: size, options: options, table: table)
                .measureChanges()
        }
        if let size = options.apiSize, options.sizes.contains(size) {
            let synthetic = SyntheticLibrary(size: size, directory: options.directory)
            try APIMeasurement(
                path: synthetic.path, size: size, iterations: options.iterations,
                concurrentRequests: options.smoke ? options.iterations : max(options.iterations, 100), verdict: verdict
            ).run()
        }
        if let rounds = options.thumbnailRounds {
            try ImageMeasurement(
                rounds: rounds, iterations: options.iterations, directory: options.directory, table: table,
                largeSide: options.largeSide, requiresEveryMeasure: options.smoke
            ).run()
        }
        if let toggles = options.sidecarToggles {
            try SidecarMeasurement(toggles: toggles, directory: options.directory, table: table).run()
        }
        if let url = options.postgreSQL, let size = options.sizes.first {
            try PostgreSQLMeasurement(
                url: url, path: SyntheticLibrary(size: size, directory: options.directory).path, size: size,
                iterations: options.iterations, table: table
            ).run()
            try PostgreSQLScanMeasurement(
                url: url, directory: options.directory, copies: options.smoke ? 1 : 10, rounds: options.smoke ? 1 : 3,
                table: table
            ).run()
        }
        if let size = options.jsonSize {
            try AssetJSONMeasurement(size: size, directory: options.directory, rounds: 5, table: table).run()
        }
        print()
        print("results (ms unless noted; ratio = p50 / floor p50; floor = the same query as plain SQL via GRDB)")
        table.printHeader()
        for row in table.rows { table.add(row, recording: false) }
        printSummary()
        printChangesSummary()
        printAssetJSONSummary()
        printThumbnailSummary()
        printSidecarSummary()
        printPostgreSQLSummary()
        print()
        print("rerun: \(options.commandLine)")
    }

    private func printContext() {
        let sqliteVersion =
            (try? DatabaseQueue().read { db in
                try String.fetchOne(db, sql: "SELECT sqlite_version()")
            }).flatMap { $0 } ?? "?"
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        print("photos-bench \(ISO8601DateFormatter().string(from: Date()))")
        print(
            "  cores \(ProcessInfo.processInfo.activeProcessorCount), load \(load), "
                + "memory \(ProcessInfo.processInfo.physicalMemory / 1_048_576) MB, SQLite \(sqliteVersion), "
                + "\(ProcessInfo.processInfo.operatingSystemVersionString)")
        #if DEBUG
            print("  WARNING: debug build; timings mean nothing. Use -c release.")
        #endif
        if options.smoke {
            print("  smoke run: \(BenchmarkOptions.smokeArguments.joined(separator: " ")); figures are not judged")
        }
        print(
            "  sizes \(options.sizes.map(String.init).joined(separator: ",")), iterations \(options.iterations) "
                + "(count: \(options.countIterations)), libraries in \(options.directory)")
    }

    private func printSummary() {
        print()
        let size = options.sizes.contains(Goal.size) ? Goal.size : options.sizes.last!
        let note = size == Goal.size ? "" : " (goals are for \(Goal.size); judged at \(size))"
        print("goals at \(size) assets\(note):")
        for fetch in FetchCase.all {
            guard let row = table.row(fetch.name, size: size), let ratio = row.ratio else { continue }
            let fast = row.p50 < Goal.fetchP50
            let close = ratio <= Goal.fetchOverFloor
            print(
                "  \(verdict(fast && close))  \(fetch.name): p50 \(ResultTable.format(row.p50)) ms "
                    + "(goal < \(Goal.fetchP50) ms: \(fast ? "yes" : "no")), "
                    + "\(String(format: "%.2f", ratio))x floor (goal <= \(Goal.fetchOverFloor)x: \(close ? "yes" : "no"))"
            )
        }
        if let row = table.row("memory: fetch result (resident)", size: size) {
            print(
                "  \(verdict(row.p50 < Goal.fetchResultMegabytes))  fetch result of every asset: "
                    + "resident +\(ResultTable.format(row.p50)) MB (goal < \(Goal.fetchResultMegabytes) MB)")
        }
    }

    private func printAssetJSONSummary() {
        guard let size = options.jsonSize, let row = table.row("asset JSON: rows (floor = PhotoKit)", size: size)
        else { return }
        print()
        print("asset JSON at \(size) assets:")
        let cpu = table.row("asset JSON: rows, per CPU second", size: size).map { Int($0.p50) } ?? 0
        let described = table.row("asset JSON: descriptions encoded", size: size).map { Int($0.p50) } ?? 0
        print(
            "  \(verdict(row.p50 >= AssetJSONMeasurement.goal))  rows: \(Int(row.p50)) assets/s, "
                + "\(cpu) a CPU second (goal >= \(Int(AssetJSONMeasurement.goal))); descriptions encoded \(described) assets/s, "
                + "PhotoKit path \(Int(row.floorP50 ?? 0)) assets/s (\(String(format: "%.1f", row.ratio ?? 0))x; "
                + "\(Int(AssetJSONMeasurement.before)) assets/s before issue 11)")
    }

    private func printThumbnailSummary() {
        guard options.thumbnailRounds != nil else { return }
        typealias Goal = ImageMeasurement.Goal
        print()
        print("thumbnails (256 px, one request at a time; goals of issue 13):")
        for name in ["12 MP JPEG", "12 MP HEIC"] {
            guard let row = table.row("thumbnails: \(name), per CPU s", size: 2), let ratio = row.ratio else {
                continue
            }
            print(
                "  \(verdict(ratio >= Goal.rateOverVips))  \(name): \(Int(row.p50)) a CPU second, vipsthumbnail "
                    + "\(Int(row.floorP50 ?? 0)): \(String(format: "%.2f", ratio))x (goal >= \(Goal.rateOverVips)x per core)"
            )
        }
        if let row = table.row("thumbnail: fastFormat, JPEG", size: 1) {
            print(
                "  \(verdict(row.p50 < Goal.fastFormatP50))  fastFormat p50 (12 MP JPEG): "
                    + "\(ResultTable.format(row.p50)) ms (goal < \(Goal.fastFormatP50) ms)")
        }
        for name in ["JPEG", "HEIC"] {
            guard let row = table.row("thumbnail: disk cache hit, \(name)", size: 1) else { continue }
            print(
                "  \(verdict(row.p50 < Goal.cacheHitP50))  disk cache hit p50 (\(name)): "
                    + "\(ResultTable.format(row.p50)) ms (goal < \(Goal.cacheHitP50) ms)")
        }
        if let row = table.row(ImageMeasurement.peakMeasure(side: options.largeSide), size: 1) {
            let megapixels = options.largeSide * options.largeSide / 1_000_000
            print(
                "  \(verdict(row.p50 < Goal.peakMegabytes))  peak for a \(megapixels) MP JPEG: \(Int(row.p50)) MB "
                    + "(goal < \(Int(Goal.peakMegabytes)) MB; vipsthumbnail \(Int(row.floorP50 ?? 0)) MB)")
        }
    }

    private func printSidecarSummary() {
        guard let row = table.row(SidecarMeasurement.measure, size: 1) else { return }
        let alone = table.row(SidecarMeasurement.libraryOnly, size: 1)
        print()
        print("sidecars (in process, one favorite toggle a block):")
        print(
            "  \(verdict(row.p99 <= SidecarMeasurement.goalP99))  toggle to its sidecar on disk p99 "
                + "\(ResultTable.format(row.p99)) ms (goal <= \(SidecarMeasurement.goalP99) ms); p50 "
                + "\(ResultTable.format(row.p50)) ms, library only p50 \(alone.map { ResultTable.format($0.p50) } ?? "?") ms, "
                + "a bare durable write p50 \(ResultTable.format(row.floorP50 ?? 0)) ms")
    }

    private func printPostgreSQLSummary() {
        let size = options.sizes.first ?? 0
        guard let fetch = table.row(PostgreSQLMeasurement.fetch, size: size),
            let notified = table.row(PostgreSQLMeasurement.notified, size: size),
            let file = table.row(PostgreSQLMeasurement.notifiedFile, size: size)
        else { return }
        print()
        print("postgresql (\(size) assets, beside the same library file):")
        print(
            "  \(verdict(fetch.p50 <= PostgreSQLMeasurement.fetchGoalP50))  fetch of 50 p50 "
                + "\(ResultTable.format(fetch.p50)) ms (goal <= \(PostgreSQLMeasurement.fetchGoalP50) ms; the file "
                + "\(ResultTable.format(fetch.floorP50 ?? 0)) ms)")
        print(
            "  \(verdict(notified.p99 <= PostgreSQLMeasurement.notifiedGoalP99))  commit -> other host p99 "
                + "\(ResultTable.format(notified.p99)) ms (goal <= \(PostgreSQLMeasurement.notifiedGoalP99) ms; "
                + "p50 \(ResultTable.format(notified.p50)) ms; the file through inotify p50 "
                + "\(ResultTable.format(file.p50)) / p99 \(ResultTable.format(file.p99)) ms)")
        if let scan = table.rows.first(where: { $0.measure == PostgreSQLScanMeasurement.scan }),
            let hosts = table.rows.first(where: { $0.measure == PostgreSQLScanMeasurement.hosts })
        {
            print(
                "  \(verdict((scan.ratio ?? 0) >= PostgreSQLScanMeasurement.scanGoal))  first scan "
                    + "\(Int(scan.p50)) files/s, \(ResultTable.format((scan.ratio ?? 0) * 100))% of the file's "
                    + "\(Int(scan.floorP50 ?? 0)) files/s (goal >= \(Int(PostgreSQLScanMeasurement.scanGoal * 100))%)")
            print(
                "  \(verdict((hosts.ratio ?? 0) >= PostgreSQLScanMeasurement.hostsGoal))  3 hosts at once "
                    + "\(Int(hosts.p50)) files/s, \(ResultTable.format(hosts.ratio ?? 0))x one host alone "
                    + "(goal >= \(ResultTable.format(PostgreSQLScanMeasurement.hostsGoal))x)")
        }
    }

    /// A goal's verdict; a smoke run's tiny library judges nothing.
    func verdict(_ met: Bool) -> String {
        if options.smoke { return "NOT JUDGED (smoke)" }
        return met ? "MET   " : "MISSED"
    }
}
