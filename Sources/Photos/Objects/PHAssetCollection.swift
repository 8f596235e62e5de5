import Foundation
import PhotosCore
import PhotosPlaces
import PhotosStore

/// An album: a user album, a smart album, or an album mirroring a directory of media.
///
/// ```swift
/// let favorites = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil)
/// let assets = PHAsset.fetchAssets(in: favorites.firstObject!, options: nil)
/// ```
public final class PHAssetCollection: PHCollection, @unchecked Sendable {  // Immutable after init: `let`s.
    /// Album or smart album.
    public let assetCollectionType: PHAssetCollectionType
    /// The kind of album.
    public let assetCollectionSubtype: PHAssetCollectionSubtype
    /// The number of assets in an album; `NSNotFound` for smart albums, as in PhotoKit.
    public let estimatedAssetCount: Int
    /// The earliest creation date among the album's assets.
    public let startDate: Date?
    /// The latest creation date among the album's assets.
    public let endDate: Date?
    /// The centre of where the album's photos were taken (those with a position), computed when
    /// asked; nil when none has one, and for smart albums, whose members are a query.
    public var approximateLocation: CLLocation? {
        GeographicCentroid.of(memberPositions).map { CLLocation(latitude: $0.latitude, longitude: $0.longitude) }
    }
    /// The names of the places where the album's photos were taken, computed when asked: each
    /// member with a position is named after the nearest populated place within 50 km in the
    /// GeoNames gazetteer the user supplies (``PHPhotoLibrary/Configuration/gazetteerPath``); the
    /// distinct names come most frequent first (ties in name order), at most three, or the
    /// countries when there are more names than that across countries (`["France", "Italy"]`).
    /// Empty without a gazetteer, with no positioned member, and for smart albums.
    public var localizedLocationNames: [String] {
        // The gazetteer first: without one, no member is read.
        guard assetCollectionType != .smartAlbum, let gazetteer = PlaceLookup.gazetteer(for: placesLibrary) else {
            return []
        }
        return PlaceNames.names(of: memberPositions, in: gazetteer)
    }

    /// The assets of a transient collection, which lives only in memory.
    let transientAssets: [PHAsset]?

    override convenience init(info: CollectionInfo, library: PHPhotoLibrary?) {
        self.init(info: info, library: library, transientAssets: nil)
    }

    init(info: CollectionInfo, library: PHPhotoLibrary?, transientAssets: [PHAsset]?) {
        self.transientAssets = transientAssets
        assetCollectionType = PHAssetCollectionType(rawValue: info.record.type) ?? .album
        assetCollectionSubtype = PHAssetCollectionSubtype(rawValue: info.record.subtype) ?? .albumRegular
        estimatedAssetCount = info.estimatedAssetCount ?? NSNotFound
        startDate = info.startDate.map(Date.init(timeIntervalSince1970:))
        endDate = info.endDate.map(Date.init(timeIntervalSince1970:))
        super.init(info: info, library: library)
    }

    public override var canContainAssets: Bool { true }
}
