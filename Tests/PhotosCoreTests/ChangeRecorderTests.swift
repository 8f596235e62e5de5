import PhotosCore
import Testing

/// The folding rules of ChangeRecorder, as a table: a sequence of events on one object, and what
/// the transaction's change-log entry says about it.
@Suite struct ChangeRecorderTests {
    enum Event: Sendable, CustomTestStringConvertible {
        case insert, update([String]), delete
        var testDescription: String {
            switch self {
            case .insert: "insert"
            case .update(let properties): "update(\(properties.joined(separator: ",")))"
            case .delete: "delete"
            }
        }
    }

    static let rules: [([Event], ObjectChanges)] = [
        ([.insert], ObjectChanges(inserted: ["x"])),
        ([.insert, .update(["isFavorite"])], ObjectChanges(inserted: ["x"])),
        ([.insert, .delete], ObjectChanges()),
        ([.insert, .update(["title"]), .delete], ObjectChanges()),
        ([.update(["isFavorite"])], ObjectChanges(updated: ["x"], changedProperties: ["x": ["isFavorite"]])),
        (
            [.update(["isHidden"]), .update(["isFavorite", "isHidden"])],
            ObjectChanges(updated: ["x"], changedProperties: ["x": ["isFavorite", "isHidden"]])
        ),
        ([.update(["isFavorite"]), .delete], ObjectChanges(deleted: ["x"])),
        ([.delete], ObjectChanges(deleted: ["x"])),
        ([.delete, .update(["title"])], ObjectChanges(deleted: ["x"])),
    ]

    @Test(arguments: rules)
    func eventsFoldIntoOneChange(events: [Event], expected: ObjectChanges) {
        var recorder = ChangeRecorder()
        for event in events {
            switch event {
            case .insert: recorder.inserted(.asset, "x")
            case .update(let properties): recorder.updated(.asset, "x", properties: properties)
            case .delete: recorder.deleted(.asset, "x")
            }
        }
        #expect(recorder.changes(for: .asset) == expected)
        #expect(recorder.isEmpty == expected.isEmpty)
    }

    @Test func typesAreKeptApartAndOrderIsFirstTouch() {
        var recorder = ChangeRecorder()
        recorder.updated(.asset, "b", properties: ["isHidden"])
        recorder.inserted(.asset, "a")
        recorder.inserted(.assetCollection, "a")
        recorder.deleted(.collectionList, "f")
        #expect(recorder.changes(for: .asset).updated == ["b"])
        #expect(recorder.changes(for: .asset).inserted == ["a"])
        #expect(recorder.changes(for: .assetCollection) == ObjectChanges(inserted: ["a"]))
        #expect(recorder.changes(for: .collectionList) == ObjectChanges(deleted: ["f"]))
    }
}
