import Foundation
import PhotosCore
import PhotosPlaces
import PhotosStore

/// A folder: holds albums and other folders. Each watched root and each directory of directories
/// is one.
public final class PHCollectionList: PHCollection, @unchecked Sendable {  // Immutable after init: `let`s.
    /// Always `.folder` here.
    public let collectionListType: PHCollectionListType
    /// `.regularFolder`.
    public let collectionListSubtype: PHCollectionListSubtype
    /// The earliest creation date among the assets of the folder's albums.
    public let startDate: Date?
    /// The latest creation date among the assets of the folder's albums.
    public let endDate: Date?
    /// The names of the places where the photos of the folder's albums were taken, through its
    /// folders at every depth, computed when asked; the rule of
    /// ``PHAssetCollection/localizedLocationNames``. Empty without a gazetteer.
    public var localizedLocationNames: [String] {
        guard let gazetteer = PlaceLookup.gazetteer(for: placesLibrary) else { return [] }
        return PlaceNames.names(of: memberPositions, in: gazetteer)
    }

    /// The collections of a transient folder, which lives only in memory.
    let transientCollections: [PHCollection]?

    override convenience init(info: CollectionInfo, library: PHPhotoLibrary?) {
        self.init(info: info, library: library, transientCollections: nil)
    }

    init(info: CollectionInfo, library: PHPhotoLibrary?, transientCollections: [PHCollection]?) {
        self.transientCollections = transientCollections
        collectionListType = PHCollectionListType(rawValue: info.record.type) ?? .folder
        collectionListSubtype = PHCollectionListSubtype(rawValue: info.record.subtype) ?? .regularFolder
        startDate = info.startDate.map(Date.init(timeIntervalSince1970:))
        endDate = info.endDate.map(Date.init(timeIntervalSince1970:))
        super.init(info: info, library: library)
    }

    public override var canContainCollections: Bool { true }
}
