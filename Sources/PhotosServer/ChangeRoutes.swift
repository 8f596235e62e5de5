import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotosCore
import PhotosStore
import PhotosWire
import ServiceLifecycle
import Synchronization

/// `GET /v1/changes?since=TOKEN[&follow=true]`: the change log after a token, from the store's one
/// change feed, as NDJSON (one entry per line, as `photos changes --json` prints them) or, when
/// the client accepts `text/event-stream`, as Server-Sent Events whose ids are the tokens.
///
/// Without `follow` the answer ends at the newest entry; with it the stream stays open and each
/// commit is written as it lands, until the client leaves or the daemon stops (a stream never
/// holds up shutdown). A token older than the kept history is a 410 carrying PhotoKit's 3105, never
/// a gap; a stream that falls that far behind gets that error as its last event.
struct ChangeRoutes: Sendable {
    let database: LibraryDatabase
    /// The follow streams open now, and the most allowed at once: one more is a 503.
    let streams: StreamCount

    func add(to router: Router<APIContext>) {
        router.get("/v1/changes") { request, context in
            try self.changes(request, access: context.access, channel: context.channel)
        }
    }

    /// The token an SSE client's `Last-Event-ID` names: where a reconnecting EventSource resumes.
    static func lastEventID(_ request: Request, _ format: StreamFormat) throws -> Int64? {
        guard format == .events, let text = request.headers[HTTPField.Name("Last-Event-ID")!] else { return nil }
        guard let token = Int64(text.trimmingCharacters(in: .whitespaces)), token >= 0 else {
            throw APIError(.badRequest, "Last-Event-ID must be a change token (a whole number), not '\(text)'")
        }
        return token
    }

    /// A limited client's stream holds only its albums' assets and the albums themselves
    /// (`ChangeScope.limited(toAlbums:)`); an entry with nothing left for it is not written.
    ///
    /// A follow stream ends as soon as `channel` closes (its client left), not at the next commit.
    func changes(_ request: Request, access: ClientAccess = .owner, channel: (any Channel)? = nil) throws -> Response {
        let query = Query(request.uri.query)
        let unknown = query.unknown(["since", "follow"])
        guard unknown.isEmpty else {
            throw APIError(.badRequest, "unknown parameters \(unknown.joined(separator: ", ")); known: follow, since")
        }
        let follow = try query.flag("follow")
        let format = StreamFormat(request)
        // Following starts now, as `tail -f` does; `since` resumes after a token, and so does the
        // `Last-Event-ID` an EventSource sends when it reconnects (each event's id is its token).
        // The header wins: an EventSource reconnects to the URL it was opened with, `since`
        // included, so `since` says where the stream first began and the header how far it got.
        let resumed = try Self.lastEventID(request, format)
        let since: Int64
        do {
            let asked = try query.integer("since", in: 0...Int64.max, default: nil)
            since = try resumed ?? asked ?? (follow ? database.currentToken() : 0)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.from(error)
        }
        // Checked before the stream starts, so that it is an HTTP status.
        do {
            try database.requireHistory(after: since)
        } catch {
            throw APIError.from(error)
        }
        // HEAD asks what GET would answer, not for the stream: no slot is taken, nothing is read.
        if request.method == .head {
            if follow { try streams.checkRoom() }
            return Response(status: .ok, headers: format.headers)
        }
        let database = self.database
        // A follow stream holds a connection for as long as the client stays: there is a bound.
        let slot = follow ? try streams.open(for: channel) : nil
        let body = ResponseBody { writer in
            defer { slot?.close() }
            try await LeavingClient.cancelling(on: follow ? channel : nil) {
                do {
                    var access = access
                    let limited = access.isLimited ? ChangeScope.limited(toAlbums: access.albums) : nil
                    var scope = try limited?.selector(in: database)
                    if follow {
                        // The feed ends when the daemon starts stopping, and the response ends properly: a
                        // stream never holds up shutdown. (Not `cancelOnGracefulShutdown()`: its merge
                        // holds a lock across a suspension, which can stop the thread its holder needs.)
                        let stop = FeedStop()
                        let start = format.start(after: since)
                        if !start.isEmpty { try await writer.write(ByteBuffer(bytes: start)) }
                        try await withGracefulShutdownHandler {
                            for try await entry in database.changeFeed(after: since, stoppedBy: stop) {
                                // The token may have been revoked, or a limited one's albums changed.
                                let now = try access.renewed(in: database)
                                if now.isLimited, now.albums != access.albums {
                                    scope = try ChangeScope.limited(toAlbums: now.albums).selector(in: database)
                                }
                                access = now
                                for entry in try scope?.select([entry]) ?? [entry] {
                                    try await writer.write(ByteBuffer(bytes: try Self.record(entry, format)))
                                }
                            }
                        } onGracefulShutdown: {
                            stop.stop()
                        }
                    } else {
                        var last = since
                        while true {
                            let page = try database.changes(after: last, limit: 1000)
                            guard let newest = page.last else { break }
                            var bytes: [UInt8] = []
                            for entry in try scope?.select(page) ?? page { bytes += try Self.record(entry, format) }
                            try await writer.write(ByteBuffer(bytes: bytes))
                            last = newest.token
                        }
                    }
                } catch is CancellationError {
                    // The daemon is stopping or the client left.
                } catch {
                    // The headers are gone: the error is the stream's last record.
                    let failure = APIError.from(error).body
                    let json = try WireJSON.makeEncoder().encode(failure)
                    try? await writer.write(ByteBuffer(bytes: format.record(json, event: "error")))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: format.headers, body: body)
    }

    /// One entry: a JSON line, or an SSE event whose id is its token.
    static func record(_ entry: LibraryChange, _ format: StreamFormat) throws -> [UInt8] {
        format.record(try WireJSON.makeEncoder().encode(entry), id: entry.token)
    }
}

/// Counts the open follow streams against a limit.
final class StreamCount: Sendable {
    let limit: Int
    private let count = Mutex(0)

    init(limit: Int) { self.limit = limit }

    /// A slot for one more stream, or a 503 when `limit` are open; close the slot when the stream
    /// ends. The slot is closed as soon as `channel` closes: a client that leaves while nothing is
    /// written gives its place back at once, not when the next write fails.
    func open(for channel: (any Channel)? = nil) throws -> Slot {
        let taken = count.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
        guard taken else { throw Self.full(limit) }
        let slot = Slot(count: self)
        channel?.closeFuture.whenComplete { _ in slot.close() }
        return slot
    }

    /// Throws the 503 that `open(for:)` would, taking no slot: what a HEAD is told.
    func checkRoom() throws {
        guard count.withLock({ $0 < limit }) else { throw Self.full(limit) }
    }

    private static func full(_ limit: Int) -> APIError {
        APIError(.serviceUnavailable, "too many streams: \(limit) are open; try again when one ends")
    }

    fileprivate func release() { count.withLock { $0 -= 1 } }

    /// One stream's place in the count.
    final class Slot: Sendable {
        private let streams: StreamCount
        private let closed = Mutex(false)
        fileprivate init(count: StreamCount) { streams = count }

        func close() {
            let first = closed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            if first { streams.release() }
        }

        deinit { close() }
    }
}

/// Ends a stream's work when its client leaves. A stream waiting for the next change writes
/// nothing, so a closed connection would only be found at the next write (the next commit: on an
/// idle library, never); the connection's close is noticed at once and cancels the task writing.
enum LeavingClient {
    /// Runs `body`, cancelling the task running it if `channel` closes meanwhile (nil: just runs it).
    static func cancelling<T>(on channel: (any Channel)?, _ body: () async throws -> T) async rethrows -> T {
        guard let channel else { return try await body() }
        let canceller = Canceller()
        withUnsafeCurrentTask { task in canceller.watch(task.map(Handle.init)) }
        channel.closeFuture.whenComplete { _ in canceller.cancel() }
        // The task handle is good only while the task runs: forgotten before `body`'s caller goes on.
        defer { canceller.forget() }
        return try await body()
    }

    /// The running task's handle: used only under ``Canceller``'s lock, while the task runs.
    private struct Handle: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    /// The running task's handle, cancelled or forgotten under one lock: never used after `forget`.
    private final class Canceller: Sendable {
        private let task = Mutex<Handle?>(nil)
        func watch(_ current: Handle?) { task.withLock { $0 = current } }
        func cancel() { task.withLock { $0?.task.cancel() } }
        func forget() { task.withLock { $0 = nil } }
    }
}
