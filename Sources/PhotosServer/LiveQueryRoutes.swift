import Foundation
import Hummingbird
import NIOCore
import Photos
import PhotosWire
import ServiceLifecycle

/// `POST /v1/queries`: a fetch that stays live. The client posts fetch options and reads one
/// stream: the initial result, then for each committed change that touches it, PhotoKit's
/// `PHFetchResultChangeDetails` for that query, so that a client applying them holds exactly what a
/// fresh fetch would return.
///
/// `of` says what the query fetches: `assets` (the default: the options of `GET /v1/assets`),
/// `albums` (those of `GET /v1/albums`: without `type`, the regular albums then the smart ones, as
/// the listing gives them, followed as one list) or `folders` (those of `GET /v1/folders`).
/// Records (NDJSON, or SSE events when the client accepts `text/event-stream`), here for assets;
/// albums and folders name theirs `albums`/`album` and `folders`/`folder`:
/// ```
/// {"initial":{"assets":[ASSET...],"count":N,"token":T}}
/// {"token":T,"count":N,"removed":[i...],"inserted":[{"index":i,"asset":ASSET}...],
///  "moves":[{"from":i,"to":j}...],"changed":[{"index":i,"asset":ASSET}...]}
/// {"token":T,"reset":{"assets":[ASSET...],"count":N}}
/// ```
/// `removed` and `moves[].from` are positions before the change; `inserted`, `moves[].to` and
/// `changed` are positions after it (PhotoKit's rules): drop the removed and moved-from objects,
/// put the inserted and moved ones at their positions, the others keep their order around them,
/// then replace the changed ones. A `reset` (a change PhotoKit has no incremental details for)
/// replaces everything.
struct LiveQueryRoutes: Sendable {
    let library: PHPhotoLibrary
    let fetches: FetchRoutes
    let streams: StreamCount

    /// The fields each kind of live query takes: its fetch's options (``FetchRequest``), and `of`.
    static let keys = FetchRequest.keys.mapValues { $0.union(["of"]) }
    static let allKeys = keys.values.reduce(Set<String>()) { $0.union($1) }

    func add(to router: Router<APIContext>) {
        router.post("/v1/queries") { request, context in try await self.query(request, context: context) }
    }

    func query(_ request: Hummingbird.Request, context: APIContext) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 64 * 1024)
        } catch {
            throw APIError(.contentTooLarge, "a query is at most 64 KiB of JSON")
        }
        let bytes = Data(buffer: body)
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
            throw APIError(.badRequest, "the body must be a JSON object of fetch options")
        }
        let unknown = Set(object.keys).subtracting(Self.allKeys)
        guard unknown.isEmpty else {
            throw APIError(
                .badRequest,
                "unknown fields \(unknown.sorted().joined(separator: ", ")); known: \(Self.allKeys.sorted().joined(separator: ", "))"
            )
        }
        let posted: FetchRequest
        do {
            posted = try JSONDecoder().decode(FetchRequest.self, from: bytes)
        } catch {
            throw APIError(.badRequest, "bad fetch options: \(error)")
        }
        let kind = posted.of ?? "assets"
        guard let known = Self.keys[kind] else {
            throw APIError(.badRequest, "of must be assets, albums or folders, not '\(kind)'")
        }
        let inapplicable = Set(object.keys).subtracting(known)
        guard inapplicable.isEmpty else {
            throw APIError(
                .badRequest,
                "\(inapplicable.sorted().joined(separator: ", ")) do\(inapplicable.count == 1 ? "es" : "") not "
                    + "apply to a live query of \(kind); it takes \(known.sorted().joined(separator: ", "))")
        }
        let format = StreamFormat(request)
        let access = context.access
        switch kind {
        case "albums":
            // An album's count and dates follow its assets: PhotoKit reports no change of the album
            // when a member's date changes (nor of a smart album when its members do), but they do.
            return try follow(
                .albums(limited: access.isLimited), format: format, access: access, channel: context.channel
            ) {
                try fetches.fetchAlbums(posted, access: access).map { ($0.result, derived: true) }
            }
        case "folders":
            return try follow(.folders, format: format, access: access, channel: context.channel) {
                // A limited client's listing of folders is empty; following them, it is refused.
                if access.isLimited {
                    throw APIError(.forbidden, "a limited client sees only its albums: it cannot follow folders")
                }
                // A folder's dates are its albums' assets': they change with no change of the folder.
                return [(try fetches.fetchFolders(posted, access: access), true)]
            }
        default:
            // An asset's JSON names its albums: a change of albums alone alters it.
            return try follow(
                .assets(naming: access.namedAlbums), format: format, access: access, channel: context.channel,
                followingAlbumsOfAssets: true
            ) {
                [(try fetches.fetchAssets(posted, access: access), false)]
            }
        }
    }

    /// Answers the stream of the results `fetch` makes, followed as one: the objects of the first,
    /// then those of the next, as `GET /v1/albums` without `type` lists regular and smart albums.
    ///
    /// `derived`: the result's descriptions follow from assets, not from its objects' own changes
    /// (albums' and folders' counts and dates): the observer compares them at each change of assets
    /// or albums.
    ///
    /// `followingAlbumsOfAssets`: the objects are assets, whose JSON names the albums holding them;
    /// the observer keeps the albums' members (``AlbumMembers``) to send the assets a change of
    /// albums altered as changed.
    ///
    /// `access` is looked up again before each change is sent: a token revoked or expired since the
    /// query began ends the stream with the 401 its next request would get, and a limited token
    /// whose albums changed ends it with a 409, to be asked again (its result was fetched for the
    /// albums it had).
    private func follow<Object: PHObject, Description: Hashable & Sendable>(
        _ kind: LiveKind<Object, Description>, format: StreamFormat, access: ClientAccess,
        channel: (any Channel)? = nil, followingAlbumsOfAssets: Bool = false,
        fetch: () throws -> [(PHFetchResult<Object>, derived: Bool)]
    ) throws -> Response {
        // The client's leaving ends the stream at once (``LeavingClient``), its slot first.
        let slot = try streams.open(for: channel)
        // Watching starts before the fetch: a change committed in between is in the result, and
        // nothing after the result is missed.
        let observer = QueryObserver(kind)
        library.register(observer)
        let sections: [(PHFetchResult<Object>, derived: Bool)]
        let token: Int64
        let members: AlbumMembers?
        do {
            // Read before the fetch: a change in between then names an asset too many, never one too few.
            members = followingAlbumsOfAssets ? try AlbumMembers(library.database) : nil
            token = try library.database.currentToken()
            sections = try fetch()
        } catch {
            library.unregisterChangeObserver(observer)
            slot.close()
            throw APIError.from(error)
        }
        observer.follow(sections, albumMembers: members)
        let results = sections.map(\.0)
        let library = self.library
        return Response(
            status: .ok,
            headers: format.headers,
            body: ResponseBody { writer in
                defer {
                    library.unregisterChangeObserver(observer)
                    observer.finish()
                    slot.close()
                }
                do {
                    try await writer.write(
                        ByteBuffer(bytes: format.record(try Self.initial(results, kind, token: token))))
                    try await LeavingClient.cancelling(on: channel) {
                        // Its records end when the daemon starts stopping: the response ends properly.
                        try await withGracefulShutdownHandler {
                            for await record in observer.records {
                                let now = try access.renewed(in: library.database)
                                if now.isLimited, now.albums != access.albums {
                                    throw APIError(
                                        .conflict, "the token's albums changed since the query began: ask again")
                                }
                                try await writer.write(ByteBuffer(bytes: format.record(try record.get())))
                            }
                        } onGracefulShutdown: {
                            observer.finish()
                        }
                    }
                } catch is CancellationError {
                } catch {
                    let json = try WireJSON.makeEncoder().encode(APIError.from(error).body)
                    try? await writer.write(ByteBuffer(bytes: format.record(json)))
                }
                try await writer.finish(nil)
            })
    }

    /// The whole result (its sections one after the other) as a listing named after the kind,
    /// without its closing brace.
    private static func listing<Object, Description>(
        _ results: [PHFetchResult<Object>], _ kind: LiveKind<Object, Description>
    ) throws -> [UInt8] {
        var writer = WireJSONWriter()
        writer.beginListing(kind.listing)
        for result in results {
            try kind.pages(result) { page in
                for object in page { try kind.element(&writer, object) }
            }
        }
        writer.endListing(next: nil)
        return Array(writer.bytes.dropLast())
    }

    static func initial<Object, Description>(
        _ results: [PHFetchResult<Object>], _ kind: LiveKind<Object, Description>, token: Int64
    ) throws -> [UInt8] {
        Array("{\"initial\":".utf8) + (try listing(results, kind))
            + Array(",\"count\":\(results.reduce(0) { $0 + $1.count }),\"token\":\(token)}}".utf8)
    }

    /// One change's details as a record; the objects described at their positions after it, in
    /// `after`, the results (sections) the change left.
    static func diff<Object, Description>(
        _ change: LiveChange, after: [PHFetchResult<Object>], _ kind: LiveKind<Object, Description>, token: Int64
    ) throws -> [UInt8] {
        let count = after.reduce(0) { $0 + $1.count }
        guard let details = change.details else {
            return Array("{\"token\":\(token),\"reset\":".utf8) + (try listing(after, kind))
                + Array(",\"count\":\(count)}}".utf8)
        }
        // The objects at their positions, all of a section read at once; one deleted since is null.
        func described(_ indexes: [Int]) throws -> [UInt8] {
            var bytes = Array("[".utf8)
            var start = 0
            var position = 0
            for section in after {
                let end = start + section.count
                var local: [Int] = []
                while position + local.count < indexes.count, indexes[position + local.count] < end {
                    local.append(indexes[position + local.count] - start)
                }
                if !local.isEmpty {
                    let descriptions = try kind.described(section, local)
                    let byIdentifier = Dictionary(
                        descriptions.map { (kind.identifier($0), $0) }, uniquingKeysWith: { first, _ in first })
                    let identifiers =
                        descriptions.count == local.count
                        ? descriptions.map(kind.identifier) : local.map { section.object(at: $0).localIdentifier }
                    for (offset, index) in local.enumerated() {
                        if position + offset > 0 { bytes.append(UInt8(ascii: ",")) }
                        var writer = WireJSONWriter()
                        if let object = byIdentifier[identifiers[offset]] { try kind.write(&writer, object) }
                        bytes +=
                            Array("{\"index\":\(start + index),\"\(kind.object)\":".utf8)
                            + (writer.bytes.isEmpty ? Array("null".utf8) : writer.bytes) + [UInt8(ascii: "}")]
                    }
                    position += local.count
                }
                start = end
            }
            return bytes + [UInt8(ascii: "]")]
        }
        let moves = details.moves.map { "{\"from\":\($0.from),\"to\":\($0.to)}" }.joined(separator: ",")
        let removed = details.removed.map(String.init).joined(separator: ",")
        return Array("{\"token\":\(token),\"count\":\(count),\"removed\":[\(removed)],\"inserted\":".utf8)
            + (try described(details.inserted))
            + Array(",\"moves\":[\(moves)],\"changed\":".utf8)
            + (try described(details.changed)) + [UInt8(ascii: "}")]
    }
}

/// How a live query's result changed, in PhotoKit's terms, over the whole result: its sections'
/// `PHFetchResultChangeDetails` one after the other, each section's positions offset by the
/// objects of the sections before it (before the change for `removed` and `moves[].from`, after
/// it for `inserted`, `changed` and `moves[].to`).
///
/// Sections never share an object, so a client that drops the removed and moved-from objects,
/// places the inserted and moved ones and keeps the others in order around them fills each
/// section's free places with exactly that section's remaining objects.
struct LiveChange: Sendable, Hashable {
    /// The incremental details; nil when a section has none (PhotoKit's `hasIncrementalChanges`
    /// false): the client is sent everything again.
    var details: Details?

    struct Details: Sendable, Hashable {
        var removed: [Int] = []
        var inserted: [Int] = []
        var changed: [Int] = []
        var moves: [Move] = []
    }

    struct Move: Sendable, Hashable {
        var from: Int
        var to: Int
    }

    /// The change of the whole result from its sections' changes: each section's result before
    /// the change, and its details (nil for a section the change left as it was).
    init<Object>(_ sections: [(before: PHFetchResult<Object>, details: PHFetchResultChangeDetails<Object>?)]) {
        var joined = Details()
        var before = 0
        var after = 0
        for (result, details) in sections {
            defer {
                before += result.count
                after += details?.fetchResultAfterChanges.count ?? result.count
            }
            guard let details else { continue }
            guard details.hasIncrementalChanges else {
                self.details = nil
                return
            }
            joined.removed += (details.removedIndexes ?? []).map { before + $0 }
            joined.inserted += (details.insertedIndexes ?? []).map { after + $0 }
            joined.changed += (details.changedIndexes ?? []).map { after + $0 }
            details.enumerateMoves { from, to in joined.moves.append(Move(from: before + from, to: after + to)) }
        }
        details = joined
    }

    /// Adds objects at `positions` (after the change) as changed, but those it inserted, whose
    /// descriptions come with them: objects whose descriptions changed though their details do
    /// not say so (assets whose albums changed). Nothing for a change sent in full.
    mutating func addChanged(_ positions: [Int]) {
        guard var joined = details, !positions.isEmpty else { return }
        let inserted = Set(joined.inserted)
        joined.changed = Set(joined.changed).union(positions.filter { !inserted.contains($0) }).sorted()
        details = joined
    }
}

/// What a live query follows: the names its records give the objects, and how they are described.
struct LiveKind<Object: PHObject, Description: Hashable & Sendable>: Sendable {
    /// The listing's key (`assets`) and one placed object's (`asset`).
    let listing: String
    let object: String
    /// The result's descriptions, a page at a time.
    let pages: @Sendable (PHFetchResult<Object>, ([Description]) throws -> Void) throws -> Void
    /// The descriptions of the objects at these positions, read together; deleted ones left out.
    let described: @Sendable (PHFetchResult<Object>, [Int]) throws -> [Description]
    let identifier: @Sendable (Description) -> String
    /// Writes one description as a listing's element, and alone.
    let element: @Sendable (inout WireJSONWriter, Description) throws -> Void
    let write: @Sendable (inout WireJSONWriter, Description) throws -> Void
}

extension LiveKind where Object == PHAsset, Description == AssetJSON {
    /// Assets whose JSON names only `albums` of their albums (a limited client's; nil: all), written
    /// from their rows.
    static func assets(naming albums: Set<String>?) -> Self {
        LiveKind(
            listing: "assets", object: "asset",
            pages: { result, body in try result.forEachAssetJSONPage(naming: albums, body) },
            described: { try $0.assetJSON(at: $1, naming: albums) }, identifier: \.localIdentifier,
            element: { $0.appendElement($1) }, write: { $0.append($1) })
    }
}

extension LiveKind where Object: PHCollection, Description == CollectionDescription {
    /// `limited`: a client that sees no folder, whose albums' JSON names none.
    static func collections(_ listing: String, _ object: String, limited: Bool = false) -> Self {
        LiveKind(
            listing: listing, object: object,
            pages: { result, body in
                try result.forEachDescriptionPage { try body($0.map { $0.seen(limited: limited) }) }
            },
            described: { try $0.descriptions(at: $1).map { $0.seen(limited: limited) } }, identifier: \.localIdentifier,
            element: { $0.appendElement($1) }, write: { $0.append($1) })
    }
}

extension LiveKind where Object == PHAssetCollection, Description == CollectionDescription {
    static func albums(limited: Bool) -> Self { collections("albums", "album", limited: limited) }
    static var albums: Self { albums(limited: false) }
}

extension LiveKind where Object == PHCollectionList, Description == CollectionDescription {
    static var folders: Self { collections("folders", "folder") }
}

/// Follows one live query: each change that touches its result becomes a record, and the result
/// moves on to the one after the change. The result is one or more fetch results (sections),
/// followed as one list: the sections' objects one after the other.
///
/// `@unchecked Sendable`: the sections and the descriptions sent are read and replaced only under
/// `lock`; the kind is immutable.
final class QueryObserver<Object: PHObject, Description: Hashable & Sendable>: PHPhotoLibraryChangeObserver,
    @unchecked Sendable
{
    /// One fetch result of the query, as the client holds it.
    private struct Section {
        var result: PHFetchResult<Object>
        /// For objects whose descriptions follow from assets (albums, folders): each one's description
        /// as the client holds it, by identifier; nil when the objects' own changes say it all.
        var sent: [String: Description]?
    }

    private let lock = NSLock()
    private let kind: LiveKind<Object, Description>
    private var sections: [Section] = []
    /// For a query of assets: the albums' members, to tell whose `albums` a change altered.
    private var albumMembers: AlbumMembers?
    let records: AsyncStream<Result<[UInt8], any Error>>
    private let continuation: AsyncStream<Result<[UInt8], any Error>>.Continuation

    init(_ kind: LiveKind<Object, Description>) {
        self.kind = kind
        (records, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Starts following `results` (each `derived` when its objects' descriptions follow from
    /// assets); changes before them are in them. `albumMembers`: for assets, their albums' members,
    /// read before the results.
    func follow(_ results: [(PHFetchResult<Object>, derived: Bool)], albumMembers: AlbumMembers? = nil) {
        lock.withLock {
            self.albumMembers = albumMembers
            sections = results.map { result, derived in
                Section(result: result, sent: derived ? describedAll(result) : nil)
            }
        }
    }

    private func describedAll(_ result: PHFetchResult<Object>) -> [String: Description] {
        let all = (try? kind.described(result, Array(0..<result.count))) ?? []
        return Dictionary(all.map { (kind.identifier($0), $0) }, uniquingKeysWith: { first, _ in first })
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let token = changeInstance.entry.token
        lock.withLock {
            guard !sections.isEmpty else { return }
            let altered: Set<Int64>
            do {
                altered = try albumMembers?.assetsWhoseAlbumsChanged(in: changeInstance.entry) ?? []
            } catch {
                continuation.yield(.failure(error))
                return
            }
            let changes = sections.indices.map { index in
                (before: sections[index].result, details: details(of: &sections[index], changeInstance))
            }
            for (index, change) in changes.enumerated() {
                if let details = change.details { sections[index].result = details.fetchResultAfterChanges }
            }
            let after = sections.map(\.result)
            var change = LiveChange(changes)
            if !altered.isEmpty {
                var start = 0
                change.addChanged(
                    after.flatMap { section in
                        defer { start += section.count }
                        return section.positions(ofRows: altered).map { start + $0 }
                    })
            }
            guard changes.contains(where: { $0.details != nil }) || change.details?.changed.isEmpty == false else {
                return
            }
            // Described now, while the objects are as this change left them.
            continuation.yield(Result { try LiveQueryRoutes.diff(change, after: after, kind, token: token) })
        }
    }

    /// How the change changed one section, or nil when it did not; the descriptions it holds of
    /// objects that follow from assets are brought up to date.
    private func details(of section: inout Section, _ changeInstance: PHChange) -> PHFetchResultChangeDetails<Object>? {
        let current = section.result
        var details = changeInstance.changeDetails(for: current)
        let entry = changeInstance.entry
        if let held = section.sent, !(entry.asset.isEmpty && entry.assetCollection.isEmpty),
            details?.hasIncrementalChanges ?? true
        {
            // Objects whose description the change of assets (or of a folder's albums) made stale
            // are changed objects.
            let after = details?.fetchResultAfterChanges ?? current
            let now = describedAll(after)
            let stale = (0..<after.count).map(after.object(at:)).filter { object in
                now[object.localIdentifier].map { held[object.localIdentifier] != $0 } ?? false
            }
            section.sent = now
            if !stale.isEmpty {
                let changed = (details?.changedIndexes ?? []).map(after.object(at:))
                details = PHFetchResultChangeDetails(from: current, to: after, changedObjects: changed + stale)
            }
        } else if section.sent != nil, let after = details?.fetchResultAfterChanges {
            section.sent = describedAll(after)
        }
        return details
    }

    func finish() { continuation.finish() }
}
