import Foundation

extension OrderedEdit {
    /// Applies this edit to `members` with its indexes counted in `seen`, the members an app sees
    /// in the order it sees them (a fetch result that leaves hidden assets out, or sorts them), and
    /// returns the members and what the app sees after it. Throws without changing anything when
    /// the indexes do not fit what the app sees (`changeNotSupported`, with the reason).
    ///
    /// An index never reaches a member the app does not see: such members are never removed,
    /// replaced or moved by an index, and keep their places among the members it sees.
    ///
    /// | edit | what it does to `members` |
    /// |---|---|
    /// | `removeAt`, `replace` | removes or replaces the seen members at the indexes, where they stand |
    /// | `insert` | puts each element right before the seen member that follows it, else at the end |
    /// | `move` | takes the seen members at the indexes out, then puts them back as `insert` does |
    /// | `add`, `remove` | as ``apply(to:describing:)``: by element, seen or not |
    ///
    /// ```swift
    /// // The app sees [b, c]; a is hidden.
    /// try OrderedEdit.removeAt([0]).apply(to: ["a", "b", "c"], seeing: ["b", "c"], describing: "album")
    /// // (members: ["a", "c"], seen: ["c"])
    /// ```
    ///
    /// Every element of `seen` must be one of `members`.
    public func apply(to members: [Element], seeing seen: [Element], describing name: String)
        throws(PHPhotosError) -> (members: [Element], seen: [Element])
    {
        let seenAfter = try apply(to: seen, describing: name)
        switch self {
        case .add, .remove:
            return (try apply(to: members, describing: name), seenAfter)
        case .removeAt(let indexes):
            let removed = Set(indexes.map { seen[$0] })
            return (members.filter { !removed.contains($0) }, seenAfter)
        case .replace(let indexes, let elements):
            let replacements = Dictionary(
                zip(indexes.map { seen[$0] }, elements), uniquingKeysWith: { first, _ in first })
            let result = members.map { replacements[$0] ?? $0 }
            if Set(result).count != result.count {
                throw PHPhotosError(.changeNotSupported, "replacing would put the same object twice into \(name)")
            }
            return (result, seenAfter)
        case .insert(let elements, _):
            let present = Set(members)
            if let duplicate = elements.first(where: present.contains) {
                throw PHPhotosError(.changeNotSupported, "\(duplicate) is already in \(name); move it instead")
            }
            return (Self.place(elements, in: members, following: seenAfter), seenAfter)
        case .move(let indexes, _):
            let moving = indexes.map { seen[$0] }
            let moved = Set(moving)
            return (Self.place(moving, in: members.filter { !moved.contains($0) }, following: seenAfter), seenAfter)
        }
    }

    /// `members` with `elements` put in, each right before the first element that follows it in
    /// `order` and is not one of `elements`, else at the end; `elements` keep their order.
    private static func place(_ elements: [Element], in members: [Element], following order: [Element]) -> [Element] {
        let placed = Set(elements)
        var successors: [Element: Element] = [:]
        var next: Element?
        for element in order.reversed() {
            if !placed.contains(element) {
                next = element
            } else if let next {
                successors[element] = next
            }
        }
        var result = members
        for element in elements {
            if let successor = successors[element], let index = result.firstIndex(of: successor) {
                result.insert(element, at: index)
            } else {
                result.append(element)
            }
        }
        return result
    }
}
