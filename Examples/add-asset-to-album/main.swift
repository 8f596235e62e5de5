// Seed 000, listing 1 ("Creating an asset and adding it to an album"), unchanged but for the marked
// edit, run against PHPhotoLibrary.shared() (set PHOTOS_LIBRARY). Usage: add-asset-to-album IMAGE...
import Foundation
import Photos

func addAsset(image: UIImage, to album: PHAssetCollection) {
    PHPhotoLibrary.shared().performChanges(
        {
            // Request creating an asset from the image.
            let creationRequest = PHAssetChangeRequest.creationRequestForAsset(from: image)
            // Request editing the album.
            guard let addAssetRequest = PHAssetCollectionChangeRequest(for: album)
            else { return }
            // Get a placeholder for the new asset and add it to the album editing request.
            addAssetRequest.addAssets([creationRequest.placeholderForCreatedAsset!] as NSArray)
        },
        completionHandler: { success, error in
            // EDIT: NSLog("...\(error)") becomes print, which Linux writes to standard output.
            if !success { print("error creating asset: \(String(describing: error))") }
        })
}

let paths = CommandLine.arguments.dropFirst()
guard !paths.isEmpty else {
    print("usage: add-asset-to-album IMAGE...")
    exit(2)
}
var albumID = ""
try PHPhotoLibrary.shared().performChangesAndWait {
    albumID =
        PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Added")
        .placeholderForCreatedAssetCollection.localIdentifier
}
let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject!
for path in paths {
    guard let image = UIImage(contentsOfFile: path) else {
        print("cannot read \(path)")
        exit(1)
    }
    addAsset(image: image, to: album)
}
// Change blocks run in order; an empty one finishing means the ones before it are done.
try PHPhotoLibrary.shared().performChangesAndWait {}
let assets = PHAsset.fetchAssets(in: album, options: nil)
print("album \(album.localizedTitle!) holds \(assets.count) assets")
for asset in assets {
    print(
        "\(asset.localIdentifier) \(asset.pixelWidth)x\(asset.pixelHeight) \(PHAssetResource.assetResources(for: asset).first!.originalFilename)"
    )
}
