import Foundation
import PhotosCore
import Testing

/// NSMutableArray's index rules, as PhotoKit's collection change requests use them.
@Suite struct OrderedEditTests {
    static let start = ["a", "b", "c", "d"]

    static let accepted: [(OrderedEdit<String>, [String])] = [
        (.add(["e", "a", "f"]), ["a", "b", "c", "d", "e", "f"]),
        (.insert(["x", "y"], at: IndexSet([0, 2])), ["x", "a", "y", "b", "c", "d"]),
        (.insert(["x"], at: IndexSet([4])), ["a", "b", "c", "d", "x"]),
        (.insert(["x", "y"], at: IndexSet([4, 5])), ["a", "b", "c", "d", "x", "y"]),
        (.remove(["b", "z"]), ["a", "c", "d"]),
        (.removeAt(IndexSet([0, 3])), ["b", "c"]),
        (.replace(IndexSet([1, 2]), with: ["x", "y"]), ["a", "x", "y", "d"]),
        (.move(IndexSet([0]), to: 3), ["b", "c", "d", "a"]),
        (.move(IndexSet([0, 2]), to: 1), ["b", "a", "c", "d"]),
        (.move(IndexSet([3]), to: 0), ["d", "a", "b", "c"]),
    ]

    @Test(arguments: 0..<accepted.count)
    func editsApplyLikeNSMutableArray(index: Int) throws {
        let (edit, expected) = Self.accepted[index]
        #expect(try edit.apply(to: Self.start, describing: "test") == expected)
    }

    static let rejected: [(OrderedEdit<String>, String)] = [
        (.insert(["x"], at: IndexSet([0, 1])), "2 indexes given for 1 objects"),
        (.insert(["x"], at: IndexSet([5])), "insertion index 5 is beyond the end"),
        (.insert(["a"], at: IndexSet([0])), "a is already in test"),
        (.insert(["x", "x"], at: IndexSet([0, 1])), "inserted twice"),
        (.removeAt(IndexSet([4])), "index 4 is out of range"),
        (.replace(IndexSet([1]), with: ["x", "y"]), "1 indexes given for 2 objects"),
        (.replace(IndexSet([9]), with: ["x"]), "index 9 is out of range"),
        (.replace(IndexSet([0]), with: ["b"]), "the same object twice"),
        (.move(IndexSet([0]), to: 4), "move destination 4 is beyond the end"),
        (.move(IndexSet([7]), to: 0), "index 7 is out of range"),
    ]

    @Test(arguments: 0..<rejected.count)
    func badIndexesAreChangeNotSupported(index: Int) {
        let (edit, message) = Self.rejected[index]
        do {
            _ = try edit.apply(to: Self.start, describing: "test")
            Issue.record("\(edit) should be rejected")
        } catch {
            #expect(error.code == .changeNotSupported)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// `h` and `i` are members the app does not see (hidden, a burst frame): it sees a, b, c.
    static let members = ["h", "a", "b", "i", "c"]
    static let seen = ["a", "b", "c"]

    static let countedInWhatIsSeen: [(OrderedEdit<String>, members: [String], seen: [String])] = [
        (.removeAt(IndexSet([0])), ["h", "b", "i", "c"], ["b", "c"]),
        (.removeAt(IndexSet([1, 2])), ["h", "a", "i"], ["a"]),
        (.replace(IndexSet([0]), with: ["x"]), ["h", "x", "b", "i", "c"], ["x", "b", "c"]),
        (.insert(["x"], at: IndexSet([0])), ["h", "x", "a", "b", "i", "c"], ["x", "a", "b", "c"]),
        (.insert(["x"], at: IndexSet([2])), ["h", "a", "b", "i", "x", "c"], ["a", "b", "x", "c"]),
        (.insert(["x", "y"], at: IndexSet([3, 4])), ["h", "a", "b", "i", "c", "x", "y"], ["a", "b", "c", "x", "y"]),
        (.move(IndexSet([0]), to: 2), ["h", "b", "i", "c", "a"], ["b", "c", "a"]),
        (.move(IndexSet([2]), to: 0), ["h", "c", "a", "b", "i"], ["c", "a", "b"]),
        (.move(IndexSet([0, 1]), to: 1), ["h", "i", "c", "a", "b"], ["c", "a", "b"]),
        (.remove(["h"]), ["a", "b", "i", "c"], ["a", "b", "c"]),
        (.add(["i", "x"]), ["h", "a", "b", "i", "c", "x"], ["a", "b", "c", "i", "x"]),
    ]

    @Test(arguments: 0..<countedInWhatIsSeen.count)
    func indexesCountOnlyWhatTheAppSeesAndUnseenMembersKeepTheirPlaces(index: Int) throws {
        let (edit, members, seen) = Self.countedInWhatIsSeen[index]
        let result = try edit.apply(to: Self.members, seeing: Self.seen, describing: "test")
        #expect(result.members == members)
        #expect(result.seen == seen)
    }

    static let rejectedInWhatIsSeen: [(OrderedEdit<String>, String)] = [
        (.removeAt(IndexSet([3])), "index 3 is out of range for test (3 members)"),
        (.insert(["h"], at: IndexSet([0])), "h is already in test"),
        (.replace(IndexSet([0]), with: ["i"]), "the same object twice"),
        (.move(IndexSet([0]), to: 3), "move destination 3 is beyond the end"),
    ]

    @Test(arguments: 0..<rejectedInWhatIsSeen.count)
    func anIndexBeyondWhatTheAppSeesOrAnUnseenMemberTwiceIsRejected(index: Int) {
        let (edit, message) = Self.rejectedInWhatIsSeen[index]
        do {
            _ = try edit.apply(to: Self.members, seeing: Self.seen, describing: "test")
            Issue.record("\(edit) should be rejected")
        } catch {
            #expect(error.code == .changeNotSupported)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func photosErrorCodesMatchPhotoKit() {
        #expect(PHPhotosError.Code.persistentChangeTokenExpired.rawValue == 3105)
        #expect(PHPhotosError.Code.changeNotSupported.rawValue == 3300)
        #expect(PHPhotosError.Code.identifierNotFound.rawValue == 3201)
        #expect(PHPhotosError.Code.libraryVolumeOffline.rawValue == 3114)
        do {
            throw PHPhotosError(.persistentChangeTokenExpired, "old")
        } catch PHPhotosError.persistentChangeTokenExpired {
            // matched by code, as in PhotoKit
        } catch {
            Issue.record("catch by code did not match")
        }
    }

    @Test func photoKitRawValues() {
        #expect(PHAssetMediaSubtype.photoLive.rawValue == 8)
        #expect(PHAssetMediaSubtype.videoHighFrameRate.rawValue == 1 << 17)
        #expect(PHAssetCollectionSubtype.smartAlbumUserLibrary.rawValue == 209)
        #expect(PHAssetCollectionSubtype.any.rawValue == Int.max)
        #expect(PHCollectionListSubtype.regularFolder.rawValue == 100)
        #expect(PHAssetResourceType.pairedVideo.rawValue == 9)
        #expect(PHAssetMediaSubtype([.photoLive, .photoHDR]).names == ["photoHDR", "photoLive"])
    }

    /// The names JSON uses are the Swift case names, written out (no reflection at run time).
    @Test func everyCaseIsNamedAsSwiftNamesIt() {
        func check<T: CaseIterable>(_ type: T.Type, _ name: (T) -> String) {
            for value in T.allCases { #expect(name(value) == String(describing: value), "\(T.self).\(value)") }
        }
        check(PHAssetCollectionType.self, \.name)
        check(PHAssetCollectionSubtype.self, \.name)
        check(PHCollectionListType.self, \.name)
        check(PHCollectionListSubtype.self, \.name)
        check(PHAssetResourceType.self, \.name)
        for type in PHAssetResourceType.allCases { #expect(PHAssetResourceType(name: type.name) == type) }
    }
}
