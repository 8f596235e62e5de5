import Foundation
import PhotosCore
import PhotosStore
import PhotosWire

extension PHFetchResult where ObjectType == PHAsset {
    /// The asset JSON of the result's assets, in its order, handed to `body` a page at a time, so
    /// that describing a million assets holds one page in memory (not in PhotoKit's API).
    ///
    /// Pages are read by `DescriptionReader` (a few queries a page); assets deleted since the fetch
    /// are left out. Dates without a recorded offset are written in the library's time zone. Throws
    /// the `PHPhotosError` of a library that cannot be read, or what `body` throws.
    ///
    /// `range` describes only those positions of the result (a page of a listing); positions past
    /// the end are ignored.
    public func forEachDescriptionPage(
        in range: Range<Int>? = nil, pageSize: Int = 1000, _ body: ([AssetDescription]) throws -> Void
    ) throws {
        let wanted = (range ?? 0..<count).clamped(to: 0..<count)
        try forEachPage(at: wanted, pageSize: pageSize, body) { reader, ids in
            try reader.assets(.rowIDs(ids))
        } describe: {
            AssetDescription($0, timeZone: $1)
        }
    }

    /// Writes the asset JSON of the result's assets at these positions, in order, as elements of a
    /// listing or as lines, straight from the store's rows a page at a time (the one writer of
    /// asset JSON; the bytes are the `Codable` encoding of `forEachDescriptionPage(in:pageSize:_:)`'s
    /// descriptions) (not in PhotoKit's API). Assets deleted since the fetch are left out;
    /// positions past the end are ignored. `albums`: the only albums an asset's JSON may name (a
    /// limited client's); nil: every album.
    ///
    /// Throws the `PHPhotosError` of a library that cannot be read, or `EncodingError` at an asset
    /// with a number JSON cannot hold (the assets before it stay written).
    public func writeAssetJSON(
        in range: Range<Int>? = nil, as form: WireJSONWriter.Form, into writer: inout WireJSONWriter,
        pageSize: Int = 1000, naming albums: Set<String>? = nil
    ) throws {
        let wanted = (range ?? 0..<count).clamped(to: 0..<count)
        guard !wanted.isEmpty else { return }
        let rows = rowIDs
        let library = library ?? firstObject?.library
        guard !rows.isEmpty, let library, !readsTrash else {
            // Objects without rows of one library (a transient result), or without rows in the tables
            // the reader reads (Recently Deleted's): a page at a time.
            return try forEachAssetJSONPage(in: wanted, pageSize: pageSize, naming: albums) { page in
                for asset in page {
                    switch form {
                    case .element: writer.appendElement(asset)
                    case .line: writer.appendLine(asset)
                    }
                }
            }
        }
        let reader = DescriptionReader(database: library.database, timeZone: library.configuration.timeZone)
        let size = Swift.max(1, pageSize)
        for start in stride(from: wanted.lowerBound, to: wanted.upperBound, by: size) {
            let page = Array(rows[start..<Swift.min(wanted.upperBound, start + size)])
            do {
                try reader.writeAssets(.rowIDs(page), as: form, into: &writer, naming: albums)
            } catch let error as EncodingError {
                throw error
            } catch {
                throw library.storeFailed(error, while: "describing objects")
            }
        }
    }

    /// Each asset's JSON apart, with its identifier, a page at a time (what a live query places
    /// among other JSON; not in PhotoKit's API): the bytes `writeAssetJSON(in:as:into:pageSize:naming:)`
    /// writes. Assets deleted since the fetch are left out.
    public func forEachAssetJSONPage(
        in range: Range<Int>? = nil, pageSize: Int = 1000, naming albums: Set<String>? = nil,
        _ body: ([AssetJSON]) throws -> Void
    ) throws {
        let wanted = (range ?? 0..<count).clamped(to: 0..<count)
        try forEachPage(at: wanted, pageSize: pageSize, body) { reader, ids in
            try reader.assetJSON(.rowIDs(ids), naming: albums)
        } describe: {
            try AssetJSON(AssetDescription($0, timeZone: $1).keepingAlbums(albums))
        }
    }

    /// Each asset's JSON apart at these positions, in the order given, read together (a live
    /// query's inserted and changed assets); see `descriptions(at:)`.
    public func assetJSON(at positions: [Int], naming albums: Set<String>? = nil) throws -> [AssetJSON] {
        var found: [AssetJSON] = []
        try forEachPage(at: positions.filter { (0..<count).contains($0) }, pageSize: Swift.max(1, positions.count)) {
            found += $0
        } read: { reader, ids in
            try reader.assetJSON(.rowIDs(ids), naming: albums)
        } describe: {
            try AssetJSON(AssetDescription($0, timeZone: $1).keepingAlbums(albums))
        }
        return found
    }

    /// The asset JSON of the assets at these positions, in the order given, read together (a live
    /// query's inserted and changed assets: one read for a hundred, not a hundred reads). Give each
    /// position once (a repeated one is described once). Positions past the end are ignored; assets
    /// deleted since the fetch are left out.
    public func descriptions(at positions: [Int]) throws -> [AssetDescription] {
        var descriptions: [AssetDescription] = []
        try forEachPage(at: positions.filter { (0..<count).contains($0) }, pageSize: Swift.max(1, positions.count)) {
            descriptions += $0
        } read: { reader, ids in
            try reader.assets(.rowIDs(ids))
        } describe: {
            AssetDescription($0, timeZone: $1)
        }
        return descriptions
    }
}

extension PHFetchResult where ObjectType: PHCollection {
    /// The collection JSON of the result's albums or folders, in its order, a page at a time (see
    /// the asset version of `forEachDescriptionPage(in:pageSize:_:)`).
    ///
    /// A page the reader cannot read (a damaged asset table, which smart albums count) is described
    /// through PhotoKit's API, as `photos albums` always did: what is intact still lists, and each
    /// failure is logged and made the library's unavailability reason.
    public func forEachDescriptionPage(
        in range: Range<Int>? = nil, pageSize: Int = 1000, _ body: ([CollectionDescription]) throws -> Void
    ) throws {
        let wanted = (range ?? 0..<count).clamped(to: 0..<count)
        try forEachPage(at: wanted, pageSize: pageSize, fallBackToObjects: true, body) { reader, ids in
            try reader.collections(.rowIDs(ids))
        } describe: {
            CollectionDescription($0, timeZone: $1)
        }
    }

    /// The collection JSON of the albums or folders at these positions, in the order given, read
    /// together (a live query's inserted and changed collections; see the asset version of
    /// `descriptions(at:)`). Positions past the end are ignored.
    public func descriptions(at positions: [Int]) throws -> [CollectionDescription] {
        var descriptions: [CollectionDescription] = []
        try forEachPage(
            at: positions.filter { (0..<count).contains($0) }, pageSize: Swift.max(1, positions.count),
            fallBackToObjects: true
        ) {
            descriptions += $0
        } read: { reader, ids in
            try reader.collections(.rowIDs(ids))
        } describe: {
            CollectionDescription($0, timeZone: $1)
        }
        return descriptions
    }
}

extension PHFetchResult where ObjectType: PHObject {
    /// The positions of the objects with these row ids, ascending (a live query's assets whose
    /// JSON a change of their albums altered; not in PhotoKit's API). One pass over the result.
    package func positions(ofRows rows: Set<Int64>) -> [Int] {
        guard !rows.isEmpty else { return [] }
        let ids = rowIDs
        return ids.indices.filter { rows.contains(ids[$0]) }
    }

    /// Whether the result is of Recently Deleted's assets, whose rows are out of the asset table.
    var readsTrash: Bool {
        guard case .assets(let query) = origin, case .smartAlbum(let subtype) = query.scope else { return false }
        return subtype == .smartAlbumRecentlyDeleted
    }

    /// Reads pages of row ids (the objects at `positions`, which are within the result) through a
    /// reader; objects with no row (a transient collection's) are described one by one through
    /// PhotoKit's API.
    fileprivate func forEachPage<Description, Positions: RandomAccessCollection<Int>>(
        at positions: Positions, pageSize: Int, fallBackToObjects: Bool = false, _ body: ([Description]) throws -> Void,
        read: (DescriptionReader, [Int64]) throws -> [Description],
        describe: (ObjectType, TimeZone) throws -> Description
    ) throws {
        let size = Swift.max(1, pageSize)
        if readsTrash {
            // Trashed assets have rows in none of the tables the reader reads: described from the
            // objects, which load their kept records.
            let wanted = Array(positions)
            let timeZone = (library ?? firstObject?.library)?.configuration.timeZone ?? .current
            for start in stride(from: 0, to: wanted.count, by: size) {
                try body(
                    try wanted[start..<Swift.min(wanted.count, start + size)].map { try describe(self[$0], timeZone) })
            }
            return
        }
        let rows = rowIDs
        var ids = rows.isEmpty ? [] : positions.map { rows[$0] }
        if rows.isEmpty, case .objects(let all) = storage {
            let objects = positions.map { all[$0] }
            let objectRows = objects.compactMap(\.rowID)
            let library = objects.first?.library
            if objectRows.count == objects.count, library != nil, objects.allSatisfy({ $0.library === library }) {
                ids = objectRows
            } else {
                for start in stride(from: 0, to: objects.count, by: size) {
                    try body(
                        try objects[start..<Swift.min(objects.count, start + size)].map {
                            try describe($0, $0.library?.configuration.timeZone ?? .current)
                        })
                }
                return
            }
        }
        guard !ids.isEmpty, let library = library ?? firstObject?.library else { return }
        let reader = DescriptionReader(database: library.database, timeZone: library.configuration.timeZone)
        for start in stride(from: 0, to: ids.count, by: size) {
            let end = Swift.min(ids.count, start + size)
            let page: [Description]
            do {
                page = try read(reader, Array(ids[start..<end]))
            } catch {
                let failure = library.storeFailed(error, while: "describing objects")
                guard fallBackToObjects else { throw failure }
                page = try (start..<end).map {
                    let position = positions[positions.index(positions.startIndex, offsetBy: $0)]
                    return try describe(self[position], library.configuration.timeZone)
                }
            }
            try body(page)
        }
    }
}
