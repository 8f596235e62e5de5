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
/// Records (NDJSON, or SSE events when the client accepts `text/event-stream`):
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
        var predicate: String?
        var sort: [String]?
        var limit: Int?
        var includeHidden: Bool?
        var includeAllBursts: Bool?
        var `in`: String?

        static let keys: Set<String> = ["predicate", "sort", "limit", "includeHidden", "includeAllBursts", "in"]
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
        let unknown = Set(object.keys).subtracting(Request.keys)
        guard unknown.isEmpty else {
            throw APIError(
                .badRequest, "unknown fields \(unknown.sorted().joined(separator: ", ")); known: \(Request.keys.sorted().joined(separator: ", "))")
        }
        let posted: Request
        do {
            posted = try JSONDecoder().decode(Request.self, from: bytes)
        } catch {
            throw APIError(.badRequest, "bad fetch options: \(error)")
        }
        let events = request.headers[.accept]?.contains("text/event-stream") ?? false
        let slot = try streams.open()
        // Watching starts before the fetch: a change committed in between is in the result, and
        // nothing after the result is missed.
        let observer = QueryObserver()
        library.register(observer)
        let result: PHFetchResult<PHAsset>
        let token: Int64
        do {
            token = try library.database.currentToken()
            result = try fetches.liveAssets(posted, access: context.access)
        } catch {
            library.unregisterChangeObserver(observer)
            slot.close()
            throw APIError.from(error)
        }
        observer.follow(result)
        let library = self.library
        return Response(
            status: .ok,
            headers: [.contentType: events ? "text/event-stream" : "application/x-ndjson", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                defer {
                    library.unregisterChangeObserver(observer)
                    observer.finish()
                    slot.close()
                }
                do {
                    try await writer.write(
                        ByteBuffer(bytes: Self.record(try Self.initial(result, token: token), events: events)))
                    for await record in observer.records.cancelOnGracefulShutdown() {
                        try await writer.write(ByteBuffer(bytes: Self.record(try record.get(), events: events)))
                    }
                } catch is CancellationError {
                } catch {
                    let json = try WireJSON.makeEncoder().encode(APIError.from(error).body)
                    try? await writer.write(ByteBuffer(bytes: Self.record(json, events: events)))
                }
                try await writer.finish(nil)
            })
    }

    static func record(_ json: some Collection<UInt8>, events: Bool) -> [UInt8] {
        events ? Array("data: ".utf8) + json + Array("\n\n".utf8) : Array(json) + [10]
    }

    static func initial(_ result: PHFetchResult<PHAsset>, token: Int64) throws -> [UInt8] {
        var writer = WireJSONWriter()
        writer.beginListing("assets")
        try result.forEachDescriptionPage { page in
            for asset in page { try writer.appendElement(asset) }
        }
        writer.endListing(next: nil)
        var bytes = Array("{\"initial\":".utf8) + writer.bytes.dropLast()
        bytes += Array(",\"count\":\(result.count),\"token\":\(token)}}".utf8)
        return bytes
    }

    /// One change's details as a record; the objects described at their positions after it.
    static func diff(_ details: PHFetchResultChangeDetails<PHAsset>, token: Int64) throws -> [UInt8] {
        let after = details.fetchResultAfterChanges
        guard details.hasIncrementalChanges else {
            var writer = WireJSONWriter()
            writer.beginListing("assets")
            try after.forEachDescriptionPage { page in
                for asset in page { try writer.appendElement(asset) }
            }
            writer.endListing(next: nil)
            return Array("{\"token\":\(token),\"reset\":".utf8) + writer.bytes.dropLast()
                + Array(",\"count\":\(after.count)}}".utf8)
        }
        // The objects at their positions, all read at once; one deleted since is null.
        func described(_ indexes: [Int]) throws -> [UInt8] {
            let descriptions = try after.descriptions(at: indexes)
            let byIdentifier = Dictionary(
                descriptions.map { ($0.localIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
            let identifiers = descriptions.count == indexes.count
                ? descriptions.map(\.localIdentifier) : indexes.map { after.object(at: $0).localIdentifier }
            var bytes = Array("[".utf8)
            for (position, index) in indexes.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                var writer = WireJSONWriter()
                if let asset = byIdentifier[identifiers[position]] { try writer.append(asset) }
                bytes += Array("{\"index\":\(index),\"asset\":".utf8)
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

/// Follows one live query: each change that touches its result becomes a record, and the result
/// moves on to the one after the change.
final class QueryObserver: PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var result: PHFetchResult<PHAsset>?
    let records: AsyncStream<Result<[UInt8], any Error>>
    private let continuation: AsyncStream<Result<[UInt8], any Error>>.Continuation

    init() {
        (records, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Starts following `result`; changes before it are in it.
    func follow(_ result: PHFetchResult<PHAsset>) { lock.withLock { self.result = result } }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let token = changeInstance.entry.token
        lock.withLock {
            guard let current = result, let details = changeInstance.changeDetails(for: current) else { return }
            result = details.fetchResultAfterChanges
            // Described now, while the objects are as this change left them.
            continuation.yield(Result { try LiveQueryRoutes.diff(details, token: token) })
        }
    }

    func finish() { continuation.finish() }
}
