import Dispatch
import Foundation
import Photos

// Three PhotoKit programs written as apps write them on Apple's platforms: completion handlers
// waited for with dispatch groups and semaphores, observers that are plain classes keeping their
// fetch results in `var`s, tokens archived into UserDefaults. The one source is compiled twice:
// in Swift 6 language mode here (PhotosTests) and in Swift 5 mode (PhotosSwift5Tests links this
// file), so it must build unchanged in both. The only Linux-specific line in each is the
// `photoLibrary` of its fetch options (the program is handed the library it works on).

// MARK: - An exporter

/// Exports the originals of the assets taken in a date range into `year/month` folders, each
/// with a JSON file describing its asset, as backup apps do.
final class PhotoArchiveExporter {
    /// What the exporter writes beside each asset's files.
    struct Sidecar: Codable, Equatable {
        struct Location: Codable, Equatable {
            var latitude: Double
            var longitude: Double
            var altitude: Double
        }
        var localIdentifier: String
        var mediaType: Int
        var creationDate: Date?
        var modificationDate: Date?
        var location: Location?
        var fileSize: Int64
        var favorite: Bool
        var files: [String]
    }

    /// One exported asset: its folder, the files written, its sidecar.
    struct Exported {
        var localIdentifier: String
        var folder: URL
        var files: [URL]
        var sidecar: URL
    }

    let library: PHPhotoLibrary
    let destination: URL
    var calendar: Calendar
    private(set) var failures: [any Error] = []

    init(library: PHPhotoLibrary, destination: URL) {
        self.library = library
        self.destination = destination
        calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
    }

    /// The assets taken in `start..<end`, oldest first.
    func assets(takenFrom start: Date, to end: Date) -> PHFetchResult<PHAsset> {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.predicate = NSPredicate(
            format: "creationDate >= %@ AND creationDate < %@", start as any CVarArg, end as any CVarArg)
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        return PHAsset.fetchAssets(with: options)
    }

    /// The folder an asset goes into: `2021/04`.
    func folder(for date: Date) -> URL {
        let parts = calendar.dateComponents([.year, .month], from: date)
        return
            destination
            .appendingPathComponent(String(format: "%04d", parts.year ?? 0))
            .appendingPathComponent(String(format: "%02d", parts.month ?? 0))
    }

    /// Writes every original resource of each asset taken in the range, then its sidecar; blocks
    /// until the last file is written. Failures are kept in ``failures`` and skip their file.
    func export(takenFrom start: Date, to end: Date) throws -> [Exported] {
        let fetched = assets(takenFrom: start, to: end)
        var exported: [Exported] = []
        fetched.enumerateObjects { asset, _, _ in
            guard let date = asset.creationDate else { return }
            do {
                exported.append(try self.export(asset, into: self.folder(for: date)))
            } catch {
                self.failures.append(error)
            }
        }
        return exported
    }

    private func export(_ asset: PHAsset, into folder: URL) throws -> Exported {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let originals = PHAssetResource.assetResources(for: asset).filter { resource in
            [.photo, .video, .audio, .pairedVideo].contains(resource.type)
        }
        let options = PHAssetResourceRequestOptions()
        options.isNetworkAccessAllowed = true
        let group = DispatchGroup()
        var written: [URL] = []
        var size: Int64 = 0
        for resource in originals {
            let file = uniqueFile(named: resource.originalFilename, in: folder)
            size += (resource.value(forKey: "fileSize") as? Int64) ?? 0
            group.enter()
            PHAssetResourceManager.default().writeData(for: resource, toFile: file, options: options) { error in
                if let error = error {
                    self.failures.append(error)
                } else {
                    written.append(file)
                }
                group.leave()
            }
            // One file at a time, so that the handlers never run together.
            group.wait()
        }
        var location: Sidecar.Location?
        if let place = asset.location {
            location = Sidecar.Location(
                latitude: place.coordinate.latitude, longitude: place.coordinate.longitude, altitude: place.altitude)
        }
        let sidecar = Sidecar(
            localIdentifier: asset.localIdentifier, mediaType: asset.mediaType.rawValue,
            creationDate: asset.creationDate, modificationDate: asset.modificationDate, location: location,
            fileSize: size, favorite: asset.isFavorite, files: written.map { $0.lastPathComponent })
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let base = (originals.first?.originalFilename ?? asset.localIdentifier) as NSString
        let json = uniqueFile(named: base.deletingPathExtension + ".json", in: folder)
        try encoder.encode(sidecar).write(to: json)
        return Exported(localIdentifier: asset.localIdentifier, folder: folder, files: written, sidecar: json)
    }

    /// `name` in `folder`, or `name 2`, `name 3`... when it is taken.
    private func uniqueFile(named name: String, in folder: URL) -> URL {
        var candidate = folder.appendingPathComponent(name)
        var number = 2
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(stem) \(number)").appendingPathExtension(ext)
            number += 1
        }
        return candidate
    }
}

// MARK: - A reviewer

/// Sorts photos from a "To Review" album into "Keep" and "Reject", as culling apps do, following
/// the user albums, each album, and each album's contents through change notifications.
final class AlbumReviewer: NSObject, PHPhotoLibraryChangeObserver {
    /// What one notification said about what the reviewer follows, by album title after the change.
    struct Notice {
        var albumsInserted: [String] = []
        var albumsRemoved: [String] = []
        var albumsChanged: [String] = []
        /// Old title to new, from each album's own change details.
        var renamed: [String: String] = [:]
        /// The assets removed from and inserted into each album, and where they were inserted.
        var removed: [String: [String]] = [:]
        var inserted: [String: [String]] = [:]
        var insertedIndexes: [String: IndexSet] = [:]
    }

    let library: PHPhotoLibrary
    private(set) var albums: PHFetchResult<PHAssetCollection>
    /// Each album's contents, by the album's local identifier.
    private(set) var contents: [String: PHFetchResult<PHAsset>] = [:]
    private(set) var notices: [Notice] = []
    /// Signalled once per notification.
    let noticed = DispatchSemaphore(value: 0)

    init(library: PHPhotoLibrary) {
        self.library = library
        let options = PHFetchOptions()
        options.photoLibrary = library
        albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: options)
        super.init()
        fetchNewContents()
        library.register(self)
    }

    deinit { library.unregisterChangeObserver(self) }

    func fetchOptions() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    /// The album with `title`, if there is one.
    func album(_ title: String) -> PHAssetCollection? {
        var found: PHAssetCollection?
        albums.enumerateObjects { album, _, stop in
            if album.localizedTitle == title {
                found = album
                stop.pointee = true
            }
        }
        return found
    }

    /// The local identifiers of the assets in the album named `title`, in the album's order.
    func identifiers(in title: String) -> [String] {
        guard let album = album(title), let result = contents[album.localIdentifier] else { return [] }
        return result.map { $0.localIdentifier }
    }

    /// Creates the three albums in one change block, "To Review" holding `assets`; returns the
    /// new albums' identifiers from their placeholders.
    func setUp(reviewing assets: [PHAsset]) throws -> [String: String] {
        var placeholders: [String: PHObjectPlaceholder] = [:]
        try library.performChangesAndWait {
            for title in ["To Review", "Keep", "Reject"] {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                if title == "To Review" { request.addAssets(assets as NSArray) }
                placeholders[title] = request.placeholderForCreatedAssetCollection
            }
        }
        return placeholders.mapValues { $0.localIdentifier }
    }

    /// Moves `asset` from "To Review" into "Keep" or "Reject" in one change block; calls
    /// `completion` with whether it committed.
    func decide(_ asset: PHAsset, keep: Bool, completion: @escaping (Bool, (any Error)?) -> Void) {
        guard let review = album("To Review"), let target = album(keep ? "Keep" : "Reject") else {
            return completion(false, nil)
        }
        library.performChanges(
            {
                PHAssetCollectionChangeRequest(for: review)?.removeAssets([asset] as NSArray)
                PHAssetCollectionChangeRequest(for: target)?.addAssets([asset] as NSArray)
            }, completionHandler: completion)
    }

    /// Makes an album named `title` holding `assets`, its placeholder used in the same block to
    /// take them out of "Keep"; returns the new album's identifier.
    func promote(_ assets: [PHAsset], toNewAlbum title: String) throws -> String? {
        var placeholder: PHObjectPlaceholder?
        try library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            request.addAssets(assets as NSArray)
            placeholder = request.placeholderForCreatedAssetCollection
            if let keep = self.album("Keep") {
                PHAssetCollectionChangeRequest(for: keep)?.removeAssets(assets as NSArray)
            }
        }
        return placeholder?.localIdentifier
    }

    /// Renames the album named `title`.
    func rename(_ title: String, to newTitle: String) throws {
        guard let album = album(title) else { return }
        try library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album)?.title = newTitle
        }
    }

    /// Fetches the contents of the albums not followed yet (all of them at first, then new ones).
    private func fetchNewContents() {
        albums.enumerateObjects { album, _, _ in
            if self.contents[album.localIdentifier] == nil {
                self.contents[album.localIdentifier] = PHAsset.fetchAssets(in: album, options: self.fetchOptions())
            }
        }
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        var notice = Notice()
        var titles: [String: String] = [:]
        albums.enumerateObjects { album, _, _ in
            titles[album.localIdentifier] = album.localizedTitle
            if let details = changeInstance.changeDetails(for: album), let after = details.objectAfterChanges,
                after.localizedTitle != album.localizedTitle
            {
                notice.renamed[album.localizedTitle ?? ""] = after.localizedTitle ?? ""
            }
        }
        if let details = changeInstance.changeDetails(for: albums) {
            albums = details.fetchResultAfterChanges
            notice.albumsInserted = details.insertedObjects.compactMap { $0.localizedTitle }
            notice.albumsRemoved = details.removedObjects.compactMap { $0.localizedTitle }
            notice.albumsChanged = details.changedObjects.compactMap { $0.localizedTitle }
        }
        albums.enumerateObjects { album, _, _ in titles[album.localIdentifier] = album.localizedTitle }
        for (identifier, result) in contents {
            guard let details = changeInstance.changeDetails(for: result) else { continue }
            contents[identifier] = details.fetchResultAfterChanges
            let title = titles[identifier] ?? identifier
            if details.hasIncrementalChanges {
                if !details.removedObjects.isEmpty {
                    notice.removed[title] = details.removedObjects.map { $0.localIdentifier }
                }
                if !details.insertedObjects.isEmpty {
                    notice.inserted[title] = details.insertedObjects.map { $0.localIdentifier }
                    notice.insertedIndexes[title] = details.insertedIndexes
                }
            }
        }
        fetchNewContents()
        notices.append(notice)
        noticed.signal()
    }
}

// MARK: - A change-token sync loop

/// Keeps a mirror of the library's assets in `UserDefaults`, brought up to date on each run from
/// the persistent changes since the token the last run stored, as sync clients do.
final class LibraryMirrorSync {
    /// What the mirror keeps of an asset.
    struct Entry: Codable, Equatable {
        var mediaType: Int
        var creationDate: Date?
        var favorite: Bool
        var hidden: Bool
        var latitude: Double?
        var longitude: Double?
        var filename: String?

        init(_ asset: PHAsset) {
            mediaType = asset.mediaType.rawValue
            creationDate = asset.creationDate
            favorite = asset.isFavorite
            hidden = asset.isHidden
            latitude = asset.location?.coordinate.latitude
            longitude = asset.location?.coordinate.longitude
            filename = PHAssetResource.assetResources(for: asset).first?.originalFilename
        }
    }

    /// What a run did.
    struct Report: Equatable {
        var fullResync = false
        var changes = 0
        var inserted: Set<String> = []
        var updated: Set<String> = []
        var deleted: Set<String> = []
    }

    static let tokenKey = "PhotosMirror.changeToken"
    static let mirrorKey = "PhotosMirror.assets"

    let defaults: UserDefaults
    private(set) var mirror: [String: Entry] = [:]

    init(defaults: UserDefaults) {
        self.defaults = defaults
        if let data = defaults.data(forKey: Self.mirrorKey),
            let stored = try? JSONDecoder().decode([String: Entry].self, from: data)
        {
            mirror = stored
        }
    }

    /// The token the last run stored, if it can be read.
    var storedToken: PHPersistentChangeToken? {
        guard let data = defaults.data(forKey: Self.tokenKey) else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: data)
    }

    /// One run: the changes since the stored token applied to the mirror (everything fetched again
    /// when there is no token or it has expired), then the new token stored.
    @discardableResult
    func run(with library: PHPhotoLibrary) throws -> Report {
        var report = Report()
        var token = library.currentChangeToken
        if let stored = storedToken {
            do {
                let changes = try library.fetchPersistentChanges(since: stored)
                for change in changes {
                    let details = try change.changeDetails(for: .asset)
                    report.changes += 1
                    report.inserted.formUnion(details.insertedLocalIdentifiers)
                    report.updated.formUnion(details.updatedLocalIdentifiers)
                    report.deleted.formUnion(details.deletedLocalIdentifiers)
                    apply(details, from: library)
                    token = change.changeToken
                }
            } catch PHPhotosError.persistentChangeTokenExpired {
                report.fullResync = true
                resync(from: library)
            }
        } else {
            report.fullResync = true
            resync(from: library)
        }
        try save(token)
        return report
    }

    private func options(_ library: PHPhotoLibrary) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        return options
    }

    private func resync(from library: PHPhotoLibrary) {
        var fresh: [String: Entry] = [:]
        PHAsset.fetchAssets(with: options(library)).enumerateObjects { asset, _, _ in
            fresh[asset.localIdentifier] = Entry(asset)
        }
        mirror = fresh
    }

    private func apply(_ details: PHPersistentObjectChangeDetails, from library: PHPhotoLibrary) {
        for identifier in details.deletedLocalIdentifiers { mirror[identifier] = nil }
        let touched = details.insertedLocalIdentifiers.union(details.updatedLocalIdentifiers)
        guard !touched.isEmpty else { return }
        let assets = PHAsset.fetchAssets(withLocalIdentifiers: Array(touched), options: options(library))
        var found = Set<String>()
        assets.enumerateObjects { asset, _, _ in
            self.mirror[asset.localIdentifier] = Entry(asset)
            found.insert(asset.localIdentifier)
        }
        // Changed, then gone by now (deleted in a later change, or put in Recently Deleted).
        for identifier in touched.subtracting(found) { mirror[identifier] = nil }
    }

    private func save(_ token: PHPersistentChangeToken) throws {
        let archived = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        defaults.set(archived, forKey: Self.tokenKey)
        defaults.set(try JSONEncoder().encode(mirror), forKey: Self.mirrorKey)
    }
}
