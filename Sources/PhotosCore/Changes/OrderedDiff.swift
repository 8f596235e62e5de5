import Foundation

/// The difference between two ordered lists of unique identifiers, in the form PhotoKit's
/// `PHFetchResultChangeDetails` and UIKit's batch updates use.
///
/// - `removedIndexes`: positions in the old list of what left.
/// - `insertedIndexes`: positions in the new list of what arrived.
/// - `changedIndexes`: positions in the new list of what stayed and changed.
/// - `moves`: `(from, to)` for what stayed but changed its order, `from` in the old list and `to`
///   in the new one. Items neither removed, inserted nor moved keep their relative order, and as
///   few items as possible move (the rest is a longest increasing subsequence).
///
/// Applied as a UIKit batch (remove, insert, move, each in its own coordinates), the old list
/// becomes the new one; ``apply(to:inserting:)`` does exactly that.
public struct OrderedDiff<Element: Hashable & Sendable>: Sendable {
    /// Positions in the old list of what left.
    public let removedIndexes: IndexSet
    /// Positions in the new list of what arrived.
    public let insertedIndexes: IndexSet
    /// Positions in the new list of what stayed and changed.
    public let changedIndexes: IndexSet
    /// `(from, to)`: from in the old list, to in the new one.
    public let moves: [(from: Int, to: Int)]

    /// The diff from `old` to `new`; `changed` names the elements whose content changed.
    ///
    /// Inlinable, so that callers in other modules get it specialized for their element type:
    /// unspecialized, the generic dictionary and tuple work costs several times as much.
    @inlinable
    public init(from old: [Element], to new: [Element], changed: Set<Element> = []) {
        var oldIndex: [Element: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, element) in old.enumerated() { oldIndex[element] = index }
        var newIndex: [Element: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (index, element) in new.enumerated() { newIndex[element] = index }

        var removed = IndexSet()
        for (index, element) in old.enumerated() where newIndex[element] == nil { removed.insert(index) }
        var inserted = IndexSet()
        var changedSet = IndexSet()
        // Old positions of the elements that stayed, in their new order.
        var stayed: [(old: Int, new: Int)] = []
        for (index, element) in new.enumerated() {
            if let was = oldIndex[element] {
                stayed.append((was, index))
                if changed.contains(element) { changedSet.insert(index) }
            } else {
                inserted.insert(index)
            }
        }
        let keep = Self.longestIncreasingSubsequence(stayed.map(\.old))
        var moves: [(from: Int, to: Int)] = []
        for (position, pair) in stayed.enumerated() where !keep.contains(position) {
            moves.append((pair.old, pair.new))
        }
        removedIndexes = removed
        insertedIndexes = inserted
        changedIndexes = changedSet
        self.moves = moves
    }

    @usableFromInline
    init(removedIndexes: IndexSet, insertedIndexes: IndexSet, changedIndexes: IndexSet, moves: [(from: Int, to: Int)]) {
        self.removedIndexes = removedIndexes
        self.insertedIndexes = insertedIndexes
        self.changedIndexes = changedIndexes
        self.moves = moves
    }

    /// Whether anything moved.
    public var hasMoves: Bool { !moves.isEmpty }

    /// Whether nothing was removed, inserted, changed or moved.
    public var isEmpty: Bool {
        removedIndexes.isEmpty && insertedIndexes.isEmpty && changedIndexes.isEmpty && moves.isEmpty
    }

    /// Applies the diff to `old` as a UIKit batch update does: removals and moved-away items leave
    /// (old positions), then inserted and moved items take their new positions, and the rest fill
    /// the gaps in order. `inserting` gives the element for each inserted position.
    @inlinable
    public func apply(to old: [Element], inserting: (Int) -> Element) -> [Element] {
        let movedFrom = Set(moves.map(\.from))
        var rest = old.enumerated().filter { !removedIndexes.contains($0.offset) && !movedFrom.contains($0.offset) }
            .map(\.element)[...]
        let count = old.count - removedIndexes.count + insertedIndexes.count
        var placed: [Int: Element] = [:]
        for index in insertedIndexes { placed[index] = inserting(index) }
        for move in moves { placed[move.to] = old[move.from] }
        var result: [Element] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            if let element = placed[index] {
                result.append(element)
            } else if let element = rest.popFirst() {
                result.append(element)
            }
        }
        return result
    }

    /// The positions (in `values`) of a longest strictly increasing subsequence.
    @usableFromInline
    static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // Index into values of the smallest tail of each length.
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.insert(cursor)
            cursor = previous[cursor]
        }
        return result
    }
}
