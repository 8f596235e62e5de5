import Foundation
import Photos
import PhotosCore
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// Every endpoint × every access level, over the fixture library (album "Trip" holds beach, pano
/// and movie; folder "2020" holds album "Winter" with sunset): who is refused (401, 403), and what a
/// limited client sees of what it may read.
@Suite struct AccessLevelTests {
    /// What a request should get: a status, or "served" (anything but 401 and 403: the route's own
    /// answer, which other tests check).
    enum Expected: Equatable, CustomStringConvertible {
        case status(Int)
        case served

        static let ok = Expected.status(200)
        static let unauthorized = Expected.status(401)
        static let forbidden = Expected.status(403)
        static let notFound = Expected.status(404)

        func matches(_ status: Int) -> Bool {
            switch self {
            case .status(let wanted): status == wanted
            case .served: status != 401 && status != 403
            }
        }

        var description: String {
            switch self {
            case .status(let code): "\(code)"
            case .served: "served"
            }
        }
    }

    /// The clients: no token as the owner, tokens of each level, a limited one to album Trip.
    enum Client: String, CaseIterable {
        case owner, readWrite, readOnly, addOnly, limited
    }

    /// One request; `$beach`-style names are the fixture's identifiers.
    struct Endpoint: CustomStringConvertible {
        let method: String
        let target: String
        var body: String = ""
        /// Expected per client, in ``Client``'s order.
        let expected: [Client: Expected]
        var description: String { "\(method) \(target)" }
    }

    static func endpoints(_ fixture: LibraryFixture) -> [Endpoint] {
        let beach = fixture.assets["beach.jpg"]!, sunset = fixture.assets["sunset.heic"]!
        let trip = fixture.collections["Trip"]!, winter = fixture.collections["Winter"]!
        let folder = fixture.collections["2020"]!
        func levels(
            _ readWrite: Expected, readOnly: Expected? = nil, addOnly: Expected = .forbidden, limited: Expected? = nil
        ) -> [Client: Expected] {
            [
                .owner: readWrite, .readWrite: readWrite, .readOnly: readOnly ?? readWrite, .addOnly: addOnly,
                .limited: limited ?? readWrite,
            ]
        }
        let edit = #"{"changes":[{"op":"editAsset","asset":"BEACH","isFavorite":true}]}"#
        return [
            Endpoint(method: "GET", target: "/v1/health", expected: levels(.ok, addOnly: .ok)),
            Endpoint(method: "GET", target: "/", expected: levels(.ok, addOnly: .ok)),
            Endpoint(method: "GET", target: "/v1/version", expected: levels(.ok, addOnly: .ok)),
            Endpoint(method: "GET", target: "/v1/openapi.json", expected: levels(.ok, addOnly: .ok)),
            // This in-process server keeps no metrics: a 404 for whom may ask (photosd's are 200).
            Endpoint(method: "GET", target: "/metrics", expected: levels(.notFound, limited: .forbidden)),
            Endpoint(method: "GET", target: "/v1/status", expected: levels(.served, limited: .forbidden)),
            Endpoint(method: "GET", target: "/v1/assets", expected: levels(.ok)),
            Endpoint(method: "GET", target: "/v1/assets?in=\(trip)", expected: levels(.ok)),
            Endpoint(method: "GET", target: "/v1/assets?in=\(winter)", expected: levels(.ok, limited: .notFound)),
            Endpoint(method: "GET", target: "/v1/albums", expected: levels(.ok)),
            Endpoint(method: "GET", target: "/v1/folders", expected: levels(.ok)),
            Endpoint(method: "GET", target: "/v1/assets/\(beach)", expected: levels(.ok)),
            Endpoint(method: "GET", target: "/v1/assets/\(sunset)", expected: levels(.ok, limited: .notFound)),
            // The fixture's files are not on disk: a served resource is a 404 for its file (checked below).
            Endpoint(method: "GET", target: "/v1/assets/\(beach)/original", expected: levels(.notFound)),
            Endpoint(method: "GET", target: "/v1/assets/\(sunset)/original", expected: levels(.notFound)),
            Endpoint(method: "GET", target: "/v1/assets/\(beach)/thumbnail", expected: levels(.notFound)),
            Endpoint(method: "GET", target: "/v1/assets/\(sunset)/thumbnail?size=64", expected: levels(.notFound)),
            Endpoint(method: "GET", target: "/v1/albums/\(trip)", expected: levels(.ok)),
            Endpoint(method: "GET", target: "/v1/albums/\(winter)", expected: levels(.ok, limited: .notFound)),
            Endpoint(method: "GET", target: "/v1/folders/\(folder)", expected: levels(.ok, limited: .notFound)),
            Endpoint(method: "GET", target: "/v1/changes?since=0", expected: levels(.ok)),
            Endpoint(method: "POST", target: "/v1/queries", body: "{}", expected: levels(.ok)),
            Endpoint(
                method: "POST", target: "/v1/queries", body: #"{"in":"\#(winter)"}"#,
                expected: levels(.ok, limited: .notFound)),
            Endpoint(
                method: "POST", target: "/v1/queries", body: #"{"of":"albums","type":"album"}"#, expected: levels(.ok)),
            Endpoint(method: "POST", target: "/v1/queries", body: #"{"of":"albums"}"#, expected: levels(.ok)),
            Endpoint(
                method: "POST", target: "/v1/queries", body: #"{"of":"folders"}"#,
                expected: levels(.ok, limited: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/changes", body: edit.replacingOccurrences(of: "BEACH", with: beach),
                expected: levels(.ok, readOnly: .forbidden, addOnly: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/changes", body: edit.replacingOccurrences(of: "BEACH", with: sunset),
                expected: levels(.ok, readOnly: .forbidden, addOnly: .forbidden, limited: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/changes", body: #"{"changes":[{"op":"createAlbum","title":"New"}]}"#,
                expected: levels(.ok, readOnly: .forbidden, addOnly: .ok, limited: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/changes",
                body:
                    #"{"changes":[{"op":"createAlbum","title":"N","ref":"n"},{"op":"addToAlbum","album":"$n","assets":["\#(beach)"]}]}"#,
                expected: levels(.ok, readOnly: .forbidden, addOnly: .forbidden, limited: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/changes",
                body:
                    #"{"changes":[{"op":"removeFromAlbum","album":"\#(trip)","assets":["\#(beach)"]},{"op":"addToAlbum","album":"\#(trip)","assets":["\#(beach)"]}]}"#,
                expected: levels(.ok, readOnly: .forbidden, addOnly: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/changes",
                body: #"{"changes":[{"op":"renameFolder","folder":"\#(folder)","title":"2021"}]}"#,
                expected: levels(.ok, readOnly: .forbidden, addOnly: .forbidden, limited: .forbidden)),
            // Recently Deleted: read by those who read the whole library, changed by read-write clients.
            Endpoint(method: "GET", target: "/v1/trash", expected: levels(.ok, limited: .forbidden)),
            // An asset in the library is restored already: said so, nothing moves.
            Endpoint(
                method: "POST", target: "/v1/trash/restore", body: #"{"identifiers":["\#(beach)"]}"#,
                expected: levels(.ok, readOnly: .forbidden, limited: .forbidden)),
            Endpoint(
                method: "POST", target: "/v1/trash/empty", body: #"{"dryRun":true}"#,
                expected: levels(.ok, readOnly: .forbidden, limited: .forbidden)),
        ]
    }

    /// The headers each client sends.
    static func tokens(_ fixture: LibraryFixture) throws -> [Client: [String: String]] {
        let database = fixture.library.database
        func bearer(_ level: AccessLevel, _ albums: [String] = []) throws -> [String: String] {
            ["Authorization": "Bearer \(try database.createAccessToken(level: level, albums: albums).secret)"]
        }
        return [
            .owner: [:], .readWrite: try bearer(.readWrite), .readOnly: try bearer(.readOnly),
            .addOnly: try bearer(.addOnly), .limited: try bearer(.limited, [fixture.collections["Trip"]!]),
        ]
    }

    /// Sends one request; a stream's answer is read to its first line only.
    static func send(_ socket: String, _ endpoint: Endpoint, headers: [String: String]) async throws
        -> (status: Int, headers: [String: String], body: String)
    {
        try await offPool {
            // Patience for a whole test run on 2 cores, whose blocking tests can keep the in-process
            // server waiting for a thread of Swift's pool for seconds; the answers are what is checked.
            let connection = try UnixHTTPClient(socket: socket, timeout: 60)
            var headers = headers
            if !endpoint.body.isEmpty { headers["Content-Type"] = "application/json" }
            let head = try connection.send(
                endpoint.method, endpoint.target, headers: headers, body: Array(endpoint.body.utf8))
            let streams = head.headers["content-type"] == "application/x-ndjson" && endpoint.method == "POST"
            let body =
                streams ? (try connection.nextLine() ?? "") : String(decoding: try connection.readAll(), as: UTF8.self)
            return (head.status, head.headers, body)
        }
    }

    @Test func everyEndpointAtEveryLevel() async throws {
        let status = DaemonStatus(
            pid: 42, startedAt: 1, updatedAt: 2, roots: [], watches: 0, watchBudget: 100, unwatchedDirectories: 0,
            queueDepth: 0, ingested: 0, updated: 0, moved: 0, removed: 0, rejected: 0, lastErrors: [])
        try await APIServerTests.withServer(status: status) { socket, fixture in
            let tokens = try Self.tokens(fixture)
            for endpoint in Self.endpoints(fixture) {
                for client in Client.allCases {
                    let expected = endpoint.expected[client]!
                    let reply = try await Self.send(socket, endpoint, headers: tokens[client]!)
                    #expect(expected.matches(reply.status), "\(client) \(endpoint): \(reply.status) \(reply.body)")
                    if reply.status == 403 || reply.status == 401 {
                        let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body.utf8))
                        #expect(error.error.code == reply.status && error.error.domain == "HTTP")
                    }
                }
            }
        }
    }

    @Test func aClientWithoutTokenOrWithABadOneIs401() async throws {
        // nil: nobody owns the socket, so this process is any other user.
        try await APIServerTests.withServer(ownerUID: nil) { socket, fixture in
            let (token, secret) = try fixture.library.database.createAccessToken(level: .readOnly)
            let (_, expired) = try fixture.library.database.createAccessToken(
                level: .readWrite, expiresAt: Date().addingTimeInterval(-1))
            let (revokedToken, revoked) = try fixture.library.database.createAccessToken(level: .readWrite)
            try fixture.library.database.revokeAccessToken(revokedToken.id)
            let health = Endpoint(method: "GET", target: "/v1/health", expected: [:])
            let assets = Endpoint(method: "GET", target: "/v1/assets", expected: [:])
            for endpoint in [health, assets] {
                for headers in [
                    [:], ["Authorization": "Bearer pht_nope"], ["Authorization": "Bearer \(expired)"],
                    ["Authorization": "Bearer \(revoked)"], ["Authorization": "Basic \(secret)"],
                ] {
                    let reply = try await Self.send(socket, endpoint, headers: headers)
                    #expect(reply.status == 401, "\(headers): \(reply.body)")
                    #expect(reply.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
                    let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body.utf8))
                    #expect(error.error.code == 401 && !error.error.message.isEmpty)
                }
            }
            let reply = try await Self.send(socket, assets, headers: ["Authorization": "Bearer \(secret)"])
            #expect(reply.status == 200, "\(reply.body)")
            // Its use is recorded, off the request's path.
            try await waitUntil("the token's use to be recorded") {
                try fixture.library.database.accessTokens().first { $0.id == token.id }?.lastUsedAt != nil
            }
            #expect(try fixture.library.database.accessTokens().first { $0.id == token.id }?.lastUsedAt != nil)
        }
    }

    @Test func aLimitedClientSeesOnlyItsAlbumsAssetsEverywhere() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let trip = fixture.collections["Trip"]!
            let headers = try Self.tokens(fixture)[.limited]!
            func get(_ target: String) async throws -> (status: Int, headers: [String: String], body: String) {
                try await Self.send(socket, Endpoint(method: "GET", target: target, expected: [:]), headers: headers)
            }
            func names(_ body: String, _ key: String = "assets") throws -> Set<String> {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                let items = try #require(object[key] as? [[String: Any]])
                return Set(items.compactMap { $0["localIdentifier"] as? String })
            }
            let tripAssets = Set(["beach.jpg", "pano.jpg", "movie.mov"].map { fixture.assets[$0]! })
            #expect(try names(try await get("/v1/assets").body) == tripAssets)
            #expect(try names(try await get("/v1/assets?includeHidden=true&includeAllBursts=true").body) == tripAssets)
            #expect(
                try names(try await get("/v1/assets?predicate=favorite+%3D%3D+YES").body)
                    == Set(["beach.jpg", "pano.jpg"].map { fixture.assets[$0]! }))
            // A predicate cannot reach past the bound.
            let injected = try await get("/v1/assets?predicate=TRUEPREDICATE)+OR+(TRUEPREDICATE")
            #expect(injected.status == 400)
            #expect(try names(try await get("/v1/albums").body, "albums") == [trip])
            #expect(try names(try await get("/v1/folders").body, "folders").isEmpty)
            // Pages follow the bound; a cursor is its client's.
            let first = try await get("/v1/assets?pageSize=2")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: Any])
            let next = try #require(object["next"] as? String)
            let stolen = try await Self.send(
                socket, Endpoint(method: "GET", target: "/v1/assets?next=\(next)", expected: [:]), headers: [:])
            #expect(stolen.status == 404)
            let second = try await get("/v1/assets?next=\(next)")
            #expect(try names(first.body).union(try names(second.body)) == tripAssets)

            // The change stream: an edit of an asset it sees, and of one it does not.
            let since = try fixture.library.database.currentToken()
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("sunset.heic")).isFavorite = true
            }
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isFavorite = false
            }
            let changes = try await get("/v1/changes?since=\(since)")
            #expect(changes.status == 200)
            let entries = try changes.body.split(separator: "\n").map {
                try JSONDecoder().decode(LibraryChange.self, from: Data($0.utf8))
            }
            #expect(entries.count == 1, "\(changes.body)")
            #expect(entries.first?.asset.updated == [fixture.assets["beach.jpg"]!])
            #expect(entries.first?.collectionList.isEmpty == true)

            // A live query's initial result.
            let query = try await Self.send(
                socket, Endpoint(method: "POST", target: "/v1/queries", body: "{}", expected: [:]), headers: headers)
            let record = try JSONDecoder().decode(API.LiveQueryRecord.self, from: Data(query.body.utf8))
            #expect(Set(record.initial?.assets.map(\.localIdentifier) ?? []) == tripAssets)
            // A resource of an asset it does not see is absent; one it sees is looked for on disk.
            let hidden = try await get("/v1/assets/\(fixture.assets["sunset.heic"]!)/original")
            #expect(hidden.status == 404 && hidden.body.contains("no asset"))
            let seen = try await get("/v1/assets/\(fixture.assets["beach.jpg"]!)/original")
            #expect(seen.status == 404 && seen.body.contains("not there"))
            // The same for a thumbnail: the file of one it sees is looked for (and is not there).
            let hiddenThumbnail = try await get("/v1/assets/\(fixture.assets["sunset.heic"]!)/thumbnail")
            #expect(hiddenThumbnail.status == 404 && hiddenThumbnail.body.contains("no asset"))
            let seenThumbnail = try await get("/v1/assets/\(fixture.assets["beach.jpg"]!)/thumbnail")
            #expect(seenThumbnail.status == 404 && seenThumbnail.body.contains("3303"), "\(seenThumbnail.body)")
        }
    }

    /// A limited token naming a smart album (stored by a program, as the CLI refuses it) sees
    /// nothing through `?in=`: a smart album's members are not its albums' members, and the
    /// token's bound stays on the fetch (it listed every asset of the library, paths and places).
    @Test func aLimitedTokenOfASmartAlbumSeesNothingThroughIt() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let recents = try #require(SmartAlbum.album(for: .smartAlbumRecentlyAdded)).localIdentifier
            let secret = try fixture.library.database.createAccessToken(level: .limited, albums: [recents]).secret
            let reply = try await Self.send(
                socket, Endpoint(method: "GET", target: "/v1/assets?in=\(recents)", expected: [:]),
                headers: ["Authorization": "Bearer \(secret)"])
            #expect(reply.status == 200, "\(reply.body)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])
            #expect((object["assets"] as? [Any])?.isEmpty == true, "\(reply.body)")
        }
    }

    /// A limited token none of whose albums exists (a hook's, before the scan that makes them)
    /// sees nothing: empty listings and streams, every object absent, no change allowed.
    @Test func aLimitedClientOfNoAlbumSeesNothing() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let secret = try fixture.library.database.createAccessToken(level: .limited, albums: []).secret
            let headers = ["Authorization": "Bearer \(secret)"]
            let beach = fixture.assets["beach.jpg"]!, trip = fixture.collections["Trip"]!
            func send(_ method: String, _ target: String, _ body: String = "") async throws -> (
                status: Int, body: String
            ) {
                let reply = try await Self.send(
                    socket, Endpoint(method: method, target: target, body: body, expected: [:]), headers: headers)
                return (reply.status, reply.body)
            }
            func listed(_ target: String, _ key: String) async throws -> [[String: Any]] {
                let reply = try await send("GET", target)
                #expect(reply.status == 200, "\(target): \(reply.body)")
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])
                return try #require(object[key] as? [[String: Any]])
            }
            #expect(try await listed("/v1/assets", "assets").isEmpty)
            #expect(try await listed("/v1/assets?includeHidden=true&includeAllBursts=true", "assets").isEmpty)
            #expect(try await listed("/v1/albums", "albums").isEmpty)
            #expect(try await listed("/v1/folders", "folders").isEmpty)
            #expect(try await send("GET", "/v1/assets/\(beach)").status == 404)
            #expect(try await send("GET", "/v1/albums/\(trip)").status == 404)
            #expect(try await send("GET", "/v1/assets?in=\(trip)").status == 404)
            let since = try fixture.library.database.currentToken()
            try fixture.library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isFavorite = false
            }
            let changes = try await send("GET", "/v1/changes?since=\(since)")
            #expect(changes.status == 200 && changes.body.isEmpty, "\(changes.body)")
            for body in [
                "{}", #"{"of":"albums"}"#, #"{"of":"albums","type":"album"}"#, #"{"of":"albums","type":"smartAlbum"}"#,
            ] {
                let query = try await send("POST", "/v1/queries", body)
                let record = try JSONDecoder().decode(API.LiveQueryRecord.self, from: Data(query.body.utf8))
                #expect(record.initial?.count == 0, "\(body): \(query.body)")
            }
            let edit = #"{"changes":[{"op":"editAsset","asset":"\#(beach)","isFavorite":true}]}"#
            #expect(try await send("POST", "/v1/changes", edit).status == 403)
            #expect(fixture.asset("beach.jpg").isFavorite == false)
        }
    }

    @Test func accessRefusalsAreATable() {
        let rows: [(AccessLevel, String, String, Bool)] = [
            (.readWrite, "POST", "/v1/changes", true), (.readOnly, "POST", "/v1/changes", false),
            (.readOnly, "GET", "/v1/assets", true), (.readOnly, "POST", "/v1/queries", true),
            (.addOnly, "GET", "/v1/health", true), (.addOnly, "GET", "/v1/assets", false),
            (.addOnly, "POST", "/v1/changes", true), (.addOnly, "POST", "/v1/queries", false),
            (.limited, "GET", "/v1/status", false), (.limited, "GET", "/v1/assets", true),
            (.limited, "POST", "/v1/changes", true),
            (.addOnly, "GET", "/", true), (.addOnly, "GET", "/v1/version", true),
            (.addOnly, "GET", "/v1/openapi.json", true), (.limited, "GET", "/v1/openapi.json", true),
            (.readOnly, "GET", "/metrics", true), (.addOnly, "GET", "/metrics", false),
            (.limited, "GET", "/metrics", false),
            (.readOnly, "GET", "/v1/rejected", true), (.addOnly, "GET", "/v1/rejected", false),
            (.limited, "GET", "/v1/rejected", false),
        ]
        for (level, method, path, allowed) in rows {
            let access = ClientAccess(level: level, albums: [], tokenID: "t")
            let refusal = AccessMiddleware.refusal(.init(method)!, path: path, access: access)
            #expect((refusal == nil) == allowed, "\(level) \(method) \(path)")
        }
    }
}
