import Foundation

/// One edit of an ordered list of members (an album's assets, a folder's collections), with
/// `NSMutableArray`'s index rules, as PhotoKit's collection change requests define them.
public enum OrderedEdit<Element: Hashable & Sendable>: Sendable, Hashable {
    /// Appends the elements not already present.
    case add([Element])
    /// Inserts the elements so that they end up at `indexes` (one index per element, ascending).
    case insert([Element], at: IndexSet)
    /// Removes the elements wherever they are; absent ones are ignored.
    case remove([Element])
    /// Removes the elements at the indexes.
    case removeAt(IndexSet)
    /// Replaces the elements at the indexes, in ascending order, by the new ones.
    case replace(IndexSet, with: [Element])
    /// Removes the elements at the indexes, then inserts them, in order, at `toIndex` of what remains.
    case move(IndexSet, to: Int)

    /// Applies this edit to `members`, or throws without changing anything when the indexes do
    /// not fit (`changeNotSupported`, with the reason).
    public func apply(to members: [Element], describing name: String) throws(PHPhotosError) -> [Element] {
        var result = members
        switch self {
        case .add(let elements):
            var present = Set(result)
            for element in elements where present.insert(element).inserted {
                result.append(element)
            }
        case .insert(let elements, let indexes):
            try Self.requireCount(indexes, elements.count, name)
            let present = Set(result)
            if let duplicate = elements.first(where: present.contains) {
                throw PHPhotosError(.changeNotSupported, "\(duplicate) is already in \(name); move it instead")
            }
            if Set(elements).count != elements.count {
                throw PHPhotosError(.changeNotSupported, "the same object is inserted twice into \(name)")
            }
            for (element, index) in zip(elements, indexes) {
                guard index <= result.count else {
                    throw PHPhotosError(
                        .changeNotSupported,
                        "insertion index \(index) is beyond the end of \(name) (\(result.count) members at that point)")
                }
                result.insert(element, at: index)
            }
        case .remove(let elements):
            let removed = Set(elements)
            result.removeAll(where: removed.contains)
        case .removeAt(let indexes):
            try Self.requireInRange(indexes, result.count, name)
            for index in indexes.reversed() { result.remove(at: index) }
        case .replace(let indexes, let elements):
            try Self.requireCount(indexes, elements.count, name)
            try Self.requireInRange(indexes, result.count, name)
            for (index, element) in zip(indexes, elements) { result[index] = element }
            if Set(result).count != result.count {
                throw PHPhotosError(.changeNotSupported, "replacing would put the same object twice into \(name)")
            }
        case .move(let indexes, let toIndex):
            try Self.requireInRange(indexes, result.count, name)
            let moving = indexes.map { result[$0] }
            for index in indexes.reversed() { result.remove(at: index) }
            guard toIndex >= 0, toIndex <= result.count else {
                throw PHPhotosError(
                    .changeNotSupported,
                    "move destination \(toIndex) is beyond the end of \(name) (\(result.count) members after removal)")
            }
            result.insert(contentsOf: moving, at: toIndex)
        }
        return result
    }

    private static func requireCount(_ indexes: IndexSet, _ count: Int, _ name: String) throws(PHPhotosError) {
        guard indexes.count == count else {
            throw PHPhotosError(
                .changeNotSupported, "\(indexes.count) indexes given for \(count) objects in an edit of \(name)")
        }
    }

    private static func requireInRange(_ indexes: IndexSet, _ count: Int, _ name: String) throws(PHPhotosError) {
        if let bad = indexes.first(where: { $0 < 0 || $0 >= count }) {
            throw PHPhotosError(.changeNotSupported, "index \(bad) is out of range for \(name) (\(count) members)")
        }
    }
}
