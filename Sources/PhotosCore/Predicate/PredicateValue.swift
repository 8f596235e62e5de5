import Foundation

/// A value bound into a predicate: what `%@`, `%d`, `%f`... arguments and literals become.
///
/// Literals in the format string and converted arguments share this one representation, so the
/// validator and the SQL compiler never need to know where a value came from.
///
/// ```swift
/// let value = PredicateValue(argument: [1, 2, 3])   // .array([.int(1), .int(2), .int(3)])
/// ```
public enum PredicateValue: Sendable, Hashable {
    /// `nil`, `NULL`, `NSNull` or `Optional.none`.
    case null
    /// `YES`/`NO`/`TRUE`/`FALSE`, or a Swift `Bool`.
    case bool(Bool)
    /// An integer literal or argument.
    case int(Int64)
    /// A floating-point literal or argument.
    case double(Double)
    /// A quoted string literal or a string argument.
    case string(String)
    /// A date argument.
    case date(Date)
    /// A literal aggregate `{...}` or a collection argument.
    case array([PredicateValue])
    /// An object argument, e.g. a PHAsset passed to `SELF IN %@`; carries its localIdentifier.
    case object(localIdentifier: String)
}

/// Types outside PhotosCore (PHObject in the Photos module) adopt this to be usable as arguments.
public protocol PredicateArgumentConvertible {
    /// The value this argument stands for in a predicate, e.g. `.object(localIdentifier:)`.
    var predicateValue: PredicateValue { get }
}

extension PredicateValue: PredicateArgumentConvertible {
    /// The value itself, so already converted values can be passed as arguments.
    public var predicateValue: PredicateValue { self }
}

extension PredicateValue {
    /// Converts an argument as Swift code passes it: Int/Int8...UInt64, Double, Float, Bool, String,
    /// Substring, Date, NSNumber, NSString, NSDate, arrays/sets/NSArray of those, Optional.none -> .null,
    /// any RawRepresentable whose rawValue converts (so PHAssetMediaSubtype.photoScreenshot and
    /// PHAssetMediaType.image work), and PredicateArgumentConvertible. Returns nil for anything else.
    ///
    /// A `UInt`/`UInt64` above `Int64.max` has no faithful representation and also returns nil.
    public init?(argument: Any) {
        // Optional first: an `Any` holding `Int?.some(3)` should convert as 3.
        let mirror = Mirror(reflecting: argument)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else {
                self = .null
                return
            }
            self.init(argument: wrapped)
            return
        }
        // NSNumber before the Swift numeric casts: on Linux an NSNumber holding a Bool also casts to Int.
        if type(of: argument) is NSNumber.Type, let number = argument as? NSNumber {
            self.init(number: number)
            return
        }
        if let value = PredicateValue(scalar: argument) {
            self = value
            return
        }
        if let convertible = argument as? any PredicateArgumentConvertible {
            self = convertible.predicateValue
            return
        }
        if let elements = PredicateValue.elements(of: argument, style: mirror.displayStyle) {
            var values: [PredicateValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = PredicateValue(argument: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
            return
        }
        if let raw = argument as? any RawRepresentable {
            let rawValue: Any = raw.rawValue
            // Guard against a type whose rawValue is itself (would recurse forever).
            guard type(of: rawValue) != type(of: argument) else { return nil }
            self.init(argument: rawValue)
            return
        }
        return nil
    }

    /// Converts the plain Swift and Foundation scalars; nil for anything else.
    private init?(scalar argument: Any) {
        switch argument {
        case is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(Int64(value))
        case let value as Int8: self = .int(Int64(value))
        case let value as Int16: self = .int(Int64(value))
        case let value as Int32: self = .int(Int64(value))
        case let value as Int64: self = .int(value)
        case let value as UInt:
            guard let exact = Int64(exactly: value) else { return nil }
            self = .int(exact)
        case let value as UInt8: self = .int(Int64(value))
        case let value as UInt16: self = .int(Int64(value))
        case let value as UInt32: self = .int(Int64(value))
        case let value as UInt64:
            guard let exact = Int64(exactly: value) else { return nil }
            self = .int(exact)
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as CGFloat: self = .double(Double(value))
        case let value as Decimal: self = .double(NSDecimalNumber(decimal: value).doubleValue)
        case let value as String: self = .string(value)
        case let value as Substring: self = .string(String(value))
        case let value as Character: self = .string(String(value))
        case let value as NSString: self = .string(String(describing: value))
        case let value as Date: self = .date(value)
        case let value as NSDate: self = .date(Date(timeIntervalSince1970: value.timeIntervalSince1970))
        default: return nil
        }
    }

    /// Converts an NSNumber by the C type it holds, keeping booleans apart from integers.
    private init?(number: NSNumber) {
        let objCType = String(cString: number.objCType)
        // Bools report "c" like Int8; the boxing class tells them apart (__NSCFBoolean on Linux and Darwin).
        if objCType == "c" || objCType == "B", String(describing: type(of: number)).contains("Boolean") {
            self = .bool(number.boolValue)
        } else if objCType == "f" || objCType == "d" {
            self = .double(number.doubleValue)
        } else if objCType == "Q" || objCType == "L", number.uint64Value > UInt64(Int64.max) {
            return nil
        } else {
            self = .int(number.int64Value)
        }
    }

    /// The elements of an array, set or NSArray/NSSet argument; nil if the argument is not a collection.
    private static func elements(of argument: Any, style: Mirror.DisplayStyle?) -> [Any]? {
        if let array = argument as? NSArray, type(of: argument) is NSArray.Type {
            return array.map { $0 }
        }
        if let set = argument as? NSSet, type(of: argument) is NSSet.Type {
            return set.allObjects
        }
        guard style == .collection || style == .set, let sequence = argument as? any Sequence else {
            return nil
        }
        return collect(sequence)
    }

    /// Opens a `Sequence` existential and boxes its elements.
    private static func collect<S: Sequence>(_ sequence: S) -> [Any] {
        sequence.map { $0 as Any }
    }
}
