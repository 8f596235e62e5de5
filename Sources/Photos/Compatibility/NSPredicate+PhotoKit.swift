import Foundation

/// An `NSPredicate` made from a format string, which swift-corelibs-foundation cannot parse itself.
///
/// You don't create it by name: `NSPredicate(format:_:)` and `NSPredicate(format:argumentArray:)`
/// in this module return one, so PhotoKit code compiles unchanged. A format with a syntax error is
/// kept with its error; fetching with it stops the program with that error, as PhotoKit raises.
/// Check a format first with ``validate(for:)``, or ``PHFetchOptions/validate(for:)``.
public final class PHFormatPredicate: NSPredicate {
    /// The format string as given.
    public let predicateFormatString: String
    /// The parsed predicate, or the error that stopped parsing.
    public let parsed: Result<PhotoKitPredicate, PredicateFormatError>

    init(format: String, arguments: [Any]) {
        predicateFormatString = format
        var values: [PredicateValue] = []
        var conversionError: PredicateFormatError?
        for (index, argument) in arguments.enumerated() {
            if let value = PredicateValue(argument: argument) {
                values.append(value)
            } else if conversionError == nil {
                conversionError = PredicateFormatError(
                    .argument, "argument \(index + 1) (\(type(of: argument))) cannot be used in a predicate",
                    format: format)
            }
        }
        if let conversionError {
            parsed = .failure(conversionError)
        } else {
            parsed = Result { () throws(PredicateFormatError) in
                try PhotoKitPredicate(format: format, arguments: values)
            }
        }
        super.init(value: true)
    }

    required init?(coder: NSCoder) { nil }

    public override var predicateFormat: String { predicateFormatString }

    /// Checks that the format parsed and that every key suits `schema`'s class.
    public func validate(for schema: PredicateSchema) throws(PredicateFormatError) -> PhotoKitPredicate {
        let predicate = try parsed.get()
        try predicate.validate(against: schema)
        return predicate
    }
}

/// Makes a predicate from a PhotoKit format string and its `%@`/`%d`/`%K` arguments.
///
/// Stands in for Foundation's `NSPredicate(format:_:)`, unavailable on Linux, so this compiles as on
/// Apple platforms:
/// ```swift
/// options.predicate = NSPredicate(format: "(mediaSubtypes & %d) != 0", PHAssetMediaSubtype.photoScreenshot.rawValue)
/// ```
public func NSPredicate(format: String, _ arguments: Any...) -> NSPredicate {
    PHFormatPredicate(format: format, arguments: arguments)
}

/// Makes a predicate from a PhotoKit format string and an array of arguments.
public func NSPredicate(format: String, argumentArray: [Any]?) -> NSPredicate {
    PHFormatPredicate(format: format, arguments: argumentArray ?? [])
}

/// A sort descriptor naming a PhotoKit key, which swift-corelibs-foundation cannot make from a string.
public final class PhotoKitSortDescriptor: NSSortDescriptor {
    /// The key as given (`"creationDate"`).
    public let photosKey: String

    init(key: String, ascending: Bool) {
        photosKey = key
        super.init(keyPath: \PhotoKitSortDescriptor.photosKey, ascending: ascending)
    }
}

/// Makes a sort descriptor for a PhotoKit key.
///
/// Stands in for Foundation's `NSSortDescriptor(key:ascending:)`, unavailable on Linux:
/// ```swift
/// options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
/// ```
public func NSSortDescriptor(key: String, ascending: Bool) -> NSSortDescriptor {
    PhotoKitSortDescriptor(key: key, ascending: ascending)
}
