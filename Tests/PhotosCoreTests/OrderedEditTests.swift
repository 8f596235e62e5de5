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
