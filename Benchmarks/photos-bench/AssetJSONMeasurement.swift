import Foundation
import Photos
import PhotosStore
import PhotosWire

/// The asset JSON (`photos assets --json`, exec hook payloads): the same assets written by the
/// PhotoKit path as `photos` did before (`AssetDescription(PHAsset)` and a `JSONEncoder` per asset)
/// and by ``DescriptionReader`` with ``WireJSONWriter`` in pages, in assets per second.
///
/// The library is the bench's generated camera roll (``AssetGenerator``) with what the JSON also
/// reads: each asset in the album of its directory (a thousand assets a directory) and every tenth
/// one also in a user album. Both paths' output is compared byte for byte before it is timed.
struct AssetJSONMeasurement {
    /// The goal of issue 11 for the new path.
    static let goal = 50_000.0
    /// The PhotoKit path's speed before this measure existed, for the record.
    static let before = 1_250.0

    let size: Int
    let directory: String
    let rounds: Int
    let table: ResultTable

    var path: String { (directory as NSString).appendingPathComponent("photos-bench-json-\(size).sqlite") }

    func run() throws {
        print("asset JSON \(size): \(path)")
        try prepare()
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let result = PHAsset.fetchAssets(with: options)
        guard result.count == size else { throw BenchmarkError("asset JSON: \(result.count) assets, not \(size)") }
        let timeZone = library.configuration.timeZone

        // The PhotoKit path, as `photos assets --json` ran before: slow, so once.
        let old = try timed { () throws -> Data in
            var output = Data()
            for asset in result {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                output += try encoder.encode(AssetDescription(asset, timeZone: timeZone))
                output += Data("\n".utf8)
            }
            return output
        }

        var new: [(value: [UInt8], duration: Duration)] = []
        // CPU seconds too: on a shared machine the wall clock counts other processes' turns.
        var cpu: [Double] = []
        var readerOnly = Samples()
        var readerAndEncoder = Samples()
        for _ in 0..<rounds {
            let cpuBefore = processCPUSeconds()
            new.append(try timed { try writeLines(result) })
            cpu.append(processCPUSeconds() - cpuBefore)
            // Where the time goes: the reader alone, and the reader with one JSONEncoder.
            let reader = DescriptionReader(database: library.database, timeZone: timeZone)
            readerOnly.append(try timed { try describe(reader) }.duration)
            readerAndEncoder.append(try timed { try describeAndEncode(reader) }.duration)
        }
        guard let first = new.first?.value, first == Array(old.value) else {
            throw BenchmarkError("asset JSON: the reader's output differs from the PhotoKit path's")
        }
        print("    asset JSON \(size): \(first.count / 1024) KiB of JSON Lines, identical on both paths")

        let perSecond = { (duration: Duration) in Double(size) / max(duration.milliseconds / 1e3, 1e-9) }
        var newSamples = Samples()
        for run in new { newSamples.append(run.duration) }
        let oldRate = perSecond(old.duration)
        let newRate = Double(size) / max(newSamples.p50 / 1e3, 1e-9)
        table.add(ResultRow("asset JSON: PhotoKit path", size: size, value: oldRate, floor: nil, unit: "assets/s"))
        table.add(
            ResultRow(
                "asset JSON: reader (floor = PhotoKit)", size: size, value: newRate, floor: oldRate,
                unit: "assets/s; ratio = speed-up"))
        table.add(
            ResultRow(
                "asset JSON: reader, per CPU second", size: size,
                value: Double(size) / max(cpu.sorted()[cpu.count / 2], 1e-9), floor: nil, unit: "assets/CPU s"))
        table.add(
            ResultRow(
                "asset JSON: reader, no JSON", size: size, value: Double(size) / max(readerOnly.p50 / 1e3, 1e-9),
                floor: nil, unit: "assets/s"))
        table.add(
            ResultRow(
                "asset JSON: reader + JSONEncoder", size: size,
                value: Double(size) / max(readerAndEncoder.p50 / 1e3, 1e-9), floor: nil, unit: "assets/s"))
    }

    /// As `photos assets --json` writes now: pages of a thousand, one buffer.
    private func writeLines(_ result: PHFetchResult<PHAsset>) throws -> [UInt8] {
        var output: [UInt8] = []
        var writer = WireJSONWriter()
        try result.forEachDescriptionPage { page in
            writer.removeAll()
            for description in page { try writer.appendLine(description) }
            output += writer.bytes
        }
        return output
    }

    private func describe(_ reader: DescriptionReader) throws -> Int {
        let ids = try reader.database.assetIDs(matching: allAssets())
        var count = 0
        for start in stride(from: 0, to: ids.count, by: 1000) {
            count += try reader.assets(rowIDs: Array(ids[start..<min(ids.count, start + 1000)])).count
        }
        return count
    }

    private func describeAndEncode(_ reader: DescriptionReader) throws -> Int {
        let ids = try reader.database.assetIDs(matching: allAssets())
        let encoder = WireJSON.makeEncoder()
        var bytes = 0
        for start in stride(from: 0, to: ids.count, by: 1000) {
            for description in try reader.assets(rowIDs: Array(ids[start..<min(ids.count, start + 1000)])) {
                bytes += try encoder.encode(description).count + 1
            }
        }
        return bytes
    }

    private func allAssets() -> AssetQuery {
        var query = AssetQuery()
        query.includeHidden = true
        query.includeAllBursts = true
        return query
    }

    /// Builds the library unless one with `size` assets is there.
    private func prepare() throws {
        if FileManager.default.fileExists(atPath: path) {
            let count = try? LibraryDatabase(path: path).read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") ?? 0
            }
            if count == size {
                print("  reused")
                return
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let database = try LibraryDatabase(path: path)
        var generator = AssetGenerator(size: size)
        try database.write { transaction in
            let user = try transaction.insertCollection(
                CollectionRecord(
                    localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                    type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                    title: "Frame", position: 0, createdDate: 0))
            var albums: [String: (id: Int64, members: [Int64])] = [:]
            var userMembers: [Int64] = []
            for index in 0..<size {
                let (asset, resource) = generator.next()
                let id = try transaction.insertAsset(asset, resources: [resource])
                let folder = (resource.path as NSString).deletingLastPathComponent
                if albums[folder] == nil {
                    let album = try transaction.insertCollection(
                        CollectionRecord(
                            localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                            type: PHAssetCollectionType.album.rawValue,
                            subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                            title: (folder as NSString).lastPathComponent, position: albums.count + 1, path: folder,
                            createdDate: 0))
                    albums[folder] = (album, [])
                }
                albums[folder]!.members.append(id)
                if index % 10 == 0 { userMembers.append(id) }
            }
            for album in albums.values {
                try transaction.setMembers(ofCollection: try transaction.collection(id: album.id)!, to: album.members)
            }
            try transaction.setMembers(ofCollection: try transaction.collection(id: user)!, to: userMembers)
        }
        print("  built in \(String(format: "%.1f", (clock.now - start).milliseconds / 1e3)) s")
    }
}

/// CPU time this process has used, all threads, in seconds (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`).
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
