import Photos

extension LibraryMeasurements {
    /// Memory held by an unfiltered fetch result after `count`, `firstObject`, `lastObject` and one
    /// object in the middle: the growth of the resident size, against 8 bytes an id.
    func measureMemory() {
        // Open a reader connection first: its page cache is the library's, not the fetch result's.
        consume(PHAsset.fetchAssets(with: limitedOptions(1)).firstObject)
        ProcessMemory.releaseFreeMemory()
        let before = ProcessMemory.residentBytes()
        let result = PHAsset.fetchAssets(with: fetchOptions())
        let count = result.count
        let touched = [result.firstObject, result.lastObject, count > 0 ? result.object(at: count / 2) : nil]
        let resident = ProcessMemory.residentBytes() - before
        consume(touched)
        withExtendedLifetime(result) {}

        let idArray = (8 * count).megabytes
        print(
            "    memory size \(size): \(count) assets, resident +\(ResultTable.format(resident.megabytes)) MB, "
                + "the id array alone \(ResultTable.format(idArray)) MB")
        table.add(
            ResultRow(
                "memory: fetch result (resident)", size: size, value: resident.megabytes,
                floor: idArray, unit: "MB; floor = 8 B x count"))
    }

    private func limitedOptions(_ limit: Int) -> PHFetchOptions {
        let options = fetchOptions()
        options.fetchLimit = limit
        return options
    }
}
