import Dispatch
import Foundation
import Photos
import PhotosIngest
import PhotosTestSupport
import Testing

// Programs written as PhotoKit programs are on Apple's platforms, compiled here in Swift 6
// language mode: they must build unchanged against the module's declarations.

/// A generic fetch-result wrapper, as apps write them: no `PHObject` constraint, as Apple's
/// `PHFetchResult<ObjectType> where ObjectType: AnyObject` allows.
extension PHFetchResult {
    var portedArray: [ObjectType] {
        var objects: [ObjectType] = []
        enumerateObjects { object, _, _ in objects.append(object) }
        return objects
    }
}

/// All of a result's objects, through a generic function over any class.
func portedAll<T: AnyObject>(_ result: PHFetchResult<T>) -> [T] {
    (0..<result.count).map { result.object(at: $0) }
}

/// A data source holding any fetch result, as a collection view's does.
final class PortedDataSource<Element: AnyObject> {
    var result: PHFetchResult<Element>
    init(_ result: PHFetchResult<Element>) { self.result = result }
    var count: Int { result.count }
    subscript(index: Int) -> Element { result.object(at: index) }
}

/// A thumbnail loader assigning to captured `var`s in the result and progress handlers (not
/// `@Sendable` in Apple's SDK), synchronous as PhotoKit code often asks.
func portedThumbnail(of asset: PHAsset) -> (UIImage?, [AnyHashable: Any]?, [Double]) {
    let options = PHImageRequestOptions()
    options.isSynchronous = true
    options.deliveryMode = .highQualityFormat
    var progress: [Double] = []
    options.progressHandler = { fraction, _, _, _ in progress.append(fraction) }
    var image: UIImage?
    var info: [AnyHashable: Any]?
    PHImageManager.default().requestImage(
        for: asset, targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFit, options: options
    ) { result, resultInfo in
        image = result
        info = resultInfo
    }
    return (image, info, progress)
}

/// The asynchronous form waited for with a semaphore, the data appended to a captured `var`.
func portedOriginalData(of asset: PHAsset) -> (Data?, String?) {
    let done = DispatchSemaphore(value: 0)
    var data: Data?
    var type: String?
    PHImageManager.default().requestImageDataAndOrientation(for: asset, options: nil) { bytes, uti, _, _ in
        data = bytes
        type = uti
        done.signal()
    }
    done.wait()
    return (data, type)
}

/// A resource read chunk by chunk into a captured `var`.
func portedResourceBytes(of resource: PHAssetResource) -> (Data, (any Error)?, Double?) {
    let done = DispatchSemaphore(value: 0)
    var bytes = Data()
    var failure: (any Error)?
    var lastProgress: Double?
    let options = PHAssetResourceRequestOptions()
    options.progressHandler = { lastProgress = $0 }
    PHAssetResourceManager.default().requestData(
        for: resource, options: options, dataReceivedHandler: { bytes.append($0) },
        completionHandler: { error in
            failure = error
            done.signal()
        })
    done.wait()
    return (bytes, failure, lastProgress)
}

/// A video's asset delivered to a captured `var`.
func portedVideoURL(of asset: PHAsset) -> URL? {
    let done = DispatchSemaphore(value: 0)
    var url: URL?
    PHImageManager.default().requestAVAsset(forVideo: asset, options: nil) { video, _, _ in
        url = (video as? AVURLAsset)?.url
        done.signal()
    }
    done.wait()
    return url
}

/// A change observer that is an ordinary class, not `Sendable`, keeping its result in a `var`.
final class PortedFavoritesWatcher: NSObject, PHPhotoLibraryChangeObserver {
    var favorites: PHFetchResult<PHAsset>
    var inserted: [String] = []
    let changed = DispatchSemaphore(value: 0)

    init(_ favorites: PHFetchResult<PHAsset>) { self.favorites = favorites }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        guard let details = changeInstance.changeDetails(for: favorites) else { return }
        favorites = details.fetchResultAfterChanges
        inserted += details.insertedObjects.map(\.localIdentifier)
        changed.signal()
    }
}

/// A class that is not a PhotoKit object, held in a fetch result made of objects.
final class PortedItem {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Copies of corpus files scanned into a library of their own (the copies, never the corpus, are
/// what changes touch).
struct PortedLibrary {
    static let photo = "Phone/DCIM/100APPLE/IMG_0005.JPG"
    static let movie = "Phone/DCIM/100APPLE/IMG_0420.MOV"

    let directory: TemporaryDirectory
    let library: PHPhotoLibrary
    let options: PHFetchOptions

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-ported")
        let root = directory.path("photos")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in [Self.photo, Self.movie] {
            let source = try #require(Corpus.file(name))
            try FileManager.default.copyItem(at: source, to: root.appendingPathComponent(source.lastPathComponent))
        }
        library = try PHPhotoLibrary(inMemoryWith: .init())
        _ = try FolderScanner(database: library.database).scan(roots: [root.resolvingSymlinksInPath().path])
        options = PHFetchOptions()
        options.photoLibrary = library
    }

    func asset(named name: String) throws -> PHAsset {
        let assets = PHAsset.fetchAssets(with: options)
        return try #require(
            portedAll(assets).first { asset in
                PHAssetResource.assetResources(for: asset).contains { $0.originalFilename == name }
            })
    }
}

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PortedProgramTests {
    @Test func genericCodeOverAnyFetchResultSeesEveryObjectOfTheScannedCorpus() async throws {
        let corpus = try await offPool { try ScannedCorpus() }
        let assets = PHAsset.fetchAssets(with: corpus.options)
        #expect(assets.count > 0)
        let identifiers = assets.map(\.localIdentifier)
        #expect(portedAll(assets).map(\.localIdentifier) == identifiers)
        #expect(assets.portedArray.map(\.localIdentifier) == identifiers)
        let source = PortedDataSource(assets)
        #expect(source.count == assets.count && source[source.count - 1] == assets.lastObject)
        // Every scanned file's asset is among them.
        let all = Set(identifiers)
        #expect(corpus.files.values.allSatisfy { all.contains($0.asset.localIdentifier) })
    }

    @Test func aFetchResultOfObjectsThatAreNotPhotoKitsFindsThemByIdentity() {
        let items = [PortedItem("a"), PortedItem("b"), PortedItem("c")]
        let before = PHFetchResult(objects: items)
        #expect(before.portedArray.map(\.name) == ["a", "b", "c"])
        #expect(before.index(of: items[1]) == 1)
        #expect(before.contains(items[2]) && !before.contains(PortedItem("a")))
        let after = PHFetchResult(objects: [items[2], items[0], PortedItem("d")])
        let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [items[0]])
        #expect(details.removedObjects.map(\.name) == ["b"])
        #expect(details.insertedObjects.map(\.name) == ["d"])
        #expect(details.changedObjects.map(\.name) == ["a"])
        #expect(details.hasMoves)
    }

    @Test func resultHandlersAssignToCapturedVariables() async throws {
        let ported = try await offPool { try PortedLibrary() }
        let photo = try ported.asset(named: "IMG_0005.JPG")
        let (image, info, progress) = try await offPool { portedThumbnail(of: photo) }
        #expect(progress == [0, 1])
        let thumbnail = try #require(image)
        #expect(max(thumbnail.size.width, thumbnail.size.height) <= 64 && thumbnail.size.width > 0)
        #expect(info?[PHImageResultIsDegradedKey] as? Bool == false)

        let original = try #require(Corpus.file(PortedLibrary.photo))
        let (data, type) = try await offPool { portedOriginalData(of: photo) }
        #expect(try data == Data(contentsOf: original))
        #expect(type == "public.jpeg")

        let resource = try #require(PHAssetResource.assetResources(for: photo).first)
        let (bytes, failure, lastProgress) = try await offPool { portedResourceBytes(of: resource) }
        #expect(failure == nil && lastProgress == 1)
        #expect(try bytes == Data(contentsOf: original))

        let movie = try ported.asset(named: "IMG_0420.MOV")
        let url = try await offPool { portedVideoURL(of: movie) }
        #expect(url?.lastPathComponent == "IMG_0420.MOV")
    }

    @Test func anObserverThatIsNotSendableFollowsItsFetchResult() async throws {
        let ported = try await offPool { try PortedLibrary() }
        let photo = try ported.asset(named: "IMG_0005.JPG")
        let options = PHFetchOptions()
        options.photoLibrary = ported.library
        options.predicate = NSPredicate(format: "favorite == YES")
        let watcher = PortedFavoritesWatcher(PHAsset.fetchAssets(with: options))
        #expect(watcher.favorites.count == 0)
        ported.library.register(watcher)
        defer { ported.library.unregisterChangeObserver(watcher) }
        try ported.library.performChangesAndWait { PHAssetChangeRequest(for: photo).isFavorite = true }
        let told = try await offPool { watcher.changed.wait(timeout: .now() + 300) == .success }
        #expect(told)
        #expect(watcher.inserted == [photo.localIdentifier])
        #expect(watcher.favorites.map(\.localIdentifier) == [photo.localIdentifier])
    }
}
