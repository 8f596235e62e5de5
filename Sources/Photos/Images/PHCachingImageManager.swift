import Foundation
import Glibc
import PhotosCore
import PhotosImaging
import Synchronization

/// Images made ahead of the requests for them, kept in memory (PhotoKit's
/// `PHCachingImageManager`): a grid starts caching the rows about to scroll into view and stops
/// for those scrolled past; a request that matches a cached image (same asset, size, mode and
/// options) is answered from memory, at once and in full quality.
///
/// ```swift
/// let manager = PHCachingImageManager()
/// manager.startCachingImages(for: nextRows, targetSize: CGSize(width: 256, height: 256),
///                            contentMode: .aspectFill, options: nil)
/// manager.requestImage(for: nextRows[0], targetSize: CGSize(width: 256, height: 256),
///                      contentMode: .aspectFill, options: nil) { image, _ in show(image) }
/// ```
///
/// At most ``maximumBytes`` of encoded images are kept; the least recently used go first. An image
/// whose file changed since it was made (size or modification time) is dropped, not served. Under
/// it, the library's disk cache (`ThumbnailDiskCache` in PhotosImaging) keeps high-quality images
/// between runs: an image another run made is read, not rendered.
public final class PHCachingImageManager: PHImageManager, @unchecked Sendable {  // Its cache is in `state`, a Mutex.
    /// Whether images are cached at the quality of a final result (true, the default) or as fast,
    /// degraded ones.
    public var allowsCachingHighQualityImages: Bool {
        get { state.withLock { $0.highQuality } }
        set { state.withLock { $0.highQuality = newValue } }
    }

    /// The most encoded bytes kept (64 MB, about 2,000 thumbnails of 256 px).
    public let maximumBytes: Int

    private struct Key: Hashable {
        let asset: String
        let request: ImageRequest
    }

    private struct Entry {
        let image: RenderedImage
        let path: String
        let file: FileStamp
        var used: UInt64
    }

    private struct State {
        var highQuality = true
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        /// Keys asked for and not yet made or stopped.
        var wanted: Set<Key> = []
    }

    private let state = Mutex(State())

    /// A cache of at most `maximumBytes` of encoded images.
    public init(maximumBytes: Int = 64 << 20) {
        self.maximumBytes = max(0, maximumBytes)
        super.init()
    }

    /// A cache of at most 64 MB.
    public override convenience init() {
        self.init(maximumBytes: 64 << 20)
    }

    /// Makes these assets' images at this size and mode, in the background.
    public func startCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) {
        let request = ImagePlan(
            targetSize: targetSize, contentMode: contentMode, options: options ?? PHImageRequestOptions()
        ).request
        for asset in assets where asset.mediaType == .image {
            let key = Key(asset: asset.localIdentifier, request: request)
            let fresh = state.withLock { state in
                state.entries[key] == nil && state.wanted.insert(key).inserted
            }
            guard fresh else { continue }
            queue.async { [self] in make(key, asset: asset) }
        }
    }

    /// Stops making, and forgets, these assets' images at this size and mode.
    public func stopCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) {
        let request = ImagePlan(
            targetSize: targetSize, contentMode: contentMode, options: options ?? PHImageRequestOptions()
        ).request
        state.withLock { state in
            for asset in assets {
                let key = Key(asset: asset.localIdentifier, request: request)
                state.wanted.remove(key)
                if let entry = state.entries.removeValue(forKey: key) { state.bytes -= entry.image.data.count }
            }
        }
    }

    /// Stops making, and forgets, every image.
    public func stopCachingImagesForAllAssets() {
        state.withLock { state in
            state.wanted.removeAll()
            state.entries.removeAll()
            state.bytes = 0
        }
    }

    /// How many images are cached now (not in PhotoKit's API).
    public var cachedImageCount: Int { state.withLock { $0.entries.count } }

    override func cachedImage(of asset: PHAsset, _ request: ImageRequest) -> RenderedImage? {
        let key = Key(asset: asset.localIdentifier, request: request)
        guard let entry = state.withLock({ $0.entries[key] }) else { return nil }
        guard FileStamp(path: entry.path) == entry.file else {
            state.withLock { state in
                if let gone = state.entries.removeValue(forKey: key) { state.bytes -= gone.image.data.count }
            }
            return nil
        }
        state.withLock { state in
            state.clock += 1
            state.entries[key]?.used = state.clock
        }
        return entry.image
    }

    /// Renders one wanted image and keeps it, unless it was stopped meanwhile.
    private func make(_ key: Key, asset: PHAsset) {
        guard let highQuality = state.withLock({ $0.wanted.contains(key) ? $0.highQuality : nil }) else { return }
        guard let path = try? Self.photoResource(of: asset).fileURL.path else {
            state.withLock { _ = $0.wanted.remove(key) }
            return
        }
        let stamp = FileStamp(path: path)
        // High-quality images come from the disk cache when another run made them, and go there.
        let kept = highQuality ? Self.diskEntry(of: asset, fileAt: path, key.request) : nil
        let image: RenderedImage?
        if let kept, let found = kept.cache.image(for: kept.key) {
            image = found
        } else if highQuality {
            image = try? imageRenderer.render(fileAt: path, key.request)
            if let kept, let image { kept.cache.store(image, for: kept.key) }
        } else {
            image = try? imageRenderer.renderPreview(fileAt: path, key.request)
        }
        state.withLock { state in
            guard state.wanted.remove(key) != nil, let image, let stamp, image.data.count <= maximumBytes else {
                return
            }
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.image.data.count }
            state.entries[key] = Entry(image: image, path: path, file: stamp, used: state.clock)
            state.bytes += image.data.count
            while state.bytes > maximumBytes, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.image.data.count
            }
        }
    }
}

/// A file's size and modification time: what says it changed.
struct FileStamp: Hashable {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    init?(path: String) {
        var status = stat()
        guard PathBytes.withCString(path, { stat($0, &status) }) == 0 else { return nil }
        size = Int64(status.st_size)
        seconds = status.st_mtim.tv_sec
        nanoseconds = status.st_mtim.tv_nsec
    }
}
