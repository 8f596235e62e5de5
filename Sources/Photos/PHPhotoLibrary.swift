import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore
import Synchronization

/// A photo library: one SQLite file, the assets and collections in it, and the way to change them.
///
/// `PHPhotoLibrary.shared()` opens the default library (`$PHOTOS_LIBRARY`, else
/// `$XDG_DATA_HOME/photosd/library.sqlite`), the one `photosd` and `photos` use. Open another with
/// ``init(url:configuration:)``:
/// ```swift
/// let library = try PHPhotoLibrary(url: URL(fileURLWithPath: "/tmp/test.sqlite"))
/// try library.performChangesAndWait {
///     PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
/// }
/// ```
public final class PHPhotoLibrary: @unchecked Sendable {
    /// Settings of an opened library.
    public struct Configuration: Sendable {
        /// Where files added by creation requests are copied to. Default: `Imports/` beside the
        /// library file (a temporary directory for an in-memory library).
        public var importDirectory: URL?
        /// The time zone for file dates that carry no UTC offset. Default: the system's.
        public var timeZone: TimeZone = .current
        /// How many changes the history keeps for `fetchPersistentChanges(since:)` (default
        /// 100,000); a token older than that expires.
        public var changeHistoryLimit = LibraryDatabase.defaultHistoryLimit

        /// The defaults.
        public init() {}
    }

    /// The storage behind the library.
    public let database: LibraryDatabase
    /// The library's settings.
    public let configuration: Configuration
    /// The directory files added through creation requests are copied into.
    public let importDirectory: URL
    /// The work on disk committed change blocks owe: placing imported files, removing deleted ones.
    var fileJournal: FileJournal {
        FileJournal(database: database, importDirectory: importDirectory.standardizedFileURL.path)
    }
    /// Change blocks run one at a time, in order, on this queue.
    let changeQueue = DispatchQueue(label: "photos.library.changes")
    /// The registered change observers.
    let observers = ObserverCenter()

    /// Opens (creating if needed) the library file at `url`.
    ///
    /// Opening finishes the file work a process that stopped mid-way left in the library's journal
    /// (a moved file whose block had committed is put in place, and only then its original removed).
    public init(url: URL, configuration: Configuration = Configuration()) throws {
        database = try LibraryDatabase(path: url.path, historyLimit: configuration.changeHistoryLimit)
        self.configuration = configuration
        importDirectory = configuration.importDirectory
            ?? url.deletingLastPathComponent().appendingPathComponent("Imports", isDirectory: true)
        do {
            try fileJournal.recover()
        } catch {
            throw Self.photosError(error)
        }
    }

    /// Opens a private in-memory library (for tests and scratch work).
    public init(inMemoryWith configuration: Configuration = Configuration()) throws {
        database = try LibraryDatabase(historyLimit: configuration.changeHistoryLimit)
        self.configuration = configuration
        importDirectory = configuration.importDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "photos-imports-\(UUID().uuidString)", isDirectory: true)
    }

    // MARK: The shared library

    private static let sharedLibrary: PHPhotoLibrary = {
        let url = defaultLibraryURL()
        do {
            return try PHPhotoLibrary(url: url)
        } catch {
            fatalError("cannot open the photo library at \(url.path): \(error)")
        }
    }()

    /// The default library, opened on first use. Stops the program if it cannot be opened; use
    /// ``init(url:configuration:)`` to handle that error.
    public class func shared() -> PHPhotoLibrary { sharedLibrary }

    /// The library class fetch methods use when neither the options nor an object names one: the
    /// library of the change block running on this thread, else the shared library.
    static var current: PHPhotoLibrary {
        ChangeBlock.current?.library ?? shared()
    }

    /// Where the default library lives: `$PHOTOS_LIBRARY`, else `$XDG_DATA_HOME/photosd/library.sqlite`
    /// (`~/.local/share/photosd/library.sqlite`).
    public class func defaultLibraryURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["PHOTOS_LIBRARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: dataHome).appendingPathComponent("photosd/library.sqlite")
    }

    // MARK: Authorization

    /// Access is the file system's on Linux: always `.authorized`.
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus { .authorized }

    /// Access is the file system's on Linux: always `.authorized`.
    public class func authorizationStatus() -> PHAuthorizationStatus { .authorized }

    /// Calls `handler` with `.authorized`.
    public class func requestAuthorization(
        for accessLevel: PHAccessLevel, handler: @escaping @Sendable (PHAuthorizationStatus) -> Void
    ) {
        handler(.authorized)
    }

    /// Calls `handler` with `.authorized`.
    public class func requestAuthorization(_ handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
        handler(.authorized)
    }

    /// Returns `.authorized`.
    public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        .authorized
    }

    // MARK: Fetching

    func fetchAssets(_ query: AssetQuery) -> PHFetchResult<PHAsset> {
        let snapshot = (try? database.assetSnapshot(matching: query)) ?? AssetSnapshot(ids: [], token: -1)
        return fetchAssets(ids: snapshot.ids, origin: .assets(query), token: snapshot.token >= 0 ? snapshot.token : nil)
    }

    /// A result over known row ids, current at `token` when given.
    func fetchAssets(ids: [Int64], origin: FetchOrigin, token: Int64? = nil) -> PHFetchResult<PHAsset> {
        PHFetchResult(ids: ids, origin: origin, library: self, token: token) { [database, self] ids in
            let records = (try? database.assetsIncludingDeleted(ids: ids)) ?? [:]
            return records.mapValues { PHAsset(record: $0, library: self) }
        }
    }

    func fetchCollections<T: PHObject>(_ query: CollectionQuery) -> PHFetchResult<T> {
        let ids = (try? database.collectionIDs(matching: query)) ?? []
        return PHFetchResult(ids: ids, origin: .collections(query), library: self) { [database, self] ids in
            let infos = (try? database.collections(ids: ids)) ?? [:]
            return infos.mapValues { PHCollection.make($0, library: self) }
        }
    }
}
