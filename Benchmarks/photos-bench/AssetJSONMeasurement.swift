import Foundation
import Photos
import PhotosStore
import PhotosWire

/// The asset JSON (`photos assets --json`, the API's listings), in assets per second: written
/// straight from the store's rows (``PHFetchResult/writeAssetJSON(in:as:into:pageSize:naming:)``), beside
/// the paths before it: descriptions (``DescriptionReader``) then their `Codable` encoding, and
/// the PhotoKit path (`AssetDescription(PHAsset)` and a `JSONEncoder` per asset).
///
/// The library is the bench's generated camera roll (``AssetGenerator``) with what the JSON also
/// reads: each asset in the album of its directory (a thousand assets a directory) and every tenth
/// one also in a user album. The paths' output is compared byte for byte before it is timed.
struct AssetJSONMeasurement {
    /// The goal of issue 15 (issue 11's was 50,000).
    static let goal = 100_000.0
    /// The PhotoKit path's speed before this measure existed, for the record.
    static let before = 1_250.0
    /// Assets the PhotoKit path writes (it runs at about 500 a second).
    static let oldSample = 2_000

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

        // The PhotoKit path, as `photos assets --json` ran before: slow (40 s for 20,000), so once
        // and over the first ``oldSample`` assets, whose lines the reader's must equal.
        let sampled = min(size, Self.oldSample)
        let old = try timed { () throws -> Data in
            var output = Data()
            for index in 0..<sampled {
                let asset = result[index]
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                output += try encoder.encode(AssetDescription(asset, timeZone: timeZone))
                output += Data("\n".utf8)
            }
            return output
        }

        // The first run's output is kept to compare; the timed runs only count their bytes.
        var first: [UInt8] = []
        _ = try writeLines(result) { first += $0 }
        // The PhotoKit path's lines each end in a newline: a prefix of lines.
        guard first.starts(with: old.value) else {
            throw BenchmarkError("asset JSON: the rows' JSON differs from the PhotoKit path's")
        }
        var described: [UInt8] = []
        _ = try writeDescriptions(result) { described += $0 }
        guard described == first else {
            throw BenchmarkError("asset JSON: the rows' JSON differs from the descriptions' written")
        }
        print(
            "    asset JSON \(size): \(first.count / 1024) KiB of JSON Lines, the same through descriptions,"
                + " the first \(sampled) lines the PhotoKit path's")

        var rows = Samples()
        // CPU seconds too: on a shared machine the wall clock counts other processes' turns.
        var cpu: [Double] = []
        var descriptions = Samples()
        var descriptionsOnly = Samples()
        var rowsOnly = Samples()
        for _ in 0..<rounds {
            let cpuBefore = processCPUSeconds()
            rows.append(try timed { try writeLines(result) { _ in } }.duration)
            cpu.append(processCPUSeconds() - cpuBefore)
            // Where the time went before: describing, and describing then writing.
            descriptions.append(try timed { try writeDescriptions(result) { _ in } }.duration)
            let reader = DescriptionReader(database: library.database, timeZone: timeZone)
            descriptionsOnly.append(try timed { try describe(reader) }.duration)
            rowsOnly.append(try timed { try step(library.database) }.duration)
        }

        let rate = { (samples: Samples) in Double(size) / max(samples.p50 / 1e3, 1e-9) }
        let oldRate = Double(sampled) / max(old.duration.milliseconds / 1e3, 1e-9)
        table.add(ResultRow("asset JSON: PhotoKit path", size: size, value: oldRate, floor: nil, unit: "assets/s"))
        table.add(
            ResultRow(
                "asset JSON: rows (floor = PhotoKit)", size: size, value: rate(rows), floor: oldRate,
                unit: "assets/s; ratio = speed-up"))
        table.add(
            ResultRow(
                "asset JSON: rows, per CPU second", size: size,
                value: Double(size) / max(cpu.sorted()[cpu.count / 2], 1e-9), floor: nil, unit: "assets/CPU s"))
        table.add(
            ResultRow(
                "asset JSON: rows read, no JSON", size: size, value: rate(rowsOnly), floor: nil, unit: "assets/s"))
        table.add(
            ResultRow(
                "asset JSON: descriptions encoded", size: size, value: rate(descriptions), floor: nil,
                unit: "assets/s"))
        table.add(
            ResultRow(
                "asset JSON: descriptions, no JSON", size: size, value: rate(descriptionsOnly), floor: nil,
                unit: "assets/s"))
    }

    /// As `photos assets --json` writes now: straight from the rows, pages of a thousand, each page
    /// handed to `output`. Returns the number of bytes.
    private func writeLines(_ result: PHFetchResult<PHAsset>, _ output: ([UInt8]) -> Void) throws -> Int {
        var writer = WireJSONWriter()
        var bytes = 0
        for start in stride(from: 0, to: result.count, by: 1000) {
            writer.removeAll()
            try result.writeAssetJSON(in: start..<start + 1000, as: .line, into: &writer)
            bytes += writer.bytes.count
            output(writer.bytes)
        }
        return bytes
    }

    /// Descriptions, then their `Codable` encoding (the bytes the rows give; `photos assets --json`
    /// wrote descriptions through a second, hand-made writer before the rows' was the only one).
    private func writeDescriptions(_ result: PHFetchResult<PHAsset>, _ output: ([UInt8]) -> Void) throws -> Int {
        var writer = WireJSONWriter()
        var bytes = 0
        try result.forEachDescriptionPage { page in
            writer.removeAll()
            for description in page { writer.appendLine(try AssetJSON(description)) }
            bytes += writer.bytes.count
            output(writer.bytes)
        }
        return bytes
    }

    private func describe(_ reader: DescriptionReader) throws -> Int {
        let ids = try reader.database.assetIDs(matching: allAssets())
        var count = 0
        for start in stride(from: 0, to: ids.count, by: 1000) {
            count += try reader.assets(.rowIDs(Array(ids[start..<min(ids.count, start + 1000)]))).count
        }
        return count
    }

    /// The rows alone: every row of the three statements stepped, no column read.
    private func step(_ database: LibraryDatabase) throws -> Int {
        let ids = try database.assetIDs(matching: allAssets())
        var count = 0
        for start in stride(from: 0, to: ids.count, by: 1000) {
            try database.withAssetRows(.rowIDs(Array(ids[start..<min(ids.count, start + 1000)]))) { rows in
                while rows.assets.position != nil {
                    count += 1
                    try rows.assets.advance()
                }
                while rows.albums.position != nil { try rows.albums.advance() }
                while rows.resources.position != nil { try rows.resources.advance() }
            }
        }
        return count
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
                Int(try db.scalarInt64("SELECT COUNT(*) FROM asset") ?? 0)
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
