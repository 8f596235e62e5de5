import Foundation
import PhotosCore
import PhotosStore

extension PHAsset {
    /// The library's assets matching the options (hidden assets and non-representative burst
    /// members left out by default).
    public class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        fetch(.library, mediaType: nil, options: options, library: nil)
    }

    /// The library's assets of one media type.
    public class func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<PHAsset>
    {
        fetch(.library, mediaType: mediaType, options: options, library: nil)
    }

    /// The assets of an album or smart album; an album's own order unless sorted.
    public class func fetchAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        if let transient = assetCollection.transientAssets {
            // The options apply as to any album: a query over the listed assets, in their order
            // unless sorted. Assets of no library (or of several) can only be given as they are.
            let rows = transient.compactMap(\.rowID)
            guard let library = options?.photoLibrary ?? transient.first?.library, rows.count == transient.count,
                transient.allSatisfy({ $0.library === library })
            else { return PHFetchResult(objects: transient) }
            return fetch(.listed(rows), mediaType: nil, options: options, library: library)
        }
        return fetch(scope(of: assetCollection), mediaType: nil, options: options, library: assetCollection.library)
    }

    /// The assets with these local identifiers (unknown identifiers are skipped).
    public class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        fetch(.localIdentifiers(identifiers), mediaType: nil, options: options, library: nil)
    }

    /// Every member of a burst, whatever `includeAllBurstAssets` says.
    public class func fetchAssets(withBurstIdentifier burstIdentifier: String, options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        fetch(.burst(burstIdentifier), mediaType: nil, options: options, library: nil)
    }

    /// The key assets of a collection: its first asset, or nil when it has none.
    public class func fetchKeyAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>?
    {
        // Every option applies; the limit is one.
        let limited = (options ?? PHFetchOptions()).copy(with: nil) as! PHFetchOptions
        limited.fetchLimit = 1
        let result = fetchAssets(in: assetCollection, options: limited)
        return result.isEmpty ? nil : result
    }

    static func scope(of collection: PHAssetCollection) -> AssetQuery.Scope {
        if collection.assetCollectionType == .smartAlbum {
            return .smartAlbum(collection.assetCollectionSubtype)
        }
        return .collection(collection.rowID ?? -1)
    }

    private static func fetch(
        _ scope: AssetQuery.Scope, mediaType: PHAssetMediaType?, options: PHFetchOptions?, library: PHPhotoLibrary?
    ) -> PHFetchResult<PHAsset> {
        let library = options?.photoLibrary ?? library ?? PHPhotoLibrary.current
        let query = (options ?? PHFetchOptions()).assetQuery(scope: scope, mediaType: mediaType, in: library)
        let result = library.fetchAssets(query)
        result.wantsIncrementalChangeDetails = options?.wantsIncrementalChangeDetails ?? true
        return result
    }
}

extension PHCollection {
    /// The albums and folders inside a folder, in its order (one level, as PhotoKit does).
    public class func fetchCollections(in collectionList: PHCollectionList, options: PHFetchOptions?)
        -> PHFetchResult<PHCollection>
    {
        if let transient = collectionList.transientCollections {
            // As for a folder: a query over the listed collections, in their order unless sorted.
            let rows = transient.compactMap(\.rowID)
            guard let library = options?.photoLibrary ?? transient.first?.library, rows.count == transient.count,
                transient.allSatisfy({ $0.library === library })
            else { return PHFetchResult(objects: transient) }
            return library.fetchCollections(
                (options ?? PHFetchOptions()).collectionQuery(scope: .listed(rows), schema: .collection, in: library))
        }
        let library = options?.photoLibrary ?? collectionList.library ?? PHPhotoLibrary.current
        let query = (options ?? PHFetchOptions()).collectionQuery(
            scope: .children(of: collectionList.rowID ?? -1), schema: .collection, in: library)
        return library.fetchCollections(query)
    }

    /// The user's albums and folders that are not inside a folder.
    public class func fetchTopLevelUserCollections(with options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        let library = options?.photoLibrary ?? PHPhotoLibrary.current
        let query = (options ?? PHFetchOptions()).collectionQuery(
            scope: .children(of: nil), schema: .collection, in: library)
        return library.fetchCollections(query)
    }
}

extension PHAssetCollection {
    /// Albums of a type and subtype (`.any` for every subtype).
    public class func fetchAssetCollections(
        with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype, options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        fetch(.assetCollections(type: type, subtype: subtype), options: options, library: nil)
    }

    /// The albums with these local identifiers.
    public class func fetchAssetCollections(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
        -> PHFetchResult<PHAssetCollection>
    {
        fetch(.localIdentifiers(identifiers, isList: false), options: options, library: nil)
    }

    /// The albums of a type that hold an asset. Smart albums are computed: an asset is in every
    /// smart album whose rule it meets.
    public class func fetchAssetCollectionsContaining(
        _ asset: PHAsset, with type: PHAssetCollectionType, options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        let library = options?.photoLibrary ?? asset.library ?? PHPhotoLibrary.current
        if type == .smartAlbum {
            let albums = PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .any,
                options: {
                    let smart = PHFetchOptions()
                    smart.photoLibrary = library
                    return smart
                }())
            let matching = albums.filter { album in
                let options = PHFetchOptions()
                options.photoLibrary = library
                options.includeHiddenAssets = true
                options.includeAllBurstAssets = true
                options.predicate = NSPredicate(format: "SELF == %@", asset)
                return !PHAsset.fetchAssets(in: album, options: options).isEmpty
            }
            // The smart albums holding it, fetched with the options (predicate, sort, limit) as
            // any collections are: in their own order unless sorted.
            let query = (options ?? PHFetchOptions()).collectionQuery(
                scope: .listed(matching.compactMap(\.rowID)), schema: .assetCollection, in: library)
            return library.fetchCollections(query)
        }
        return fetch(.containingAsset(asset.rowID ?? -1, type: type), options: options, library: library)
    }

    /// A collection that exists only in memory, over some assets; it cannot be edited.
    public class func transientAssetCollection(with assets: [PHAsset], title: String?) -> PHAssetCollection {
        TransientCollections.album(assets: assets, title: title)
    }

    /// A transient collection over a fetch result's assets.
    public class func transientAssetCollection(withAssetFetchResult fetchResult: PHFetchResult<PHAsset>, title: String?)
        -> PHAssetCollection
    {
        TransientCollections.album(assets: Array(fetchResult), title: title)
    }

    private static func fetch(_ scope: CollectionQuery.Scope, options: PHFetchOptions?, library: PHPhotoLibrary?)
        -> PHFetchResult<PHAssetCollection>
    {
        let library = options?.photoLibrary ?? library ?? PHPhotoLibrary.current
        let query = (options ?? PHFetchOptions()).collectionQuery(scope: scope, schema: .assetCollection, in: library)
        return library.fetchCollections(query)
    }
}

extension PHCollectionList {
    /// Folders of a type and subtype (`.any` for every subtype).
    public class func fetchCollectionLists(
        with type: PHCollectionListType, subtype: PHCollectionListSubtype, options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        fetch(.collectionLists(type: type, subtype: subtype), options: options, library: nil)
    }

    /// The folders with these local identifiers.
    public class func fetchCollectionLists(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
        -> PHFetchResult<PHCollectionList>
    {
        fetch(.localIdentifiers(identifiers, isList: true), options: options, library: nil)
    }

    /// The folder holding a collection (a collection has at most one).
    public class func fetchCollectionListsContaining(_ collection: PHCollection, options: PHFetchOptions?)
        -> PHFetchResult<PHCollectionList>
    {
        fetch(.listsContaining(collection.rowID ?? -1), options: options, library: collection.library)
    }

    /// A folder that exists only in memory, over some collections; it cannot be edited.
    public class func transientCollectionList(with collections: [PHCollection], title: String?) -> PHCollectionList {
        TransientCollections.list(collections: collections, title: title)
    }

    /// A transient folder over a fetch result's collections (albums, folders, or both).
    public class func transientCollectionList<Collection: PHCollection>(
        withCollectionsFetchResult fetchResult: PHFetchResult<Collection>, title: String?
    ) -> PHCollectionList {
        TransientCollections.list(collections: fetchResult.map { $0 as PHCollection }, title: title)
    }

    private static func fetch(_ scope: CollectionQuery.Scope, options: PHFetchOptions?, library: PHPhotoLibrary?)
        -> PHFetchResult<PHCollectionList>
    {
        let library = options?.photoLibrary ?? library ?? PHPhotoLibrary.current
        let query = (options ?? PHFetchOptions()).collectionQuery(scope: scope, schema: .collectionList, in: library)
        return library.fetchCollections(query)
    }
}

/// Collections that live only in memory.
enum TransientCollections {
    static func album(assets: [PHAsset], title: String?) -> PHAssetCollection {
        let dates = assets.compactMap(\.creationDate)
        var info = CollectionInfo(
            record: CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumImported.rawValue,
                title: title, createdDate: Date().timeIntervalSince1970))
        info.estimatedAssetCount = assets.count
        info.startDate = dates.min()?.timeIntervalSince1970
        info.endDate = dates.max()?.timeIntervalSince1970
        return PHAssetCollection(info: info, library: nil, transientAssets: assets)
    }

    static func list(collections: [PHCollection], title: String?) -> PHCollectionList {
        PHCollectionList(
            info: CollectionInfo(
                record: CollectionRecord(
                    localIdentifier: LocalIdentifier.make(.collectionList), isList: true,
                    type: PHCollectionListType.smartFolder.rawValue,
                    subtype: PHCollectionListSubtype.smartFolderEvents.rawValue, title: title,
                    createdDate: Date().timeIntervalSince1970)),
            library: nil, transientCollections: collections)
    }
}
