import Foundation
import PhotosCore
import PhotosStore

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
///     let descriptions = try reader.assets(rowIDs: Array(ids[page..<min(ids.count, page + 1000)]))
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

    /// In the order given; identifiers with no live asset are skipped.
    public func assets(localIdentifiers: [String]) throws -> [AssetDescription] {
        guard !localIdentifiers.isEmpty else { return [] }
        return describe(try database.assetDescriptionRows(localIdentifiers: localIdentifiers))
    }

    /// In the order given; row ids with no live asset are skipped.
    public func assets(rowIDs: [Int64]) throws -> [AssetDescription] {
        guard !rowIDs.isEmpty else { return [] }
        return describe(try database.assetDescriptionRows(ids: rowIDs))
    }

    /// In the order given; identifiers with no live album or folder are skipped.
    public func collections(localIdentifiers: [String]) throws -> [CollectionDescription] {
        guard !localIdentifiers.isEmpty else { return [] }
        return describe(try database.collectionDescriptionRows(localIdentifiers: localIdentifiers))
    }

    /// In the order given; row ids with no live album or folder are skipped.
    public func collections(rowIDs: [Int64]) throws -> [CollectionDescription] {
        guard !rowIDs.isEmpty else { return [] }
        return describe(try database.collectionDescriptionRows(ids: rowIDs))
    }

    // MARK: Building

    private func describe(_ rows: AssetDescriptionRows) -> [AssetDescription] {
        var subtypeNames: [Int64: [String]] = [:]
        var albums: [Int64: AssetDescription.Album] = [:]
        for (id, record) in rows.albums {
            albums[id] = AssetDescription.Album(
                localIdentifier: record.localIdentifier, localizedTitle: record.title, path: record.path)
        }
        // As PHAsset.isAvailable tests it: a file under an offline root or an unreadable directory.
        let unavailablePrefixes = rows.unavailablePaths.map { $0 == "/" ? "/" : $0 + "/" }

        return rows.assets.map { record in
            let id = record.id ?? -1
            let names: [String]
            if let known = subtypeNames[record.mediaSubtypes] {
                names = known
            } else {
                names = PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: record.mediaSubtypes)).names
                subtypeNames[record.mediaSubtypes] = names
            }
            let creationDate = record.creationDate.map(Date.init(timeIntervalSince1970:))
            let modificationDate = record.modificationDate.map(Date.init(timeIntervalSince1970:))
            let resources = rows.resources[id] ?? []
            let location: AssetDescription.Location? =
                if let latitude = record.latitude, let longitude = record.longitude {
                    AssetDescription.Location(latitude: latitude, longitude: longitude, altitude: record.altitude)
                } else {
                    nil
                }
            return AssetDescription(
                localIdentifier: record.localIdentifier,
                mediaType: (PHAssetMediaType(rawValue: record.mediaType) ?? .unknown).name,
                mediaSubtypes: names, pixelWidth: record.pixelWidth, pixelHeight: record.pixelHeight,
                creationDate: creationDate.map {
                    ISO8601.string($0, offset: record.creationDateOffset ?? timeZone.secondsFromGMT(for: $0))
                },
                creationDateHasOffset: !record.creationDateIsFloating,
                modificationDate: modificationDate.map { ISO8601.string($0, offset: timeZone.secondsFromGMT(for: $0)) },
                duration: record.duration, location: location, isFavorite: record.isFavorite,
                isHidden: record.isHidden, burstIdentifier: record.burstIdentifier,
                representsBurst: record.representsBurst,
                isAvailable: unavailablePrefixes.isEmpty
                    || !resources.contains { resource in
                        unavailablePrefixes.contains { resource.path.hasPrefix($0) }
                    },
                resources: resources.map { resource in
                    AssetDescription.Resource(
                        type: (PHAssetResourceType(rawValue: resource.type) ?? .photo).name, path: resource.path,
                        uniformTypeIdentifier: resource.uniformTypeIdentifier ?? "public.data",
                        mimeType: resource.mimeType, fileSize: resource.fileSize)
                },
                albums: (rows.albumIDs[id] ?? []).compactMap { albums[$0] })
        }
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
