import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosHooks

/// The batching rules as a table: entries (by the objects each names) offered to a batcher of a
/// given limit, and the runs that come out, each as the tokens of its entries.
@Suite struct HookBatcherTests {
    /// One row: entries naming `sizes[i]` objects (token i + 1) offered in order, a run taken
    /// whenever the batcher wants no more, and the last batch taken at the end.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var limit: Int
        var sizes: [Int]
        var runs: [[Int64]]
        var testDescription: String { name }
    }

    /// An entry with token `token` naming `objects` assets.
    static func entry(_ token: Int64, objects: Int) -> LibraryChange {
        LibraryChange(
            token: token, timestamp: 0,
            asset: ObjectChanges(updated: (0..<objects).map { "\(token)-\($0)/L0/001" }))
    }

    static let rows: [Row] = [
        Row(name: "entries that fit make one run", limit: 10, sizes: [3, 3, 3], runs: [[1, 2, 3]]),
        Row(
            name: "an entry that reaches the limit exactly is taken", limit: 10, sizes: [4, 6, 1], runs: [[1, 2], [3]]),
        Row(
            name: "an entry that would pass the limit starts the next run", limit: 10, sizes: [4, 7, 2],
            runs: [[1], [2, 3]]),
        Row(
            name: "an entry over the limit alone is a run of its own, never split", limit: 5, sizes: [12, 1],
            runs: [[1], [2]]),
        Row(
            name: "an entry over the limit after others waits for the next run", limit: 5, sizes: [1, 12, 1],
            runs: [[1], [2], [3]]),
        Row(name: "a limit of one is one object a run", limit: 1, sizes: [1, 1, 1], runs: [[1], [2], [3]]),
        Row(name: "entries naming nothing ride along", limit: 2, sizes: [0, 2, 0, 1], runs: [[1, 2], [3, 4]]),
        Row(name: "order is kept across runs", limit: 3, sizes: [2, 2, 2, 2, 1], runs: [[1], [2], [3], [4, 5]]),
        Row(name: "nothing offered is no run", limit: 3, sizes: [], runs: []),
    ]

    @Test(arguments: rows)
    func entriesGatherIntoRunsByTheirObjects(row: Row) {
        var batcher = HookBatcher(limit: row.limit)
        var runs: [[Int64]] = []
        for (index, size) in row.sizes.enumerated() {
            // A follower takes its run as soon as the batcher wants no more, then offers the next entry.
            if !batcher.wantsMore { runs.append(batcher.take().map(\.token)) }
            batcher.offer(Self.entry(Int64(index + 1), objects: size))
        }
        while !batcher.isEmpty { runs.append(batcher.take().map(\.token)) }
        #expect(runs == row.runs)
    }

    @Test func aRunNeverPassesItsLimitUnlessOneEntryDoes() {
        // Sizes 0...7 in a fixed pseudo-random order, limit 6: every run's objects are ≤ 6, or it is one entry.
        var batcher = HookBatcher(limit: 6)
        var random = SplitMix64(seed: 42)
        var offered: [Int64] = []
        var taken: [Int64] = []
        for token in Int64(1)...500 {
            if !batcher.wantsMore {
                let run = batcher.take()
                let objects = run.reduce(0) { $0 + $1.objectCount }
                #expect(objects <= 6 || run.count == 1, "run \(run.map(\.token)) names \(objects) objects")
                taken += run.map(\.token)
            }
            batcher.offer(Self.entry(token, objects: Int.random(in: 0...7, using: &random)))
            offered.append(token)
        }
        while !batcher.isEmpty { taken += batcher.take().map(\.token) }
        #expect(taken == offered, "every entry once, in order")
    }

    @Test func anEntryHeldBackStartsTheNextRunAndResetForgetsIt() {
        var batcher = HookBatcher(limit: 5)
        batcher.offer(Self.entry(1, objects: 3))
        batcher.offer(Self.entry(2, objects: 3))
        #expect(!batcher.wantsMore && batcher.held?.token == 2 && batcher.objects == 3)
        #expect(batcher.take().map(\.token) == [1])
        #expect(batcher.entries.map(\.token) == [2] && batcher.objects == 3 && batcher.held == nil && batcher.wantsMore)
        batcher.offer(Self.entry(3, objects: 3))
        batcher.reset()
        #expect(batcher.isEmpty && batcher.held == nil && batcher.objects == 0 && batcher.wantsMore)
    }
}
