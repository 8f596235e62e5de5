import Hummingbird

/// How a stream's records are framed: one JSON object a line (NDJSON), or Server-Sent Events when
/// the client accepts `text/event-stream`. The change stream and live queries share it.
enum StreamFormat: Sendable {
    case lines, events

    /// What the request's `Accept` header asks for.
    init(_ request: Request) {
        self = request.accepts("text/event-stream") ? .events : .lines
    }

    /// The answer's `Content-Type`.
    var contentType: String { self == .events ? "text/event-stream" : "application/x-ndjson" }

    /// The headers of a stream's answer.
    var headers: HTTPFields { [.contentType: contentType, .cacheControl: "no-cache"] }

    /// Where a stream starts, for an EventSource that reconnects before any change came: an event
    /// of an `id:` alone, which sets the client's last event id without dispatching anything (so
    /// that its `Last-Event-ID` resumes here, not "from now"). Nothing for NDJSON.
    func start(after token: Int64) -> [UInt8] {
        self == .events ? Array("id: \(token)\n\n".utf8) : []
    }

    /// `json` as one record: a line, or an event (with its `id:` and `event:` fields when given).
    func record(_ json: some Collection<UInt8>, id: Int64? = nil, event: String? = nil) -> [UInt8] {
        guard self == .events else { return Array(json) + [10] }
        var head = ""
        if let id { head += "id: \(id)\n" }
        if let event { head += "event: \(event)\n" }
        return Array((head + "data: ").utf8) + json + Array("\n\n".utf8)
    }
}

extension Request {
    /// Whether the `Accept` header names `mediaType`.
    func accepts(_ mediaType: String) -> Bool {
        headers[.accept]?.contains(mediaType) ?? false
    }
}
