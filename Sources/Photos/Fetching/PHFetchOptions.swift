import Foundation
import PhotosCore
import PhotosStore

/// How to filter, order and limit a fetch, with PhotoKit's defaults.
///
/// ```swift
/// let options = PHFetchOptions()
/// options.predicate = NSPredicate(format: "favorite == YES AND mediaType == %d", PHAssetMediaType.image.rawValue)
/// options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
/// options.fetchLimit = 50
/// ```
// @unchecked: the caller sets the options before the fetch, which reads them once, on the caller's thread; the
// library keeps no reference (PhotoKit's contract). NSPredicate and NSSortDescriptor are immutable once made.
public final class PHFetchOptions: NSCopying, @unchecked Sendable {
    /// Which objects to select, in PhotoKit's predicate format (keys per class as in PhotoKit).
    public var predicate: NSPredicate?
    /// The order, by PhotoKit keys; nil is the natural order (date taken, or an album's own order).
    public var sortDescriptors: [NSSortDescriptor]?
    /// At most this many objects; 0 (the default) means no limit.
    public var fetchLimit: Int = 0
    /// Whether hidden assets are included (default false).
    public var includeHiddenAssets = false
    /// Whether every burst member is included, not only representatives and picks (default false).
    public var includeAllBurstAssets = false
    /// Which asset sources to include (default: the user's library).
    public var includeAssetSourceTypes: PHAssetSourceType = .typeUserLibrary
    /// Whether change details for the result carry incremental changes (default true).
    public var wantsIncrementalChangeDetails = true
    /// The library to fetch from (not in PhotoKit's API); nil means the shared library, or the
    /// library of the collection or asset a fetch is relative to.
    public var photoLibrary: PHPhotoLibrary?
    /// Only assets that are members of one of these albums, by local identifier (not in PhotoKit's
    /// API; photosd bounds a limited client's fetches with it). A result's change details follow
    /// the albums: an asset added to one comes in as an insert. Asset fetches only.
    public var restrictedToAlbums: [String]?

    /// Options with PhotoKit's defaults.
    public init() {}

    /// An independent copy (PhotoKit's `NSCopying`): changing one leaves the other as it was.
    ///
    /// ```swift
    /// let recent = base.copy() as! PHFetchOptions
    /// recent.fetchLimit = 50
    /// ```
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHFetchOptions()
        // Predicates and sort descriptors are immutable once made: shared, as NSCopying shares them.
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.includeHiddenAssets = includeHiddenAssets
        copy.includeAllBurstAssets = includeAllBurstAssets
        copy.includeAssetSourceTypes = includeAssetSourceTypes
        copy.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
        copy.photoLibrary = photoLibrary
        copy.restrictedToAlbums = restrictedToAlbums
        return copy
    }

    /// The same as ``copy(with:)`` (NSObject's spelling).
    public func copy() -> Any { copy(with: nil) }

    /// Checks the predicate and sort keys against a class's supported keys, throwing a
    /// `PredicateFormatError` that names the problem and its position.
    public func validate(for schema: PredicateSchema) throws(PredicateFormatError) {
        _ = try compiledPredicate(for: schema, column: { $0 })
        _ = try sortKeys(for: schema)
    }

    func compiledPredicate(
        for schema: PredicateSchema, dialect: SQLDialect = .sqlite, column: (String) -> String
    ) throws(PredicateFormatError) -> SQLFragment? {
        guard let predicate else { return nil }
        guard let format = predicate as? PHFormatPredicate else {
            throw PredicateFormatError(
                .unsupportedFeature, "only predicates made with NSPredicate(format:) are supported",
                format: predicate.predicateFormat)
        }
        // Compiling checks every key against the schema: validating first compiled twice.
        return try format.parsed.get().sql(for: schema, dialect: dialect, column: column)
    }

    func sortKeys(for schema: PredicateSchema) throws(PredicateFormatError) -> [SortKey] {
        var keys: [SortKey] = []
        for descriptor in sortDescriptors ?? [] {
            guard let keyed = descriptor as? PhotoKitSortDescriptor else {
                throw PredicateFormatError(
                    .unsupportedFeature,
                    "only sort descriptors made with NSSortDescriptor(key:ascending:) are supported",
                    format: "")
            }
            keys.append(try schema.sortKey(keyed.photosKey, ascending: keyed.ascending))
        }
        return keys
    }

    /// The asset query these options describe over a scope. Stops the program on an invalid predicate,
    /// as PhotoKit raises; call ``validate(for:)`` first to get the error instead.
    /// The predicate is compiled to the SQL of `library`'s engine.
    func assetQuery(scope: AssetQuery.Scope, mediaType: PHAssetMediaType? = nil, in library: PHPhotoLibrary)
        -> AssetQuery
    {
        let dialect = library.database.dialect
        var query = AssetQuery(scope: scope)
        query.mediaType = mediaType
        query.limit = max(0, fetchLimit)
        query.includeHidden = includeHiddenAssets
        query.includeAllBursts = includeAllBurstAssets
        query.sourceTypes = includeAssetSourceTypes
        query.albums = restrictedToAlbums
        do {
            query.filter = try compiledPredicate(for: .asset, dialect: dialect, column: AssetQuery.column(for:))
            query.sort = try sortKeys(for: .asset)
        } catch {
            preconditionFailure("Unsupported fetch options for PHAsset: \(error)")
        }
        return query
    }

    /// The collection query these options describe over a scope (see ``assetQuery(scope:mediaType:in:)``).
    func collectionQuery(scope: CollectionQuery.Scope, schema: PredicateSchema, in library: PHPhotoLibrary)
        -> CollectionQuery
    {
        let dialect = library.database.dialect
        var query = CollectionQuery(scope: scope)
        query.limit = max(0, fetchLimit)
        do {
            query.filter = try compiledPredicate(for: schema, dialect: dialect, column: CollectionQuery.column(for:))
            query.sort = try sortKeys(for: schema)
        } catch {
            preconditionFailure("Unsupported fetch options for \(schema.className): \(error)")
        }
        return query
    }
}
