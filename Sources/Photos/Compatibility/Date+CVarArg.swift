import Foundation

/// `Date` as a C variadic argument, as Apple's Foundation has it and swift-corelibs-foundation
/// does not, so that the common spelling of a date in a predicate compiles unchanged:
///
/// ```swift
/// options.predicate = NSPredicate(format: "creationDate > %@", startDate as CVarArg)
/// ```
///
/// The predicate functions of this module take the `Date` itself. Given to `String(format:)`,
/// `%@` prints it as corelibs prints an `NSDate` (`<CFDate …>{time = …}`); each such use keeps
/// one small `NSDate` alive to the end of the process, since Linux has no autorelease pool to
/// hand it to.
extension Date: @retroactive CVarArg {
    /// The date as an `NSDate` object pointer, as `%@` reads it.
    public var _cVarArgEncoding: [Int] {
        [Int(bitPattern: Unmanaged.passRetained(self as NSDate).toOpaque())]
    }
}
