import PhotosCore
import Testing

/// The coalescing rules as a table: a sequence of changes, and what is pending after it.
@Suite struct ChangeCoalescerTests {
    enum Step: Sendable, CustomTestStringConvertible {
        case change(PathChange, String)
        case move(String, String)
        var testDescription: String {
            switch self {
            case .change(let change, let path): "\(change) \(path)"
            case .move(let from, let to): "move \(from)→\(to)"
            }
        }
    }

    static let rules: [([Step], [String: PathChange])] = [
        ([.change(.created, "a")], ["a": .created]),
        ([.change(.created, "a"), .change(.updated, "a")], ["a": .created]),
        ([.change(.created, "a"), .change(.deleted, "a")], [:]),
        ([.change(.updated, "a"), .change(.updated, "a")], ["a": .updated]),
        ([.change(.updated, "a"), .change(.deleted, "a")], ["a": .deleted]),
        ([.change(.deleted, "a"), .change(.created, "a")], ["a": .updated]),
        ([.move("a", "b")], ["b": .moved(from: "a", contentChanged: false)]),
        ([.move("a", "b"), .move("b", "c")], ["c": .moved(from: "a", contentChanged: false)]),
        ([.move("a", "b"), .move("b", "a")], [:]),
        ([.move("a", "b"), .change(.updated, "b")], ["b": .moved(from: "a", contentChanged: true)]),
        ([.move("a", "b"), .change(.deleted, "b")], ["a": .deleted]),
        ([.change(.created, "tmp"), .move("tmp", "final")], ["final": .created]),
        // The atomic save: write a temporary file, rename it over the original.
        ([.change(.created, ".x.tmp"), .change(.updated, ".x.tmp"), .move(".x.tmp", "x.jpg")], ["x.jpg": .created]),
        ([.change(.updated, "a"), .move("a", "b")], ["b": .moved(from: "a", contentChanged: true)]),
        ([.change(.deleted, "a"), .move("a", "b")], [:]),
        ([.change(.updated, "b"), .move("a", "b")], ["b": .moved(from: "a", contentChanged: false)]),
    ]

    @Test(arguments: 0..<rules.count)
    func changesFoldPerPath(index: Int) {
        let (steps, expected) = Self.rules[index]
        var coalescer = ChangeCoalescer()
        for step in steps {
            switch step {
            case .change(let change, let path): coalescer.record(change, at: path)
            case .move(let from, let to): coalescer.move(from: from, to: to)
            }
        }
        #expect(coalescer.pending == expected)
    }

    @Test func drainNamesEachChangedPathAndWhereMovesCameFromAndEmpties() {
        var coalescer = ChangeCoalescer()
        coalescer.record(.updated, at: "b")
        coalescer.record(.created, at: "a")
        coalescer.record(.updated, at: "b")
        coalescer.move(from: "c", to: "d")
        coalescer.move(from: "e", to: "f")
        coalescer.move(from: "f", to: "e")
        #expect(coalescer.drain() == ["a", "b", "c", "d"])
        #expect(coalescer.pending.isEmpty && coalescer.drain().isEmpty)
    }
}
