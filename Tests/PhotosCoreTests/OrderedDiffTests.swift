import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

/// Property tests: random edits of random lists; the diff applied to the old list gives the new.
@Suite struct OrderedDiffTests {
    @Test(arguments: 0..<300)
    func applyingTheDiffGivesTheNewList(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let count = Int.random(in: 0...40, using: &random)
        let old = Array(0..<count).shuffled(using: &random)
        var new = old
        var next = 1000
        // Random deletions, insertions and reorders, as a library's commits make them.
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &random))
            case 1:
                new.insert(next, at: Int.random(in: 0...new.count, using: &random))
                next += 1
            case 2 where new.count > 1:
                let element = new.remove(at: Int.random(in: 0..<new.count, using: &random))
                new.insert(element, at: Int.random(in: 0...new.count, using: &random))
            default: break
            }
        }
        let changed = Set(new.filter { _ in Bool.random(using: &random) })
        let diff = OrderedDiff(from: old, to: new, changed: changed)
        #expect(diff.apply(to: old) { new[$0] } == new, "seed \(seed)")
        // Changed indexes point at the changed objects that stayed, in the new list.
        let expectedChanged = IndexSet(new.indices.filter { changed.contains(new[$0]) && old.contains(new[$0]) })
        #expect(diff.changedIndexes == expectedChanged)
        #expect(diff.removedIndexes.allSatisfy { !new.contains(old[$0]) })
        #expect(diff.insertedIndexes.allSatisfy { !old.contains(new[$0]) })
        #expect(diff.moves.allSatisfy { old[$0.from] == new[$0.to] })
    }

    @Test func movesAreMinimal() {
        let diff = OrderedDiff(from: ["a", "b", "c", "d"], to: ["d", "a", "b", "c"])
        #expect(diff.moves.map { [$0.from, $0.to] } == [[3, 0]])
        #expect(diff.removedIndexes.isEmpty && diff.insertedIndexes.isEmpty)
        #expect(OrderedDiff(from: [1, 2, 3], to: [1, 2, 3]).isEmpty)
        let swap = OrderedDiff(from: [1, 2], to: [2, 1])
        #expect(swap.moves.count == 1)
    }

    /// The splice form (only touched elements given) agrees with the full diff: the same
    /// removals, insertions and changes, and as few moves.
    @Test(arguments: 0..<300)
    func aSplicedDiffMatchesTheFullDiff(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &+ 7_777)
        let count = Int.random(in: 0...60, using: &random)
        let old = Array(0..<count).shuffled(using: &random)
        var new = old
        var touched = Set<Int>()
        var next = 1000
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !new.isEmpty: touched.insert(new.remove(at: Int.random(in: 0..<new.count, using: &random)))
            case 1:
                new.insert(next, at: Int.random(in: 0...new.count, using: &random))
                touched.insert(next)
                next += 1
            case 2 where new.count > 1:
                let element = new.remove(at: Int.random(in: 0..<new.count, using: &random))
                new.insert(element, at: Int.random(in: 0...new.count, using: &random))
                touched.insert(element)
            // Edited in place.
            case 3 where !new.isEmpty: touched.insert(new[Int.random(in: 0..<new.count, using: &random)])
            default: break
            }
        }
        let changed = Set(touched.filter { _ in Bool.random(using: &random) })
        let before = old.enumerated().filter { touched.contains($0.element) }.map {
            (element: $0.element, index: $0.offset)
        }
        let after = new.enumerated().filter { touched.contains($0.element) }.map {
            (element: $0.element, index: $0.offset)
        }
        let spliced = OrderedDiff(oldCount: old.count, touchedBefore: before, touchedAfter: after, changed: changed)
        let full = OrderedDiff(from: old, to: new, changed: changed)
        #expect(spliced.apply(to: old) { new[$0] } == new, "seed \(seed)")
        #expect(spliced.removedIndexes == full.removedIndexes)
        #expect(spliced.insertedIndexes == full.insertedIndexes)
        #expect(spliced.changedIndexes == full.changedIndexes)
        #expect(spliced.moves.count == full.moves.count, "seed \(seed): as few moves as the full diff")
        #expect(spliced.moves.allSatisfy { old[$0.from] == new[$0.to] })
    }

    @Test func aSplicedDiffMovesTheUntouchedRunWhenThatIsCheaper() {
        // [a, b, c, d] -> [d, a, b, c] with a, b, c touched: moving d alone is one move.
        let spliced = OrderedDiff(
            oldCount: 4, touchedBefore: [("a", 0), ("b", 1), ("c", 2)], touchedAfter: [("a", 1), ("b", 2), ("c", 3)],
            changed: [])
        #expect(spliced.moves.map { [$0.from, $0.to] } == [[3, 0]])
        let edited = OrderedDiff(oldCount: 4, touchedBefore: [("c", 2)], touchedAfter: [("c", 0)], changed: ["c"])
        #expect(edited.moves.map { [$0.from, $0.to] } == [[2, 0]])
        #expect(edited.changedIndexes == IndexSet([0]))
    }
}
