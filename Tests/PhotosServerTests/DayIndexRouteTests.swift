import Foundation
import Photos
import PhotosCore
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `GET /v1/days` held to its promise: walking `GET /v1/assets` with the same options and sort
/// meets exactly its runs, in its order; over the fixture, a library of awkward dates, a limited
/// client, and the corpus.
@Suite struct DayIndexRouteTests {
    /// One asset of the awkward library: its creation date, recorded offset, and whether hidden.
    struct Dated {
        let name: String
        let date: String?
        let offset: Int?
        var hidden = false
    }

    /// Dates chosen to trip a rule taken from UTC or from the library's zone: a photo whose own offset
    /// moves it across midnight (and back among others of the day before), ties, dates without a
    /// recorded offset read in the library's zone (New York), hidden assets, and assets without a date.
    static let awkward: [Dated] = [
        Dated(name: "late", date: "2024-05-03T23:30:00Z", offset: 0),
        // 22:00 UTC, 01:00 the next day where it was taken (+03:00).
        Dated(name: "abroad", date: "2024-05-03T22:00:00Z", offset: 10_800),
        Dated(name: "evening", date: "2024-05-03T21:00:00Z", offset: 0),
        Dated(name: "hidden", date: "2024-05-02T13:00:00Z", offset: 0, hidden: true),
        Dated(name: "tie1", date: "2024-05-02T12:00:00Z", offset: nil),
        Dated(name: "tie2", date: "2024-05-02T12:00:00Z", offset: nil),
        // 02:00 UTC on the 2nd, 22:00 on the 1st in New York: no offset recorded, the zone's is used.
        Dated(name: "zoned", date: "2024-05-02T02:00:00Z", offset: nil),
        // 06:00 UTC on the 1st, 18:00 on April 30th at -12:00.
        Dated(name: "west", date: "2024-05-01T06:00:00Z", offset: -43_200),
        Dated(name: "undated1", date: nil, offset: nil),
        Dated(name: "undated2", date: nil, offset: nil),
    ]

    /// A library of ``awkward`` in the New York time zone, served for `body`.
    static func withAwkwardServer(_ body: (_ socket: String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory(prefix: "photos-days")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.timeZone = TimeZone(identifier: "America/New_York")!
        configuration.roots = [LibraryRoot(path: "/awkward", write: .none)]
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        let formatter = ISO8601DateFormatter()
        try library.database.write { transaction in
            for (index, dated) in awkward.enumerated() {
                var record = AssetRecord(
                    localIdentifier: LocalIdentifier.make(.asset), mediaType: .image,
                    addedDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
                record.creationDate = dated.date.flatMap { formatter.date(from: $0) }?.timeIntervalSince1970
                record.creationDateOffset = dated.offset
                record.isHidden = dated.hidden
                let resource = ResourceRecord(
                    assetId: 0, type: PHAssetResourceType.photo.rawValue, path: "/awkward/\(dated.name).jpg",
                    uniformTypeIdentifier: nil, mimeType: nil, fileSize: 1000, originalFilename: "\(dated.name).jpg")
                _ = try transaction.insertAsset(record, resources: [resource])
            }
        }
        try await APIServerTests.withServer(library: library, socket: directory.path("api.sock").path, body)
    }

    /// Gets `target` and decodes its JSON body as `type`, expecting a 200.
    static func get<T: Decodable>(
        _ type: T.Type, _ socket: String, _ target: String, headers: [String: String] = [:]
    ) async throws -> T {
        let reply = try await APIServerTests.get(socket, target, headers: headers)
        try #require(reply.status == 200, "\(target): \(reply.status) \(reply.text)")
        return try JSONDecoder().decode(T.self, from: Data(reply.body))
    }

    /// An asset of a listing as the tests read it: identifier and the day its JSON writes.
    struct Listed: Equatable {
        let identifier: String
        let day: String?
    }

    /// The whole asset listing of `query`, walked a few assets a page through its cursors.
    static func walk(_ socket: String, _ query: String, headers: [String: String] = [:]) async throws -> [Listed] {
        var listed: [Listed] = []
        var target = "/v1/assets?\(query)&pageSize=3"
        while true {
            let page = try await APIServerTests.get(socket, target, headers: headers)
            try #require(page.status == 200, "\(target): \(page.status) \(page.text)")
            let object = try page.object()
            for asset in try #require(object["assets"] as? [[String: Any]]) {
                listed.append(
                    Listed(
                        identifier: try #require(asset["localIdentifier"] as? String),
                        day: (asset["creationDate"] as? String).map { String($0.prefix(10)) }))
            }
            guard let next = object["next"] as? String else { return listed }
            target = "/v1/assets?next=\(next)&pageSize=3"
        }
    }

    /// Checks the index of `query` (whose sort, if any, is the listing's too) against the listing
    /// walked: the same runs in the same order, and each run's window fetched by `offset` and
    /// `pageSize` is its assets. Returns the index.
    @discardableResult
    static func checkIndex(
        _ socket: String, _ query: String, headers: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> API.DayIndex {
        let index = try await get(API.DayIndex.self, socket, "/v1/days?\(query)", headers: headers)
        let sorted = query.contains("sort=") ? query : "\(query)&sort=-creationDate"
        let listed = try await walk(socket, sorted, headers: headers)
        // The runs, cut by hand from the listing.
        var runs: [API.DayIndex.Day] = []
        for (position, asset) in listed.enumerated() {
            if let last = runs.indices.last, runs[last].day == asset.day {
                runs[last].count += 1
            } else {
                runs.append(API.DayIndex.Day(day: asset.day, count: 1, start: position))
            }
        }
        #expect(index.days == runs, "\(query)", sourceLocation: sourceLocation)
        #expect(index.count == listed.count, "\(query)", sourceLocation: sourceLocation)
        for run in index.days {
            let window = try await APIServerTests.get(
                socket, "/v1/assets?\(sorted)&offset=\(run.start)&pageSize=\(run.count)", headers: headers)
            let assets = try #require(try window.object()["assets"] as? [[String: Any]])
            #expect(
                assets.map { $0["localIdentifier"] as? String }
                    == listed[run.start..<run.start + run.count].map(\.identifier),
                "\(query) run \(run)", sourceLocation: sourceLocation)
        }
        return index
    }

    @Test func theRunBuilderIsATable() {
        // (day, position) added in order → the runs.
        let rows: [(added: [(String?, Int)], runs: [API.DayIndex.Day])] = [
            ([], []),
            ([("2024-05-03", 0)], [.init(day: "2024-05-03", count: 1, start: 0)]),
            (
                [("2024-05-03", 0), ("2024-05-03", 1), ("2024-05-02", 2)],
                [.init(day: "2024-05-03", count: 2, start: 0), .init(day: "2024-05-02", count: 1, start: 2)]
            ),
            (
                [("2024-05-02", 0), (nil, 1), (nil, 2)],
                [.init(day: "2024-05-02", count: 1, start: 0), .init(day: nil, count: 2, start: 1)]
            ),
            // A day again after another is a run of its own.
            (
                [("2024-05-03", 0), ("2024-05-04", 1), ("2024-05-03", 2)],
                [
                    .init(day: "2024-05-03", count: 1, start: 0), .init(day: "2024-05-04", count: 1, start: 1),
                    .init(day: "2024-05-03", count: 1, start: 2),
                ]
            ),
            // A gap (an asset deleted since the fetch) ends the run: runs are windows of positions.
            (
                [("2024-05-03", 0), ("2024-05-03", 2), (nil, 3), (nil, 5)],
                [
                    .init(day: "2024-05-03", count: 1, start: 0), .init(day: "2024-05-03", count: 1, start: 2),
                    .init(day: nil, count: 1, start: 3), .init(day: nil, count: 1, start: 5),
                ]
            ),
        ]
        for row in rows {
            var builder = API.DayIndex.Builder()
            for (day, position) in row.added { builder.add(day.map { Substring($0) }, at: position) }
            #expect(builder.index == API.DayIndex(days: row.runs, count: row.added.count), "\(row.added)")
        }
    }

    @Test func anUndatedRunIsWrittenWithANullDay() throws {
        let bytes = try WireJSON.makeEncoder().encode(
            API.DayIndex(days: [.init(day: nil, count: 2, start: 0)], count: 2))
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let run = try #require((object["days"] as? [[String: Any]])?.first)
        #expect(run["day"] is NSNull && run["count"] as? Int == 2 && run["start"] as? Int == 0)
    }

    @Test func awkwardDatesAreCutWhereTheirJSONPutsThem() async throws {
        try await Self.withAwkwardServer { socket in
            let newest = try await Self.checkIndex(socket, "")
            // Each photo's day is its own offset's, or New York's without one: `abroad` is on the 4th
            // between two photos of the 3rd, `zoned` on the 1st, `west` on April 30th.
            #expect(
                newest.days.map { [$0.day ?? "null", "\($0.count)"] } == [
                    ["2024-05-03", "1"], ["2024-05-04", "1"], ["2024-05-03", "1"], ["2024-05-02", "2"],
                    ["2024-05-01", "1"], ["2024-04-30", "1"], ["null", "2"],
                ])
            let hidden = try await Self.checkIndex(socket, "includeHidden=true")
            #expect(hidden.days.first { $0.day == "2024-05-02" }?.count == 3 && hidden.count == 10)
            let oldest = try await Self.checkIndex(socket, "sort=creationDate&includeHidden=true")
            #expect(oldest.count == 10 && oldest.days.count == newest.days.count)
        }
    }

    @Test func theFixturesIndexMatchesItsListingsForEveryOption() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let trip = try #require(fixture.collections["Trip"])
            for query in [
                "", "includeHidden=true", "includeAllBursts=true&includeHidden=true", "sort=creationDate",
                "sort=-creationDate", "predicate=favorite%20%3D%3D%20YES", "in=\(trip)",
            ] {
                try await Self.checkIndex(socket, query)
            }
            // A limited client's index is of its albums' assets only.
            let secret = try fixture.library.database.createAccessToken(level: .limited, albums: [trip]).secret
            let limited = try await Self.checkIndex(socket, "", headers: ["Authorization": "Bearer \(secret)"])
            #expect(limited.count == 3)
        }
    }

    @Test func wrongOptionsAre400sNamingWhatIsAllowed() async throws {
        try await APIServerTests.withServer { socket, _ in
            for (target, says) in [
                ("/v1/days?sort=pixelWidth", "-creationDate, creationDate"),
                ("/v1/days?sort=-creationDate,pixelWidth", "-creationDate, creationDate"),
                ("/v1/days?limit=3", "known:"), ("/v1/days?pageSize=3", "known:"),
                ("/v1/days?includeHidden=maybe", "true or false"), ("/v1/days?predicate=colour", "predicate"),
            ] {
                let reply = try await APIServerTests.get(socket, target)
                #expect(reply.status == 400, "\(target): \(reply.text)")
                let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
                #expect(error.error.message.contains(says), "\(target): \(error.error.message)")
            }
            #expect(try await APIServerTests.get(socket, "/v1/days?in=nope").status == 404)
            let posted = try await offPool { try UnixHTTPClient.request(socket, "POST", "/v1/days") }
            #expect(posted.status == 405 && posted.headers["allow"] == "GET, HEAD")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theCorpusIndexMatchesItsListing() async throws {
        let corpus = try await offPool { try ScannedCorpus() }
        let directory = try TemporaryDirectory(prefix: "photos-days-corpus")
        try await APIServerTests.withServer(library: corpus.library, socket: directory.path("api.sock").path) {
            socket in
            for query in ["", "sort=creationDate&includeHidden=true&includeAllBursts=true", "includeHidden=true"] {
                let index = try await Self.checkIndex(socket, query)
                #expect(index.count > 10 && index.days.count > 3, "\(query): \(index.count) in \(index.days.count)")
            }
        }
    }
}
