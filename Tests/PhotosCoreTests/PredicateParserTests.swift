import Foundation
import Testing

@testable import PhotosCore

/// Parsing of the NSPredicate format language: what parses to which tree, and what is rejected where.
@Suite("Predicate parser")
struct PredicateParserTests {
    /// An accepted format and its normalized form (`PredicateNode.description`).
    struct Accepted: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [PredicateValue]
        let normalized: String
        var testDescription: String { format }

        init(_ format: String, _ arguments: [PredicateValue], _ normalized: String) {
            self.format = format
            self.arguments = arguments
            self.normalized = normalized
        }

        init(_ format: String, _ normalized: String) {
            self.init(format, [], normalized)
        }
    }

    static let june2024 = Date(timeIntervalSince1970: 1_717_200_000)

    static let accepted: [Accepted] = [
        Accepted("pixelWidth > 100", "pixelWidth > 100"),
        Accepted("pixelWidth = 100", "pixelWidth == 100"),
        Accepted("pixelWidth <> 100", "pixelWidth != 100"),
        Accepted("pixelWidth =< 100", "pixelWidth <= 100"),
        Accepted("pixelWidth => 100", "pixelWidth >= 100"),
        Accepted("pixelWidth>=100&&pixelHeight<=5", "pixelWidth >= 100 AND pixelHeight <= 5"),
        Accepted("favorite == YES AND hidden == NO", "favorite == YES AND hidden == NO"),
        Accepted("favorite == true && hidden = false", "favorite == YES AND hidden == NO"),
        Accepted("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        Accepted("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        Accepted("a == 1 || b == 2 || c == 3", "a == 1 OR b == 2 OR c == 3"),
        Accepted("NOT a == 1 AND b == 2", "(NOT a == 1) AND b == 2"),
        Accepted("not a == 1 or b == 2", "(NOT a == 1) OR b == 2"),
        Accepted("!(a == 1 OR b == 2)", "NOT (a == 1 OR b == 2)"),
        Accepted("NOT NOT a == 1", "NOT (NOT a == 1)"),
        Accepted("(((favorite == YES)))", "favorite == YES"),
        Accepted("(mediaSubtypes & %d) != 0", [.int(4)], "(mediaSubtypes & 4) != 0"),
        Accepted("mediaSubtypes & %d == %d", [.int(4), .int(4)], "(mediaSubtypes & 4) == 4"),
        Accepted("mediaSubtypes | 1 & 2 == 3", "(mediaSubtypes | (1 & 2)) == 3"),
        Accepted("%@ < creationDate", [.date(june2024)], "CAST(738892800.0, \"NSDate\") < creationDate"),
        // A date's own format reads back, and the command line can write one (ISO 8601).
        Accepted("CAST(738892800.0, \"NSDate\") < creationDate", "CAST(738892800.0, \"NSDate\") < creationDate"),
        Accepted("creationDate >= cast(738892800, 'NSDate')", "creationDate >= CAST(738892800.0, \"NSDate\")"),
        Accepted(
            "creationDate < CAST('2024-06-01T02:00:00+02:00', \"NSDate\")",
            "creationDate < CAST(738892800.0, \"NSDate\")"),
        Accepted(
            "creationDate < CAST(\"2024-06-01T00:00:00.000Z\", \"NSDate\")",
            "creationDate < CAST(738892800.0, \"NSDate\")"),
        Accepted("mediaType IN {1, 2, 3}", "mediaType IN {1, 2, 3}"),
        Accepted("mediaType in {}", "mediaType IN {}"),
        Accepted("mediaType IN %@", [.array([.int(1), .int(2)])], "mediaType IN {1, 2}"),
        Accepted("duration BETWEEN {1.5, 10}", "duration BETWEEN {1.5, 10}"),
        Accepted("duration between %@", [.array([.int(1), .int(2)])], "duration BETWEEN {1, 2}"),
        Accepted("localizedTitle BEGINSWITH[c] 'trip'", "localizedTitle BEGINSWITH[c] \"trip\""),
        Accepted("title contains[cd] \"x\"", "title CONTAINS[cd] \"x\""),
        Accepted("title ENDSWITH[d] 'x'", "title ENDSWITH[d] \"x\""),
        Accepted("title LIKE[dc] 'a*'", "title LIKE[cd] \"a*\""),
        Accepted("title ==[c] 'A'", "title ==[c] \"A\""),
        Accepted("%K == %@", [.string("favorite"), .bool(true)], "favorite == YES"),
        Accepted("%K == %@", [.string("self"), .object(localIdentifier: "X/L0/001")], "SELF == <object \"X/L0/001\">"),
        Accepted("SELF IN %@", [.array([.string("a")])], "SELF IN {\"a\"}"),
        Accepted("#size == 1", "size == 1"),
        Accepted("pixelWidth == 0x1F", "pixelWidth == 31"),
        Accepted("pixelWidth == 0b101 OR pixelWidth == 0o17", "pixelWidth == 5 OR pixelWidth == 15"),
        Accepted("pixelWidth > -5", "pixelWidth > -5"),
        Accepted("duration >= 1e3 AND duration < -2.5", "duration >= 1000.0 AND duration < -2.5"),
        Accepted("burstIdentifier == nil", "burstIdentifier == nil"),
        Accepted("burstIdentifier != NULL", "burstIdentifier != nil"),
        Accepted("TRUEPREDICATE", "TRUEPREDICATE"),
        Accepted("falsepredicate OR favorite == NO", "FALSEPREDICATE OR favorite == NO"),
        Accepted(#"title == 'it\'s'"#, #"title == "it's""#),
        Accepted(#"title == "say \"hi\"""#, #"title == "say \"hi\"""#),
        Accepted(#"title == 'caf\u00e9\n'"#, "title == \"café\n\""),
        Accepted("title == '%@'", "title == \"%@\""),
        Accepted("pixelWidth > %ld AND duration < %f", [.int(5), .int(2)], "pixelWidth > 5 AND duration < 2.0"),
        Accepted(
            "a == %i AND b == %lld AND c == %u AND d == %lu AND e == %llu",
            [.int(1), .int(2), .int(3), .int(4), .int(5)],
            "a == 1 AND b == 2 AND c == 3 AND d == 4 AND e == 5"
        ),
        Accepted("a == %lf OR b == %g", [.double(0.5), .double(2.5)], "a == 0.5 OR b == 2.5"),
        Accepted("favorite == %d", [.bool(true)], "favorite == 1"),
        Accepted("title == %@", [.string("AND")], "title == \"AND\""),
        Accepted("  pixelWidth\t>\n100  ", "pixelWidth > 100"),
    ]

    @Test("accepted formats parse to the expected tree", arguments: accepted)
    func acceptedFormatParses(_ example: Accepted) throws {
        let predicate = try PhotoKitPredicate(format: example.format, arguments: example.arguments)
        #expect(predicate.predicateFormat == example.normalized)
        #expect(predicate.format == example.format)
    }

    @Test func comparisonKeepsOperandsAndOffsets() throws {
        let predicate = try PhotoKitPredicate(format: "pixelWidth > 100", arguments: [])
        let expected = PredicateNode.comparison(
            PredicateComparison(.key("pixelWidth", offset: 0), .greaterThan, .value(.int(100), offset: 13), offset: 11)
        )
        #expect(predicate.expression == expected)
    }

    @Test func compoundTreeKeepsSourceOrderAndArgumentOffsets() throws {
        let predicate = try PhotoKitPredicate(
            format: "NOT favorite == YES OR %K BEGINSWITH[cd] %@",
            arguments: [.string("title"), .string("Trip")]
        )
        let expected = PredicateNode.or([
            .not(
                .comparison(
                    PredicateComparison(
                        .key("favorite", offset: 4), .equalTo, .value(.bool(true), offset: 16), offset: 13
                    ))),
            .comparison(
                PredicateComparison(
                    .key("title", offset: 23),
                    .beginsWith,
                    .value(.string("Trip"), offset: 41),
                    options: [.caseInsensitive, .diacriticInsensitive],
                    offset: 26
                )),
        ])
        #expect(predicate.expression == expected)
    }

    @Test func bitwiseOperandNestsUnderComparison() throws {
        let predicate = try PhotoKitPredicate(format: "(mediaSubtypes & %d) != 0", arguments: [.int(8)])
        let expected = PredicateNode.comparison(
            PredicateComparison(
                .bitwise(.key("mediaSubtypes", offset: 1), .and, .value(.int(8), offset: 17)),
                .notEqualTo,
                .value(.int(0), offset: 24),
                offset: 21
            )
        )
        #expect(predicate.expression == expected)
    }

    @Test func argumentArrayConvertsSwiftValues() throws {
        let predicate = try PhotoKitPredicate(
            format: "(mediaSubtypes & %d) != 0 || mediaType == %d",
            argumentArray: [UInt(4), PredicateTestMediaType.video]
        )
        #expect(predicate.predicateFormat == "(mediaSubtypes & 4) != 0 OR mediaType == 2")
    }

    @Test func argumentArrayRejectsUnconvertibleValues() {
        let error = #expect(throws: PredicateFormatError.self) {
            try PhotoKitPredicate(format: "title == %@", argumentArray: [URL(fileURLWithPath: "/tmp")])
        }
        #expect(error?.code == .argument)
        #expect(error?.message.contains("argument 1 of type URL") == true)
    }

    /// A rejected format: the error code, a substring of the message, and the offset.
    struct Rejected: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [PredicateValue]
        let code: PredicateFormatError.Code
        let message: String
        let offset: Int?
        var testDescription: String { format }

        init(
            _ format: String,
            _ arguments: [PredicateValue],
            _ code: PredicateFormatError.Code,
            _ message: String,
            at offset: Int?
        ) {
            self.format = format
            self.arguments = arguments
            self.code = code
            self.message = message
            self.offset = offset
        }

        init(_ format: String, _ code: PredicateFormatError.Code, _ message: String, at offset: Int?) {
            self.init(format, [], code, message, at: offset)
        }
    }

    static let rejected: [Rejected] = [
        Rejected("", .syntax, "empty predicate format", at: 0),
        Rejected("   ", .syntax, "empty predicate format", at: 0),
        Rejected("title MATCHES 'a.*'", .unsupportedFeature, "MATCHES", at: 6),
        Rejected("ANY keywords == 'x'", .unsupportedFeature, "aggregate operator ANY", at: 0),
        Rejected("all keywords == 'x'", .unsupportedFeature, "aggregate operator ALL", at: 0),
        Rejected("favorite == YES AND SOME x == 1", .unsupportedFeature, "aggregate operator SOME", at: 20),
        Rejected("NONE x == 1", .unsupportedFeature, "aggregate operator NONE", at: 0),
        Rejected("SUBQUERY(x, $y, $y == 1).@count > 0", .unsupportedFeature, "SUBQUERY", at: 0),
        Rejected("FUNCTION(title, 'lowercase') == 'a'", .unsupportedFeature, "FUNCTION", at: 0),
        Rejected(
            "creationDate > CAST(1, 'NSString')", .unsupportedFeature, "CAST to NSString is not supported", at: 23),
        Rejected("creationDate > CAST('yesterday', 'NSDate')", .syntax, "'yesterday' is not an ISO 8601 date", at: 20),
        Rejected("creationDate > CAST('2024-06-01T00:00:00', 'NSDate')", .syntax, "with a UTC offset", at: 20),
        Rejected("creationDate > CAST(creationDate, 'NSDate')", .syntax, "CAST takes a number or a string", at: 20),
        Rejected("creationDate > CAST(1 'NSDate')", .syntax, "expected ','", at: 22),
        Rejected("lowercase(title) == 'a'", .unsupportedFeature, "function expressions are not supported", at: 0),
        Rejected("location.latitude > 1", .unsupportedKey, "key paths are not supported: 'location.latitude'", at: 0),
        Rejected("favorite == YES AND SELF.localIdentifier == 'x'", .unsupportedKey, "key paths", at: 20),
        Rejected("%K == 1", [.string("a.b")], .unsupportedKey, "key paths are not supported: 'a.b'", at: 0),
        Rejected("keywords.@count > 1", .unsupportedKey, "key paths are not supported: 'keywords.@count'", at: 0),
        Rejected("@count > 1", .unsupportedFeature, "collection operators", at: 0),
        Rejected("pixelWidth > $min", .unsupportedFeature, "substitution variables are not supported: '$min'", at: 13),
        Rejected("pixelWidth + 1 > 2", .unsupportedFeature, "arithmetic operator '+'", at: 11),
        Rejected("pixelWidth > 2 * 3", .unsupportedFeature, "arithmetic operator '*'", at: 15),
        Rejected("title == 'abc", .syntax, "unterminated string literal", at: 9),
        Rejected(#"title == "abc\"#, .syntax, "unterminated string literal", at: 9),
        Rejected("(favorite == YES", .syntax, "unbalanced parentheses: '(' is never closed", at: 0),
        Rejected("favorite == YES)", .syntax, "unbalanced parentheses: unexpected ')'", at: 15),
        Rejected("(favorite == YES AND hidden == NO title", .syntax, "expected ')' but found 'title'", at: 34),
        Rejected("favorite == YES garbage", .syntax, "unexpected 'garbage' after the end", at: 16),
        Rejected("title = 'a' = 'b'", .syntax, "unexpected '=' after the end", at: 12),
        Rejected("favorite == YES AND", .syntax, "unexpected end of format", at: 19),
        Rejected("favorite ==", .syntax, "unexpected end of format", at: 11),
        Rejected("== 1", .syntax, "expected a key or value, found '=='", at: 0),
        Rejected("favorite", .syntax, "expected a comparison, found 'favorite' alone", at: 0),
        Rejected("favorite AND hidden == NO", .syntax, "expected a comparison, found 'favorite'", at: 0),
        Rejected("(favorite == YES) == NO", .syntax, "'==' needs a key or value, not a predicate", at: 0),
        Rejected("title IN {title}", .unsupportedFeature, "only values are allowed in an aggregate", at: 10),
        Rejected("mediaType IN {1, 2", .syntax, "'{' is never closed", at: 13),
        Rejected("mediaType IN {1 2}", .syntax, "expected ',' or '}'", at: 16),
        Rejected("title ==[x] 'a'", .unsupportedFeature, "unsupported comparison modifier 'x'", at: 9),
        Rejected("title ==[c 'a'", .syntax, "expected ']'", at: 8),
        Rejected("pixelWidth == 99999999999999999999", .syntax, "out of range", at: 14),
        Rejected("pixelWidth == 12abc", .syntax, "invalid number literal '12a'", at: 14),
        Rejected("pixelWidth == 0x", .syntax, "invalid number literal '0x'", at: 14),
        Rejected("pixelWidth ~ 1", .syntax, "unexpected character '~'", at: 11),
        Rejected("pixelWidth > %d", .argument, "missing argument 1 for %d (0 given)", at: 13),
        Rejected("a == %@ AND b == %@", [.int(1)], .argument, "missing argument 2 for %@", at: 17),
        Rejected("pixelWidth > %d", [.int(1), .int(2)], .argument, "2 arguments given but the format uses 1", at: nil),
        Rejected("TRUEPREDICATE", [.int(1)], .argument, "argument 1 is extra", at: nil),
        Rejected("pixelWidth > %d", [.string("x")], .argument, "argument 1 for %d must be an integer", at: 13),
        Rejected("pixelWidth > %ld", [.double(1.5)], .argument, "argument 1 for %ld must be an integer", at: 13),
        Rejected("a == 1 AND b == %f", [.string("x")], .argument, "argument 1 for %f must be a number", at: 16),
        Rejected("%K == 1", [.int(3)], .argument, "argument 1 for %K must be a key name string", at: 0),
        Rejected("title == %s", [.string("x")], .unsupportedFeature, "format specifier '%s' is not supported", at: 9),
        Rejected("title == %%", .syntax, "'%%' is a literal percent sign", at: 9),
        Rejected("title == %y", .syntax, "invalid format specifier '%y'", at: 9),
        Rejected("title == %", .syntax, "incomplete format specifier", at: 9),
        Rejected("title == 'x' AND # == 1", .syntax, "expected a key name after '#'", at: 17),
    ]

    @Test("rejected formats name the problem and its offset", arguments: rejected)
    func rejectedFormatFails(_ example: Rejected) {
        let error = #expect(throws: PredicateFormatError.self) {
            try PhotoKitPredicate(format: example.format, arguments: example.arguments)
        }
        #expect(error?.code == example.code)
        #expect(error?.message.contains(example.message) == true, "message: \(error?.message ?? "none")")
        #expect(error?.offset == example.offset)
        #expect(error?.format == example.format)
    }

    @Test func errorDescriptionNamesMessageOffsetAndFormat() {
        let located = PredicateFormatError(
            .unsupportedKey, "unsupported key 'foo' for PHAsset", offset: 12, format: "a == 1 AND foo == 1")
        #expect(located.description == #"unsupported key 'foo' for PHAsset at offset 12 in "a == 1 AND foo == 1""#)
        let unlocated = PredicateFormatError(.argument, "2 arguments given", format: "a == %d")
        #expect(unlocated.description == #"2 arguments given in "a == %d""#)
    }
}

/// A stand-in for PHAssetMediaType: an Int-backed enum.
enum PredicateTestMediaType: Int {
    case unknown = 0
    case image = 1
    case video = 2
}

/// Formats without arguments are parsed once and kept: what comes back from the cache is what a
/// parse gives, past the cache's capacity too, and a format with arguments is parsed each time.
@Suite("Predicate parse cache")
struct PredicateParseCacheTests {
    @Test func aKeptParseIsTheParse() throws {
        // More distinct formats than the cache keeps, each asked twice.
        for round in 0..<2 {
            for index in 0..<(PhotoKitPredicate.parsedFormatCapacity + 20) {
                let format = "pixelWidth > \(index) AND (favorite == YES OR title CONTAINS[c] 'x\(index)')"
                let predicate = try PhotoKitPredicate(format: format, arguments: [])
                #expect(predicate.format == format)
                #expect(
                    predicate.expression.description
                        == "pixelWidth > \(index) AND (favorite == YES OR title CONTAINS[c] \"x\(index)\")",
                    "round \(round)")
            }
        }
        // The same text with arguments substitutes them, whatever was kept for another format.
        _ = try PhotoKitPredicate(format: "pixelWidth > 5", arguments: [])
        let withArgument = try PhotoKitPredicate(format: "pixelWidth > %d", arguments: [.int(7)])
        #expect(withArgument.expression.description == "pixelWidth > 7")
        // An error is not kept as a parse.
        for _ in 0..<2 {
            #expect(throws: PredicateFormatError.self) { try PhotoKitPredicate(format: "pixelWidth >", arguments: []) }
        }
    }
}
