import Foundation
import PhotosCore
import PhotosWire

/// Builds asset and collection JSON straight from the store's rows, many objects at a time.
///
/// Each call reads one consistent snapshot with a handful of queries whatever the number of objects
/// (the asset rows, their resources, their albums, the unavailable folders), and formats dates by hand
/// (``ISO8601``). It writes exactly what describing each `PHAsset` or `PHCollection` writes
/// (`DescriptionEquivalenceTests` compares both over the corpus), at tens of thousands of assets a
/// second. Read large sets in pages of a few hundred to a few thousand, so memory stays flat:
/// ```swift
/// let reader = DescriptionReader(database: database, timeZone: library.configuration.timeZone)
/// for page in stride(from: 0, to: ids.count, by: 1000) {
///     let descriptions = try reader.assets(.rowIDs(Array(ids[page..<min(ids.count, page + 1000)])))
///     ...
/// }
/// ```
public struct DescriptionReader: Sendable {
    /// The library read.
    public let database: LibraryDatabase
    /// The zone dates without a recorded offset are written in.
    public let timeZone: TimeZone

    /// A reader of `database`, writing dates without a recorded offset in `timeZone`.
    public init(database: LibraryDatabase, timeZone: TimeZone = .current) {
        self.database = database
        self.timeZone = timeZone
    }

    /// These assets' descriptions, in the order given.
    public func assets(_ keys: ObjectKeys) throws -> [AssetDescription] {
        guard !keys.isEmpty else { return [] }
        return try database.withAssetRows(keys) { rows in try AssetRowJSON.describe(&rows, timeZone: timeZone) }
    }

    /// Writes the asset JSON of these assets, in the order given, as elements of a listing or as
    /// lines, straight from the rows (the one writer of asset JSON: no description is made; the
    /// bytes are the `Codable` encoding of ``assets(_:)``'s descriptions). Returns the number of
    /// assets written.
    ///
    /// `albums`: the only albums an asset's JSON may name (a limited client's); nil: every album.
    ///
    /// Throws `EncodingError.invalidValue`, as `JSONEncoder` does, at an asset with a number JSON
    /// cannot hold (infinity, NaN); the assets before it stay written.
    @discardableResult
    public func writeAssets(
        _ keys: ObjectKeys, as form: WireJSONWriter.Form, into writer: inout WireJSONWriter,
        naming albums: Set<String>? = nil
    ) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try database.withAssetRows(keys) { rows in
            try writer.appendAssets(&rows, as: form, timeZone: timeZone, naming: albums)
        }
    }

    /// Each asset's JSON apart, with its identifier, in the order given (what a hook's payload and
    /// a live query place among other JSON). Written as ``writeAssets(_:as:into:naming:)`` writes them.
    public func assetJSON(_ keys: ObjectKeys, naming albums: Set<String>? = nil) throws -> [AssetJSON] {
        guard !keys.isEmpty else { return [] }
        return try database.withAssetRows(keys) { rows in try Self.apart(&rows, timeZone, albums) }
    }

    /// These albums' and folders' descriptions, in the order given.
    public func collections(_ keys: ObjectKeys) throws -> [CollectionDescription] {
        guard !keys.isEmpty else { return [] }
        return describe(try database.collectionDescriptionRows(keys))
    }

    // MARK: Building

    private static func apart(_ rows: inout AssetRows, _ timeZone: TimeZone, _ albums: Set<String>?) throws
        -> [AssetJSON]
    {
        var writer = WireJSONWriter()
        var objects: [(String, Range<Int>)] = []
        try writer.appendAssets(&rows, as: .line, timeZone: timeZone, naming: albums) { objects.append(($0, $1)) }
        return objects.map { AssetJSON(localIdentifier: $0.0, bytes: Array(writer.bytes[$0.1])) }
    }

    private func describe(_ rows: CollectionDescriptionRows) -> [CollectionDescription] {
        let format = { (seconds: Double?) in
            seconds.map(Date.init(timeIntervalSince1970:)).map {
                ISO8601.string($0, offset: timeZone.secondsFromGMT(for: $0))
            }
        }
        return rows.collections.map { info in
            let record = info.record
            let type: String
            let subtype: String
            var count: Int?
            if record.isList {
                type = (PHCollectionListType(rawValue: record.type) ?? .folder).name
                subtype = (PHCollectionListSubtype(rawValue: record.subtype) ?? .regularFolder).name
            } else {
                type = (PHAssetCollectionType(rawValue: record.type) ?? .album).name
                subtype = (PHAssetCollectionSubtype(rawValue: record.subtype) ?? .albumRegular).name
                count = info.estimatedAssetCount ?? rows.smartAlbumCounts[record.subtype] ?? 0
            }
            return CollectionDescription(
                localIdentifier: record.localIdentifier, localizedTitle: record.title, type: type, subtype: subtype,
                estimatedAssetCount: count, path: record.path,
                parentLocalIdentifier: record.parentId.flatMap { rows.parentIdentifiers[$0] },
                startDate: format(info.startDate), endDate: format(info.endDate))
        }
    }
}
