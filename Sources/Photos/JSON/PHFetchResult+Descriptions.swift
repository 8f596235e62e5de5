import Foundation
import PhotosCore
import PhotosStore
import PhotosWire

extension PHFetchResult where ObjectType == PHAsset {
    /// The asset JSON of the result's assets, in its order, handed to `body` a page at a time, so
    /// that describing a million assets holds one page in memory (not in PhotoKit's API).
    ///
    /// Pages are read by ``DescriptionReader`` (a few queries a page); assets deleted since the fetch
    /// are left out. Dates without a recorded offset are written in the library's time zone. Throws
    /// the `PHPhotosError` of a library that cannot be read, or what `body` throws.
    ///
    /// `range` describes only those positions of the result (a page of a listing); positions past
    /// the end are ignored.
    public func forEachDescriptionPage(
        in range: Range<Int>? = nil, pageSize: Int = 1000, _ body: ([AssetDescription]) throws -> Void
    ) throws {
        try forEachPage(in: range, pageSize: pageSize, body) { reader, ids in try reader.assets(rowIDs: ids) } describe: {
            AssetDescription($0, timeZone: $1)
        }
    }
}

extension PHFetchResult where ObjectType: PHCollection {
    /// The collection JSON of the result's albums or folders, in its order, a page at a time (see
    /// the asset version of ``forEachDescriptionPage(pageSize:_:)``).
    ///
    /// A page the reader cannot read (a damaged asset table, which smart albums count) is described
    /// through PhotoKit's API, as `photos albums` always did: what is intact still lists, and each
    /// failure is logged and made the library's unavailability reason.
    public func forEachDescriptionPage(
        in range: Range<Int>? = nil, pageSize: Int = 1000, _ body: ([CollectionDescription]) throws -> Void
    ) throws {
        try forEachPage(in: range, pageSize: pageSize, fallBackToObjects: true, body) { reader, ids in
            try reader.collections(rowIDs: ids)
        } describe: {
            CollectionDescription($0, timeZone: $1)
        }
    }
}

extension PHFetchResult {
    /// Reads pages of row ids through a reader; objects with no row (a transient collection's) are
    /// described one by one through PhotoKit's API.
    fileprivate func forEachPage<Description>(
        in range: Range<Int>?, pageSize: Int, fallBackToObjects: Bool = false, _ body: ([Description]) throws -> Void,
        read: (DescriptionReader, [Int64]) throws -> [Description],
        describe: (ObjectType, TimeZone) -> Description
    ) throws {
        let size = Swift.max(1, pageSize)
        let wanted = (range ?? 0..<count).clamped(to: 0..<count)
        var ids = Array(rowIDs.isEmpty ? [] : rowIDs[wanted])
        if rowIDs.isEmpty, case .objects(let all) = storage {
            let objects = all[wanted]
            let rows = objects.compactMap(\.rowID)
            let library = objects.first?.library
            if rows.count == objects.count, library != nil, objects.allSatisfy({ $0.library === library }) {
                ids = rows
            } else {
                for start in stride(from: objects.startIndex, to: objects.endIndex, by: size) {
                    try body(
                        objects[start..<Swift.min(objects.endIndex, start + size)].map {
                            describe($0, $0.library?.configuration.timeZone ?? .current)
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
                page = (start..<end).map { describe(self[wanted.lowerBound + $0], library.configuration.timeZone) }
            }
            try body(page)
        }
    }
}
