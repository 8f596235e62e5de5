import Foundation
import Testing

@testable import PhotosCore

/// Validation against each class's keys, the SQL the compiler emits, sort keys, and the SQL functions' logic.
@Suite("Predicate SQL")
struct PredicateSQLTests {
    /// A format compiled for a class: the exact SQL (columns mapped to themselves) and bound arguments.
    struct Compiled: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [PredicateValue]
        let schema: PredicateSchema
        let sql: String
        let bound: [SQLValue]
        var testDescription: String { "\(schema.className): \(format)" }

        init(
            _ format: String,
            _ arguments: [PredicateValue] = [],
            for schema: PredicateSchema = .asset,
            sql: String,
            _ bound: [SQLValue] = []
        ) {
            self.format = format
            self.arguments = arguments
            self.schema = schema
            self.sql = sql
            self.bound = bound
        }
    }

    static let june2024 = Date(timeIntervalSince1970: 1_717_200_000)
    static let july2024 = Date(timeIntervalSince1970: 1_719_800_000)

    static let compiled: [Compiled] = [
        // Comparisons and operand order.
        Compiled("pixelWidth > 100", sql: "pixelWidth > ?", [.int(100)]),
        Compiled("pixelWidth >= 1000.5", sql: "pixelWidth >= ?", [.double(1000.5)]),
        Compiled("100 < pixelHeight", sql: "pixelHeight > ?", [.int(100)]),
        Compiled("%K > %d", [.string("pixelHeight"), .int(5)], sql: "pixelHeight > ?", [.int(5)]),
        Compiled("duration <= 2", sql: "duration <= ?", [.int(2)]),
        Compiled(
            "%@ < creationDate", [.date(june2024)],
            sql: "(creationDate IS NOT NULL AND creationDate > ?)", [.double(1_717_200_000)]
        ),
        Compiled(
            "creationDate < modificationDate",
            sql: "(creationDate IS NOT NULL AND modificationDate IS NOT NULL AND creationDate < modificationDate)"
        ),
        // nil uses IS; equality on nullable columns uses IS so NOT stays two-valued.
        Compiled("creationDate == nil", sql: "creationDate IS NULL"),
        Compiled("burstIdentifier != nil", sql: "burstIdentifier IS NOT NULL"),
        Compiled("nil == burstIdentifier", sql: "burstIdentifier IS NULL"),
        Compiled("burstIdentifier == %@", [.string("B1")], sql: "burstIdentifier IS ?", [.text("B1")]),
        Compiled("burstIdentifier != 'B1'", sql: "burstIdentifier IS NOT ?", [.text("B1")]),
        Compiled("NOT (burstIdentifier == 'B1')", sql: "NOT (burstIdentifier IS ?)", [.text("B1")]),
        Compiled("localIdentifier == 'X/L0/001'", sql: "localIdentifier = ?", [.text("X/L0/001")]),
        Compiled("localIdentifier <> 'X/L0/001'", sql: "localIdentifier <> ?", [.text("X/L0/001")]),
        Compiled(
            "adjustmentFormatIdentifier == 'com.example.filter'",
            sql: "adjustmentFormatIdentifier IS ?", [.text("com.example.filter")]
        ),
        Compiled(
            "modificationDate >= %@", [.date(july2024)],
            sql: "(modificationDate IS NOT NULL AND modificationDate >= ?)", [.double(1_719_800_000)]
        ),
        // SELF compares localIdentifier with objects or strings.
        Compiled("SELF == %@", [.object(localIdentifier: "A/L0/001")], sql: "localIdentifier = ?", [.text("A/L0/001")]),
        Compiled("SELF != %@", [.string("A/L0/001")], sql: "localIdentifier <> ?", [.text("A/L0/001")]),
        Compiled(
            "SELF IN %@", [.array([.object(localIdentifier: "a"), .string("b")])],
            sql: "localIdentifier IN (?, ?)", [.text("a"), .text("b")]
        ),
        // Booleans are INTEGER 0/1; aliases resolve to the canonical column.
        Compiled("favorite == YES", sql: "favorite = ?", [.int(1)]),
        Compiled("isFavorite == 0", sql: "favorite = ?", [.int(0)]),
        Compiled("isHidden = TRUE", sql: "hidden = ?", [.int(1)]),
        Compiled("NO != hidden", sql: "hidden <> ?", [.int(0)]),
        // Bitmasks.
        Compiled("(mediaSubtypes & %d) != 0", [.int(4)], sql: "(mediaSubtypes & ?) <> ?", [.int(4), .int(0)]),
        Compiled("mediaSubtypes & %d == %d", [.int(8), .int(8)], sql: "(mediaSubtypes & ?) = ?", [.int(8), .int(8)]),
        Compiled(
            "(mediaSubtypes | 1) & %d != 0", [.int(3)],
            sql: "((mediaSubtypes | ?) & ?) <> ?", [.int(1), .int(3), .int(0)]
        ),
        Compiled("mediaType & 1 IN {1}", sql: "(mediaType & ?) IN (?)", [.int(1), .int(1)]),
        Compiled(
            "(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0", [.int(1), .int(131_072)],
            sql: "((mediaSubtypes & ?) <> ? OR (mediaSubtypes & ?) <> ?)", [.int(1), .int(0), .int(131_072), .int(0)]
        ),
        // IN and BETWEEN.
        Compiled("mediaType IN {1, 2}", sql: "mediaType IN (?, ?)", [.int(1), .int(2)]),
        Compiled("mediaType IN {}", sql: "0"),
        Compiled(
            "burstIdentifier IN %@", [.array([.string("a")])],
            sql: "(burstIdentifier IS NOT NULL AND burstIdentifier IN (?))", [.text("a")]),
        Compiled(
            "burstIdentifier IN {nil, 'b'}", sql: "(burstIdentifier IS NULL OR burstIdentifier IN (?))", [.text("b")]),
        Compiled("burstIdentifier IN {nil}", sql: "burstIdentifier IS NULL"),
        Compiled("duration BETWEEN {1, 10.5}", sql: "duration BETWEEN ? AND ?", [.int(1), .double(10.5)]),
        Compiled(
            "creationDate BETWEEN %@", [.array([.date(june2024), .date(july2024)])],
            sql: "(creationDate IS NOT NULL AND creationDate BETWEEN ? AND ?)",
            [.double(1_717_200_000), .double(1_719_800_000)]
        ),
        // String operators: folding in Swift for the argument, photos_fold for the column.
        Compiled(
            "localizedTitle BEGINSWITH 'Trip'", for: .assetCollection,
            sql: "(localizedTitle IS NOT NULL AND substr(localizedTitle, 1, ?) = ?)", [.int(4), .text("Trip")]
        ),
        Compiled(
            "title BEGINSWITH[c] 'TRIP'", for: .collectionList,
            sql: "(localizedTitle IS NOT NULL AND substr(photos_fold(localizedTitle, 1), 1, ?) = ?)",
            [.int(4), .text("trip")]
        ),
        Compiled(
            "title CONTAINS[cd] 'Crème'", for: .collection,
            sql: "(localizedTitle IS NOT NULL AND instr(photos_fold(localizedTitle, 3), ?) > 0)", [.text("creme")]
        ),
        Compiled(
            "title ENDSWITH[d] 'ré'", for: .assetCollection,
            sql: "(localizedTitle IS NOT NULL AND substr(photos_fold(localizedTitle, 2), ?) = ?)",
            [.int(-2), .text("re")]
        ),
        Compiled("title ENDSWITH ''", for: .assetCollection, sql: "(localizedTitle IS NOT NULL AND 1)"),
        Compiled(
            "title LIKE[c] 'IMG_*'", for: .assetCollection,
            sql: "(localizedTitle IS NOT NULL AND photos_like(localizedTitle, ?, 1))", [.text("IMG_*")]
        ),
        Compiled(
            "localIdentifier LIKE '*/L0/001'",
            sql: "photos_like(localIdentifier, ?, 0)", [.text("*/L0/001")]
        ),
        Compiled(
            "title ==[c] 'Trip'", for: .assetCollection,
            sql: "photos_fold(localizedTitle, 1) IS ?", [.text("trip")]
        ),
        Compiled(
            "title IN[c] {'A', 'B'}", for: .assetCollection,
            sql: "(localizedTitle IS NOT NULL AND photos_fold(localizedTitle, 1) IN (?, ?))", [.text("a"), .text("b")]
        ),
        Compiled(
            "localizedTitle < 'M'", for: .collectionList,
            sql: "(localizedTitle IS NOT NULL AND localizedTitle < ?)", [.text("M")]
        ),
        // Values are bound, never pasted.
        Compiled(
            "title == %@", [.string("x'); DROP TABLE asset; --")], for: .assetCollection,
            sql: "localizedTitle IS ?", [.text("x'); DROP TABLE asset; --")]
        ),
        // Compound predicates.
        Compiled(
            "favorite == YES AND (pixelWidth > 100 OR pixelHeight > 100)",
            sql: "(favorite = ? AND (pixelWidth > ? OR pixelHeight > ?))", [.int(1), .int(100), .int(100)]
        ),
        Compiled("NOT favorite == YES", sql: "NOT (favorite = ?)", [.int(1)]),
        Compiled("TRUEPREDICATE", sql: "1"),
        Compiled("FALSEPREDICATE OR favorite == NO", sql: "(0 OR favorite = ?)", [.int(0)]),
        Compiled("estimatedAssetCount > 0", for: .assetCollection, sql: "estimatedAssetCount > ?", [.int(0)]),
        Compiled(
            "startDate >= %@ AND endDate <= %@", [.date(june2024), .date(july2024)], for: .collectionList,
            sql: "((startDate IS NOT NULL AND startDate >= ?) AND (endDate IS NOT NULL AND endDate <= ?))",
            [.double(1_717_200_000), .double(1_719_800_000)]
        ),
    ]

    @Test("formats compile to the expected SQL and bound values", arguments: compiled)
    func formatCompiles(_ example: Compiled) throws {
        let predicate = try PhotoKitPredicate(format: example.format, arguments: example.arguments)
        try predicate.validate(against: example.schema)
        let fragment = try predicate.sql(for: example.schema) { $0 }
        #expect(fragment.sql == example.sql)
        #expect(fragment.arguments == example.bound)
        #expect(fragment.sql.filter { $0 == "?" }.count == fragment.arguments.count)
    }

    @Test func aLongListIsBoundAsOneJSONArray() throws {
        // Quotes and backslashes survive the JSON.
        let names = (0..<PredicateCompiler.longestPlaceholderList).map { "id \"\($0)\" \\" }
        let short = names.map { PredicateValue.string($0) }
        let fragment = try PhotoKitPredicate(format: "localIdentifier IN %@", arguments: [.array(short)])
            .sql(for: .asset) { $0 }
        #expect(fragment.arguments.count == short.count, "up to the bound, a placeholder each")

        let long = short + [.string("last"), .null]
        let compiled = try PhotoKitPredicate(format: "localIdentifier IN %@", arguments: [.array(long)])
            .sql(for: .asset) { $0 }
        #expect(compiled.sql == "(localIdentifier IS NULL OR localIdentifier IN (SELECT value FROM json_each(?)))")
        guard case .text(let json) = compiled.arguments.last, compiled.arguments.count == 1 else {
            Issue.record("\(compiled.arguments)")
            return
        }
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(decoded == names + ["last"])

        let numbers: [PredicateValue] =
            (0...100).map { .int(Int64($0) * 1_000_000_007) } + [.double(0.1), .double(-2.5e-300)]
        let numeric = try PhotoKitPredicate(format: "pixelWidth IN %@", arguments: [.array(numbers)]).sql(for: .asset) {
            $0
        }
        guard case .text(let list) = numeric.arguments.last else {
            Issue.record("\(numeric.arguments)")
            return
        }
        let values = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [NSNumber])
        #expect(values.count == numbers.count)
        #expect(values.last?.doubleValue == -2.5e-300 && values[100].int64Value == 100 * 1_000_000_007)
    }

    @Test func columnMappingReceivesCanonicalNames() throws {
        let predicate = try PhotoKitPredicate(
            format: "SELF IN %@ AND isFavorite == YES",
            arguments: [.array([.string("a")])]
        )
        var requested: [String] = []
        let fragment = try predicate.sql(for: .asset) { name in
            requested.append(name)
            return "\"asset\".\"\(name)\""
        }
        #expect(requested == ["localIdentifier", "favorite"])
        #expect(fragment.sql == #"("asset"."localIdentifier" IN (?) AND "asset"."favorite" = ?)"#)
    }

    /// A format that parses but does not validate against a class.
    struct Invalid: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [PredicateValue]
        let schema: PredicateSchema
        let code: PredicateFormatError.Code
        let message: String
        let offset: Int
        var testDescription: String { "\(schema.className): \(format)" }

        init(
            _ format: String,
            with arguments: [PredicateValue] = [],
            for schema: PredicateSchema = .asset,
            _ code: PredicateFormatError.Code,
            _ message: String,
            at offset: Int
        ) {
            self.format = format
            self.arguments = arguments
            self.schema = schema
            self.code = code
            self.message = message
            self.offset = offset
        }
    }

    static let invalid: [Invalid] = [
        Invalid("foo == 1", .unsupportedKey, "unsupported key 'foo' for PHAsset", at: 0),
        Invalid(
            "favorite == YES AND mediaSubtype & 4 != 0", .unsupportedKey,
            "unsupported key 'mediaSubtype' for PHAsset (did you mean 'mediaSubtypes'?)", at: 20
        ),
        Invalid("pixelWidth > 1", for: .assetCollection, .unsupportedKey, "(it is a PHAsset key)", at: 0),
        Invalid(
            "estimatedAssetCount > 1", for: .collectionList, .unsupportedKey,
            "unsupported key 'estimatedAssetCount' for PHCollectionList (it is a PHAssetCollection key)", at: 0
        ),
        Invalid(
            "title == 'a'", .unsupportedKey, "unsupported key 'title' for PHAsset (it is a PHAssetCollection key)",
            at: 0),
        Invalid("Favorite == YES", .unsupportedKey, "(did you mean 'favorite'?)", at: 0),
        Invalid("isFavourite == YES", .unsupportedKey, "(did you mean 'isFavorite'?)", at: 0),
        Invalid("%K == 1", with: [.string("size")], .unsupportedKey, "unsupported key 'size'", at: 0),
        Invalid("creationDate > 5", .typeMismatch, "date key 'creationDate' cannot be compared with integer 5", at: 15),
        Invalid(
            "creationDate > %@", with: [.string("2024")], .typeMismatch, "cannot be compared with string \"2024\"",
            at: 15),
        Invalid(
            "pixelWidth == 'big'", .typeMismatch, "integer key 'pixelWidth' cannot be compared with string", at: 14),
        Invalid("pixelWidth == YES", .typeMismatch, "cannot be compared with bool YES", at: 14),
        Invalid("favorite == 2", .typeMismatch, "bool key 'favorite' cannot be compared with integer 2", at: 12),
        Invalid("favorite < 1", .typeMismatch, "< cannot compare bool key 'favorite'", at: 9),
        Invalid("mediaSubtypes == 1.5", .typeMismatch, "bitmask key 'mediaSubtypes' cannot be compared", at: 17),
        Invalid("burstIdentifier == 3", .typeMismatch, "string key 'burstIdentifier' cannot be compared", at: 19),
        Invalid("title == 3", for: .collection, .typeMismatch, "string key 'title' cannot be compared", at: 9),
        Invalid("SELF > 'a'", .typeMismatch, "> cannot compare SELF", at: 5),
        Invalid("SELF == 5", .typeMismatch, "SELF cannot be compared with integer 5", at: 8),
        Invalid("SELF IN {1}", .typeMismatch, "SELF cannot be compared with integer 1", at: 8),
        Invalid(
            "localIdentifier == %@", with: [.object(localIdentifier: "a")], .typeMismatch,
            "cannot be compared with object", at: 19),
        Invalid("pixelWidth CONTAINS '1'", .typeMismatch, "CONTAINS needs a string key on its left side", at: 11),
        Invalid("SELF BEGINSWITH 'A'", .typeMismatch, "BEGINSWITH needs a string key", at: 5),
        Invalid(
            "title CONTAINS 5", for: .collection, .typeMismatch, "CONTAINS needs a string on its right side", at: 15
        ),
        Invalid(
            "title LIKE nil", for: .collection, .typeMismatch,
            "LIKE needs a string on its right side, not nil", at: 11
        ),
        Invalid("pixelWidth ==[c] 5", .typeMismatch, "modifiers [c]/[d] apply only to strings", at: 11),
        Invalid("mediaType IN 1", .typeMismatch, "IN needs a collection", at: 13),
        Invalid("mediaType IN {1, 'a'}", .typeMismatch, "cannot be compared with string \"a\"", at: 13),
        Invalid("duration BETWEEN {1}", .typeMismatch, "BETWEEN needs two bounds", at: 17),
        Invalid("duration BETWEEN {1, nil}", .typeMismatch, "BETWEEN bounds cannot be nil", at: 17),
        Invalid("favorite BETWEEN {0, 1}", .typeMismatch, "BETWEEN cannot compare bool key", at: 9),
        Invalid(
            "(favorite & 1) != 0", .typeMismatch, "bitwise '&' needs integer keys and integers, not bool key", at: 1),
        Invalid("mediaSubtypes & 1.5 == 0", .typeMismatch, "not number 1.5", at: 16),
        Invalid("(mediaSubtypes & 1) == nil", .typeMismatch, "is never nil", at: 23),
        Invalid("1 == 1", .unsupportedFeature, "must involve a key or SELF", at: 2),
        Invalid(
            "'a' CONTAINS title", for: .collection, .unsupportedFeature, "CONTAINS needs a key or SELF on its left",
            at: 4),
        Invalid(
            "%@ IN localIdentifier", with: [.string("a")], .unsupportedFeature, "IN needs a key or SELF on its left",
            at: 3),
        Invalid(
            "creationDate < pixelWidth", .typeMismatch,
            "cannot compare date key 'creationDate' with integer key 'pixelWidth'", at: 15
        ),
    ]

    @Test("formats invalid for a class name the problem and its offset", arguments: invalid)
    func invalidFormatIsRejected(_ example: Invalid) throws {
        let predicate = try PhotoKitPredicate(format: example.format, arguments: example.arguments)
        let error = #expect(throws: PredicateFormatError.self) {
            try predicate.validate(against: example.schema)
        }
        #expect(error?.code == example.code)
        #expect(error?.message.contains(example.message) == true, "message: \(error?.message ?? "none")")
        #expect(error?.offset == example.offset)
        let compileError = #expect(throws: PredicateFormatError.self) {
            try predicate.sql(for: example.schema) { $0 }
        }
        #expect(compileError == error)
    }

    @Test func sameFormatIsValidForOneClassAndNotAnother() throws {
        let predicate = try PhotoKitPredicate(format: "localizedTitle BEGINSWITH %@", arguments: [.string("Trip")])
        try predicate.validate(against: .assetCollection)
        try predicate.validate(against: .collectionList)
        #expect(throws: PredicateFormatError.self) { try predicate.validate(against: .asset) }
    }

    @Test func unknownKeyFarFromAnySpellingGetsNoSuggestion() throws {
        let predicate = try PhotoKitPredicate(format: "stars > 3", arguments: [])
        let error = #expect(throws: PredicateFormatError.self) { try predicate.validate(against: .asset) }
        #expect(error?.message == "unsupported key 'stars' for PHAsset")
    }

    @Test func errorDescriptionQuotesTheFormat() throws {
        let predicate = try PhotoKitPredicate(format: "foo == 1", arguments: [])
        let error = #expect(throws: PredicateFormatError.self) { try predicate.validate(against: .asset) }
        #expect(error?.description == #"unsupported key 'foo' for PHAsset at offset 0 in "foo == 1""#)
    }

    // MARK: - Schemas and sort keys

    @Test func schemasListTheDocumentedKeys() {
        #expect(
            PredicateSchema.asset.keys.map(\.name) == [
                "localIdentifier", "creationDate", "modificationDate", "mediaType", "mediaSubtypes", "duration",
                "pixelWidth", "pixelHeight", "favorite", "hidden", "burstIdentifier", "adjustmentFormatIdentifier",
                "rating", "representsBurst", "creationDateHasOffset", "creationDateIsFileTime", "isLibraryOwned",
                "filename", "make", "model", "location",
            ])
        #expect(
            PredicateSchema.assetCollection.keys.map(\.name) == [
                "localIdentifier", "localizedTitle", "startDate", "endDate", "estimatedAssetCount",
            ])
        #expect(
            PredicateSchema.collectionList.keys.map(\.name) == [
                "localIdentifier", "localizedTitle", "startDate", "endDate",
            ])
        #expect(PredicateSchema.collection.keys == PredicateSchema.collectionList.keys)
        #expect(PredicateSchema.asset.key(named: "isHidden")?.name == "hidden")
        #expect(PredicateSchema.asset.key(named: "mediaSubtypes")?.type == .bitmask)
        #expect(PredicateSchema.asset.key(named: "SELF") == nil)
    }

    /// A sort key request and its canonical key, or the error message expected.
    struct Sort: Sendable, CustomTestStringConvertible {
        let name: String
        let schema: PredicateSchema
        let result: Result<String, Failure>
        var testDescription: String { "\(schema.className): \(name)" }

        struct Failure: Error, Equatable { let message: String }
    }

    static let sorts: [Sort] = [
        Sort(name: "creationDate", schema: .asset, result: .success("creationDate")),
        Sort(name: "isFavorite", schema: .asset, result: .success("favorite")),
        Sort(name: "mediaSubtypes", schema: .asset, result: .success("mediaSubtypes")),
        Sort(name: "title", schema: .collectionList, result: .success("localizedTitle")),
        Sort(name: "estimatedAssetCount", schema: .assetCollection, result: .success("estimatedAssetCount")),
        Sort(name: "foo", schema: .asset, result: .failure(.init(message: "unsupported key 'foo' for PHAsset"))),
        Sort(name: "pixelWidth", schema: .collection, result: .failure(.init(message: "(it is a PHAsset key)"))),
        Sort(name: "SELF", schema: .asset, result: .failure(.init(message: "sorting by SELF is not supported"))),
        Sort(
            name: "location.latitude", schema: .asset, result: .failure(.init(message: "key paths are not supported"))),
    ]

    @Test("sort keys resolve aliases and reject unknown keys", arguments: sorts)
    func sortKeyResolves(_ example: Sort) throws {
        switch example.result {
        case .success(let canonical):
            let key = try example.schema.sortKey(example.name, ascending: false)
            #expect(key == SortKey(key: canonical, ascending: false))
        case .failure(let failure):
            let error = #expect(throws: PredicateFormatError.self) {
                try example.schema.sortKey(example.name, ascending: true)
            }
            #expect(error?.code == .unsupportedKey)
            #expect(error?.message.contains(failure.message) == true, "message: \(error?.message ?? "none")")
            #expect(error?.format == example.name)
        }
    }

    // MARK: - SQL functions

    struct Fold: Sendable, CustomTestStringConvertible {
        let text: String
        let flags: Int
        let folded: String
        var testDescription: String { "\(text) flags \(flags)" }
    }

    static let folds: [Fold] = [
        Fold(text: "Crème Brûlée", flags: 0, folded: "Crème Brûlée"),
        Fold(text: "Crème Brûlée", flags: 1, folded: "crème brûlée"),
        Fold(text: "Crème Brûlée", flags: 2, folded: "Creme Brulee"),
        Fold(text: "Crème Brûlée", flags: 3, folded: "creme brulee"),
        Fold(text: "ÉCOLE Ÿ", flags: 3, folded: "ecole y"),
        Fold(text: "STRASSE", flags: 1, folded: "strasse"),
        Fold(text: "ΣΊΣΥΦΟΣ", flags: 3, folded: "σισυφοσ"),
        // Decomposed input comes out precomposed, so it matches a precomposed column bytewise.
        Fold(text: "E\u{301}t\u{E9}", flags: 1, folded: "\u{E9}t\u{E9}"),
        Fold(text: "", flags: 3, folded: ""),
    ]

    @Test("photos_fold folds case and diacritics", arguments: folds)
    func foldFoldsCaseAndDiacritics(_ example: Fold) {
        let result = PredicateFunctions.fold(example.text, flags: example.flags)
        #expect(Array(result.unicodeScalars) == Array(example.folded.unicodeScalars))
    }

    struct Like: Sendable, CustomTestStringConvertible {
        let value: String
        let pattern: String
        let flags: Int
        let matches: Bool
        var testDescription: String { "\(value) LIKE \(pattern) flags \(flags)" }

        init(_ value: String, _ pattern: String, flags: Int = 0, _ matches: Bool) {
            self.value = value
            self.pattern = pattern
            self.flags = flags
            self.matches = matches
        }
    }

    static let likes: [Like] = [
        Like("IMG_0042.HEIC", "IMG_*", true),
        Like("IMG_0042.HEIC", "img_*", false),
        Like("IMG_0042.HEIC", "img_*", flags: 1, true),
        Like("IMG_0042.HEIC", "*.HEIC", true),
        Like("IMG_0042.HEIC", "*.heic", false),
        Like("abc", "a?c", true),
        Like("ac", "a?c", false),
        Like("abbc", "a?c", false),
        Like("abc", "*", true),
        Like("", "*", true),
        Like("", "?", false),
        Like("", "", true),
        Like("a", "", false),
        Like("abc", "ab", false),
        Like("ab", "abc", false),
        Like("a*c", #"a\*c"#, true),
        Like("abc", #"a\*c"#, false),
        Like("a?c", #"a\?c"#, true),
        Like("abc", #"a\?c"#, false),
        Like(#"back\slash"#, #"back\\slash"#, true),
        Like(#"a\"#, #"a\"#, true),
        // SQL's wildcards are ordinary characters here.
        Like("a%c", "a%c", true),
        Like("abc", "a%c", false),
        Like("a_c", "a_c", true),
        Like("abc", "a_c", false),
        // Backtracking over several stars.
        Like("aXbXc", "*b*c", true),
        Like("abcabd", "*abd", true),
        Like("mississippi", "m*iss*ppi", true),
        Like("mississippi", "*sip*", true),
        Like("mississippi", "*sup*", false),
        Like("aaa", "a**a", true),
        // Folding applies to value and pattern.
        Like("Crème", "creme", flags: 3, true),
        Like("Crème", "creme", flags: 1, false),
        Like("CRÈME", "cr?me", flags: 1, true),
        Like("Crème", "Creme", flags: 2, true),
        // `?` is one character, even a decomposed one.
        Like("e\u{301}", "?", true),
    ]

    @Test("photos_like implements NSPredicate LIKE", arguments: likes)
    func likeMatchesLikeNSPredicate(_ example: Like) {
        #expect(
            PredicateFunctions.like(example.value, pattern: example.pattern, flags: example.flags) == example.matches)
    }
}
