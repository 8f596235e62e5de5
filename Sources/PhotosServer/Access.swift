import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotosCore
import PhotosStore
import Synchronization

/// Who is asking, as ``AccessMiddleware`` found: a PhotoKit access level and, for `limited`, the
/// albums whose assets the client sees.
struct ClientAccess: Sendable, Hashable {
    var level: AccessLevel
    /// The albums of a `limited` client (local identifiers).
    var albums: [String]
    /// The token the client sent, if any.
    var tokenID: String?
    /// For a browser's session cookie: the CSRF token its requests that change something carry.
    var csrf: String? = nil

    /// The socket's owner: everything, without a token.
    static let owner = ClientAccess(level: .readWrite, albums: [], tokenID: nil)
    /// A request no middleware has vouched for: limited to no album, it sees and changes nothing.
    static let nobody = ClientAccess(level: .limited, albums: [], tokenID: nil)

    /// Whether the client sees only its albums' assets.
    var isLimited: Bool { level == .limited }

    /// The client's access now, its token looked up again: what a stream asks before each thing
    /// it sends, so that a token revoked or expired while the stream is open ends it (with the 401
    /// its next request would get) before anything more is sent, and a limited token's albums are
    /// its albums now. A client without a token (the socket's owner) keeps its access.
    func renewed(in database: LibraryDatabase) throws -> ClientAccess {
        guard let tokenID else { return self }
        let found: AccessToken?
        do {
            found = try database.accessToken(id: tokenID)
        } catch {
            throw APIError(.serviceUnavailable, "cannot read the library's tokens: \(error)")
        }
        guard let token = found, let level = token.accessLevel else {
            throw APIError.unauthorized("the token is unknown, revoked or expired", invalid: true)
        }
        var renewed = self
        renewed.level = level
        renewed.albums = token.albums
        return renewed
    }
}

/// The request context of the API's routes: Hummingbird's, the connection (for the peer's
/// credentials) and the client's access.
struct APIContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// Set by ``AccessMiddleware`` before any route runs.
    var access = ClientAccess.nobody
    /// The process at the other end of the Unix socket, as the kernel said when it connected
    /// (`SO_PEERCRED`); nil over TCP or when the kernel does not say. Set by ``AccessMiddleware``.
    var peer: PeerCredentials?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// How a client reaches the API: the Unix socket (the peer's uid is known) or loopback TCP (it is not).
enum Transport: Sendable {
    /// `owner`: the uid that has read-write access without a token (nil: nobody does).
    case unixSocket(owner: uid_t?)
    /// `port`: the listener's, which names its session cookie.
    case tcp(port: Int)

    /// The name of the browser session cookie on this listener.
    var cookieName: String {
        switch self {
        case .unixSocket: WebSession.cookieName(port: nil)
        case .tcp(let port): WebSession.cookieName(port: port)
        }
    }
}

/// Decides each request's ``ClientAccess`` and refuses what its level never allows.
///
/// A request with `Authorization: Bearer TOKEN` has that token's level, whoever sends it (the owner
/// too: a way to see the API as a client of that level sees it). A browser's session cookie
/// (``WebSession``) carries a token as well, and its requests that change something must also carry
/// the session's CSRF token. Without either, a client on the Unix
/// socket whose uid (`SO_PEERCRED`) is the owner's has read-write access; anyone else, and every TCP
/// client, is a 401 with `WWW-Authenticate: Bearer`. A level that never reaches the path is a 403
/// (``refusal(_:path:access:)``); what a `limited` client sees of a path the routes decide.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let database: LibraryDatabase
    let transport: Transport
    /// When each token's last use was recorded: written at most once a minute per token.
    let touched: TokenUses
    /// The peer's uid of each open connection, asked of the kernel once per connection.
    let peers = PeerUIDs()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Before anything else: the router matches `/v1//status/` as `/v1/status` (it drops empty
        // segments), and a check of the string could be fooled by any spelling it matches.
        if let reason = Self.nonCanonical(request.uri.path) {
            throw APIError(.notFound, "no such path: \(reason)")
        }
        var context = context
        // Access is decided on the route the router matched (its pattern, `/v1/assets/**`), not on
        // how the client spelled it; a path no route matched is the 404 that follows.
        let route = context.endpointPath ?? request.uri.path
        // The login URL and the page's scripts and styles are served to anyone: they hold nothing
        // of the library (a login URL's code is its own credential).
        if WebRoutes.publicRoutes.contains(route) { return try await next(request, context) }
        do {
            context.access = try await access(request, context)
        } catch let error as APIError
            where error.status == .unauthorized
            && (WebRoutes.isPage(route) || (route == "/" && WebRoutes.prefersHTML(request)))
        {
            // A person at a browser without a session: a page that says how to get one.
            return WebPages.signInNeeded(reason: error.body.error.message)
        }
        if case .unixSocket = transport { context.peer = await peers.credentials(of: context.channel) }
        if let expected = context.access.csrf, !Self.isSafe(request.method) {
            try Self.checkCSRF(request, expected: expected)
        }
        if let refusal = Self.refusal(request.method, path: route, access: context.access) {
            throw APIError(.forbidden, refusal)
        }
        return try await next(request, context)
    }

    /// Whether a method only reads (RFC 9110's safe methods): what needs no CSRF token.
    static func isSafe(_ method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head || method == .options
    }

    /// Refuses a change made with a session cookie unless it carries the session's CSRF token
    /// and, where the browser says (`Sec-Fetch-Site`), comes from the page's own origin.
    static func checkCSRF(_ request: Request, expected: String) throws {
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin" {
            throw APIError(.forbidden, "a browser session's change comes from its own page, not from \(site)")
        }
        guard let sent = request.headers[WebSession.csrfHeader], WebSession.constantTimeEqual(sent, expected) else {
            throw APIError(.forbidden, "a browser session's change carries the page's X-CSRF-Token")
        }
    }

    /// Why `path` (as the client sent it, percent-encoded) is not a canonical spelling of a path, or
    /// nil when it is: one leading `/`, no empty segment (`//`, a trailing `/`), no `.` or `..`
    /// segment, plain or percent-encoded. Identifiers keep their slashes (`/v1/assets/UUID/L0/001`)
    /// and may encode them (`UUID%2FL0%2F001`): both are canonical.
    static func nonCanonical(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "a path starts with /" }
        if path == "/" { return nil }
        for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty { return "an empty segment (// or a trailing /)" }
            let decoded = PercentDecoding.decode(segment) ?? String(segment)
            if decoded == "." || decoded == ".." { return "a . or .. segment" }
        }
        return nil
    }

    private func access(_ request: Request, _ context: Context) async throws -> ClientAccess {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                throw APIError.unauthorized("Authorization must be 'Bearer TOKEN'", invalid: true)
            }
            // Blanks around the secret dropped without Foundation's character sets (8 µs a request).
            var secret = parts[1]
            while secret.first == " " || secret.first == "\t" { secret.removeFirst() }
            while secret.last == " " || secret.last == "\t" { secret.removeLast() }
            let (token, level) = try self.token(String(secret)) {
                APIError.unauthorized("the token is unknown, revoked or expired", invalid: true)
            }
            return ClientAccess(level: level, albums: token.albums, tokenID: token.id)
        }
        if let secret = WebSession.cookie(transport.cookieName, in: request.headers) {
            let (token, level) = try self.token(secret) {
                APIError.unauthorized("the browser's session has ended (its token is unknown, revoked or expired)")
            }
            return ClientAccess(
                level: level, albums: token.albums, tokenID: token.id, csrf: WebSession.csrfToken(for: secret))
        }
        if case .unixSocket(let owner?) = transport, let peer = await peers.credentials(of: context.channel)?.uid,
            peer == owner
        {
            return .owner
        }
        let how =
            switch transport {
            case .tcp: "every TCP client"
            case .unixSocket: "a client other than the socket's owner"
            }
        throw APIError.unauthorized("\(how) sends Authorization: Bearer TOKEN (make one with photos token create)")
    }

    /// The live token whose secret this is, its use recorded; `refusal` when there is none.
    private func token(_ secret: String, refusal: () -> APIError) throws -> (AccessToken, AccessLevel) {
        let found: AccessToken?
        do {
            found = try database.accessToken(secret: secret)
        } catch {
            throw APIError(.serviceUnavailable, "cannot read the library's tokens: \(error)")
        }
        guard let token = found, let level = token.accessLevel else { throw refusal() }
        touch(token)
        return (token, level)
    }

    /// Records a use of `token`, at most once a minute.
    private func touch(_ token: AccessToken) {
        guard touched.shouldRecord(token.id) else { return }
        // A write may wait for another process's lock (up to the busy timeout): never in the
        // request's path, and never on Swift's shared pool.
        let database = self.database
        DispatchQueue.global(qos: .utility).async { try? database.touchAccessToken(token.id) }
    }

    /// Why `access` may never have `method path`, or nil when it may (or its route decides).
    ///
    /// | level | refused |
    /// |---|---|
    /// | read-write | nothing |
    /// | read-only | `POST /v1/changes`, `POST /v1/uploads`, `POST /v1/trash/…`, `/v1/hooks/…`, `POST /v1/logins` |
    /// | add-only | everything but the open paths, `POST /v1/changes` and `POST /v1/uploads` |
    /// | limited | `GET /v1/status`, `GET /v1/imports`, `GET /v1/rejected`, `GET /metrics`, `/web/health` (the daemon's roots, imports, hooks and rejected files are not its albums'), trash, `/v1/hooks/…`, `POST /v1/logins` |
    ///
    /// "Trash" is `/v1/trash` and the paths under it, and the page `/web/trash`: deleted assets are in
    /// no album. A login
    /// (`POST /v1/logins`) makes a token, which only a read-write client may do.
    ///
    /// The open paths (``openPaths``: `/`, `/v1/health`, `/v1/version`, `/v1/openapi.json`) are
    /// refused to no level. `path` is the route's pattern as the router matched it (`/v1/assets/**`).
    static func refusal(_ method: HTTPRequest.Method, path: String, access: ClientAccess) -> String? {
        if openPaths.contains(path) { return nil }
        let level = access.level.rawValue
        let changes = method == .post && (path == "/v1/changes" || path == "/v1/uploads")
        let trash = path == "/v1/trash" || path.hasPrefix("/v1/trash/") || path == "/web/trash"
        let logins = path == "/v1/logins"
        // Hooks are the daemon's, not any album's: only a client that may change everything steers them.
        let hooks = path.hasPrefix("/v1/hooks/")
        switch access.level {
        case .readWrite:
            return nil
        case .readOnly:
            if logins { return "a read-only client cannot make logins (tokens)" }
            guard changes || hooks || (trash && method != .get) else { return nil }
            return "a read-only client cannot change the library"
        case .addOnly:
            guard changes else {
                return "an add-only client reads nothing; it may only POST /v1/uploads and /v1/changes to create "
                    + "assets and albums"
            }
            return nil
        case .limited:
            if trash { return "a \(level) client sees only its albums' assets; deleted assets are in no album" }
            if hooks { return "a \(level) client sees only its albums' assets; hooks are the daemon's" }
            if logins { return "a \(level) client cannot make logins (tokens)" }
            let daemon = ["/v1/status", "/v1/imports", "/v1/rejected", "/metrics", "/web/health"]
            guard daemon.contains(path) else { return nil }
            return "a \(level) client sees only its albums' assets, not the daemon's status, imports, rejected files "
                + "or metrics"
        }
    }

    /// What every authenticated client may ask, whatever its level: nothing of the library's
    /// content, only whether and which photosd serves, and how its API is described.
    static let openPaths: Set<String> = ["/", "/v1/health", "/v1/version", "/v1/openapi.json"]

    /// The credentials of the process at the other end of a Unix socket (`getsockopt(SO_PEERCRED)`),
    /// nil when the channel is no socket or the kernel does not say.
    static func peerCredentials(_ channel: any Channel) async -> PeerCredentials? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return try? await future.get()
    }
}

/// The peer's credentials of each open connection: `getsockopt` runs on the connection's event
/// loop, a hop that keep-alive requests after the first need not make. An entry goes when its
/// connection closes, before the channel (whose identity keys it) can be freed.
final class PeerUIDs: Sendable {
    private let known = Mutex<[ObjectIdentifier: PeerCredentials]>([:])

    func credentials(of channel: any Channel) async -> PeerCredentials? {
        let key = ObjectIdentifier(channel)
        if let found = known.withLock({ $0[key] }) { return found }
        guard let found = await AccessMiddleware.peerCredentials(channel) else { return nil }
        let added = known.withLock { known in known.updateValue(found, forKey: key) == nil }
        if added { channel.closeFuture.whenComplete { [self] _ in _ = known.withLock { $0.removeValue(forKey: key) } } }
        return found
    }
}

/// `struct ucred` (pid, uid, gid: three 32-bit fields), which Glibc's module does not import.
struct PeerCredentials: Sendable, Hashable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// When each token's use was last written to the library.
final class TokenUses: Sendable {
    private let recorded = Mutex<[String: Date]>([:])
    static let interval: TimeInterval = 60

    /// Whether a use of token `id` at `now` should be written (none written for a minute).
    func shouldRecord(_ id: String, now: Date = Date()) -> Bool {
        recorded.withLock { recorded in
            if let last = recorded[id], now.timeIntervalSince(last) < Self.interval { return false }
            recorded[id] = now
            return true
        }
    }
}

extension APIError {
    /// A 401 with `WWW-Authenticate: Bearer` (RFC 6750), saying `error="invalid_token"` when a token was sent.
    static func unauthorized(_ message: String, invalid: Bool = false) -> APIError {
        var error = APIError(.unauthorized, message)
        error.headers[.wwwAuthenticate] =
            invalid ? "Bearer realm=\"photosd\", error=\"invalid_token\"" : "Bearer realm=\"photosd\""
        return error
    }
}
