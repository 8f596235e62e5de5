import Dispatch
import Foundation
import GRDB
import Photos

/// One change measure of issue 5: a change block editing `changed` assets of the library, seen by an
/// observer holding a fetch result of every asset.
struct ChangeCase: Sendable {
    enum Edit: String, Sendable {
        /// `isFavorite` toggled: the assets change in place.
        case favorite = "fav"
        /// `creationDate` set to another day: the assets move in the date-sorted result.
        case date
    }

    let edit: Edit
    let changed: Int
    /// Timed rounds (even: each pair of rounds edits a set of assets and puts it back).
    let rounds: Int

    static let all = [
        ChangeCase(edit: .favorite, changed: 1, rounds: 20),
        ChangeCase(edit: .favorite, changed: 100, rounds: 20),
        ChangeCase(edit: .favorite, changed: 10_000, rounds: 6),
        ChangeCase(edit: .date, changed: 1, rounds: 10),
        ChangeCase(edit: .date, changed: 100, rounds: 20),
        ChangeCase(edit: .date, changed: 10_000, rounds: 4),
    ]

    /// The cases that fit a library of `size` assets: those changing at most half of it (a smoke
    /// run's small library measures the same code with fewer assets changed).
    static func cases(forLibraryOf size: Int) -> [ChangeCase] {
        all.filter { $0.changed * 2 <= size }
    }

    /// Untimed rounds first (a pair, so the library ends as it began).
    static let warmups = 2

    var name: String { "changes k=\(changed) \(edit.rawValue)" }
    var commitMeasure: String { name + ": SQLite COMMIT" }
    var callbackMeasure: String { name + ": to callback" }
    var detailsMeasure: String { name + ": details" }
    var totalMeasure: String { name + ": both" }
}

/// A `PHPhotoLibraryChangeObserver` that, like an app's grid, keeps one fetch result up to date:
/// each call records when it arrived, times `changeDetails(for:)` and keeps `fetchResultAfterChanges`.
final class TimingObserver: PHPhotoLibraryChangeObserver, @unchecked Sendable {
    struct Arrival {
        /// The wall clock at the start of `photoLibraryDidChange`.
        let arrived: Double
        /// The change-log entry's timestamp, taken in the transaction just before COMMIT.
        let entryTimestamp: Double
        let detailsDuration: Duration
        let removed: Int
        let inserted: Int
        let changed: Int
        let moves: Int
        let countAfter: Int
    }

    private let lock = NSLock()
    private var fetchResult: PHFetchResult<PHAsset>
    private var arrivals: [Arrival] = []
    private let arrivalSignal = DispatchSemaphore(value: 0)

    init(fetchResult: PHFetchResult<PHAsset>) {
        self.fetchResult = fetchResult
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let arrived = Date().timeIntervalSince1970
        let before = lock.withLock { fetchResult }
        let (details, duration) = timed { changeInstance.changeDetails(for: before) }
        var moves = 0
        details?.enumerateMoves { _, _ in moves += 1 }
        let arrival = Arrival(
            arrived: arrived, entryTimestamp: changeInstance.entry.timestamp, detailsDuration: duration,
            removed: details?.removedIndexes?.count ?? 0,
            inserted: details?.insertedIndexes?.count ?? 0, changed: details?.changedIndexes?.count ?? 0,
            moves: moves, countAfter: details?.fetchResultAfterChanges.count ?? before.count)
        lock.withLock {
            if let details { fetchResult = details.fetchResultAfterChanges }
            arrivals.append(arrival)
        }
        arrivalSignal.signal()
    }

    /// The next call's record, waiting for it.
    func next() throws -> Arrival {
        guard arrivalSignal.wait(timeout: .now() + 60) == .success else {
            throw BenchmarkError("changes: no photoLibraryDidChange within 60 s of a commit")
        }
        return lock.withLock { arrivals.removeFirst() }
    }

    /// Calls that arrived and were not taken (there should be none between rounds).
    var pending: Int { lock.withLock { arrivals.count } }
}

/// What an app without change details does after a change: fetch everything again, load every
/// asset's identifier and favorite flag, and compare with what it showed.
struct NaiveSnapshot {
    let identifiers: [String]
    let favorites: [Bool]

    struct Diff {
        var removed = 0
        var inserted = 0
        /// Stayed, with another favorite flag.
        var changed = 0
        /// Stayed, at another position.
        var displaced = 0
    }

    init(_ result: PHFetchResult<PHAsset>) {
        var identifiers: [String] = []
        var favorites: [Bool] = []
        identifiers.reserveCapacity(result.count)
        favorites.reserveCapacity(result.count)
        for asset in result {
            identifiers.append(asset.localIdentifier)
            favorites.append(asset.isFavorite)
        }
        self.identifiers = identifiers
        self.favorites = favorites
    }

    /// An O(n) comparison through a dictionary of the old positions.
    func diff(to new: NaiveSnapshot) -> Diff {
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(identifiers.count)
        for (index, identifier) in identifiers.enumerated() { oldIndex[identifier] = index }
        var diff = Diff()
        var stayed = 0
        for (index, identifier) in new.identifiers.enumerated() {
            guard let was = oldIndex[identifier] else {
                diff.inserted += 1
                continue
            }
            stayed += 1
            if favorites[was] != new.favorites[index] { diff.changed += 1 }
            if was != index { diff.displaced += 1 }
        }
        diff.removed = identifiers.count - stayed
        return diff
    }
}

extension LibraryMeasurements {
    /// Issue 5: with a fetch result of every asset registered, the time from a commit to
    /// `photoLibraryDidChange`, and to compute its `PHFetchResultChangeDetails`, for 1, 100 and
    /// 10,000 changed assets; beside a full re-fetch-and-diff after the same change (the floor
    /// column holds the naive p50/p99). Favorite toggles change assets in place; date edits move them.
    ///
    /// Each pair of rounds edits a random set of assets and puts it back, so the library ends as it
    /// began, save for its change log and modification dates.
    func measureChanges() throws {
        let options = fetchOptions()
        options.includeHiddenAssets = true
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let initial = PHAsset.fetchAssets(with: options)
        var snapshot = NaiveSnapshot(initial)
        let identifiers = snapshot.identifiers
        // The stored dates before any edit, put back once the observer is gone (defers run last first).
        var originalDates: [Int64: StoredDate] = [:]
        defer {
            do { try restoreDates(originalDates) } catch { print("    changes: dates not restored: \(error)") }
        }
        let recorder = TimingObserver(fetchResult: initial)
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        print(
            "    changes size \(size): an observer holds a fetch result of \(initial.count) assets "
                + "(hidden included, by creationDate)")

        var random = SplitMix64(seed: 5)
        for change in ChangeCase.cases(forLibraryOf: size) {
            try measure(
                change, recorder: recorder, identifiers: identifiers, options: options,
                snapshot: &snapshot, random: &random, originalDates: &originalDates)
        }
    }

    private func measure(
        _ change: ChangeCase, recorder: TimingObserver, identifiers: [String], options: PHFetchOptions,
        snapshot: inout NaiveSnapshot, random: inout SplitMix64, originalDates stored: inout [Int64: StoredDate]
    ) throws {
        let clock = ContinuousClock()
        let lookup = PHFetchOptions()
        lookup.photoLibrary = library
        lookup.includeHiddenAssets = true
        var sqliteCommit = Samples()
        var callback = Samples()
        var details = Samples()
        var total = Samples()
        var commit = Samples()
        var naive = Samples()
        var chosen: [String] = []
        var datesBefore: [String: Date] = [:]
        var last: TimingObserver.Arrival?

        // A full run's iterations (200) leave each case its rounds; a smoke run's 10 make them 2.
        let rounds = min(change.rounds, max(2, iterations / 10 * 2))
        for round in 0..<(ChangeCase.warmups + rounds) {
            let restoring = round % 2 == 1
            if !restoring {
                chosen = Self.pick(change.changed, of: identifiers, &random)
            }
            let assets = Array(PHAsset.fetchAssets(withLocalIdentifiers: chosen, options: lookup))
            guard assets.count == chosen.count else {
                throw BenchmarkError("\(change.name): found \(assets.count) of \(chosen.count) assets")
            }
            var newDates: [Date] = []
            if change.edit == .date {
                if restoring {
                    newDates = assets.map { datesBefore[$0.localIdentifier]! }
                } else {
                    try remember(chosen, into: &stored)
                    for asset in assets { datesBefore[asset.localIdentifier] = asset.creationDate }
                    newDates = assets.map { _ in
                        let offset = Double(random.next() >> 11) / Double(1 << 53)
                        return Date(timeIntervalSince1970: SyntheticLibrary.firstDate + SyntheticLibrary.span * offset)
                    }
                }
            }

            let started = clock.now
            try library.performChangesAndWait {
                for (index, asset) in assets.enumerated() {
                    let request = PHAssetChangeRequest(for: asset)
                    switch change.edit {
                    case .favorite: request.isFavorite.toggle()
                    case .date: request.creationDate = newDates[index]
                    }
                }
            }
            let committed = clock.now
            let arrival = try recorder.next()
            let (after, naiveDuration) = timed { () -> (NaiveSnapshot, NaiveSnapshot.Diff) in
                let after = NaiveSnapshot(PHAsset.fetchAssets(with: options))
                return (after, snapshot.diff(to: after))
            }
            snapshot = after.0
            try check(change, arrival, naive: after.1, count: identifiers.count)
            guard recorder.pending == 0 else {
                throw BenchmarkError("\(change.name): \(recorder.pending) extra calls for one commit")
            }
            last = arrival
            // Commit to callback: from COMMIT's return (the change is then visible to every
            // process) to the observer's start. The observer may be woken a hair before the
            // committing thread notes the time: that counts as zero.
            guard let committedAt = library.database.lastCommit?.date.timeIntervalSince1970 else {
                throw BenchmarkError("\(change.name): no commit recorded")
            }
            let latency = Duration.microseconds(Int64((max(0, arrival.arrived - committedAt) * 1e6).rounded()))
            if round >= ChangeCase.warmups {
                sqliteCommit.append(.microseconds(Int64(((committedAt - arrival.entryTimestamp) * 1e6).rounded())))
                callback.append(latency)
                details.append(arrival.detailsDuration)
                total.append(latency + arrival.detailsDuration)
                commit.append(committed - started)
                naive.append(naiveDuration)
            }
        }

        if let last {
            print(
                "    \(change.name): performChangesAndWait p50 \(ResultTable.format(commit.p50)) ms; last details: "
                    + "removed \(last.removed), inserted \(last.inserted), changed \(last.changed), moves \(last.moves)"
            )
        }
        table.add(ResultRow(change.commitMeasure, size: size, sqliteCommit, floor: nil))
        table.add(ResultRow(change.callbackMeasure, size: size, callback, floor: nil))
        table.add(ResultRow(change.detailsMeasure, size: size, details, floor: nil))
        table.add(ResultRow(change.totalMeasure, size: size, total, floor: naive))
    }

    /// Checks that the details and the naive diff both saw exactly the change made.
    private func check(
        _ change: ChangeCase, _ arrival: TimingObserver.Arrival, naive: NaiveSnapshot.Diff, count: Int
    ) throws {
        let k = change.changed
        var problems: [String] = []
        if arrival.countAfter != count { problems.append("details count \(arrival.countAfter), not \(count)") }
        if arrival.removed != 0 || arrival.inserted != 0 {
            problems.append("details removed \(arrival.removed), inserted \(arrival.inserted)")
        }
        if arrival.changed != k { problems.append("details changed \(arrival.changed), not \(k)") }
        if naive.removed != 0 || naive.inserted != 0 {
            problems.append("naive removed \(naive.removed), inserted \(naive.inserted)")
        }
        switch change.edit {
        case .favorite:
            if arrival.moves != 0 { problems.append("details moved \(arrival.moves) on a favorite toggle") }
            if naive.changed != k || naive.displaced != 0 {
                problems.append("naive changed \(naive.changed), displaced \(naive.displaced)")
            }
        case .date:
            // An asset given a date next to its own may keep its place; none can move beyond the k edited.
            if arrival.moves > k { problems.append("details moved \(arrival.moves) of \(k)") }
            if naive.changed != 0 { problems.append("naive changed \(naive.changed) favorites on a date edit") }
        }
        if !problems.isEmpty {
            throw BenchmarkError("\(change.name): " + problems.joined(separator: "; "))
        }
    }

    /// `count` distinct identifiers, chosen at random.
    private static func pick(_ count: Int, of identifiers: [String], _ random: inout SplitMix64) -> [String] {
        var pool = identifiers
        for index in 0..<count {
            let other = index + Int(random.next() % UInt64(pool.count - index))
            pool.swapAt(index, other)
        }
        return Array(pool.prefix(count))
    }

    /// The stored dates of these assets (first seen wins), to put back exactly as they were.
    private func remember(_ identifiers: [String], into zones: inout [Int64: StoredDate]) throws {
        try floor.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, creationDate, creationDateOffset, creationDateIsFloating FROM asset
                    WHERE localIdentifier IN (SELECT value FROM json_each(?))
                    """,
                arguments: [String(decoding: try JSONSerialization.data(withJSONObject: identifiers), as: UTF8.self)])
            for row in rows {
                let id: Int64 = row["id"]
                if zones[id] == nil {
                    zones[id] = StoredDate(
                        date: row["creationDate"], offset: row["creationDateOffset"],
                        floating: row["creationDateIsFloating"])
                }
            }
        }
    }

    /// Puts the stored dates back with plain SQL, after the observer is done: PhotoKit's date edit
    /// clears the offset and floating flag, and a `Date` round trip may move the last bit.
    private func restoreDates(_ zones: [Int64: StoredDate]) throws {
        guard !zones.isEmpty else { return }
        try floor.write { db in
            for (id, zone) in zones {
                try db.execute(
                    sql: """
                        UPDATE asset SET creationDate = ?, creationDateOffset = ?, creationDateIsFloating = ?
                        WHERE id = ?
                        """,
                    arguments: [zone.date, zone.offset, zone.floating, id])
            }
        }
    }
}

/// An asset's creation date as stored.
struct StoredDate {
    let date: Double?
    let offset: Int?
    let floating: Bool
}

extension PhotosBenchmark {
    /// Issue 5's goals.
    enum ChangeGoal {
        static let callbackPlusDetailsP50 = 10.0
        static let judgedCounts: Set<Int> = [1, 100]
    }

    func printChangesSummary() {
        guard let size = options.changesSize,
            table.row(ChangeCase.all[0].totalMeasure, size: size) != nil
        else { return }
        print(
            "goals for change observation at \(size) assets (both = commit to photoLibraryDidChange + "
                + "changeDetails(for:); naive, the floor of the changes rows = re-fetch every asset and diff):")
        for change in ChangeCase.all {
            guard let row = table.row(change.totalMeasure, size: size), let naive = row.floorP50 else { continue }
            let faster = row.p50 < naive
            let p99Faster = row.floorP99.map { row.p99 < $0 } ?? false
            var parts = ["\(change.name): both p50 \(ResultTable.format(row.p50)) ms"]
            var met = faster
            if ChangeGoal.judgedCounts.contains(change.changed) {
                let fast = row.p50 < ChangeGoal.callbackPlusDetailsP50
                met = met && fast
                parts.append("(goal < \(ChangeGoal.callbackPlusDetailsP50) ms: \(fast ? "yes" : "no"))")
            }
            parts.append(
                "vs naive p50 \(ResultTable.format(naive)) ms (faster: \(faster ? "yes" : "no"); "
                    + "p99 \(ResultTable.format(row.p99)) vs \(ResultTable.format(row.floorP99 ?? 0)): "
                    + "\(p99Faster ? "yes" : "no"))")
            print("  \(verdict(met))  " + parts.joined(separator: " "))
        }
    }
}
