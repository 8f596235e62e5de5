import Foundation

/// The stable JSON shape of an album or folder (docs/architecture.md, "JSON shapes"), as `photos albums --json`
/// and `photos folders --json` print it.
///
/// Absent values leave their keys out (the shape as first published; the synthesized encoding).
/// Build many at once from the store with `DescriptionReader.collections(_:)` (PhotosStore).
public struct CollectionDescription: Codable, Sendable, Hashable {
    /// The object's local identifier.
    public var localIdentifier: String
    /// The collection's title.
    public var localizedTitle: String?
    /// `album`, `smartAlbum` or `folder`.
    public var type: String
    /// `albumRegular`, `smartAlbumFavorites`, `regularFolder`...
    public var subtype: String
    /// For albums: the number of assets (for smart albums, counted now).
    public var estimatedAssetCount: Int?
    /// For directory-backed albums and folders: the directory.
    public var path: String?
    /// The folder holding this collection, if any.
    public var parentLocalIdentifier: String?
    /// The earliest creation date of its assets, ISO 8601.
    public var startDate: String?
    /// The latest creation date of its assets, ISO 8601.
    public var endDate: String?

    /// A collection description with every value given.
    public init(
        localIdentifier: String, localizedTitle: String?, type: String, subtype: String, estimatedAssetCount: Int?,
        path: String?, parentLocalIdentifier: String?, startDate: String?, endDate: String?
    ) {
        self.localIdentifier = localIdentifier
        self.localizedTitle = localizedTitle
        self.type = type
        self.subtype = subtype
        self.estimatedAssetCount = estimatedAssetCount
        self.path = path
        self.parentLocalIdentifier = parentLocalIdentifier
        self.startDate = startDate
        self.endDate = endDate
    }
}
