import Foundation
import GRDB
import Photos
import PhotosStore

/// A filtered, sorted, limited fetch, as a PhotoKit predicate and as the floor's SQL condition.
struct FetchCase: Sendable {
    let name: String
    let format: String
    let floorCondition: String
    /// Arguments for one round: the PhotoKit ones and the floor's, which must mean the same.
    let arguments: @Sendable (_ random: inout SplitMix64) -> (photoKit: [Any], floor: [SQLValue])

    static let limit = 50

    static let all = [
        FetchCase(
            name: "fetch favorite images",
            format: "favorite == YES AND mediaType == %d",
            floorCondition: "isFavorite = 1 AND mediaType = ?",
            arguments: { _ in ([PHAssetMediaType.image.rawValue], [.int(Int64(PHAssetMediaType.image.rawValue))]) }),
        // The timeline scrolled back to a random day, screenshots left out: each round a new window.
        FetchCase(
            name: "fetch before date, no subtype",
            format: "creationDate < %@ AND (mediaSubtypes & %d) == 0",
            floorCondition: "creationDate < ? AND (mediaSubtypes & ?) = 0",
            arguments: { random in
                let offset = Double(random.next() % 1_000_000) / 1_000_000
                let date = SyntheticLibrary.firstDate + SyntheticLibrary.span * (0.02 + 0.98 * offset)
                let mask = Int(PHAssetMediaSubtype.photoScreenshot.union(.videoScreenRecording).rawValue)
                return ([Date(timeIntervalSince1970: date), mask], [.double(date), .int(Int64(mask))])
            }),
    ]

    var floorSQL: String {
        "SELECT \(AssetRecord.selectionSQL) FROM asset WHERE \(LibraryMeasurements.visible) AND "
            + "\(floorCondition) ORDER BY creationDate DESC, id DESC LIMIT \(Self.limit)"
    }
}

extension LibraryMeasurements {
    /// `PHAsset.fetchAssets(with:)` with a predicate, newest first, 50 at most, every object touched;
    /// against the same SELECT with its rows decoded.
    func measureFetches() throws {
        for fetch in FetchCase.all {
            try measure(fetch)
        }
    }

    private func measure(_ fetch: FetchCase) throws {
        var random = SplitMix64(seed: 42)
        var samples = Samples()
        var floorSamples = Samples()
        let warmups = warmups(iterations)
        for round in 0..<(warmups + iterations) {
            let (photoKitArguments, floorArguments) = fetch.arguments(&random)
            // Alternate which goes first, so neither always finds the caches the other warmed.
            var floorRun: (value: [String], duration: Duration)?
            if round % 2 == 1 { floorRun = try timed { try floorFetch(fetch, floorArguments) } }
            let photoKitRun = timed { photoKitFetch(fetch, photoKitArguments) }
            if floorRun == nil { floorRun = try timed { try floorFetch(fetch, floorArguments) } }
            if round == 0 {
                try checkSame(fetch, photoKitRun.value, floorRun!.value)
                try printPlans(fetch, photoKitArguments, floorArguments)
            }
            if round >= warmups {
                samples.append(photoKitRun.duration)
                floorSamples.append(floorRun!.duration)
            }
        }
        table.add(ResultRow(fetch.name, size: size, samples, floor: floorSamples))
    }

    private func photoKitFetch(_ fetch: FetchCase, _ arguments: [Any]) -> [String] {
        let options = fetchOptions()
        options.predicate = NSPredicate(format: fetch.format, argumentArray: arguments)
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        options.fetchLimit = FetchCase.limit
        let result = PHAsset.fetchAssets(with: options)
        return result.map(\.localIdentifier)
    }

    private func floorFetch(_ fetch: FetchCase, _ arguments: [SQLValue]) throws -> [String] {
        try floor.read { db in
            try db.rows(fetch.floorSQL, arguments, AssetRecord.init(row:)).map(\.localIdentifier)
        }
    }

    private func checkSame(_ fetch: FetchCase, _ photoKit: [String], _ floor: [String]) throws {
        guard photoKit == floor else {
            throw BenchmarkError(
                "\(fetch.name): PhotoKit returned \(photoKit.count) assets, the floor "
                    + "\(floor.count), and they differ; the floor SQL does not match the fetch")
        }
        if photoKit.count < FetchCase.limit {
            print("    note: \(fetch.name) matched only \(photoKit.count) assets in round 0")
        }
    }

    /// The plan of the id query PhotoKit runs (built as `PHFetchOptions` builds it) and of the floor.
    private func printPlans(_ fetch: FetchCase, _ photoKit: [Any], _ floorArguments: [SQLValue]) throws {
        var query = AssetQuery()
        query.sourceTypes = .typeUserLibrary
        query.filter = try PhotoKitPredicate(format: fetch.format, argumentArray: photoKit)
            .sql(for: .asset, column: AssetQuery.column(for:))
        query.sort = [SortKey(key: "creationDate", ascending: false)]
        query.limit = FetchCase.limit
        let (sql, arguments) = query.sql()
        print("    \(fetch.name) size \(size)")
        print("    PhotoKit ids SQL: \(sql)")
        try printPlan("PhotoKit ids", sql: sql, arguments: arguments)
        try printPlan("floor", sql: fetch.floorSQL, arguments: floorArguments)
    }
}

/// A benchmark that cannot go on, with the reason.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
