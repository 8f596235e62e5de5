// Seed 004's query listings ("Querying for Media", "Querying Albums", "Getting Folders of Albums"),
// unchanged but for the marked edits, run against PHPhotoLibrary.shared() (set PHOTOS_LIBRARY).
import Foundation
import Photos

// How to get the 50 most recently taken photos.
func recentImages() -> [PHAsset] {
    var assets: [PHAsset] = []
    // 50 most recently created images
    let options = PHFetchOptions()
    options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
    options.fetchLimit = 50
    options.wantsIncrementalChangeDetails = false
    let result: PHFetchResult<PHAsset> = PHAsset.fetchAssets(with: .image, options: options)
    result.enumerateObjects(
        options: [],
        using: { (asset, index, stop) in
            assets.append(asset)
        })
    return assets
}

// How to get a list of 50 most recently taken screenshots.
func recentScreenshots() -> PHFetchResult<PHAsset> {
    let options = PHFetchOptions()
    options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
    options.fetchLimit = 50
    options.predicate = NSPredicate(
        // EDIT: the seed says "mediaSubtype", a key PhotoKit does not have; it is "mediaSubtypes".
        format: "(mediaSubtypes & %d) != 0",
        PHAssetMediaSubtype.photoScreenshot.rawValue
    )
    let result: PHFetchResult<PHAsset> = PHAsset.fetchAssets(with: .image, options: options)
    return result
}

// Predicate with an argument array.
func panoramasAndSlowMotion() -> PHFetchResult<PHAsset> {
    let format: String = "(mediaSubtypes & %d) != 0 || (mediaSubtypes & %d) != 0"
    let fetchOptions = PHFetchOptions()
    fetchOptions.predicate = NSPredicate(
        format: format,
        argumentArray: [PHAssetMediaSubtype.photoPanorama, PHAssetMediaSubtype.videoHighFrameRate]
    )
    let fetchResult = PHAsset.fetchAssets(
        with: PHAssetMediaType.image,
        options: fetchOptions
    )
    return fetchResult
}

// Get assets from a specific album
func getAssetsFromAlbum(album: PHAssetCollection, limit: Int = 0) -> [PHAsset] {
    let options = PHFetchOptions()
    options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
    if limit > 0 {
        options.fetchLimit = limit
    }
    let result = PHAsset.fetchAssets(in: album, options: options)
    var assets = [PHAsset]()
    result.enumerateObjects(
        options: [],
        using: { (asset, index, stop) in
            assets.append(asset)
        })
    return assets
}

// Fetch folders that contain albums
func getFolders() -> [PHCollectionList] {
    let fetchOptions = PHFetchOptions()
    fetchOptions.sortDescriptors = [NSSortDescriptor(key: "localizedTitle", ascending: true)]
    let foldersFetchResult = PHCollectionList.fetchTopLevelUserCollections(with: fetchOptions)
    var folders = [PHCollectionList]()
    foldersFetchResult.enumerateObjects(
        options: [],
        using: { (collection, index, stop) in
            if let folder = collection as? PHCollectionList {
                folders.append(folder)
            }
        })
    return folders
}

// Get albums within a folder
func getAlbumsInFolder(folder: PHCollectionList) -> [PHAssetCollection] {
    let fetchOptions = PHFetchOptions()
    fetchOptions.sortDescriptors = [NSSortDescriptor(key: "localizedTitle", ascending: true)]
    let albumsFetchResult = PHCollection.fetchCollections(in: folder, options: fetchOptions)
    var albums = [PHAssetCollection]()
    albumsFetchResult.enumerateObjects(
        options: [],
        using: { (collection, index, stop) in
            if let album = collection as? PHAssetCollection {
                albums.append(album)
            }
        })
    return albums
}

let images = recentImages()
print("recent images: \(images.count)")
print("screenshots: \(recentScreenshots().count)")
print("panoramas or slow motion images: \(panoramasAndSlowMotion().count)")

// Fetch user-created albums
let userAlbums = PHAssetCollection.fetchAssetCollections(
    with: .album,
    subtype: .albumRegular,
    options: nil
)
// Fetch smart albums like Favorites, Recently Added, etc.
let smartAlbums = PHAssetCollection.fetchAssetCollections(
    with: .smartAlbum,
    subtype: .any,
    options: nil
)
userAlbums.enumerateObjects(
    options: [],
    using: { (album, _, _) in
        print("album \(album.localizedTitle ?? ""): \(getAssetsFromAlbum(album: album).count) assets")
    })
smartAlbums.enumerateObjects(
    options: [],
    using: { (album, _, _) in
        print(
            "smart album \(album.localizedTitle ?? ""): \(getAssetsFromAlbum(album: album, limit: 1000).count) assets")
    })
for folder in getFolders() {
    print("folder \(folder.localizedTitle ?? ""): \(getAlbumsInFolder(folder: folder).map { $0.localizedTitle ?? "" })")
}
