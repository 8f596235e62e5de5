import Foundation
import PhotosCore
import PhotosWire

extension AssetDescription {
    /// Describes one asset through PhotoKit's API, as a PhotoKit program would: a query for its
    /// resources, one for its albums and one for the unavailable folders, each time.
    ///
    /// This is the reference the fast path is held to (`DescriptionEquivalenceTests` compares it
    /// with `DescriptionReader` field by field over the corpus). To describe many assets, use
    /// `DescriptionReader` (over a hundred times faster, photos-bench) or
    /// `PHFetchResult.forEachDescriptionPage(in:pageSize:_:)`.
    /// Dates without a recorded offset are written in `timeZone`.
    public init(_ asset: PHAsset, timeZone: TimeZone = .current) {
        let options = PHFetchOptions()
        options.photoLibrary = asset.library
        self.init(
            localIdentifier: asset.localIdentifier, mediaType: asset.mediaType.name,
            mediaSubtypes: asset.mediaSubtypes.names, pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight,
            creationDate: asset.creationDate.map {
                ISO8601.foundation($0, offset: asset.recordedOffset ?? timeZone.secondsFromGMT(for: $0))
            },
            creationDateHasOffset: !asset.creationDateIsFloating,
            modificationDate: asset.modificationDate.map {
                ISO8601.foundation($0, offset: timeZone.secondsFromGMT(for: $0))
            },
            duration: asset.duration,
            location: asset.location.map {
                Location(
                    latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                    altitude: $0.verticalAccuracy < 0 ? nil : $0.altitude)
            },
            isFavorite: asset.isFavorite, isHidden: asset.isHidden, burstIdentifier: asset.burstIdentifier,
            representsBurst: asset.representsBurst, isAvailable: asset.isAvailable,
            isLibraryOwned: asset.isLibraryOwned,
            resources: PHAssetResource.assetResources(for: asset).map {
                Resource(
                    // Another host's file as `nas:/srv/…`, as the store and photosd name it.
                    type: $0.type.name, path: $0.fileURL.relativePath, uniformTypeIdentifier: $0.uniformTypeIdentifier,
                    mimeType: $0.mimeType, fileSize: $0.fileSize)
            },
            albums: asset.library == nil
                ? []
                : PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: options).map {
                    Album(
                        localIdentifier: $0.localIdentifier, localizedTitle: $0.localizedTitle, path: $0.directoryPath)
                },
            rating: asset.rating.rawValue, creationDateIsFileTime: asset.creationDateIsFileTime)
    }
}

extension CollectionDescription {
    /// Describes one album or folder through PhotoKit's API (the reference for
    /// `DescriptionReader.collections(_:)`, which describes many at once).
    public init(_ collection: PHCollection, timeZone: TimeZone = .current) {
        let format = { (date: Date?) in date.map { ISO8601.foundation($0, offset: timeZone.secondsFromGMT(for: $0)) } }
        var type = "unknown"
        var subtype = "unknown"
        var estimatedAssetCount: Int?
        var startDate: String?
        var endDate: String?
        if let album = collection as? PHAssetCollection {
            type = album.assetCollectionType.name
            subtype = album.assetCollectionSubtype.name
            if album.estimatedAssetCount == NSNotFound {
                let options = PHFetchOptions()
                options.photoLibrary = collection.library
                estimatedAssetCount = PHAsset.fetchAssets(in: album, options: options).count
            } else {
                estimatedAssetCount = album.estimatedAssetCount
            }
            startDate = format(album.startDate)
            endDate = format(album.endDate)
        } else if let list = collection as? PHCollectionList {
            type = list.collectionListType.name
            subtype = list.collectionListSubtype.name
            startDate = format(list.startDate)
            endDate = format(list.endDate)
        }
        self.init(
            localIdentifier: collection.localIdentifier, localizedTitle: collection.localizedTitle, type: type,
            subtype: subtype, estimatedAssetCount: estimatedAssetCount, path: collection.directoryPath,
            parentLocalIdentifier: PHCollectionList.fetchCollectionListsContaining(collection, options: nil)
                .firstObject?.localIdentifier,
            startDate: startDate, endDate: endDate)
    }
}
