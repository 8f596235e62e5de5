// Seed 004's "Modifying Albums", "Modifying Folders" and "Editing Metadata" listings and seed 003's
// album edits (translated from Objective-C), unchanged but for the marked edits, run against
// PHPhotoLibrary.shared() (set PHOTOS_LIBRARY). Completion handlers hop to the main queue as in the
// seeds, so the program runs the main queue (dispatchMain) and exits when the last step is done.
import Foundation
import Photos

// Create a new album
func createAlbum(withTitle title: String, completion: @escaping (PHAssetCollection?) -> Void) {
    var placeholder: String?
    PHPhotoLibrary.shared().performChanges(
        {
            let createRequest: PHAssetCollectionChangeRequest =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            placeholder = createRequest.placeholderForCreatedAssetCollection.localIdentifier
        },
        completionHandler: { (success: Bool, error: (any Error)?) in
            if success, let identifier = placeholder {
                let fetchResult: PHFetchResult<PHAssetCollection> = PHAssetCollection.fetchAssetCollections(
                    withLocalIdentifiers: [identifier],
                    options: nil
                )
                let collection: PHAssetCollection? = fetchResult.firstObject
                DispatchQueue.main.async(execute: {
                    completion(collection)
                })
            } else {
                DispatchQueue.main.async(execute: {
                    completion(nil)
                })
            }
        })
}

// Add assets to an album
func addAssets(assets: [PHAsset], toAlbum album: PHAssetCollection, completion: @escaping (Bool) -> Void) {
    PHPhotoLibrary.shared().performChanges(
        {
            if let changeRequest = PHAssetCollectionChangeRequest(for: album) {
                changeRequest.addAssets(
                    PHAsset.fetchAssets(withLocalIdentifiers: assets.map { $0.localIdentifier }, options: nil)
                        as NSFastEnumeration)
            }
        },
        completionHandler: { (success: Bool, error: (any Error)?) in
            DispatchQueue.main.async(execute: {
                completion(success)
            })
        })
}

// Remove assets from an album
func removeAssets(assets: [PHAsset], fromAlbum album: PHAssetCollection, completion: @escaping (Bool) -> Void) {
    PHPhotoLibrary.shared().performChanges(
        {
            if let changeRequest = PHAssetCollectionChangeRequest(for: album) {
                changeRequest.removeAssets(
                    PHAsset.fetchAssets(withLocalIdentifiers: assets.map { $0.localIdentifier }, options: nil)
                        as NSFastEnumeration)
            }
        },
        completionHandler: { (success: Bool, error: (any Error)?) in
            DispatchQueue.main.async(execute: {
                completion(success)
            })
        })
}

// Create a new folder
func createFolder(withTitle title: String, completion: @escaping (PHCollectionList?) -> Void) {
    var placeholder: String?
    PHPhotoLibrary.shared().performChanges(
        {
            let createRequest = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: title)
            placeholder = createRequest.placeholderForCreatedCollectionList.localIdentifier
        },
        completionHandler: { success, error in
            if success, let identifier: String = placeholder {
                let fetchResult: PHFetchResult<PHCollectionList> = PHCollectionList.fetchCollectionLists(
                    withLocalIdentifiers: [identifier],
                    options: nil
                )
                let folder: PHCollectionList? = fetchResult.firstObject
                DispatchQueue.main.async(execute: {
                    completion(folder)
                })
            } else {
                DispatchQueue.main.async(execute: {
                    completion(nil)
                })
            }
        })
}

// Add albums to a folder
func addAlbums(albums: [PHAssetCollection], toFolder folder: PHCollectionList, completion: @escaping (Bool) -> Void) {
    PHPhotoLibrary.shared().performChanges(
        {
            if let changeRequest = PHCollectionListChangeRequest(for: folder) {
                changeRequest.addChildCollections(
                    PHAssetCollection.fetchAssetCollections(
                        withLocalIdentifiers: albums.map({ $0.localIdentifier }),
                        options: nil
                    ) as NSFastEnumeration)
            }
        },
        completionHandler: { (success: Bool, error: (any Error)?) in
            DispatchQueue.main.async(execute: {
                completion(success)
            })
        })
}

// Modify photo location
func updateLocation(for asset: PHAsset, to newLocation: CLLocation, completion: @escaping (Bool) -> Void) {
    PHPhotoLibrary.shared().performChanges(
        {
            let request = PHAssetChangeRequest(for: asset)
            request.location = newLocation
        },
        completionHandler: { (success: Bool, error: (any Error)?) in
            DispatchQueue.main.async(execute: {
                completion(success)
            })
        })
}

// Favorite or unfavorite an asset
func setFavorite(asset: PHAsset, isFavorite: Bool, completion: @escaping (Bool) -> Void) {
    PHPhotoLibrary.shared().performChanges(
        {
            let request = PHAssetChangeRequest(for: asset)
            request.isFavorite = isFavorite
        },
        completionHandler: { (success: Bool, error: (any Error)?) in
            DispatchQueue.main.async(execute: {
                completion(success)
            })
        })
}

// Seed 003: insert at indexes into the first regular album, with the album's own snapshot.
func insertFavoritesAtIndexes(completion: @escaping (Bool) -> Void) {
    let result = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
    PHPhotoLibrary.shared().performChanges(
        {
            let fetchCollection = PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil)
            let fetchAssets = PHAsset.fetchAssets(in: fetchCollection.firstObject!, options: nil)
            let request = PHAssetCollectionChangeRequest(
                for: result.firstObject!, assets: PHAsset.fetchAssets(in: result.firstObject!, options: nil))
            var mutableIndexSet = IndexSet()
            // EDIT: seed 003 starts at 1, which is out of range for an empty album; PhotoKit raises there too.
            for i in 0..<fetchAssets.count {
                mutableIndexSet.insert(i)
            }
            request?.insertAssets(fetchAssets, at: mutableIndexSet)
        },
        completionHandler: { success, error in
            DispatchQueue.main.async { completion(success) }
        })
}

// Seed 003: delete every album that may be deleted (smart albums may not).
func deleteDeletableAlbums(completion: @escaping (Int) -> Void) {
    var deletable: [PHAssetCollection] = []
    let result = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
    result.enumerateObjects { obj, _, _ in
        if obj.canPerform(.delete) { deletable.append(obj) }
    }
    PHPhotoLibrary.shared().performChanges(
        {
            PHAssetCollectionChangeRequest.deleteAssetCollections(deletable as NSArray)
        },
        completionHandler: { success, error in
            DispatchQueue.main.async { completion(success ? deletable.count : -1) }
        })
}

let images = PHAsset.fetchAssets(with: .image, options: nil)
let firstTwo = Array(images.prefix(2))
createAlbum(withTitle: "Seed album") { album in
    guard let album else {
        print("createAlbum failed")
        exit(1)
    }
    print("created album \(album.localizedTitle ?? "")")
    addAssets(assets: firstTwo, toAlbum: album) { added in
        print(
            "added \(firstTwo.count) assets: \(added), album has \(PHAsset.fetchAssets(in: album, options: nil).count)")
        removeAssets(assets: Array(firstTwo.prefix(1)), fromAlbum: album) { removed in
            print("removed 1 asset: \(removed), album has \(PHAsset.fetchAssets(in: album, options: nil).count)")
            createFolder(withTitle: "Seed folder") { folder in
                guard let folder else {
                    print("createFolder failed")
                    exit(1)
                }
                addAlbums(albums: [album], toFolder: folder) { moved in
                    print(
                        "moved album into folder: \(moved), folder holds \(PHCollection.fetchCollections(in: folder, options: nil).count)"
                    )
                    guard let asset = firstTwo.first else {
                        print("no images to edit")
                        exit(0)
                    }
                    updateLocation(for: asset, to: CLLocation(latitude: 48.8584, longitude: 2.2945)) { located in
                        setFavorite(asset: asset, isFavorite: true) { favorited in
                            let edited = PHAsset.fetchAssets(
                                withLocalIdentifiers: [asset.localIdentifier], options: nil
                            ).firstObject!
                            print(
                                "location set: \(located), favorite set: \(favorited), now \(edited.location!.coordinate.latitude) \(edited.isFavorite)"
                            )
                            insertFavoritesAtIndexes { inserted in
                                print("inserted favorites at indexes: \(inserted)")
                                deleteDeletableAlbums { count in
                                    print("deleted \(count) deletable albums")
                                    exit(0)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
dispatchMain()
