import Foundation
import PhotosCore

/// The base of every object the library holds: assets, albums, folders.
///
/// Objects are immutable snapshots; change them through change requests in a change block.
/// Two objects are equal when their local identifiers are.
// @unchecked: open, so not checked; immutable after init (`let`s of Sendable types), as every subclass here is.
open class PHObject: NSObject, @unchecked Sendable, PredicateArgumentConvertible {
    /// The object's identifier, stable across restarts, file moves and directory renames.
    public let localIdentifier: String
    /// The row behind this object in its library, if it has one yet.
    let rowID: Int64?
    /// The library the object was fetched from.
    let library: PHPhotoLibrary?

    init(localIdentifier: String, rowID: Int64?, library: PHPhotoLibrary?) {
        self.localIdentifier = localIdentifier
        self.rowID = rowID
        self.library = library
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHObject else { return false }
        return localIdentifier == other.localIdentifier
    }

    open override var hash: Int { localIdentifier.hashValue }

    open override var description: String {
        "<\(type(of: self)): \(localIdentifier)>"
    }

    /// The predicate argument for `SELF == %@` and `SELF IN %@`.
    public var predicateValue: PredicateValue { .object(localIdentifier: localIdentifier) }
}

/// A stand-in for an object a change block is creating: use it within the block to refer to the
/// new object, and its `localIdentifier` afterwards to fetch it.
///
/// ```swift
/// let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
/// identifier = request.placeholderForCreatedAssetCollection.localIdentifier
/// ```
public final class PHObjectPlaceholder: PHObject, @unchecked Sendable {  // Immutable: PHObject's `let`s only.
    init(localIdentifier: String) {
        super.init(localIdentifier: localIdentifier, rowID: nil, library: nil)
    }
}
