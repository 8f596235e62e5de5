import Foundation

@testable import PhotosCore

/// libFuzzer target: the NSPredicate format parser and the SQL compiler, for every class's keys.
///
/// The input is the format as UTF-8 (invalid sequences replaced). It is parsed once without arguments and once
/// with one of each kind, so that `%@`, `%K` and `%d` reach the substitution code too. Built by
/// `scripts/fuzz predicate` against PhotosCore compiled with testing enabled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let format = String(decoding: bytes, as: UTF8.self)
    for arguments in FuzzArguments.sets {
        guard let predicate = try? PhotoKitPredicate(format: format, arguments: arguments) else { continue }
        _ = predicate.predicateFormat
        for schema in PredicateSchema.all {
            if let fragment = try? predicate.sql(for: schema, column: { "t.\($0)" }) {
                precondition(
                    fragment.sql.utf8.count(where: { $0 == UInt8(ascii: "?") }) >= fragment.arguments.count,
                    "more bound values than placeholders")
            }
        }
    }
    return 0
}

/// Argument lists for formats with `%` specifiers: none, and one of each kind in an order that fits common formats.
enum FuzzArguments {
    static let sets: [[PredicateValue]] = [
        [],
        [.string("pixelWidth"), .int(4), .date(Date(timeIntervalSince1970: 1_700_000_000)), .string("B1")],
        [.int(2), .array([.int(1), .int(2)]), .bool(true), .double(1.5), .object(localIdentifier: "X/L0/001")],
    ]
}
