import Foundation

/// Foundation's `NSFastEnumeration`, which Linux lacks: something change requests can take objects from.
///
/// PhotoKit listings pass fetch results and arrays `as NSFastEnumeration`; both conform here, so
/// ```swift
/// request.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) as NSFastEnumeration)
/// ```
/// compiles unchanged.
public protocol NSFastEnumeration {
    /// The photo library objects enumerated, in order (other elements are ignored).
    var photosObjects: [PHObject] { get }
}

extension NSArray: NSFastEnumeration {
    /// The elements that are photo library objects.
    public var photosObjects: [PHObject] { compactMap { $0 as? PHObject } }
}

extension Array: NSFastEnumeration where Element: PHObject {
    /// The array's objects.
    public var photosObjects: [PHObject] { self }
}

extension Set: NSFastEnumeration where Element: PHObject {
    /// The set's objects, in no particular order.
    public var photosObjects: [PHObject] { Array(self) }
}
