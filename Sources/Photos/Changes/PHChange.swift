import Foundation
import PhotosCore
import PhotosStore

/// Something told about every committed change of a library, by this process or another.
///
/// ```swift
/// final class Grid: NSObject, PHPhotoLibraryChangeObserver {
///     var assets = PHAsset.fetchAssets(with: nil)
///     func photoLibraryDidChange(_ changeInstance: PHChange) {
///         guard let details = changeInstance.changeDetails(for: assets) else { return }
///         assets = details.fetchResultAfterChanges
///     }
/// }
/// PHPhotoLibrary.shared().register(grid)
/// ```
///
/// As in PhotoKit, an observer need not be `Sendable`: the library calls every observer of a
/// library on one serial background queue, one call at a time, so a plain class that keeps its
/// fetch results in `var`s compiles in Swift 6 and is safe as long as it touches them only there.
public protocol PHPhotoLibraryChangeObserver: AnyObject {
    /// Called once per committed change, in commit order, on a background serial queue.
    func photoLibraryDidChange(_ changeInstance: PHChange)
}

/// One committed change, as observers see it: ask it about the objects and fetch results you hold.
public final class PHChange: NSObject, Sendable {
    /// The change-log entry behind this change.
    public let entry: LibraryChange
    let library: PHPhotoLibrary

    init(entry: LibraryChange, library: PHPhotoLibrary) {
        self.entry = entry
        self.library = library
    }

    private func changes(for object: PHObject) -> ObjectChanges {
        switch object {
        case is PHAsset: entry.asset
        case is PHCollectionList: entry.collectionList
        default: entry.assetCollection
        }
    }

    /// The fields this change settled that the library and another tool had both changed in an
    /// asset's XMP sidecar, with both values and the one kept (not in PhotoKit's API).
    public var sidecarConflicts: [SidecarConflict] { entry.sidecarConflicts ?? [] }

    /// Where the assets this change imported from a drop folder came from (not in PhotoKit's API).
    public var imports: [ImportOrigin] { entry.imports ?? [] }

    /// What happened to one object, or nil when this change did not touch it. A change to an
    /// album's assets is a change of the album, not of its assets. An object of another library
    /// gets nil: a change tells of its own library's commit.
    public func changeDetails<T: PHObject>(for object: T) -> PHObjectChangeDetails<T>? {
        if let other = object.library, !isOfThisLibrary(other) { return nil }
        let changes = changes(for: object)
        let identifier = object.localIdentifier
        let deleted = changes.deleted.contains(identifier)
        guard deleted || changes.updated.contains(identifier) || changes.inserted.contains(identifier) else {
            return nil
        }
        let after: T? = deleted ? nil : reload(object)
        let properties = changes.changedProperties[identifier] ?? []
        return PHObjectChangeDetails(
            objectBeforeChanges: object, objectAfterChanges: after, assetContentChanged: properties.contains("content"),
            objectWasDeleted: deleted)
    }

    /// Whether `other` is this change's library: the same object, or another one opened on the same
    /// library (the same file or database, which names itself with one identifier).
    private func isOfThisLibrary(_ other: PHPhotoLibrary) -> Bool {
        if other === library { return true }
        guard let theirs = try? other.database.libraryIdentifier(),
            let ours = try? library.database.libraryIdentifier()
        else { return false }
        return theirs == ours
    }

    private func reload<T: PHObject>(_ object: T) -> T? {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let identifier = [object.localIdentifier]
        switch object {
        case is PHAsset:
            return PHAsset.fetchAssets(withLocalIdentifiers: identifier, options: options).firstObject as? T
        case is PHCollectionList:
            return PHCollectionList.fetchCollectionLists(withLocalIdentifiers: identifier, options: options).firstObject
                as? T
        default:
            return PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: identifier, options: options)
                .firstObject
                as? T
        }
    }

    /// How a fetch result is changed by this change, or nil when it is not (same objects, none of
    /// them changed). Keep `fetchResultAfterChanges` for the next change.
    ///
    /// The details cover every commit after the fetch result was made, up to the library's
    /// current state: a result kept from an earlier change gets that change's effect too, and a
    /// result already past this change gets nil, as does a result of another library (its own
    /// observers are told of its commits).
    public func changeDetails<T: PHObject>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        guard let origin = fetchResult.origin, let library = fetchResult.library, isOfThisLibrary(library) else {
            return nil
        }
        if case .assets(let query) = origin, T.self == PHAsset.self, let token = fetchResult.token {
            return assetDetails(for: fetchResult, query: query, token: token, library: library)
        }
        let after: PHFetchResult<T>
        switch origin {
        case .assets(let query):
            after = library.assetResult(matching: query)
        case .collections(let query):
            after = library.fetchCollections(query)
        }
        after.wantsIncrementalChangeDetails = fetchResult.wantsIncrementalChangeDetails
        let kind =
            T.self == PHAsset.self
            ? entry.asset
            : T.self == PHCollectionList.self
                ? entry.collectionList
                : ObjectChanges(
                    inserted: entry.assetCollection.inserted + entry.collectionList.inserted,
                    updated: entry.assetCollection.updated + entry.collectionList.updated,
                    deleted: entry.assetCollection.deleted + entry.collectionList.deleted,
                    changedProperties: entry.assetCollection.changedProperties.merging(
                        entry.collectionList.changedProperties, uniquingKeysWith: +))
        // A collection that only took another place among the top level moved: it did not change.
        let touched = Set(kind.updated.filter { kind.changedProperties[$0] != ["position"] })
        let before = fetchResult.rowIDs
        let rows: [Int64]
        do {
            rows = try library.database.rowIDs(localIdentifiers: Array(touched), assets: T.self == PHAsset.self)
        } catch {
            // Details cannot be told; the library's unavailability reason says why.
            library.storeFailed(error, while: "computing change details")
            return nil
        }
        let changedRows = Set(rows)
        if after.rowIDs == before && changedRows.isDisjoint(with: before) { return nil }
        return PHFetchResultChangeDetails(
            from: fetchResult, to: after, changedIdentifiers: touched, changedRows: changedRows,
            incremental: fetchResult.wantsIncrementalChangeDetails)
    }

    /// An asset fetch result brought up to date by the store, at a cost that follows what changed.
    private func assetDetails<T: PHObject>(
        for fetchResult: PHFetchResult<T>, query: AssetQuery, token: Int64, library: PHPhotoLibrary
    ) -> PHFetchResultChangeDetails<T>? {
        let snapshot = AssetSnapshot(ids: fetchResult.rowIDs, token: token)
        let update: SnapshotUpdate
        let current: Int64
        do {
            (update, current) = try library.database.update(snapshot, query: query)
        } catch {
            // Details cannot be told; the library's unavailability reason says why.
            library.storeFailed(error, while: "computing change details")
            return nil
        }
        let incremental = fetchResult.wantsIncrementalChangeDetails
        func result(_ ids: [Int64]) -> PHFetchResult<T>? {
            let after: PHFetchResult<T> = library.assetResult(ids: ids, origin: .assets(query), token: current)
            after.wantsIncrementalChangeDetails = incremental
            return after
        }
        switch update {
        case .unchanged:
            return nil
        case .edited(let indexes):
            guard let after = result(snapshot.ids) else { return nil }
            return PHFetchResultChangeDetails(
                from: fetchResult, to: after, diff: incremental ? OrderedDiff<Int64>(changedIndexes: indexes) : nil)
        case .spliced(let ids, let before, let afterRows, let changed):
            guard let after = result(ids) else { return nil }
            let diff =
                incremental
                ? OrderedDiff(
                    oldCount: snapshot.ids.count, touchedBefore: before, touchedAfter: afterRows, changed: changed)
                : nil
            return PHFetchResultChangeDetails(from: fetchResult, to: after, diff: diff)
        case .refetched(let ids, let changed):
            guard let after = result(ids) else { return nil }
            let diff = incremental ? OrderedDiff(from: snapshot.ids, to: ids, changed: changed) : nil
            return PHFetchResultChangeDetails(from: fetchResult, to: after, diff: diff)
        }
    }
}

/// What happened to one object in a change.
public final class PHObjectChangeDetails<ObjectType: PHObject>: NSObject, Sendable {
    /// The object as it was (the one asked about).
    public let objectBeforeChanges: ObjectType
    /// The object as it is now; nil when it was deleted.
    public let objectAfterChanges: ObjectType?
    /// Whether the photo or video itself changed (not only its properties).
    public let assetContentChanged: Bool
    /// Whether the object was deleted.
    public let objectWasDeleted: Bool

    init(
        objectBeforeChanges: ObjectType, objectAfterChanges: ObjectType?, assetContentChanged: Bool,
        objectWasDeleted: Bool
    ) {
        self.objectBeforeChanges = objectBeforeChanges
        self.objectAfterChanges = objectAfterChanges
        self.assetContentChanged = assetContentChanged
        self.objectWasDeleted = objectWasDeleted
    }
}
