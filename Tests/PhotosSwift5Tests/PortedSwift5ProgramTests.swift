import Dispatch
import Foundation
import Photos
import PhotosTestSupport
import Testing

// A PhotoKit program as written before strict concurrency, compiled in Swift 5 language mode.

extension PHFetchResult {
    /// The result's objects, as pre-concurrency apps wrote the helper.
    var swift5Array: [ObjectType] {
        var objects: [ObjectType] = []
        enumerateObjects { object, _, _ in objects.append(object) }
        return objects
    }
}

/// Counts changes to all assets; a plain class with mutable state.
final class Swift5Counter: PHPhotoLibraryChangeObserver {
    var assets: PHFetchResult<PHAsset>
    var changes = 0
    let changed = DispatchSemaphore(value: 0)

    init(_ assets: PHFetchResult<PHAsset>) { self.assets = assets }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        guard let details = changeInstance.changeDetails(for: assets) else { return }
        assets = details.fetchResultAfterChanges
        changes += 1
        changed.signal()
    }
}

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PortedSwift5ProgramTests {
    @Test func aPreConcurrencyProgramReadsAThumbnailAndFollowsChanges() async throws {
        let corpus = try await offPool { try ScannedCorpus() }
        let all = PHAsset.fetchAssets(with: corpus.options)
        #expect(all.swift5Array.count == all.count)
        let (_, photo) = try #require(corpus.files["Phone/DCIM/100APPLE/IMG_0005.JPG"])
        let image: UIImage? = try await offPool {
            let options = PHImageRequestOptions()
            options.isSynchronous = true
            var image: UIImage?
            PHImageManager.default().requestImage(
                for: photo, targetSize: CGSize(width: 32, height: 32), contentMode: .aspectFill, options: options
            ) { result, _ in image = result }
            return image
        }
        #expect(image != nil)
    }
}
