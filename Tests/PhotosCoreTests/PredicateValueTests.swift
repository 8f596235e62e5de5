import Foundation
import Testing

@testable import PhotosCore

/// Conversion of arguments as Swift code passes them (`NSPredicate(format:argumentArray:)`) to predicate values.
@Suite("Predicate values")
struct PredicateValueTests {
    /// An argument (built on demand, since `Any` is not Sendable) and the value it must become, or nil.
    struct Conversion: Sendable, CustomTestStringConvertible {
        let label: String
        let argument: @Sendable () -> Any
        let expected: PredicateValue?
        var testDescription: String { label }

        init(_ label: String, _ expected: PredicateValue?, _ argument: @escaping @Sendable () -> Any) {
            self.label = label
            self.argument = argument
            self.expected = expected
        }
    }

    /// A stand-in for PHAssetMediaSubtype: a UInt option set.
    struct TestSubtypes: OptionSet, Sendable {
        let rawValue: UInt
        static let photoPanorama = TestSubtypes(rawValue: 1 << 0)
        static let photoScreenshot = TestSubtypes(rawValue: 1 << 2)
        static let videoHighFrameRate = TestSubtypes(rawValue: 1 << 17)
    }

    /// A String-backed enum.
    enum TestKind: String {
        case album
    }

    /// A stand-in for PHObject.
    final class TestAsset: PredicateArgumentConvertible {
        let localIdentifier: String
        init(_ localIdentifier: String) { self.localIdentifier = localIdentifier }
        var predicateValue: PredicateValue { .object(localIdentifier: localIdentifier) }
    }

    /// Something no predicate can take.
    struct Opaque {}

    static let date = Date(timeIntervalSince1970: 1_717_200_000)

    static let conversions: [Conversion] = [
        Conversion("Int", .int(5)) { 5 },
        Conversion("negative Int8", .int(-3)) { Int8(-3) },
        Conversion("Int16", .int(300)) { Int16(300) },
        Conversion("Int32", .int(-70_000)) { Int32(-70_000) },
        Conversion("Int64.max", .int(.max)) { Int64.max },
        Conversion("UInt", .int(7)) { UInt(7) },
        Conversion("UInt8", .int(255)) { UInt8(255) },
        Conversion("UInt16", .int(65_535)) { UInt16.max },
        Conversion("UInt32", .int(4_294_967_295)) { UInt32.max },
        Conversion("UInt64", .int(42)) { UInt64(42) },
        Conversion("UInt64 above Int64.max", nil) { UInt64.max },
        Conversion("UInt above Int64.max", nil) { UInt.max },
        Conversion("Double", .double(1.5)) { 1.5 },
        Conversion("Float", .double(0.25)) { Float(0.25) },
        Conversion("Bool", .bool(true)) { true },
        Conversion("String", .string("trip")) { "trip" },
        Conversion("Substring", .string("rip")) { "trip".dropFirst() },
        Conversion("NSString", .string("ns")) { NSString(string: "ns") },
        Conversion("Date", .date(date)) { date },
        Conversion("NSDate", .date(date)) { NSDate(timeIntervalSince1970: 1_717_200_000) },
        Conversion("NSNumber integer", .int(3)) { NSNumber(value: 3) },
        Conversion("NSNumber Int8", .int(1)) { NSNumber(value: Int8(1)) },
        Conversion("NSNumber bool", .bool(true)) { NSNumber(value: true) },
        Conversion("NSNumber double", .double(2.5)) { NSNumber(value: 2.5) },
        Conversion("NSNumber UInt64 above Int64.max", nil) { NSNumber(value: UInt64.max) },
        Conversion("NSNull", .null) { NSNull() },
        Conversion("Optional.none", .null) { Int?.none as Any },
        Conversion("Optional.some", .int(5)) { Int?.some(5) as Any },
        Conversion("Int array", .array([.int(1), .int(2)])) { [1, 2] },
        Conversion("Set", .array([.int(3)])) { Set([3]) },
        Conversion("array with nil", .array([.int(1), .null])) { [1, nil] as [Int?] },
        Conversion("nested array", .array([.array([.int(1)])])) { [[1]] },
        Conversion("NSArray", .array([.int(1), .string("a")])) { NSArray(array: [1, "a"]) },
        Conversion("option set", .int(4)) { TestSubtypes.photoScreenshot },
        Conversion("option set union", .int(131_073)) {
            [TestSubtypes.photoPanorama, .videoHighFrameRate] as TestSubtypes
        },
        Conversion("Int enum", .int(2)) { PredicateTestMediaType.video },
        Conversion("String enum", .string("album")) { TestKind.album },
        Conversion("object", .object(localIdentifier: "A/L0/001")) { TestAsset("A/L0/001") },
        Conversion("array of objects", .array([.object(localIdentifier: "a"), .object(localIdentifier: "b")])) {
            [TestAsset("a"), TestAsset("b")]
        },
        Conversion("predicate value", .string("x")) { PredicateValue.string("x") },
        Conversion("unsupported struct", nil) { Opaque() },
        Conversion("array with an unsupported element", nil) { [Opaque()] },
        Conversion("dictionary", nil) { ["key": 1] },
        Conversion("URL", nil) { URL(fileURLWithPath: "/tmp") },
    ]

    @Test("arguments convert to predicate values", arguments: conversions)
    func argumentConverts(_ example: Conversion) {
        #expect(PredicateValue(argument: example.argument()) == example.expected)
    }

    @Test func seedFormatWithOptionSetArgumentsCompiles() throws {
        // Seed 004's listing passes option sets straight to argumentArray.
        let predicate = try PhotoKitPredicate(
            format: "(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0",
            argumentArray: [TestSubtypes.photoPanorama, TestSubtypes.videoHighFrameRate]
        )
        let fragment = try predicate.sql(for: .asset) { $0 }
        #expect(fragment.arguments == [.int(1), .int(0), .int(131_072), .int(0)])
    }

    @Test func objectArgumentsMatchSelfByIdentifier() throws {
        let predicate = try PhotoKitPredicate(
            format: "SELF IN %@",
            argumentArray: [[TestAsset("a"), TestAsset("b")]]
        )
        let fragment = try predicate.sql(for: .asset) { $0 }
        #expect(fragment == SQLFragment(sql: "localIdentifier IN (?, ?)", arguments: [.text("a"), .text("b")]))
    }
}
