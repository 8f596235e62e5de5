import Foundation
import PhotosStore
import PhotosWire

extension PHFetchResult where ObjectType == PHAsset {
    /// The result cut into runs of one creation day, in its order (not in PhotoKit's API): what a
    /// timeline lays out before it loads a single asset. Each run is the positions
    /// `start..<start + count`; its day is the first ten characters of the `creationDate` the assets'
    /// JSON writes (``writeAssetJSON(in:as:into:pageSize:naming:)``), so that the two never disagree.
    ///
    /// A result of a library's rows is read from two columns of each row in one statement (100,000
    /// assets without describing one); assets deleted since the fetch are left out. Throws the
    /// `PHPhotosError` of a library that cannot be read.
    ///
    /// ```swift
    /// let newest = PHAsset.fetchAssets(with: options)  // sorted by -creationDate
    /// for run in try newest.creationDays().days { print(run.day ?? "undated", run.count) }
    /// ```
    public func creationDays() throws -> API.DayIndex {
        let rows = rowIDs
        if !rows.isEmpty, !readsTrash, let library {
            do {
                return try DescriptionReader(database: library.database, timeZone: library.configuration.timeZone)
                    .creationDays(rows)
            } catch {
                throw library.storeFailed(error, while: "reading creation days")
            }
        }
        // Objects in memory, or Recently Deleted's: from their descriptions, which write the dates.
        var builder = API.DayIndex.Builder()
        var position = 0
        try forEachDescriptionPage { page in
            for asset in page {
                builder.add(asset.creationDate.map { $0.prefix(10) }, at: position)
                position += 1
            }
        }
        return builder.index
    }
}
