import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `POST /v1/queries`: a client that applies each streamed diff with PhotoKit's rules holds what a
/// fresh fetch returns, through a random sequence of changes.
@Suite struct LiveQueryTests {
    /// PhotoKit's rules, as a client applies them to the objects it holds (`listing`: the records'
    /// name for the objects, `object`: a placed one's; `summary`: what the client keeps of each,
    /// which a changed record brings up to date; an asset's identifier by default).
    static func apply(
        _ record: [String: Any], to held: inout [String], listing: String = "assets", object: String = "asset",
        summary: ([String: Any]) -> String = { "\($0["localIdentifier"] ?? "-")" }
    ) throws {
        if let reset = record["reset"] as? [String: Any] {
            held = try #require(reset[listing] as? [[String: Any]]).map(summary)
            return
        }
        let count = try #require(record["count"] as? Int)
        let removed = Set(try #require(record["removed"] as? [Int]))
        let moves = try #require(record["moves"] as? [[String: Int]])
        let inserted = try #require(record["inserted"] as? [[String: Any]])
        let changed = try #require(record["changed"] as? [[String: Any]])
        let movedFrom = Set(moves.compactMap { $0["from"] })
        var kept = held.enumerated().filter { !removed.contains($0.offset) && !movedFrom.contains($0.offset) }
            .map(\.element).makeIterator()
        var after = [String?](repeating: nil, count: count)
        for insertion in inserted {
            after[try #require(insertion["index"] as? Int)] = summary(try #require(insertion[object] as? [String: Any]))
        }
        for move in moves { after[try #require(move["to"])] = held[try #require(move["from"])] }
        for index in after.indices where after[index] == nil { after[index] = kept.next() }
        #expect(kept.next() == nil, "objects left over after placing \(record)")
        held = after.map { $0 ?? "?" }
        for change in changed {
            let index = try #require(change["index"] as? Int)
            let new = summary(try #require(change[object] as? [String: Any]))
            #expect(
                held[index].split(separator: "|").first == new.split(separator: "|").first,
                "a changed object is not where it says")
            held[index] = new
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aClientApplyingTheDiffsHoldsWhatAFreshFetchReturns(seed: UInt64) async throws {
        try await APIServerTests.withServer { socket, fixture in
            let query = #"{"predicate": "favorite == YES OR mediaType == 2", "sort": ["-creationDate"]}"#
            let fresh = {
                fixture.names(
                    PHAsset.fetchAssets(
                        with: fixture.options {
                            $0.predicate = NSPredicate(format: "favorite == YES OR mediaType == 2")
                            $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
                        })
                ).map { fixture.assets[$0]! }
            }
            let client = try UnixHTTPClient(socket: socket)
            let head = try await offPool { try client.send("POST", "/v1/queries", body: Array(query.utf8)) }
            #expect(head.status == 200)
            let first = try #require(try await offPool { try client.nextLine() })
            let initial = try #require(
                (try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])?["initial"]
                    as? [String: Any])
            var held = try #require(initial["assets"] as? [[String: Any]]).compactMap {
                $0["localIdentifier"] as? String
            }
            #expect(held == fresh())

            var random = SplitMix64(seed: seed)
            let names = fixture.assets.keys.sorted()
            var records = 0
            for _ in 0..<30 {
                let asset = fixture.asset(identifier: fixture.assets[names[Int(random.next() % UInt64(names.count))]]!)
                guard !asset.localIdentifier.isEmpty else { continue }
                let choice = random.next() % 4
                let date = Date(timeIntervalSince1970: 1_500_000_000 + Double(random.next() % 200_000_000))
                try fixture.library.performChangesAndWait {
                    let request = PHAssetChangeRequest(for: asset)
                    switch choice {
                    case 0: request.isFavorite.toggle()
                    case 1: request.isHidden.toggle()
                    case 2: request.creationDate = date
                    default: request.isFavorite = true
                    }
                }
                // Read diffs until the client holds the fresh fetch.
                let expected = fresh()
                var reads = 0
                while held != expected {
                    reads += 1
                    try #require(reads < 50, "the client never caught up: holds \(held), fresh \(expected)")
                    let line = try #require(try await offPool { try client.nextLine() }, "the stream ended")
                    let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    try Self.apply(record, to: &held)
                    records += 1
                }
            }
            #expect(records > 5)
        }
    }

    /// Every edit sets the asset's modificationDate: a query sorted or filtered on it sees the
    /// edited asset move or arrive, whatever property the edit was of.
    @Test(arguments: [
        (#"{"sort": ["-modificationDate"]}"#, "sort=-modificationDate"),
        (
            #"{"predicate": "modificationDate > CAST(\"2025-01-01T00:00:00Z\", \"NSDate\")"}"#,
            "predicate=" + #"modificationDate > CAST("2025-01-01T00:00:00Z", "NSDate")"#
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        ),
    ])
    func aQueryOnModificationDateFollowsEveryEdit(query: String, listing: String) async throws {
        try await APIServerTests.withServer { socket, fixture in
            let fresh = {
                let reply = try await APIServerTests.get(socket, "/v1/assets?" + listing)
                return try #require(try reply.object()["assets"] as? [[String: Any]]).map {
                    "\($0["localIdentifier"] ?? "-")"
                }
            }
            let stream = try await LiveCollectionQueryTests.Stream(socket, query)
            let first = try #require(
                try JSONSerialization.jsonObject(with: Data(try await stream.nextLine().utf8)) as? [String: Any])
            var held = try #require((first["initial"] as? [String: Any])?["assets"] as? [[String: Any]]).map {
                "\($0["localIdentifier"] ?? "-")"
            }
            #expect(held == (try await fresh()))
            let edits: [(String, (PHAssetChangeRequest) -> Void)] = [
                ("beach.jpg", { $0.isFavorite.toggle() }),
                ("pano.jpg", { $0.location = CLLocation(latitude: 48.85, longitude: 2.35) }),
                ("sunset.heic", { $0.creationDate = Date(timeIntervalSince1970: 1_000_000_000) }),
                ("secret.jpg", { $0.isHidden = false }),
                ("movie.mov", { $0.isFavorite = true }),
            ]
            for (name, edit) in edits {
                let asset = fixture.asset(name)
                try fixture.library.performChangesAndWait { edit(PHAssetChangeRequest(for: asset)) }
                let record = try #require(
                    try JSONSerialization.jsonObject(with: Data(try await stream.nextLine().utf8)) as? [String: Any])
                try Self.apply(record, to: &held)
                #expect(held == (try await fresh()), "after editing \(name): \(record)")
                #expect(held.contains(fixture.assets[name]!), "an edited asset is modified lately")
            }
        }
    }

    /// An asset's `albums` (each album holding it, with its title and path) changes when an album
    /// gains or loses it, is renamed or deleted: no change of the asset in PhotoKit's terms,
    /// yet its JSON changed, and it comes as `changed`.
    @Test func anAssetQueryFollowsTheAlbumsOfItsAssets() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let summary: ([String: Any]) -> String = { asset in
                let albums = (asset["albums"] as? [[String: Any]] ?? []).map {
                    "\($0["localizedTitle"] ?? "-") \($0["path"] ?? "-")"
                }
                return "\(asset["localIdentifier"] ?? "-")|" + albums.joined(separator: ",")
            }
            let fresh = {
                let reply = try await APIServerTests.get(socket, "/v1/assets?sort=creationDate")
                return try #require(try reply.object()["assets"] as? [[String: Any]]).map(summary)
            }
            let stream = try await LiveCollectionQueryTests.Stream(socket, #"{"sort": ["creationDate"]}"#)
            let first = try #require(
                try JSONSerialization.jsonObject(with: Data(try await stream.nextLine().utf8)) as? [String: Any])
            var held = try #require((first["initial"] as? [String: Any])?["assets"] as? [[String: Any]]).map(summary)
            #expect(held == (try await fresh()))

            let beach = fixture.asset("beach.jpg")
            let trip: PHAssetCollection = fixture.collection("Trip")
            let changes: [(String, () throws -> Void)] = [
                (
                    "an album made with beach in it",
                    {
                        try fixture.library.performChangesAndWait {
                            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
                                .addAssets([beach] as NSArray)
                        }
                    }
                ),
                (
                    "beach taken out of Trip",
                    {
                        try fixture.library.performChangesAndWait {
                            PHAssetCollectionChangeRequest(for: trip)!.removeAssets([beach] as NSArray)
                        }
                    }
                ),
                (
                    "Trip renamed",
                    {
                        try fixture.library.performChangesAndWait {
                            PHAssetCollectionChangeRequest(for: trip)!.title = "Alps"
                        }
                    }
                ),
                (
                    "Trip deleted",
                    {
                        try fixture.library.performChangesAndWait {
                            PHAssetCollectionChangeRequest.deleteAssetCollections([trip] as NSArray)
                        }
                    }
                ),
            ]
            for (name, change) in changes {
                try change()
                let record = try #require(
                    try JSONSerialization.jsonObject(with: Data(try await stream.nextLine().utf8)) as? [String: Any])
                try Self.apply(record, to: &held, summary: summary)
                #expect(held == (try await fresh()), "\(name): \(record)")
            }
        }
    }

    @Test(arguments: [
        (#"{"predicate": "colour == 1"}"#, 400), (#"{"colour": 1}"#, 400), ("not json", 400),
        (#"{"limit": -1}"#, 400), (#"{"sort": ["flavour"]}"#, 400), (#"{"in": "nope"}"#, 404),
    ])
    func badQueriesAreRefused(body: String, status: Int) async throws {
        try await APIServerTests.withServer { socket, _ in
            let reply = try await offPool {
                try UnixHTTPClient.request(socket, "POST", "/v1/queries", body: Array(body.utf8))
            }
            #expect(reply.status == status, "\(body): \(reply.text)")
            #expect(try reply.object()["error"] != nil)
        }
    }
}
