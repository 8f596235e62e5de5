import Foundation
import PhotosCore
import Testing

/// Property tests: random edits of random lists; the diff applied to the old list gives the new.
@Suite struct OrderedDiffTests {
    /// A small deterministic generator, so a failure can be replayed from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: 0..<300)
    func applyingTheDiffGivesTheNewList(seed: Int) {
        var random = Generator(state: UInt64(seed))
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
}
