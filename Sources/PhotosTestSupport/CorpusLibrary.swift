import Foundation
import Photos
import PhotosIngest
import PhotosLinux

/// Copies of chosen corpus files under a root of their own, scanned into a library file beside
/// them: what the ported PhotoKit programs run against. Changes touch the copies, never the corpus.
///
/// The root's write policy is `.files` and deleted assets go to a Trash inside the directory, so a
/// program may favourite, delete and restore; ``reopen()`` opens the same file again, as a later
/// run of a program would.
///
/// ```swift
/// let corpus = try CorpusLibrary(files: ["Phone/DCIM/100APPLE/IMG_0005.JPG"])
/// let assets = PHAsset.fetchAssets(with: corpus.options)
/// ```
public final class CorpusLibrary: @unchecked Sendable {  // Every stored property is a `let`; `library` is Sendable.
    /// The temporary directory holding the root, the library file and its Trash.
    public let directory: TemporaryDirectory
    /// The root the copies are in (symbolic links resolved, as the scanner records paths).
    public let root: URL
    /// The library file.
    public let url: URL
    /// The settings every opening of the file uses.
    public let configuration: PHPhotoLibrary.Configuration
    /// The library as first opened.
    public let library: PHPhotoLibrary

    /// Copies `files` (paths relative to the corpus, kept as they are under the root) and scans
    /// them; throws when the corpus is absent (guard tests with `Corpus.isAvailable`).
    public init(files: [String], timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws {
        directory = try TemporaryDirectory(prefix: "photos-corpus-library")
        let photos = directory.path("Pictures")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        root = photos.resolvingSymlinksInPath()
        url = directory.path("library.sqlite")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.timeZone = timeZone
        configuration.roots = [LibraryRoot(path: root.path, write: .files)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        configuration.thumbnailCacheDirectory = nil
        self.configuration = configuration
        library = try PHPhotoLibrary(url: url, configuration: configuration)
        try add(files)
    }

    /// Copies more corpus files under the root and scans them in, as a program's user adding photos.
    public func add(_ files: [String]) throws {
        for name in files {
            guard let source = Corpus.file(name) else { throw CocoaError(.fileNoSuchFile) }
            let destination = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: destination)
        }
        _ = try FolderScanner(database: library.database, timeZone: configuration.timeZone).scan(roots: [root.path])
    }

    /// The corpus file a copy under the root came from.
    public func original(of resource: PHAssetResource) -> URL? {
        let path = resource.fileURL.resolvingSymlinksInPath().path
        guard path.hasPrefix(root.path + "/") else { return nil }
        return Corpus.file(String(path.dropFirst(root.path.count + 1)))
    }

    /// Opens the library file again with the same settings.
    public func reopen() throws -> PHPhotoLibrary {
        try PHPhotoLibrary(url: url, configuration: configuration)
    }

    /// Options that fetch from ``library``.
    public var options: PHFetchOptions { options(for: library) }

    /// Options that fetch from `library` (an opening of this file).
    public func options(for library: PHPhotoLibrary) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }
}
