/// The keys one PhotoKit class accepts in predicates and sort descriptors (seed 004's table).
///
/// `SELF` is implicit in every schema: it compares the `localIdentifier` column with object or
/// string arguments.
///
/// ```swift
/// PredicateSchema.asset.key(named: "isFavorite")?.name   // "favorite"
/// PredicateSchema.assetCollection.key(named: "pixelWidth")   // nil
/// ```
public struct PredicateSchema: Sendable {
    /// The PhotoKit class name, used in error messages ("PHAsset").
    public let className: String
    /// The keys the class supports, besides the implicit `SELF`.
    public let keys: [PredicateKey]

    /// Creates a schema for a class.
    public init(className: String, keys: [PredicateKey]) {
        self.className = className
        self.keys = keys
    }

    /// Returns the key with this canonical name or alias (case-sensitive, as KVC is), or nil.
    public func key(named name: String) -> PredicateKey? {
        keys.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// PHAsset: the documented keys plus `adjustmentFormatIdentifier`, which PhotoKit accepts
    /// undocumented, and the keys of the asset JSON (`representsBurst`, `creationDateHasOffset`,
    /// `creationDateIsFileTime`, `filename`: the name of the asset's first file, the one its `resources` list first; `make`
    /// and `model`: the camera's, from the file's EXIF;
    /// `location`: compared with `nil`, or measured with `distanceToLocation`). `mediaType` and
    /// `mediaSubtypes` take the JSON's names as well as numbers.
    public static let asset = PredicateSchema(
        className: "PHAsset",
        keys: [
            PredicateKey(name: "localIdentifier", type: .string, isNullable: false),
            PredicateKey(name: "creationDate", type: .date),
            PredicateKey(name: "modificationDate", type: .date),
            PredicateKey(
                name: "mediaType", type: .integer,
                names: Dictionary(
                    uniqueKeysWithValues: PHAssetMediaType.allCases.map { ($0.name, Int64($0.rawValue)) })),
            PredicateKey(
                name: "mediaSubtypes", type: .bitmask,
                names: Dictionary(
                    uniqueKeysWithValues: PHAssetMediaSubtype.named.map { ($0.name, Int64($0.subtype.rawValue)) })),
            PredicateKey(name: "duration", type: .double),
            PredicateKey(name: "pixelWidth", type: .integer),
            PredicateKey(name: "pixelHeight", type: .integer),
            PredicateKey(name: "favorite", aliases: ["isFavorite"], type: .bool),
            PredicateKey(name: "hidden", aliases: ["isHidden"], type: .bool),
            PredicateKey(name: "burstIdentifier", type: .string),
            PredicateKey(name: "adjustmentFormatIdentifier", type: .string),
            PredicateKey(name: "rating", type: .integer, isNullable: false),
            PredicateKey(name: "representsBurst", type: .bool),
            PredicateKey(name: "creationDateHasOffset", type: .bool),
            PredicateKey(name: "creationDateIsFileTime", type: .bool),
            PredicateKey(name: "isLibraryOwned", type: .bool),
            PredicateKey(name: "filename", aliases: ["originalFilename"], type: .string),
            PredicateKey(name: "make", type: .string),
            PredicateKey(name: "model", type: .string),
            PredicateKey(name: "location", type: .location),
        ]
    )

    /// PHAssetCollection: identifier, title, date range and estimated count.
    public static let assetCollection = PredicateSchema(
        className: "PHAssetCollection",
        keys: [
            PredicateKey(name: "localIdentifier", type: .string, isNullable: false),
            PredicateKey(name: "localizedTitle", aliases: ["title"], type: .string),
            PredicateKey(name: "startDate", type: .date),
            PredicateKey(name: "endDate", type: .date),
            PredicateKey(name: "estimatedAssetCount", type: .integer),
        ]
    )

    /// PHCollectionList: identifier, title and date range.
    public static let collectionList = PredicateSchema(
        className: "PHCollectionList",
        keys: [
            PredicateKey(name: "localIdentifier", type: .string, isNullable: false),
            PredicateKey(name: "localizedTitle", aliases: ["title"], type: .string),
            PredicateKey(name: "startDate", type: .date),
            PredicateKey(name: "endDate", type: .date),
        ]
    )

    /// PHCollection (mixed lists and asset collections): the same keys as PHCollectionList.
    public static let collection = PredicateSchema(className: "PHCollection", keys: collectionList.keys)

    /// Every built-in schema, used to tell "valid for another class" apart from "unknown".
    static let all: [PredicateSchema] = [asset, assetCollection, collectionList, collection]
}
