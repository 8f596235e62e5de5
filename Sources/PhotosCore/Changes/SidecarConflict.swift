/// A field of an asset that both the library and another tool changed in its XMP sidecar since they
/// last agreed, and which value was kept: the newer write's (the library's modification date
/// against the sidecar's modification time).
///
/// Carried by the change that applied the merge (``LibraryChange/sidecarConflicts``, the change
/// JSON's `sidecarConflicts`); a merge the library's value won with nothing else taken from the
/// sidecar changes nothing in the library, and is only logged.
///
/// ```json
/// {"localIdentifier": "…/L0/001", "sidecar": "/home/me/Pictures/IMG_1.JPG.xmp", "field": "rating",
///  "libraryValue": "3", "sidecarValue": "5", "kept": "sidecar"}
/// ```
public struct SidecarConflict: Sendable, Hashable, Codable {
    /// Which value a conflict kept.
    public enum Kept: String, Sendable, Hashable, Codable {
        /// The library's value, written into the sidecar.
        case library
        /// The sidecar's value, taken into the library.
        case sidecar
    }

    /// The asset.
    public var localIdentifier: String
    /// The sidecar's path.
    public var sidecar: String
    /// The field, by the sidecar vocabulary's name: `rating`, `isFavorite`, `isHidden`,
    /// `creationDate`, `location`, `albums`, `pair`, `adjustment`.
    public var field: String
    /// The library's value as text, or nil when it had none.
    public var libraryValue: String?
    /// The sidecar's value as text, or nil when it stated none.
    public var sidecarValue: String?
    /// The value kept.
    public var kept: Kept

    /// A conflict.
    public init(
        localIdentifier: String, sidecar: String, field: String, libraryValue: String?, sidecarValue: String?,
        kept: Kept
    ) {
        self.localIdentifier = localIdentifier
        self.sidecar = sidecar
        self.field = field
        self.libraryValue = libraryValue
        self.sidecarValue = sidecarValue
        self.kept = kept
    }
}
