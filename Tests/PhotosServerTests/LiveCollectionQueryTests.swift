import Foundation
import Photos
import PhotosTestSupport
import PhotosWire
import Testing

/// `POST /v1/queries` with `"of": "albums"` or `"folders"`: the albums or folders a listing
/// fetches, then PhotoKit's change details of that fetch for each change that touches it.
@Suite struct LiveCollectionQueryTests {
    /// A live query's stream, read a record at a time.
    final class Stream: Sendable {
        let client: UnixHTTPClient

        init(_ socket: String, _ body: String, headers: [String: String] = [:]) async throws {
            client = try UnixHTTPClient(socket: socket, timeout: 30)
            let client = self.client
            let head = try await offPool {
                try client.send("POST", "/v1/queries", headers: headers, body: Array(body.utf8))
            }
            #expect(head.status == 200)
        }

        func nextLine() async throws -> String {
            let client = self.client
            return try #require(try await offPool { try client.nextLine() }, "the stream ended")
        }

        func next() async throws -> API.LiveQueryRecord {
            try JSONDecoder().decode(API.LiveQueryRecord.self, from: Data(try await nextLine().utf8))
        }
    }

    /// An object as the client holds it: what a changed record must bring up to date.
    static func summary(_ object: [String: Any]) -> String {
        ["localIdentifier", "localizedTitle", "estimatedAssetCount", "parentLocalIdentifier", "startDate", "endDate"]
            .map { "\(object[$0] ?? "-")" }.joined(separator: "|")
    }

    @Test func anAlbumQueryFollowsCreationRenamingMembershipAndDeletion() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let stream = try await Stream(socket, #"{"of": "albums", "type": "album", "sort": ["title"]}"#)
            let initial = try #require(try await stream.next().initial)
            #expect(initial.albums?.map(\.localizedTitle) == ["Trip", "Winter"])
            #expect(initial.count == 2 && initial.token != nil && initial.assets.isEmpty && initial.folders == nil)

            try fixture.library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Alps")
            }
            var record = try await stream.next()
            #expect(record.count == 3 && record.removed == [] && record.moves == [] && record.changed == [])
            #expect(record.inserted?.map(\.index) == [0])
            #expect(record.inserted?.first?.album?.localizedTitle == "Alps")
            #expect(record.inserted?.first?.asset == nil)

            let trip: PHAssetCollection = fixture.collection("Trip")
            try fixture.library.performChangesAndWait { PHAssetCollectionChangeRequest(for: trip)!.title = "Tripp" }
            record = try await stream.next()
            #expect(record.inserted == [] && record.removed == [])
            #expect(record.changed?.map(\.index) == [1])
            #expect(record.changed?.first?.album?.localizedTitle == "Tripp")

            // A change of an album's assets is a change of the album: its count comes with it.
            let winter: PHAssetCollection = fixture.collection("Winter")
            let before = try #require(initial.albums?.last?.estimatedAssetCount)
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: winter)!.addAssets([beach] as NSArray)
            }
            record = try await stream.next()
            #expect(record.changed?.map(\.index) == [2])
            #expect(record.changed?.first?.album?.estimatedAssetCount == before + 1)

            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([winter] as NSArray)
            }
            record = try await stream.next()
            #expect(record.removed == [2] && record.inserted == [] && record.count == 2)
        }
    }

    /// PhotoKit reports no change of a smart album when its assets change; its count does change,
    /// and the client's copy would go stale without a `changed`.
    @Test func aSmartAlbumQueryFollowsItsCountsThroughChangesOfAssets() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let stream = try await Stream(socket, #"{"of": "albums", "type": "smartAlbum"}"#)
            let initial = try #require(try await stream.next().initial)
            let albums = try #require(initial.albums)
            let favorites = try #require(albums.firstIndex { $0.subtype == "smartAlbumFavorites" })
            let videos = try #require(albums.firstIndex { $0.subtype == "smartAlbumVideos" })
            let beach = fixture.asset("beach.jpg")
            let wasFavorite = beach.isFavorite
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite = !wasFavorite }
            let record = try await stream.next()
            #expect(record.inserted == [] && record.removed == [] && record.count == albums.count)
            let changed = try #require(record.changed?.first { $0.index == favorites }?.album)
            #expect(
                changed.estimatedAssetCount == (albums[favorites].estimatedAssetCount ?? 0) + (wasFavorite ? -1 : 1))
            #expect(record.changed?.contains { $0.index == videos } == false, "an album whose description stayed")
            // A change that leaves every smart album as it was sends nothing: the next record is the
            // next real one.
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: beach).creationDate = beach.creationDate
            }
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite = wasFavorite }
            let next = try await stream.next()
            #expect(
                next.changed?.first { $0.index == favorites }?.album?.estimatedAssetCount
                    == albums[favorites].estimatedAssetCount)
        }
    }

    /// A regular album's count and dates follow its members: a member's new date is no change of
    /// the album in PhotoKit's terms, yet the album's JSON changed, and comes as `changed`.
    @Test func aRegularAlbumComesAsChangedWhenAMembersDateMovesItsDates() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let stream = try await Stream(socket, #"{"of": "albums", "type": "album", "sort": ["startDate"]}"#)
            let initial = try #require(try await stream.next().initial)
            #expect(initial.albums?.map(\.localizedTitle) == ["Trip", "Winter"])
            // Winter's one photo, taken before Trip's first: Winter moves ahead, with its new dates.
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("sunset.heic")).creationDate = Date(
                    timeIntervalSince1970: 978_350_400)
            }
            var record = try await stream.next()
            #expect(record.moves?.count == 1)
            #expect(record.changed?.map(\.index) == [0])
            #expect(record.changed?.first?.album?.localizedTitle == "Winter")
            #expect(record.changed?.first?.album?.startDate?.hasPrefix("2001-01-01T") == true)
            #expect(record.changed?.first?.album?.endDate?.hasPrefix("2001-01-01T") == true)
            // Trip's last photo taken later: its end date changes, and its place does not.
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("movie.mov")).creationDate = Date(
                    timeIntervalSince1970: 1_893_499_200)
            }
            record = try await stream.next()
            #expect(record.moves == [] && record.inserted == [] && record.removed == [])
            #expect(record.changed?.map(\.index) == [1])
            #expect(record.changed?.first?.album?.endDate?.hasPrefix("2030-01-01T") == true)
            // A change of an asset in no album leaves every album as it was: nothing is sent, and the
            // next record is the next real one.
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("screen.png")).creationDate = Date(
                    timeIntervalSince1970: 946_684_800)
            }
            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: fixture.collection("Winter"))!.title = "Winter 2001"
            }
            record = try await stream.next()
            #expect(record.changed?.first?.album?.localizedTitle == "Winter 2001")
        }
    }

    @Test func aFolderQueryFollowsCreationRenamingAndDeletion() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let stream = try await Stream(socket, #"{"of": "folders", "sort": ["title"]}"#)
            let first = try await stream.nextLine()
            #expect(first.hasPrefix(#"{"initial":{"folders":["#))
            let initial = try #require(
                try JSONDecoder().decode(API.LiveQueryRecord.self, from: Data(first.utf8)).initial)
            #expect(initial.folders?.map(\.localizedTitle) == ["2020"] && initial.count == 1)

            try fixture.library.performChangesAndWait {
                _ = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "2021")
            }
            var record = try await stream.next()
            #expect(record.inserted?.map(\.index) == [1] && record.count == 2)
            #expect(record.inserted?.first?.folder?.localizedTitle == "2021")

            let folder: PHCollectionList = fixture.collection("2020")
            try fixture.library.performChangesAndWait { PHCollectionListChangeRequest(for: folder)!.title = "2019" }
            record = try await stream.next()
            #expect(record.changed?.map(\.index) == [0] && record.inserted == [] && record.removed == [])
            #expect(record.changed?.first?.folder?.localizedTitle == "2019")

            try fixture.library.performChangesAndWait {
                PHCollectionListChangeRequest.deleteCollectionLists([folder] as NSArray)
            }
            record = try await stream.next()
            #expect(record.removed == [0] && record.count == 1)
        }
    }

    /// A folder's dates are those of its albums' photos: a photo's new date, or one that joins an
    /// album of the folder, changes the folder's JSON, though not the folder in PhotoKit's terms.
    @Test func aFolderComesAsChangedWhenItsAlbumsDatesMove() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let stream = try await Stream(socket, #"{"of": "folders"}"#)
            let initial = try #require(try await stream.next().initial)
            #expect(initial.folders?.first?.startDate?.hasPrefix("2020-06-01T") == true)
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("sunset.heic")).creationDate = Date(
                    timeIntervalSince1970: 978_350_400)
            }
            var record = try await stream.next()
            #expect(record.changed?.map(\.index) == [0])
            #expect(record.changed?.first?.folder?.startDate?.hasPrefix("2001-01-01T") == true)
            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: fixture.collection("Winter"))!.addAssets(
                    [fixture.asset("slomo.mov")] as NSArray)
            }
            record = try await stream.next()
            #expect(record.changed?.first?.folder?.endDate?.hasPrefix("2023-01-01T") == true)
        }
    }

    /// Without `type`, a query of albums follows what `GET /v1/albums` lists: the regular albums,
    /// then the smart ones, each section's positions after the one before.
    @Test func anAlbumQueryWithoutTypeFollowsBothTypesInTheListingsOrder() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let stream = try await Stream(socket, #"{"of": "albums", "sort": ["title"]}"#)
            let initial = try #require(try await stream.next().initial)
            let listed = try #require(
                try await APIServerTests.get(socket, "/v1/albums?sort=title").object()["albums"] as? [[String: Any]])
            let albums = try #require(initial.albums)
            #expect(albums.map(\.localIdentifier) == listed.compactMap { $0["localIdentifier"] as? String })
            #expect(albums.prefix(2).map(\.localizedTitle) == ["Trip", "Winter"])
            #expect(albums.dropFirst(2).allSatisfy { $0.type == "smartAlbum" } && albums.count > 3)
            #expect(initial.count == albums.count)
            let favorites = try #require(albums.firstIndex { $0.subtype == "smartAlbumFavorites" })

            // A new regular album is placed among the regular ones; the smart ones move down by one.
            try fixture.library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Alps")
            }
            var record = try await stream.next()
            #expect(record.inserted?.map(\.index) == [0] && record.removed == [] && record.moves == [])
            #expect(record.count == albums.count + 1)

            // A change of assets that alters a smart album's count is a change at its place in the whole.
            let beach = fixture.asset("beach.jpg")
            let wasFavorite = beach.isFavorite
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite = !wasFavorite }
            record = try await stream.next()
            #expect(record.inserted == [] && record.removed == [])
            let changed = try #require(record.changed?.first { $0.index == favorites + 1 }?.album)
            #expect(changed.subtype == "smartAlbumFavorites")
            #expect(
                changed.estimatedAssetCount == (albums[favorites].estimatedAssetCount ?? 0) + (wasFavorite ? -1 : 1))
            #expect(record.changed?.allSatisfy { $0.index >= 3 } == true, "no regular album changed")

            // A deleted regular album is removed at its place before the change.
            let winter: PHAssetCollection = fixture.collection("Winter")
            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([winter] as NSArray)
            }
            record = try await stream.next()
            #expect(record.removed == [2] && record.inserted == [] && record.count == albums.count)
        }
    }

    @Test(arguments: [nil, "album"], [UInt64(1), 2, 3])
    func aClientApplyingAlbumDiffsHoldsWhatAFreshListingReturns(type: String?, seed: UInt64) async throws {
        try await APIServerTests.withServer { socket, fixture in
            let predicate = "title != 'Skip'"
            let typeField = type.map { #""type": "\#($0)", "# } ?? ""
            let stream = try await Stream(
                socket, #"{"of": "albums", \#(typeField)"predicate": "\#(predicate)", "sort": ["title"]}"#)
            let fresh = {
                let reply = try await APIServerTests.get(
                    socket,
                    "/v1/albums?\(type.map { "type=\($0)&" } ?? "")sort=title&predicate="
                        + predicate.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                return try #require(try reply.object()["albums"] as? [[String: Any]]).map(Self.summary)
            }
            let first = try #require(
                try JSONSerialization.jsonObject(with: Data(try await stream.nextLine().utf8)) as? [String: Any])
            var held = try #require((first["initial"] as? [String: Any])?["albums"] as? [[String: Any]]).map(
                Self.summary)
            #expect(held == (try await fresh()))

            var random = SplitMix64(seed: seed)
            let titles = ["Alps", "Beach", "Skip", "Zoo", "Trip"]
            let assets = fixture.assets.keys.sorted().map { fixture.asset($0) }
            var records = 0
            for _ in 0..<30 {
                let albums = PHAssetCollection.fetchAssetCollections(
                    with: .album, subtype: .any, options: fixture.options())
                let title = titles[Int(random.next() % UInt64(titles.count))]
                let asset = fixture.asset(identifier: assets[Int(random.next() % UInt64(assets.count))].localIdentifier)
                let album = albums.count == 0 ? nil : albums.object(at: Int(random.next() % UInt64(albums.count)))
                // Albums' own changes, and changes of assets, which smart albums' counts follow.
                let choice = album == nil ? random.next() % 3 * 3 : random.next() % 8
                try fixture.library.performChangesAndWait {
                    switch choice {
                    case 0: _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                    case 1: PHAssetCollectionChangeRequest(for: album!)?.title = title
                    case 2: PHAssetCollectionChangeRequest.deleteAssetCollections([album!] as NSArray)
                    case 3: PHAssetChangeRequest(for: asset).isFavorite = !asset.isFavorite
                    case 4: PHAssetCollectionChangeRequest(for: album!)?.addAssets([asset] as NSArray)
                    case 5: PHAssetCollectionChangeRequest(for: album!)?.removeAssets([asset] as NSArray)
                    case 6: PHAssetChangeRequest(for: asset).isHidden = !asset.isHidden
                    // A member's new date moves its albums' dates.
                    default:
                        PHAssetChangeRequest(for: asset).creationDate = Date(
                            timeIntervalSince1970: 1_000_000_000 + Double(random.next() % 1_000_000_000))
                    }
                }
                // Read diffs until the client holds the fresh listing.
                let expected = try await fresh()
                var reads = 0
                while held != expected {
                    reads += 1
                    try #require(reads < 50, "the client never caught up: holds \(held), fresh \(expected)")
                    let line = try await stream.nextLine()
                    let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    try LiveQueryTests.apply(
                        record, to: &held, listing: "albums", object: "album", summary: Self.summary)
                    records += 1
                }
            }
            #expect(records > 5)
        }
    }

    @Test(arguments: [
        (#"{"of": "pictures"}"#, 400), (#"{"of": 1}"#, 400), (#"{"of": "albums", "type": ""}"#, 400),
        (#"{"of": "albums", "type": "folder"}"#, 400),
        (#"{"of": "albums", "type": "album", "includeHidden": true}"#, 400),
        (#"{"of": "albums", "type": "album", "in": "x"}"#, 400), (#"{"of": "folders", "type": "album"}"#, 400),
        (#"{"of": "folders", "includeAllBursts": true}"#, 400), (#"{"of": "assets", "type": "album"}"#, 400),
        (#"{"type": "album"}"#, 400), (#"{"of": "albums", "type": "album", "predicate": "pixelWidth > 1"}"#, 400),
        (#"{"of": "folders", "sort": ["estimatedAssetCount"]}"#, 400),
    ])
    func badCollectionQueriesAreRefused(body: String, status: Int) async throws {
        try await APIServerTests.withServer { socket, _ in
            let reply = try await offPool {
                try UnixHTTPClient.request(socket, "POST", "/v1/queries", body: Array(body.utf8))
            }
            #expect(reply.status == status, "\(body): \(reply.text)")
            #expect(try reply.object()["error"] != nil)
        }
    }

    @Test func aLimitedClientFollowsItsAlbumsOnlyAndNoFolders() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let database = fixture.library.database
            let trip = try #require(fixture.collections["Trip"])
            let limited = [
                "Authorization": "Bearer \(try database.createAccessToken(level: .limited, albums: [trip]).secret)"
            ]
            let stream = try await Stream(socket, #"{"of": "albums", "type": "album"}"#, headers: limited)
            let initial = try #require(try await stream.next().initial)
            #expect(initial.albums?.map(\.localIdentifier) == [trip])
            // Another album's change does not reach it; its album's does.
            let winter: PHAssetCollection = fixture.collection("Winter")
            let album: PHAssetCollection = fixture.collection("Trip")
            try fixture.library.performChangesAndWait { PHAssetCollectionChangeRequest(for: winter)!.title = "W" }
            try fixture.library.performChangesAndWait { PHAssetCollectionChangeRequest(for: album)!.title = "T" }
            let record = try await stream.next()
            #expect(record.changed?.map(\.album?.localizedTitle) == ["T"] && record.count == 1)

            let folders = try await offPool {
                try UnixHTTPClient.request(
                    socket, "POST", "/v1/queries", headers: limited, body: Array(#"{"of": "folders"}"#.utf8))
            }
            #expect(folders.status == 403, "\(folders.text)")
            let addOnly = ["Authorization": "Bearer \(try database.createAccessToken(level: .addOnly).secret)"]
            for body in [#"{"of": "albums", "type": "album"}"#, #"{"of": "folders"}"#] {
                let reply = try await offPool {
                    try UnixHTTPClient.request(socket, "POST", "/v1/queries", headers: addOnly, body: Array(body.utf8))
                }
                #expect(reply.status == 403, "\(body): \(reply.text)")
            }
            let readOnly = ["Authorization": "Bearer \(try database.createAccessToken(level: .readOnly).secret)"]
            let seen = try await Stream(socket, #"{"of": "folders"}"#, headers: readOnly)
            #expect(try await seen.next().initial?.folders?.count == 1)
        }
    }

    /// The records of album and folder queries, and the bodies that ask for them, are what
    /// `openapi/photosd.yaml` describes.
    /// A limited client with two albums and no `in` follows both as they gain and lose assets (the
    /// bound is in the query, not the members it had when the query began), and sees each newcomer.
    @Test func aLimitedClientsAssetQueryFollowsItsAlbumsMembers() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let database = fixture.library.database
            let (trip, winter) = (
                try #require(fixture.collections["Trip"]), try #require(fixture.collections["Winter"])
            )
            let token = try database.createAccessToken(level: .limited, albums: [trip, winter]).secret
            let limited = ["Authorization": "Bearer \(token)"]
            let stream = try await Stream(socket, #"{"sort": ["creationDate"]}"#, headers: limited)
            var held = try #require(try await stream.next().initial).assets.map(\.localIdentifier)
            let members = ["beach.jpg", "pano.jpg", "movie.mov", "sunset.heic"].map { fixture.assets[$0]! }
            #expect(Set(held) == Set(members))

            let screen = fixture.asset("screen.png")
            let album: PHAssetCollection = fixture.collection("Winter")
            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: album)!.addAssets([screen] as NSArray)
            }
            let added = try await stream.next()
            let inserted = try #require(added.inserted)
            #expect(inserted.map { $0.asset?.localIdentifier } == [screen.localIdentifier])
            for place in inserted { held.insert(place.asset!.localIdentifier, at: place.index) }

            let beach = fixture.asset("beach.jpg")
            let tripAlbum: PHAssetCollection = fixture.collection("Trip")
            try fixture.library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: tripAlbum)!.removeAssets([beach] as NSArray)
            }
            let removed = try await stream.next()
            #expect(removed.removed?.map { held[$0] } == [beach.localIdentifier])
            for index in (removed.removed ?? []).sorted(by: >) { held.remove(at: index) }

            // What it holds is what a fresh listing gives it; the newcomer is its to read.
            let listing = try await offPool {
                try UnixHTTPClient.request(socket, "GET", "/v1/assets?sort=creationDate", headers: limited)
            }
            let object = try #require(try listing.object()["assets"] as? [[String: Any]])
            #expect(object.compactMap { $0["localIdentifier"] as? String } == held)
            let newcomer = try await offPool {
                try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(screen.localIdentifier)", headers: limited)
            }
            #expect(newcomer.status == 200)
            let gone = try await offPool {
                try UnixHTTPClient.request(socket, "GET", "/v1/assets/\(beach.localIdentifier)", headers: limited)
            }
            #expect(gone.status == 404)
        }
    }

    @Test func recordsMatchTheDocument() async throws {
        let document = try OpenAPISchema.document()
        let request = try #require(
            (((((document["paths"] as? [String: Any])?["/v1/queries"] as? [String: Any])?["post"] as? [String: Any])?[
                "requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])
        let requestSchema = try #require(request["schema"] as? [String: Any])
        let recordSchema: [String: Any] = ["$ref": "#/components/schemas/LiveQueryRecord"]
        try await APIServerTests.withServer { socket, fixture in
            for body in [
                #"{"of": "albums", "type": "album", "sort": ["-title"], "limit": 5}"#,
                #"{"of": "albums", "sort": ["-title"]}"#,
                #"{"of": "folders"}"#,
            ] {
                let sent = try JSONSerialization.jsonObject(with: Data(body.utf8))
                let refused = OpenAPISchema.validate(sent, requestSchema, in: document, at: "$")
                #expect(refused.isEmpty, "\(body): \(refused.prefix(5))")
                let stream = try await Stream(socket, body)
                var lines = [try await stream.nextLine()]
                try fixture.library.performChangesAndWait {
                    _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Z")
                    _ = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Y")
                    let winter: PHAssetCollection = fixture.collection("Winter")
                    PHAssetCollectionChangeRequest(for: winter)!.title = "Winter 2"
                    let folder: PHCollectionList = fixture.collection("2020")
                    PHCollectionListChangeRequest(for: folder)!.title = "2020 \(body.count)"
                }
                lines.append(try await stream.nextLine())
                for line in lines {
                    let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
                    let problems = OpenAPISchema.validate(value, recordSchema, in: document, at: "$")
                    #expect(problems.isEmpty, "\(line): \(problems.prefix(5))")
                }
            }
            // The document refuses a kind it does not know.
            let unknown = try JSONSerialization.jsonObject(with: Data(#"{"of": "pictures"}"#.utf8))
            #expect(!OpenAPISchema.validate(unknown, requestSchema, in: document, at: "$").isEmpty)
        }
    }
}
