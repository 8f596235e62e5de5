import Foundation
import Photos
import PhotosCore
import PhotosStore

/// A library whose assets are given files, referenced where they are (the corpus is only read):
/// one asset per file, written straight through the store, so that files a scan would reject
/// (truncated, corrupt, a decompression bomb) can be assets too.
public final class FileAssetLibrary: @unchecked Sendable {  // `identifiers` is written only during init.
    /// The library, in a temporary directory.
    public let library: PHPhotoLibrary
    /// The temporary directory (the library file, and any files a test makes there).
    public let directory: TemporaryDirectory
    /// Asset local identifiers by file path.
    public private(set) var identifiers: [String: String] = [:]

    /// Creates a library with an asset for each of `files` (image assets; `videos` as videos;
    /// each of `livePhotos` as one Live Photo of its still and its movie).
    /// Its image requests keep no disk cache unless `thumbnailCache` names a directory for one:
    /// the corpus' files keep their stamps from run to run, so a shared cache would answer one
    /// run's requests with another's images. `configure` sets anything else of the library's
    /// configuration (a gazetteer).
    public init(
        files: [URL], videos: [URL] = [], livePhotos: [(photo: URL, video: URL)] = [],
        directory: TemporaryDirectory? = nil, thumbnailCache: String? = nil,
        configure: (inout PHPhotoLibrary.Configuration) -> Void = { _ in }
    ) throws {
        self.directory = try directory ?? TemporaryDirectory(prefix: "photos-images")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = thumbnailCache
        configure(&configuration)
        library = try PHPhotoLibrary(url: self.directory.path("library.sqlite"), configuration: configuration)
        try library.database.write { transaction in
            for (file, type) in files.map({ ($0, PHAssetMediaType.image) }) + videos.map({ ($0, .video) }) {
                let identifier = LocalIdentifier.make(.asset)
                let record = AssetRecord(localIdentifier: identifier, mediaType: type)
                let resource = ResourceRecord(
                    assetId: 0, type: (type == .video ? PHAssetResourceType.video : .photo).rawValue, path: file.path,
                    uniformTypeIdentifier: file.pathExtension.lowercased() == "png" ? "public.png" : "public.jpeg",
                    mimeType: nil, fileSize: 0, originalFilename: file.lastPathComponent)
                _ = try transaction.insertAsset(record, resources: [resource])
                identifiers[file.path] = identifier
            }
            for (photo, video) in livePhotos {
                let identifier = LocalIdentifier.make(.asset)
                var record = AssetRecord(localIdentifier: identifier, mediaType: .image)
                record.mediaSubtypes = Int64(PHAssetMediaSubtype.photoLive.rawValue)
                let resources = [
                    (photo, PHAssetResourceType.photo, "public.heic"),
                    (video, .pairedVideo, "com.apple.quicktime-movie"),
                ]
                .map { file, type, identifier in
                    ResourceRecord(
                        assetId: 0, type: type.rawValue, path: file.path, uniformTypeIdentifier: identifier,
                        mimeType: nil, fileSize: 0, originalFilename: file.lastPathComponent)
                }
                _ = try transaction.insertAsset(record, resources: resources)
                identifiers[photo.path] = identifier
            }
        }
    }

    /// The asset of a file.
    public func asset(_ file: URL) -> PHAsset {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return PHAsset.fetchAssets(withLocalIdentifiers: [identifiers[file.path]!], options: options).firstObject!
    }
}
