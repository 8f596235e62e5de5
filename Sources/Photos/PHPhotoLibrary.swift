import Foundation
import Logging
import PhotosCore
import PhotosImaging
import PhotosLinux
import PhotosMetadata
import PhotosPlaces
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
public final class PHPhotoLibrary: Sendable {
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
        /// How long a change block waits for another process's write lock before it fails with
        /// `PHPhotosError.operationInterrupted` (default 10 seconds).
        public var busyTimeout: TimeInterval = LibraryDatabase.defaultBusyTimeout
        /// Where failures that fetches cannot throw are logged, with their cause (the library
        /// also reports them in ``PHPhotoLibrary/unavailabilityReason``).
        public var logger = Logger(label: "photos.library")
        /// Where small images made for ``PHImageManager`` (at most 1,024 pixels a side) are kept
        /// between runs, shared with the user's other processes (`ThumbnailDiskCache`). Default:
        /// `$XDG_CACHE_HOME/photosd/thumbnails`; nil keeps none.
        public var thumbnailCacheDirectory: String? = ThumbnailDiskCache.defaultDirectory()
        /// The most bytes the thumbnail cache holds (default 512 MB; 0 keeps none).
        public var thumbnailCacheBytes = 512 << 20
        /// The GeoNames file albums' and folders' `localizedLocationNames` are found in (read once
        /// per process, when first needed). Default: `$PHOTOS_GAZETTEER`, else the first of
        /// `cities500.txt`, `cities1000.txt`, `cities5000.txt`, `cities15000.txt`,
        /// `allCountries.txt` in `$XDG_DATA_HOME/photosd/places`; nil (none found) names no place.
        public var gazetteerPath: String? = Gazetteer.defaultPath()
        /// tzdata's table of country names (`/usr/share/zoneinfo/iso3166.tab`), for names that
        /// are countries; nil names places only.
        public var countryNamesPath: String? = CountryNames.defaultPath()

        /// The watched roots and what the library may write under each (`RootWritePolicy`):
        /// `.none` (the default, and for every path outside these roots) writes nothing; `.sidecars`
        /// writes user state in XMP sidecars beside the photos; `.files` also trashes, moves and
        /// renames files for change requests. photosd and `photos` fill it from the config's `roots`.
        public var roots: [LibraryRoot] = []

        /// The Trash deleted assets' files go to under roots with `write = "files"` (default: the
        /// process's, following `XDG_DATA_HOME` and `HOME`; each mount's `.Trash-$uid` elsewhere).
        public var trash = Trash()
        /// How many days a deleted asset stays in "Recently Deleted", restorable, before it is erased
        /// for good with its files in the Trash (default 30; the config's `trash_days`).
        public var trashDays = 30
        /// Shell patterns of names the scanner passes over (the config's `ignore`, `Thumbs.db`,
        /// `Private*`): a directory-backed album or folder is never renamed to such a name, which
        /// would take it, and its photos, out of the library.
        public var ignore: [String] = []

        /// The defaults.
        public init() {}
    }

    /// The storage behind the library: for the package's modules (the daemon, its API, the CLI, the
    /// tests), not in the public API, which shows no store or GRDB type.
    package let database: LibraryDatabase
    /// The library's settings.
    public let configuration: Configuration

    /// The disk cache of small images for this library's image requests (nil: none is kept).
    var thumbnailCache: ThumbnailDiskCache? {
        guard let directory = configuration.thumbnailCacheDirectory, configuration.thumbnailCacheBytes > 0 else {
            return nil
        }
        return .shared(directory: directory, maximumBytes: configuration.thumbnailCacheBytes)
    }
    /// The directory files added through creation requests are copied into.
    public let importDirectory: URL
    /// The work on disk committed change blocks owe: placing imported files, removing deleted ones.
    var fileJournal: FileJournal {
        FileJournal(
            database: database, importDirectory: importDirectory.standardizedFileURL.path, logger: configuration.logger,
            trash: configuration.trash, roots: LibraryRoots(configuration.roots), timeZone: configuration.timeZone)
    }
    /// Change blocks run one at a time, in order, on this queue.
    let changeQueue = DispatchQueue(label: "photos.library.changes")
    /// The registered change observers.
    let observers = ObserverCenter()
    /// Whether the library can be read, and who to tell when it cannot.
    let availability = AvailabilityCenter()

    /// Opens (creating if needed) the library file at `url`.
    ///
    /// Opening finishes the file work a process that stopped mid-way left in the library's journal
    /// (a moved file whose block had committed is put in place, and only then its original removed),
    /// and erases the assets deleted more than ``Configuration/trashDays`` days ago.
    ///
    /// Throws a `PHPhotosError` with the cause in its `userInfo` when the file cannot be opened:
    /// `invalidResource` for a damaged file, `changeNotSupported` for a library made by a newer
    /// build (refused, not opened), `accessRestricted` for permissions, `libraryVolumeOffline` for
    /// a path that cannot be reached, `notEnoughSpace` for a full disk.
    ///
    /// A `postgresql://` URL opens (or makes) a library kept in PostgreSQL, which photosd on several
    /// hosts may share: `PHPhotoLibrary(url: URL(string: "postgresql://me@nas/photos")!)`. This
    /// host's import folder is then under `$XDG_DATA_HOME/photosd/postgresql/`
    /// (`LibraryDatabase.localPath(forLibrary:)`).
    public convenience init(url: URL, configuration: Configuration = Configuration()) throws {
        do {
            try self.init(location: Self.location(of: url), creating: true, configuration: configuration)
        } catch {
            throw Self.photosError(error)
        }
    }

    /// Opens the library at `location` (a file's path or a `postgresql://` URL) as
    /// ``init(url:configuration:)`` does, making it only if `creating`; throws the store's errors
    /// as they are (`StoreError` `.notFound` where there is no library and not `creating`).
    package init(location: String, creating: Bool, configuration: Configuration = Configuration()) throws {
        database = try LibraryDatabase(
            location: location, creating: creating, historyLimit: configuration.changeHistoryLimit,
            busyTimeout: configuration.busyTimeout)
        self.configuration = configuration
        importDirectory =
            configuration.importDirectory
            ?? URL(fileURLWithPath: Self.defaultImportDirectory(forLibraryAt: location), isDirectory: true)
        try fileJournal.recover()
        eraseExpiredTrash()
    }

    /// The import folder of the library at `location` when the configuration names none: `Imports`
    /// beside the library file, or beside this host's stand-in for a library kept in PostgreSQL
    /// (`LibraryDatabase.localPath(forLibrary:)`). It holds the files the library places
    /// (creations, edits' renders).
    package static func defaultImportDirectory(forLibraryAt location: String) -> String {
        (LibraryDatabase.localPath(forLibrary: location) as NSString).deletingLastPathComponent + "/Imports"
    }

    /// The library `url` names: a `postgresql://` (or `postgres://`) URL as it is, else a file's path.
    static func location(of url: URL) -> String {
        url.isFileURL || url.scheme == nil ? url.path : url.absoluteString
    }

    /// A library over a store this process already has open (photosd's API serves the daemon's
    /// own store, so that its commits reach the API's change streams without a read back).
    ///
    /// The caller opened the store; this does not finish a stopped process's file work (see
    /// ``init(url:configuration:)``), which the first opening of the file did.
    package init(database: LibraryDatabase, configuration: Configuration = Configuration()) {
        self.database = database
        self.configuration = configuration
        importDirectory =
            configuration.importDirectory
            ?? (database.path == nil && !LibraryDatabase.isPostgreSQL(database.location)
                ? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("Imports", isDirectory: true)
                : URL(fileURLWithPath: Self.defaultImportDirectory(forLibraryAt: database.location), isDirectory: true))
    }

    /// Opens a private in-memory library (for tests and scratch work).
    public init(inMemoryWith configuration: Configuration = Configuration()) throws {
        do {
            database = try LibraryDatabase(historyLimit: configuration.changeHistoryLimit)
        } catch {
            throw Self.photosError(error)
        }
        self.configuration = configuration
        importDirectory =
            configuration.importDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "photos-imports-\(UUID().uuidString)", isDirectory: true)
    }

    // MARK: The shared library

    private static let sharedLibrary: PHPhotoLibrary = {
        let url = defaultLibraryURL()
        do {
            return try PHPhotoLibrary(url: url)
        } catch {
            fatalError("cannot open the photo library at \(LibraryDatabase.shown(location(of: url))): \(error)")
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
    /// A `postgresql://` URL in `$PHOTOS_LIBRARY` names a library kept in PostgreSQL.
    public class func defaultLibraryURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["PHOTOS_LIBRARY"], !path.isEmpty {
            if LibraryDatabase.isPostgreSQL(path), let url = URL(string: path) { return url }
            return URL(fileURLWithPath: path)
        }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: dataHome).appendingPathComponent("photosd/library.sqlite")
    }

    // MARK: Authorization

    /// What the file system lets this user do with the shared library (``defaultLibraryURL(environment:)``):
    /// `.authorized` when its file and folder can be read and written (or, before it exists, when
    /// it can be made there); `.restricted` when they can be read but not written (fetches work,
    /// changes cannot be saved, and nothing the app asks can change that); `.denied` when the file
    /// cannot be read, or cannot be made. Linux has no prompt: `.notDetermined` is never given.
    ///
    /// A library kept in PostgreSQL is `.authorized`: its server, not the file system, decides, and
    /// says so when the library is opened.
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        let url = defaultLibraryURL()
        guard url.isFileURL else { return .authorized }
        return authorizationStatus(ofLibraryAt: url.path, for: accessLevel)
    }

    /// The status for `.readWrite` (PhotoKit's deprecated form).
    public class func authorizationStatus() -> PHAuthorizationStatus { authorizationStatus(for: .readWrite) }

    /// Calls `handler` with ``authorizationStatus(for:)``, on the calling thread: there is no one to ask.
    public class func requestAuthorization(
        for accessLevel: PHAccessLevel, handler: @escaping @Sendable (PHAuthorizationStatus) -> Void
    ) {
        handler(authorizationStatus(for: accessLevel))
    }

    /// Calls `handler` with ``authorizationStatus()``.
    public class func requestAuthorization(_ handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
        handler(authorizationStatus())
    }

    /// Returns ``authorizationStatus(for:)``.
    public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        authorizationStatus(for: accessLevel)
    }

    /// What the file system lets this user do with the library at `path` (see
    /// ``authorizationStatus(for:)``); `canAccess` is `access(2)` unless a test gives another.
    /// Both levels need writing: `.addOnly` adds assets as `.readWrite` changes them.
    static func authorizationStatus(
        ofLibraryAt path: String, for accessLevel: PHAccessLevel,
        canAccess: (String, Int32) -> Bool = { path, mode in PathBytes.withCString(path) { access($0, mode) } == 0 }
    ) -> PHAuthorizationStatus {
        let folder = (path as NSString).deletingLastPathComponent
        guard canAccess(path, F_OK) else {
            // Not made yet: made on first use where the nearest existing folder is writable.
            var existing = folder.isEmpty ? "." : folder
            while !canAccess(existing, F_OK), existing != "/", !existing.isEmpty {
                existing = (existing as NSString).deletingLastPathComponent
            }
            return canAccess(existing, W_OK | X_OK) ? .authorized : .denied
        }
        guard canAccess(path, R_OK) else { return .denied }
        // SQLite writes its journal (`-wal`, `-shm`) beside the file.
        let writable = canAccess(path, W_OK) && canAccess(folder.isEmpty ? "." : folder, W_OK | X_OK)
        return writable ? .authorized : .restricted
    }

    // MARK: Fetching

    /// Runs a fetch; a failure is reported (``unavailabilityReason``, availability observers, the
    /// log) and gives `fallback`, since PhotoKit's fetches do not throw.
    func fetching<T>(_ action: String, fallback: T, _ body: () throws -> T) -> T {
        do {
            let value = try body()
            storeAnswered()
            return value
        } catch {
            storeFailed(error, while: action)
            return fallback
        }
    }

    func fetchAssets(_ query: AssetQuery) -> PHFetchResult<PHAsset> {
        assetResult(matching: query)
    }

    /// The assets `query` selects, in a result of any element type `T` (for generic callers that
    /// know `T` is `PHAsset`; a generic class's specializations do not cast to one another).
    func assetResult<T: AnyObject>(matching query: AssetQuery) -> PHFetchResult<T> {
        let read = fetching("fetching assets", fallback: nil) {
            try database.assetSnapshotAndOfflineRoots(matching: query)
        }
        if let read { noteOfflineRoots(read.offlineRoots) }
        let snapshot = read?.snapshot
        return assetResult(
            ids: snapshot?.ids ?? [], origin: .assets(query),
            token: snapshot.flatMap { $0.token >= 0 ? $0.token : nil })
    }

    /// A result over known row ids, current at `token` when given.
    func fetchAssets(ids: [Int64], origin: FetchOrigin, token: Int64? = nil) -> PHFetchResult<PHAsset> {
        assetResult(ids: ids, origin: origin, token: token)
    }

    /// A result over known row ids of assets, of any element type `T` (see ``assetResult(matching:)``).
    func assetResult<T: AnyObject>(ids: [Int64], origin: FetchOrigin, token: Int64? = nil) -> PHFetchResult<T> {
        PHFetchResult<T>(ids: ids, origin: origin, library: self, token: token) { [database, self] ids in
            let records = fetching("loading assets", fallback: [:]) { try database.assetsIncludingDeleted(ids: ids) }
            return records.mapValues { PHAsset(record: $0, library: self) }
        }
    }

    func fetchCollections<T: PHObject>(_ query: CollectionQuery) -> PHFetchResult<T> {
        // The first page is loaded now: a collection's figures read the asset table, and a failure
        // found only when the result is read could not be reported but by stopping the program.
        let ids = fetching("fetching collections", fallback: []) { () throws -> [Int64] in
            let ids = try database.collectionIDs(matching: query)
            _ = try database.collections(ids: Array(ids.prefix(PHFetchResult<T>.pageSize)))
            return ids
        }
        return PHFetchResult(ids: ids, origin: .collections(query), library: self) { [database, self] ids in
            let infos = fetching("loading collections", fallback: [:]) { try database.collections(ids: ids) }
            return infos.mapValues { PHCollection.make($0, library: self) }
        }
    }
}
