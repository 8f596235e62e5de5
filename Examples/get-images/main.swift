// Seed 004's image listings ("Getting thumbnails", "Getting Full Size Images"), unchanged, run
// against PHPhotoLibrary.shared() (set PHOTOS_LIBRARY): a thumbnail and the full-size image of
// every image asset. The driver at the end is not in the seed.
import Foundation
import Photos

// Get thumbnail for UICollectionView
func getThumbnail(for asset: PHAsset, targetSize: CGSize, completion: @escaping (UIImage?) -> Void) {
    let options = PHImageRequestOptions()
    options.deliveryMode = .opportunistic
    options.resizeMode = .exact
    options.isNetworkAccessAllowed = true
    PHImageManager.default().requestImage(
        for: asset,
        targetSize: targetSize,
        contentMode: .aspectFill,
        options: options,
        resultHandler: { (image: UIImage?, info: [AnyHashable: Any]?) in
            DispatchQueue.main.async(execute: {
                completion(image)
            })
        })
}

// Get full size image for editing
func getFullSizeImage(for asset: PHAsset, completion: @escaping (UIImage?, [AnyHashable: Any]?) -> Void) {
    let options = PHImageRequestOptions()
    options.deliveryMode = .highQualityFormat
    options.isNetworkAccessAllowed = true
    options.isSynchronous = false
    PHImageManager.default().requestImage(
        for: asset,
        targetSize: PHImageManagerMaximumSize,
        contentMode: .aspectFit,
        options: options,
        resultHandler: { (image: UIImage?, info: [AnyHashable: Any]?) in
            DispatchQueue.main.async(execute: {
                completion(image, info)
            })
        }
    )
}

// The driver: one asset after another, on the main queue the listings deliver to.
func describe(_ image: UIImage?) -> String {
    image.map { "\(Int($0.size.width))x\(Int($0.size.height))" } ?? "none"
}

var pending = Array(PHAsset.fetchAssets(with: .image, options: nil))
func next() {
    guard !pending.isEmpty else { exit(0) }
    let asset = pending.removeFirst()
    let name = PHAssetResource.assetResources(for: asset).first?.originalFilename ?? asset.localIdentifier
    var thumbnails = 0
    // Opportunistic: a degraded image first, then the final one.
    getThumbnail(for: asset, targetSize: CGSize(width: 128, height: 128)) { image in
        thumbnails += 1
        print("thumbnail \(thumbnails) of \(name): \(describe(image))")
        guard thumbnails == 2 else { return }
        getFullSizeImage(for: asset) { image, info in
            let degraded = info?[PHImageResultIsDegradedKey] as? Bool ?? false
            print("full size of \(name): \(describe(image))\(degraded ? " (degraded)" : "")")
            next()
        }
    }
}
DispatchQueue.main.asyncAfter(deadline: .now() + 60) {
    print("timed out")
    exit(1)
}
DispatchQueue.main.async { next() }
dispatchMain()
