import Testing

@testable import PhotosCore

/// `[-]key`, as `photos assets --sort` and the API's `sort` take it: one parser for both. A leading
/// `-` is the direction, and only one; whatever follows is the key, checked later against the class.
@Suite struct SortKeyParsingTests {
    @Test(arguments: [
        ("creationDate", "creationDate", true),
        ("-creationDate", "creationDate", false),
        ("isFavorite", "isFavorite", true),
        ("-title", "title", false),
        // One dash is the direction; a second is part of the key (which no class has).
        ("--creationDate", "-creationDate", false),
        ("-", "", false),
        ("", "", true),
        // Only a leading dash counts.
        ("creation-Date", "creation-Date", true),
        (" -creationDate", " -creationDate", true),
    ])
    func aLeadingDashSortsDescending(text: String, key: String, ascending: Bool) {
        let parsed = SortKey.parse(text)
        #expect(parsed.key == key)
        #expect(parsed.ascending == ascending)
    }

    @Test func theParsedKeyIsCheckedAgainstTheClassLikeAnyOther() throws {
        let parsed = SortKey.parse("-isFavorite")
        let key = try PredicateSchema.asset.sortKey(parsed.key, ascending: parsed.ascending)
        #expect(key == SortKey(key: "favorite", ascending: false))
        let unknown = SortKey.parse("-creationDat")
        #expect(throws: PredicateFormatError.self) {
            _ = try PredicateSchema.asset.sortKey(unknown.key, ascending: unknown.ascending)
        }
    }
}
