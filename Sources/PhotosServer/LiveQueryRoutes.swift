import Foundation
import Hummingbird
import Photos
import PhotosWire
import ServiceLifecycle

/// `POST /v1/queries`: a fetch that stays live. The client posts fetch options and reads one
/// stream: the initial result, then for each committed change that touches it, PhotoKit's
/// `PHFetchResultChangeDetails` for that query, so that a client applying them holds exactly what a
/// fresh fetch would return.
///
/// `of` says what the query fetches: `assets` (the default: the options of `GET /v1/assets`),
/// `albums` (those of `GET /v1/albums`, with `type` required: a live query follows one fetch) or
/// `folders` (those of `GET /v1/folders`). Records (NDJSON, or SSE events when the client accepts
/// `text/event-stream`), here for assets; albums and folders name theirs `albums`/`album` and
/// `folders`/`folder`:
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

    /// The fetch options a client posts.
    struct Request: Decodable {
        var of: String?
        var predicate: String?
        var sort: [String]?
        var limit: Int?
        var includeHidden: Bool?
        var includeAllBursts: Bool?
        var `in`: String?
        var type: String?

        /// The fields each kind of query takes.
        static let keys: [String: Set<String>] = [
            "assets": ["of", "predicate", "sort", "limit", "includeHidden", "includeAllBursts", "in"],
            "albums": ["of", "predicate", "sort", "limit", "type"],
            "folders": ["of", "predicate", "sort", "limit"],
        ]
        static let allKeys = keys.values.reduce(Set<String>()) { $0.union($1) }
    }

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
        let unknown = Set(object.keys).subtracting(Request.allKeys)
        guard unknown.isEmpty else {
            throw APIError(
                .badRequest, "unknown fields \(unknown.sorted().joined(separator: ", ")); known: \(Request.allKeys.sorted().joined(separator: ", "))")
        }
        let posted: Request
        do {
            posted = try JSONDecoder().decode(Request.self, from: bytes)
        } catch {
            throw APIError(.badRequest, "bad fetch options: \(error)")
        }
        let kind = posted.of ?? "assets"
        guard let known = Request.keys[kind] else {
            throw APIError(.badRequest, "of must be assets, albums or folders, not '\(kind)'")
        }
        let inapplicable = Set(object.keys).subtracting(known)
        guard inapplicable.isEmpty else {
            throw APIError(
                .badRequest, "\(inapplicable.sorted().joined(separator: ", ")) do\(inapplicable.count == 1 ? "es" : "") not "
                    + "apply to a live query of \(kind); it takes \(known.sorted().joined(separator: ", "))")
        }
        let format = StreamFormat(request)
        let access = context.access
        switch kind {
        case "albums":
            // A smart album's members are its assets' doing: PhotoKit reports no change of the album
            // when they change, but its count and dates do.
            return try follow(.albums, derived: posted.type == "smartAlbum", format: format) {
                try fetches.liveAlbums(posted, access: access)
            }
        case "folders":
            return try follow(.folders, format: format) { try fetches.liveFolders(posted, access: access) }
        default:
            return try follow(.assets, format: format) { try fetches.liveAssets(posted, access: access) }
        }
    }

    /// Answers the stream of the result `fetch` makes.
    ///
    /// `derived`: the objects' descriptions follow from assets, not from the objects' own changes
    /// (smart albums' counts and dates): the observer compares them at each change of assets.
    private func follow<Object: PHObject, Description: Hashable & Sendable>(
        _ kind: LiveKind<Object, Description>, derived: Bool = false, format: StreamFormat,
        fetch: () throws -> PHFetchResult<Object>
    ) throws -> Response {
        let slot = try streams.open()
        // Watching starts before the fetch: a change committed in between is in the result, and
        // nothing after the result is missed.
        let observer = QueryObserver(kind, derived: derived)
        library.register(observer)
        let result: PHFetchResult<Object>
        let token: Int64
        do {
            token = try library.database.currentToken()
            result = try fetch()
        } catch {
            library.unregisterChangeObserver(observer)
            slot.close()
            throw APIError.from(error)
        }
        observer.follow(result)
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
                        ByteBuffer(bytes: format.record(try Self.initial(result, kind, token: token))))
                    for await record in observer.records.cancelOnGracefulShutdown() {
                        try await writer.write(ByteBuffer(bytes: format.record(try record.get())))
                    }
                } catch is CancellationError {
                } catch {
                    let json = try WireJSON.makeEncoder().encode(APIError.from(error).body)
                    try? await writer.write(ByteBuffer(bytes: format.record(json)))
                }
                try await writer.finish(nil)
            })
    }

    /// The whole result as a listing named after the kind, without its closing brace.
    private static func listing<Object, Description>(
        _ result: PHFetchResult<Object>, _ kind: LiveKind<Object, Description>
    ) throws -> [UInt8] {
        var writer = WireJSONWriter()
        writer.beginListing(kind.listing)
        try kind.pages(result) { page in
            for object in page { try kind.element(&writer, object) }
        }
        writer.endListing(next: nil)
        return Array(writer.bytes.dropLast())
    }

    static func initial<Object, Description>(
        _ result: PHFetchResult<Object>, _ kind: LiveKind<Object, Description>, token: Int64
    ) throws -> [UInt8] {
        Array("{\"initial\":".utf8) + (try listing(result, kind))
            + Array(",\"count\":\(result.count),\"token\":\(token)}}".utf8)
    }

    /// One change's details as a record; the objects described at their positions after it.
    static func diff<Object, Description>(
        _ details: PHFetchResultChangeDetails<Object>, _ kind: LiveKind<Object, Description>, token: Int64
    ) throws -> [UInt8] {
        let after = details.fetchResultAfterChanges
        guard details.hasIncrementalChanges else {
            return Array("{\"token\":\(token),\"reset\":".utf8) + (try listing(after, kind))
                + Array(",\"count\":\(after.count)}}".utf8)
        }
        // The objects at their positions, all read at once; one deleted since is null.
        func described(_ indexes: [Int]) throws -> [UInt8] {
            let descriptions = try kind.described(after, indexes)
            let byIdentifier = Dictionary(
                descriptions.map { (kind.identifier($0), $0) }, uniquingKeysWith: { first, _ in first })
            let identifiers = descriptions.count == indexes.count
                ? descriptions.map(kind.identifier) : indexes.map { after.object(at: $0).localIdentifier }
            var bytes = Array("[".utf8)
            for (position, index) in indexes.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                var writer = WireJSONWriter()
                if let object = byIdentifier[identifiers[position]] { try kind.write(&writer, object) }
                bytes += Array("{\"index\":\(index),\"\(kind.object)\":".utf8)
                    + (writer.bytes.isEmpty ? Array("null".utf8) : writer.bytes) + [UInt8(ascii: "}")]
            }
            return bytes + [UInt8(ascii: "]")]
        }
        var moves: [String] = []
        details.enumerateMoves { from, to in moves.append("{\"from\":\(from),\"to\":\(to)}") }
        let removed = (details.removedIndexes ?? []).map(String.init).joined(separator: ",")
        return Array("{\"token\":\(token),\"count\":\(after.count),\"removed\":[\(removed)],\"inserted\":".utf8)
            + (try described(Array(details.insertedIndexes ?? [])))
            + Array(",\"moves\":[\(moves.joined(separator: ","))],\"changed\":".utf8)
            + (try described(Array(details.changedIndexes ?? []))) + [UInt8(ascii: "}")]
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

extension LiveKind where Object == PHAsset, Description == AssetDescription {
    static var assets: Self {
        LiveKind(
            listing: "assets", object: "asset", pages: { try $0.forEachDescriptionPage($1) },
            described: { try $0.descriptions(at: $1) }, identifier: \.localIdentifier,
            element: { try $0.appendElement($1) }, write: { try $0.append($1) })
    }
}

extension LiveKind where Object: PHCollection, Description == CollectionDescription {
    static func collections(_ listing: String, _ object: String) -> Self {
        LiveKind(
            listing: listing, object: object, pages: { try $0.forEachDescriptionPage($1) },
            described: { try $0.descriptions(at: $1) }, identifier: \.localIdentifier,
            element: { $0.appendElement($1) }, write: { $0.append($1) })
    }
}

extension LiveKind where Object == PHAssetCollection, Description == CollectionDescription {
    static var albums: Self { collections("albums", "album") }
}

extension LiveKind where Object == PHCollectionList, Description == CollectionDescription {
    static var folders: Self { collections("folders", "folder") }
}

/// Follows one live query: each change that touches its result becomes a record, and the result
/// moves on to the one after the change.
///
/// `@unchecked Sendable`: the result and the descriptions sent are read and replaced only under
/// `lock`; the kind is immutable.
final class QueryObserver<Object: PHObject, Description: Hashable & Sendable>: PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let kind: LiveKind<Object, Description>
    private var result: PHFetchResult<Object>?
    /// For objects whose descriptions follow from assets (smart albums): each one's description as
    /// the client holds it, by identifier; nil when the objects' own changes say it all.
    private var sent: [String: Description]?
    let records: AsyncStream<Result<[UInt8], any Error>>
    private let continuation: AsyncStream<Result<[UInt8], any Error>>.Continuation

    init(_ kind: LiveKind<Object, Description>, derived: Bool = false) {
        self.kind = kind
        sent = derived ? [:] : nil
        (records, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Starts following `result`; changes before it are in it.
    func follow(_ result: PHFetchResult<Object>) {
        lock.withLock {
            self.result = result
            if sent != nil { sent = describedAll(result) }
        }
    }

    private func describedAll(_ result: PHFetchResult<Object>) -> [String: Description] {
        let all = (try? kind.described(result, Array(0..<result.count))) ?? []
        return Dictionary(all.map { (kind.identifier($0), $0) }, uniquingKeysWith: { first, _ in first })
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let token = changeInstance.entry.token
        lock.withLock {
            guard let current = result else { return }
            var details = changeInstance.changeDetails(for: current)
            if let held = sent, !changeInstance.entry.asset.isEmpty, details?.hasIncrementalChanges ?? true {
                // Objects whose description the change of assets made stale are changed objects.
                let after = details?.fetchResultAfterChanges ?? current
                let now = describedAll(after)
                let stale = (0..<after.count).map(after.object(at:)).filter { object in
                    now[object.localIdentifier].map { held[object.localIdentifier] != $0 } ?? false
                }
                sent = now
                if !stale.isEmpty {
                    let changed = (details?.changedIndexes ?? []).map(after.object(at:))
                    details = PHFetchResultChangeDetails(from: current, to: after, changedObjects: changed + stale)
                }
            } else if sent != nil, let after = details?.fetchResultAfterChanges {
                sent = describedAll(after)
            }
            guard let details else { return }
            result = details.fetchResultAfterChanges
            // Described now, while the objects are as this change left them.
            continuation.yield(Result { try LiveQueryRoutes.diff(details, kind, token: token) })
        }
    }

    func finish() { continuation.finish() }
}
