import Foundation

extension OrderedDiff {
    /// The diff of a list to itself, in which some elements changed: found in one pass.
    @inlinable
    public init(unmoved list: [Element], changed: Set<Element>) {
        self.init(
            changedIndexes: changed.isEmpty ? IndexSet() : IndexSet(list.indices.filter { changed.contains(list[$0]) }))
    }

    /// The diff of a list to itself, in which the elements at `changedIndexes` changed.
    @inlinable
    public init(changedIndexes: IndexSet) {
        self.init(removedIndexes: IndexSet(), insertedIndexes: IndexSet(), changedIndexes: changedIndexes, moves: [])
    }

    /// The diff of a list in which only a few known elements were touched, in time proportional
    /// to the touched elements rather than to the list.
    ///
    /// `touchedBefore` lists the touched elements found in the old list, with their positions
    /// there, and `touchedAfter` those in the new list, with their positions there, both in
    /// position order. Every other element must be in both lists in the same relative order: a
    /// fetch result spliced after a commit is such a pair. The result is what
    /// ``init(from:to:changed:)`` gives for the two full lists, with as few moves.
    ///
    /// ```swift
    /// // old: [a, b, c, d]; c was edited and moved to the front: [c, a, b, d]
    /// let diff = OrderedDiff(oldCount: 4, touchedBefore: [("c", 2)], touchedAfter: [("c", 0)], changed: ["c"])
    /// // diff.moves == [(from: 2, to: 0)], diff.changedIndexes == [0]
    /// ```
    @inlinable
    public init(
        oldCount: Int, touchedBefore: [(element: Element, index: Int)], touchedAfter: [(element: Element, index: Int)],
        changed: Set<Element>
    ) {
        let untouched = oldCount - touchedBefore.count
        // The untouched elements form one sequence, the same in both lists. Cut it wherever a
        // touched element sits, before or after; each piece is then moved or kept as a whole (an
        // increasing subsequence that keeps part of a piece can keep all of it).
        var cuts = Set([0, untouched])
        for (offset, touched) in touchedBefore.enumerated() { cuts.insert(touched.index - offset) }
        for (offset, touched) in touchedAfter.enumerated() { cuts.insert(touched.index - offset) }
        let sortedCuts = cuts.sorted()

        let before = SplicePiece.sequence(touched: touchedBefore, cuts: sortedCuts)
        let after = SplicePiece.sequence(touched: touchedAfter, cuts: sortedCuts)
        var oldOrder: [SplicePiece<Element>.Key: Int] = [:]
        oldOrder.reserveCapacity(before.count)
        for (index, piece) in before.enumerated() { oldOrder[piece.key] = index }
        let arrived = Set(touchedAfter.map(\.element))

        var removed = IndexSet()
        for touched in touchedBefore where !arrived.contains(touched.element) { removed.insert(touched.index) }
        var inserted = IndexSet()
        var changedIndexes = IndexSet()
        // The pieces in both lists, in their new order, with their place in the old sequence.
        var stayed: [(before: SplicePiece<Element>, after: SplicePiece<Element>, oldOrder: Int)] = []
        for piece in after {
            guard let was = oldOrder[piece.key] else {
                inserted.insert(piece.start)
                continue
            }
            stayed.append((before[was], piece, was))
            if case .element(let element) = piece.key, changed.contains(element) { changedIndexes.insert(piece.start) }
        }
        let keep = SplicePiece<Element>.heaviestIncreasingSubsequence(
            stayed.map(\.oldOrder), weights: stayed.map(\.after.length))
        var moves: [(from: Int, to: Int)] = []
        for (position, pair) in stayed.enumerated() where !keep.contains(position) {
            for offset in 0..<pair.after.length {
                moves.append((pair.before.start + offset, pair.after.start + offset))
            }
        }
        self.init(removedIndexes: removed, insertedIndexes: inserted, changedIndexes: changedIndexes, moves: moves)
    }
}

/// One piece of a spliced list: a touched element, or a run of untouched ones (see
/// ``OrderedDiff/init(oldCount:touchedBefore:touchedAfter:changed:)``).
@usableFromInline
struct SplicePiece<Element: Hashable>: Sendable where Element: Sendable {
    @usableFromInline
    enum Key: Hashable, Sendable {
        case element(Element)
        /// Untouched elements from this position of the untouched sequence on.
        case run(Int)
    }

    @usableFromInline let key: Key
    /// The piece's first position in its list.
    @usableFromInline let start: Int
    @usableFromInline let length: Int

    @usableFromInline
    init(key: Key, start: Int, length: Int) {
        self.key = key
        self.start = start
        self.length = length
    }

    /// A list as pieces: at each cut, the touched elements that sit there, then the run of
    /// untouched elements up to the next cut.
    @inlinable
    static func sequence(touched: [(element: Element, index: Int)], cuts: [Int]) -> [SplicePiece] {
        var pieces: [SplicePiece] = []
        pieces.reserveCapacity(touched.count + cuts.count)
        var next = 0
        var position = 0
        for (cutIndex, cut) in cuts.enumerated() {
            while next < touched.count && touched[next].index - next == cut {
                pieces.append(SplicePiece(key: .element(touched[next].element), start: touched[next].index, length: 1))
                next += 1
                position += 1
            }
            let end = cutIndex + 1 < cuts.count ? cuts[cutIndex + 1] : cut
            if end > cut {
                pieces.append(SplicePiece(key: .run(cut), start: position, length: end - cut))
                position += end - cut
            }
        }
        return pieces
    }

    /// The positions (in `values`) of a strictly increasing subsequence of greatest total weight.
    /// `values` are distinct integers in `0..<values.count`-ish range (old-sequence places).
    @inlinable
    static func heaviestIncreasingSubsequence(_ values: [Int], weights: [Int]) -> Set<Int> {
        guard !values.isEmpty else { return [] }
        // A Fenwick tree over values, holding the best (weight, position) of a subsequence that
        // ends at a value at most the query's.
        let size = (values.max() ?? 0) + 2
        var tree = [(weight: Int, position: Int)](repeating: (0, -1), count: size + 1)
        var previous = [Int](repeating: -1, count: values.count)
        var best = (weight: 0, position: -1)
        for (position, value) in values.enumerated() {
            var found = (weight: 0, position: -1)
            var index = value  // Values strictly below `value`: tree slots 1...value.
            while index > 0 {
                if tree[index].weight > found.weight { found = tree[index] }
                index -= index & -index
            }
            let total = found.weight + weights[position]
            previous[position] = found.position
            if total > best.weight { best = (total, position) }
            index = value + 1
            while index <= size {
                if total > tree[index].weight { tree[index] = (total, position) }
                index += index & -index
            }
        }
        var result = Set<Int>()
        var cursor = best.position
        while cursor >= 0 {
            result.insert(cursor)
            cursor = previous[cursor]
        }
        return result
    }
}
