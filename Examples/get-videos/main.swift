// Seed 004's video listings ("Getting Videos", "Playing Live Photos", "Get video from live photo"),
// unchanged, run against PHPhotoLibrary.shared() (set PHOTOS_LIBRARY): the AVAsset of every video,
// and the Live Photo and paired movie of every Live Photo. The driver at the end is not in the seed.
import Foundation
import Photos

// Stream iCloud video
func getVideoAsset(for asset: PHAsset, completion: @escaping (AVAsset?, [AnyHashable: Any]?) -> Void) {
    let options = PHVideoRequestOptions()
    options.deliveryMode = .automatic
    options.isNetworkAccessAllowed = true
    PHImageManager.default().requestAVAsset(
        forVideo: asset,
        options: options,
        resultHandler: { (avAsset: AVAsset?, audioMix: AVAudioMix?, info: [AnyHashable: Any]?) in
            DispatchQueue.main.async(execute: {
                completion(avAsset, info)
            })
        }
    )
}

// Get PHLivePhoto object for display
func getLivePhoto(
    for asset: PHAsset, targetSize: CGSize, completion: @escaping (PHLivePhoto?, [AnyHashable: Any]?) -> Void
) {
    let options = PHLivePhotoRequestOptions()
    options.deliveryMode = .highQualityFormat
    options.isNetworkAccessAllowed = true
    PHImageManager.default().requestLivePhoto(
        for: asset,
        targetSize: targetSize,
        contentMode: .aspectFit,
        options: options,
        resultHandler: { (livePhoto: PHLivePhoto?, info: [AnyHashable: Any]?) in
            DispatchQueue.main.async(execute: {
                completion(livePhoto, info)
            })
        }
    )
}

// Extract video component from a Live Photo
func getVideoFromLivePhoto(asset: PHAsset, completion: @escaping (AVAsset?) -> Void) {
    guard asset.mediaSubtypes.contains(.photoLive) else {
        completion(nil)
        return
    }
    let resources: [PHAssetResource] = PHAssetResource.assetResources(for: asset)
    guard let videoResource: PHAssetResource = resources.first(where: { $0.type == .pairedVideo }) else {
        completion(nil)
        return
    }
    let options = PHAssetResourceRequestOptions()
    options.isNetworkAccessAllowed = true
    let fileURL: URL = FileManager.default.temporaryDirectory.appendingPathComponent("\(NSUUID().uuidString).mov")
    PHAssetResourceManager.default().requestData(
        for: videoResource,
        options: options,
        dataReceivedHandler: { (data: Data) in
            // This handler might be called multiple times
            try? data.write(to: fileURL, options: .atomic)
        },
        completionHandler: { (error: (any Error)?) in
            if error == nil {
                let asset = AVAsset(url: fileURL)
                DispatchQueue.main.async(execute: {
                    completion(asset)
                })
            } else {
                DispatchQueue.main.async(execute: {
                    completion(nil)
                })
            }
        }
    )
}

// The driver: each video, then each Live Photo, one after another on the main queue.
func describe(_ movie: AVAsset?) -> String {
    guard let movie, let track = movie.tracks(withMediaType: .video).first else { return "none" }
    let seconds = (movie.duration.seconds * 10).rounded() / 10
    return "\(Int(track.naturalSize.width))x\(Int(track.naturalSize.height)), \(seconds) s"
}

func name(of asset: PHAsset) -> String {
    PHAssetResource.assetResources(for: asset).first?.originalFilename ?? asset.localIdentifier
}

var videos = Array(PHAsset.fetchAssets(with: .video, options: nil))
let livePhotosOptions = PHFetchOptions()
livePhotosOptions.predicate = NSPredicate(
    format: "(mediaSubtypes & %d) != 0", PHAssetMediaSubtype.photoLive.rawValue)
var livePhotos = Array(PHAsset.fetchAssets(with: .image, options: livePhotosOptions))

func next() {
    if !videos.isEmpty {
        let asset = videos.removeFirst()
        getVideoAsset(for: asset) { movie, info in
            print("video \(name(of: asset)): \(describe(movie))")
            next()
        }
    } else if !livePhotos.isEmpty {
        let asset = livePhotos.removeFirst()
        getLivePhoto(for: asset, targetSize: CGSize(width: 300, height: 300)) { livePhoto, info in
            let size = livePhoto.map { "\(Int($0.size.width))x\(Int($0.size.height))" } ?? "none"
            print("live photo \(name(of: asset)): \(size)")
            getVideoFromLivePhoto(asset: asset) { movie in
                print("live photo video of \(name(of: asset)): \(describe(movie))")
                if let url = (movie as? AVURLAsset)?.url { try? FileManager.default.removeItem(at: url) }
                next()
            }
        }
    } else {
        exit(0)
    }
}
DispatchQueue.main.asyncAfter(deadline: .now() + 60) {
    print("timed out")
    exit(1)
}
DispatchQueue.main.async { next() }
dispatchMain()
