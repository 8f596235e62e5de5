import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// A file behind an asset: its photo, a Live Photo's paired video, the RAW of a RAW+JPEG pair.
///
/// ```swift
/// let video = PHAssetResource.assetResources(for: asset).first { $0.type == .pairedVideo }
/// ```
public final class PHAssetResource: NSObject, Sendable {
    /// What the file is to the asset.
    public let type: PHAssetResourceType
    /// The asset this resource belongs to.
    public let assetLocalIdentifier: String
    /// The file's uniform type identifier (`public.jpeg`).
    public let uniformTypeIdentifier: String
    /// The file's name when it was added.
    public let originalFilename: String
    /// The absolute path of the file (not in PhotoKit's API; Linux has no sandbox to hide it). In a
    /// library several hosts share, a file on another host's disk has a relative URL naming that
    /// host, whose `relativePath` is `nas:/srv/photos/IMG_1.JPG` (see ``host``): no root of this
    /// host's holds it, so nothing here reads or writes it.
    public let fileURL: URL
    /// The file's MIME type (not in PhotoKit's API).
    public let mimeType: String?
    /// The file's size in bytes (not in PhotoKit's API).
    public let fileSize: Int64
    /// The width in pixels of the file's picture or movie as displayed (orientation applied, as
    /// ``PHAsset/pixelWidth``); 0 when the file has none (adjustment data) or its size was not
    /// kept (a paired video or RAW stored by a build before sizes were kept per file, until the
    /// file changes and is read again).
    public let pixelWidth: Int
    /// The height in pixels of the file's picture or movie as displayed (see ``pixelWidth``).
    public let pixelHeight: Int

    /// In a library several hosts share, the host whose disk holds the file when it is not this
    /// host's (not in PhotoKit's API): its photosd serves it. Nil for a file on this host's disk.
    public var host: String? { RootHosts.holder(of: fileURL.relativePath) }

    init(record: ResourceRecord, assetLocalIdentifier: String) {
        type = PHAssetResourceType(rawValue: record.type) ?? .photo
        self.assetLocalIdentifier = assetLocalIdentifier
        uniformTypeIdentifier = record.uniformTypeIdentifier ?? "public.data"
        originalFilename = record.originalFilename
        fileURL = Self.fileURL(of: record.path)
        mimeType = record.mimeType
        fileSize = record.fileSize
        pixelWidth = Int(record.pixelWidth ?? 0)
        pixelHeight = Int(record.pixelHeight ?? 0)
    }

    /// Where nothing is: the base of another host's files' URLs (procfs makes no such entry).
    static let anotherHostsFiles = URL(fileURLWithPath: "/proc/self/photosd-file-of-another-host/", isDirectory: true)

    /// The URL of the file at `path` as the store gives it back. Another host's (`nas:/srv/IMG_1.JPG`)
    /// is relative to ``anotherHostsFiles``: its `relativePath` is the host's path, and its `path`
    /// leads nowhere on this host's disk, so nothing here is read or written for it (a URL of that
    /// path alone would be relative to the current directory, where a file of that name may be).
    static func fileURL(of path: String) -> URL {
        // A resource is a file: said, so that the URL is made without a `stat` to ask.
        guard RootHosts.holder(of: path) != nil else { return URL(fileURLWithPath: path, isDirectory: false) }
        return URL(fileURLWithPath: path, isDirectory: false, relativeTo: anotherHostsFiles)
    }

    /// A resource of a file that is in no library (a ``PHLivePhoto`` made from files), its type
    /// read from its content.
    init(type: PHAssetResourceType, fileURL: URL, sniffed: SniffResult, fileSize: Int64) {
        self.type = type
        assetLocalIdentifier = ""
        uniformTypeIdentifier = sniffed.uniformTypeIdentifier ?? "public.data"
        originalFilename = fileURL.lastPathComponent
        self.fileURL = fileURL
        mimeType = sniffed.mimeType
        self.fileSize = fileSize
        pixelWidth = 0
        pixelHeight = 0
    }

    /// The type of the file (iOS 26): ``uniformTypeIdentifier`` as a ``UTType``, so that its MIME
    /// type, extension and kind can be asked (`contentType.conforms(to: .rawImage)`). An identifier
    /// the type table does not know gives an undeclared type conforming to `public.data`.
    public var contentType: UTType { UTType(importedAs: uniformTypeIdentifier) }

    /// The file's name (PhotoKit SDK 27's name for `originalFilename`).
    public var filename: String { originalFilename }

    /// The resources of an asset, photo first. Empty when the library cannot be read; then its
    /// ``PHPhotoLibrary/unavailabilityReason`` says why.
    public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        guard let rowID = asset.rowID, let library = asset.library else { return [] }
        let records = library.fetching("reading resources", fallback: []) {
            try library.database.resources(assetIDs: [rowID])[rowID] ?? []
        }
        return records.map { PHAssetResource(record: $0, assetLocalIdentifier: asset.localIdentifier) }
    }

    /// The resources of many assets, read at once (one statement, however many assets), by local
    /// identifier, each list photo first as ``assetResources(for:)-(PHAsset)`` gives it: for a tool
    /// that lists thousands of assets' files. Assets of another library, or not saved, are absent.
    package class func assetResources(for assets: [PHAsset]) -> [String: [PHAssetResource]] {
        guard let library = assets.lazy.compactMap(\.library).first else { return [:] }
        let owned = assets.filter { $0.library === library && $0.rowID != nil }
        let records = library.fetching("reading resources", fallback: [:]) {
            try library.database.resources(assetIDs: owned.map { $0.rowID! })
        }
        var found: [String: [PHAssetResource]] = [:]
        for asset in owned {
            found[asset.localIdentifier] = (records[asset.rowID!] ?? []).map {
                PHAssetResource(record: $0, assetLocalIdentifier: asset.localIdentifier)
            }
        }
        return found
    }

    /// The resources of a Live Photo: its photo, then its paired video.
    public class func assetResources(for livePhoto: PHLivePhoto) -> [PHAssetResource] {
        [livePhoto.photoResource, livePhoto.videoResource]
    }
}
