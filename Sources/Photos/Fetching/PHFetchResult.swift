import Foundation
import PhotosCore
import PhotosStore
import Synchronization

/// An ordered, immutable snapshot of the objects a fetch selected, loaded lazily.
///
/// The fetch reads only the row ids (8 bytes an object); `object(at:)` loads objects in pages of
/// ``pageSize`` and keeps a bounded cache, so `count` and the first screenful of a million-asset
/// result cost little. It is a `RandomAccessCollection`:
/// ```swift
/// let newest = PHAsset.fetchAssets(with: options)
/// for asset in newest.prefix(10) { print(asset.localIdentifier) }
/// ```
///
/// As in PhotoKit, `ObjectType` is constrained only to classes (`where ObjectType: AnyObject`), so
/// generic code over any fetch result compiles unchanged:
/// ```swift
/// extension PHFetchResult {
///     var array: [ObjectType] { objects(at: IndexSet(integersIn: 0..<count)) }
/// }
/// ```
// @unchecked: `wantsIncrementalChangeDetails` is set once, before the result is handed out; the page cache is in
// `pages`, a Mutex; the rest is immutable.
public final class PHFetchResult<ObjectType: AnyObject>: NSObject, @unchecked Sendable, RandomAccessCollection {
    /// Objects loaded per page.
    public static var pageSize: Int { 128 }
    private static var maximumCachedPages: Int { 64 }

    enum Storage {
        case rows([Int64], load: @Sendable ([Int64]) -> [Int64: PHObject])
        case objects([ObjectType])
    }

    let storage: Storage
    /// The query that made this result, to re-run when the library changes.
    let origin: FetchOrigin?
    /// The library the query ran on.
    let library: PHPhotoLibrary?
    /// The change-log token the snapshot is current at (nil when unknown).
    let token: Int64?
    /// Whether change details for this result carry incremental changes (from the fetch options).
    var wantsIncrementalChangeDetails = true
    private let pages = Mutex<[Int: Page]>([:])

    /// One page of loaded objects. `@unchecked Sendable`: pages are loaded only for results of a
    /// library's rows, whose objects are PhotoKit's immutable (`Sendable`) objects.
    private struct Page: @unchecked Sendable {
        let objects: [ObjectType]
    }

    init(
        ids: [Int64], origin: FetchOrigin?, library: PHPhotoLibrary?, token: Int64? = nil,
        load: @escaping @Sendable ([Int64]) -> [Int64: PHObject]
    ) {
        storage = .rows(ids, load: load)
        self.origin = origin
        self.library = library
        self.token = token
        super.init()
    }

    /// A result over objects already in memory (not in PhotoKit's public API).
    public init(objects: [ObjectType]) {
        storage = .objects(objects)
        origin = nil
        library = nil
        token = nil
        super.init()
    }

    /// An empty result.
    public override convenience init() {
        self.init(objects: [])
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The number of objects.
    public var count: Int {
        switch storage {
        case .rows(let ids, _): ids.count
        case .objects(let objects): objects.count
        }
    }

    public subscript(position: Int) -> ObjectType { object(at: position) }

    /// The object at an index.
    public func object(at index: Int) -> ObjectType {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        switch storage {
        case .objects(let objects):
            return objects[index]
        case .rows(let ids, let load):
            let page = index / Self.pageSize
            let offset = index % Self.pageSize
            if let cached = pages.withLock({ $0[page] }) { return cached.objects[offset] }
            let pageIDs = Array(ids[(page * Self.pageSize)..<Swift.min(ids.count, (page + 1) * Self.pageSize)])
            let loaded = load(pageIDs)
            // Objects deleted since the fetch are served from their tombstones, as PhotoKit's snapshots are.
            let objects = pageIDs.map { id in (loaded[id] as? ObjectType) ?? missing(id) }
            pages.withLock { cache in
                if cache.count >= Self.maximumCachedPages { cache.removeAll(keepingCapacity: true) }
                cache[page] = Page(objects: objects)
            }
            return objects[offset]
        }
    }

    /// An object the library could not load: its failure was logged and made the library's
    /// unavailability reason, but `object(at:)` cannot return nothing (PhotoKit's API), so this stops.
    private func missing(_ id: Int64) -> ObjectType {
        let reason = library?.unavailabilityReason.map { "\($0)" } ?? "unknown reason"
        preconditionFailure("object \(id) of a fetch result could not be loaded: \(reason)")
    }

    /// The first object, or nil when empty.
    public var firstObject: ObjectType? { isEmpty ? nil : object(at: 0) }
    /// The last object, or nil when empty.
    public var lastObject: ObjectType? { isEmpty ? nil : object(at: count - 1) }

    /// The objects at some indexes, in index order.
    public func objects(at indexes: IndexSet) -> [ObjectType] {
        indexes.map { object(at: $0) }
    }

    /// Whether the result holds an object (compared by local identifier).
    public func contains(_ anObject: ObjectType) -> Bool {
        index(of: anObject) != NSNotFound
    }

    /// The index of an object, or `NSNotFound`.
    public func index(of anObject: ObjectType) -> Int {
        index(of: anObject, in: NSRange(location: 0, length: count))
    }

    /// The index of an object within a range of indexes, or `NSNotFound`.
    public func index(of anObject: ObjectType, in range: NSRange) -> Int {
        let lower = Swift.max(0, range.location)
        let upper = Swift.min(count, range.location + range.length)
        guard lower < upper else { return NSNotFound }
        switch storage {
        case .objects(let objects):
            return objects[lower..<upper].firstIndex { Self.same($0, anObject) } ?? NSNotFound
        case .rows(let ids, _):
            guard let rowID = (anObject as? PHObject)?.rowID else { return NSNotFound }
            return ids[lower..<upper].firstIndex(of: rowID) ?? NSNotFound
        }
    }

    /// Whether two objects are the same: equal PhotoKit objects (same local identifier), else the
    /// same instance.
    private static func same(_ one: ObjectType, _ other: ObjectType) -> Bool {
        if let one = one as? PHObject, let other = other as? PHObject { return one == other }
        return one === other
    }

    /// Calls `block` with each object and its index until it sets `stop`.
    public func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        enumerateObjects(at: IndexSet(integersIn: 0..<count), options: [], using: block)
    }

    /// Calls `block` with each object and its index, forwards or (`.reverse`) backwards.
    public func enumerateObjects(
        options opts: NSEnumerationOptions = [], using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        enumerateObjects(at: IndexSet(integersIn: 0..<count), options: opts, using: block)
    }

    /// Calls `block` with the objects at some indexes.
    public func enumerateObjects(
        at indexes: IndexSet, options opts: NSEnumerationOptions = [],
        using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        var stop: ObjCBool = false
        let order: [Int] = opts.contains(.reverse) ? indexes.reversed() : Array(indexes)
        for index in order {
            block(object(at: index), index, &stop)
            if stop.boolValue { return }
        }
    }

    /// The number of assets of a media type in this result.
    public func countOfAssets(with mediaType: PHAssetMediaType) -> Int {
        reduce(0) { $0 + (($1 as? PHAsset)?.mediaType == mediaType ? 1 : 0) }
    }

    /// The row ids of the snapshot (empty for array-backed results).
    var rowIDs: [Int64] {
        if case .rows(let ids, _) = storage { return ids }
        return []
    }
}

extension PHFetchResult: NSFastEnumeration {
    /// All the result's objects, loaded.
    public var photosObjects: [PHObject] { compactMap { $0 as? PHObject } }
}

extension PHFetchResult: PredicateArgumentConvertible {
    /// The result's objects, for `SELF IN %@`.
    public var predicateValue: PredicateValue {
        .array(map { PredicateValue(argument: $0) ?? .null })
    }
}

/// Which fetch made a result: enough to run it again when the library changes.
enum FetchOrigin: Sendable, Hashable {
    case assets(AssetQuery)
    case collections(CollectionQuery)
}
