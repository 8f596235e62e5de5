import GRDB
import Photos

extension LibraryMeasurements {
    static let orderedIDsSQL = "SELECT id FROM asset WHERE \(visible) ORDER BY creationDate, id"
    static let countSQL = "SELECT COUNT(*) FROM asset WHERE \(visible)"

    /// `PHAsset.fetchAssets(with:).count` with default options. A fetch result snapshots the ids in
    /// order, so the honest floor is selecting those ids; `COUNT(*)` is shown too, as the bare minimum.
    func measureCount() throws {
        var samples = Samples()
        var idFloor = Samples()
        var countFloor = Samples()
        let warmups = min(2, countIterations)
        for round in 0..<(warmups + countIterations) {
            // Alternate which goes first, so neither always finds the caches the other warmed.
            var ids: (value: Int, duration: Duration)?
            if round % 2 == 1 { ids = try timed { try floorOrderedIDs() } }
            let photoKit = timed { PHAsset.fetchAssets(with: fetchOptions()).count }
            if ids == nil { ids = try timed { try floorOrderedIDs() } }
            let count = try timed { try floor.read { db in try Int.fetchOne(db, sql: Self.countSQL) ?? 0 } }
            if round == 0 {
                guard photoKit.value == ids!.value, ids!.value == count.value else {
                    throw BenchmarkError(
                        "count: PhotoKit \(photoKit.value), ids \(ids!.value), COUNT(*) \(count.value)")
                }
                print("    count size \(size): \(photoKit.value) visible assets")
                try printPlan("ids in order", sql: Self.orderedIDsSQL, arguments: [])
                try printPlan("COUNT(*)", sql: Self.countSQL, arguments: [])
            }
            if round >= warmups {
                samples.append(photoKit.duration)
                idFloor.append(ids!.duration)
                countFloor.append(count.duration)
            }
        }
        table.add(ResultRow("count, floor = ids in order", size: size, samples, floor: idFloor))
        table.add(ResultRow("count, floor = SELECT COUNT(*)", size: size, samples, floor: countFloor))
    }

    /// The visible ids in the fetch's order, read as the library reads them: one cursor, one array.
    private func floorOrderedIDs() throws -> Int {
        try floor.read { db in
            var ids: [Int64] = []
            let cursor = try Int64.fetchCursor(db, sql: Self.orderedIDsSQL)
            while let id = try cursor.next() { ids.append(id) }
            return ids.count
        }
    }
}
