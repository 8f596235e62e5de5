import Foundation
import Photos
import PhotosIngest

/// The shared corpus scanned into an in-memory library, with each file's resource and asset by
/// its path under the corpus: what the tests that hold the library to `truth.json` compare.
public struct ScannedCorpus {
    /// The library, fetching hidden assets and every burst member too.
    public let library: PHPhotoLibrary
    /// The corpus root with symbolic links resolved, as the scanner records paths.
    public let root: String
    /// The scan's report.
    public let report: ScanReport
    /// Each ingested file's resource and the asset it belongs to, by path relative to ``root``.
    public let files: [String: (resource: PHAssetResource, asset: PHAsset)]

    /// Scans the corpus; throws when it is absent (guard tests with `Corpus.isAvailable`).
    public init() throws {
        guard let corpus = Corpus.root else { throw CocoaError(.fileNoSuchFile) }
        root = corpus.resolvingSymlinksInPath().path
        library = try PHPhotoLibrary(inMemoryWith: .init())
        report = try FolderScanner(database: library.database).scan(roots: [root])
        var files: [String: (resource: PHAssetResource, asset: PHAsset)] = [:]
        for asset in PHAsset.fetchAssets(with: Self.options(library)) {
            for resource in PHAssetResource.assetResources(for: asset) {
                files[String(resource.fileURL.path.dropFirst(root.count + 1))] = (resource, asset)
            }
        }
        self.files = files
    }

    /// Options that fetch from this library, hidden assets and every burst member included.
    public var options: PHFetchOptions { Self.options(library) }

    private static func options(_ library: PHPhotoLibrary) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return options
    }
}
