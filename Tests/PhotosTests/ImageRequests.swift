import Foundation
import Synchronization

@testable import Photos

extension PHImageManager {
    /// The size of the whole image a synchronous request delivers for `asset` in `version`, or nil
    /// when it delivers none: which file a version is rendered from, when the files differ in size.
    func fullSizeImageSize(of asset: PHAsset, version: PHImageRequestOptionsVersion) -> CGSize? {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.version = version
        let size = Mutex<CGSize?>(nil)
        requestImage(for: asset, targetSize: PHImageManagerMaximumSize, contentMode: .default, options: options) {
            image, _ in size.withLock { $0 = image?.size }
        }
        return size.withLock { $0 }
    }
}
