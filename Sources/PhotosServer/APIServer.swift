import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Photos
import PhotosStore
import PhotosWire
import ServiceLifecycle
import Synchronization

/// The daemon's HTTP/1.1 + JSON API on a Unix socket: one service of photosd's `ServiceGroup`.
///
/// Every route reads the library through PhotoKit's API (`import Photos`) and answers the
/// shapes from `PhotosWire`, as the `photos` command does; HTTP lives only in this module. The
/// socket is made private to the user (0600) as it is bound, in a directory the caller picks
/// (`$XDG_RUNTIME_DIR` by default, itself private). A socket left by a daemon that stopped is
/// replaced; one that answers is another photosd's, and this one refuses to start its API.
///
/// Who may do what is ``AccessMiddleware``'s: the socket's owner (`ownerUID`, the daemon's uid) has
/// read-write access without a token; other clients, and every client of the optional loopback TCP
/// listener (`listen`), send a bearer token (`photos token create`).
public struct APIServer: Service {
    let socketPath: String
    /// The loopback address and port of the TCP listener, if there is one.
    let listen: ListenAddress?
    /// The uid with read-write access on the socket without a token; nil: nobody.
    let ownerUID: uid_t?
    let library: PHPhotoLibrary
    let status: @Sendable () throws -> DaemonStatus?
    /// The startup crawl's progress while it runs (before the daemon has a status).
    let startup: @Sendable () -> StartupProgress?
    let logger: Logger
    let onListening: @Sendable () -> Void
    let maximumStreams: Int
    let idleTimeout: Duration
    /// The largest `POST /v1/uploads` body, in bytes.
    let maximumUploadSize: Int64
    /// The process's metrics in Prometheus' text format, for `GET /metrics` (nil: a 404).
    let metrics: (@Sendable () -> [UInt8])?

    /// The follow streams open at once unless the caller says otherwise.
    public static let defaultMaximumStreams = 64
    /// How long a connection may wait between requests, or send a request's head or body, before
    /// photosd closes it (a client that connects and stalls holds nothing for long). An answer
    /// being written, a follow stream's included, is never cut by it.
    public static let defaultIdleTimeout: Duration = .seconds(30)
    /// The largest `POST /v1/uploads` body unless the caller says otherwise: 1 GiB.
    public static let defaultMaximumUploadSize: Int64 = 1 << 30

    /// A server on the socket at `socketPath` over `library`; `status` gives the daemon's status
    /// (nil before it has one) and `startup` how far its startup crawl is meanwhile; `onListening` is called once the socket accepts connections. At most
    /// `maximumStreams` change streams follow at once; one more is refused with 503. A connection
    /// idle (or stalled in its request) for `idleTimeout` is closed. A `POST /v1/uploads` body past
    /// `maximumUploadSize` bytes is refused with 413. `metrics` gives `GET /metrics` its text (the
    /// daemon's metrics backend renders it; this module records through swift-metrics alone).
    public init(
        socketPath: String, library: PHPhotoLibrary, status: @escaping @Sendable () throws -> DaemonStatus?,
        startup: @escaping @Sendable () -> StartupProgress? = { nil }, logger: Logger,
        maximumStreams: Int = APIServer.defaultMaximumStreams,
        idleTimeout: Duration = APIServer.defaultIdleTimeout, listen: ListenAddress? = nil,
        ownerUID: uid_t? = getuid(), maximumUploadSize: Int64 = APIServer.defaultMaximumUploadSize,
        metrics: (@Sendable () -> [UInt8])? = nil, onListening: @escaping @Sendable () -> Void = {}
    ) {
        self.metrics = metrics
        self.listen = listen
        self.maximumUploadSize = maximumUploadSize
        self.ownerUID = ownerUID
        self.maximumStreams = maximumStreams
        self.idleTimeout = idleTimeout
        self.socketPath = socketPath
        self.library = library
        self.status = status
        self.startup = startup
        self.logger = logger
        self.onListening = onListening
    }

    /// The socket's path when neither `--socket` nor the config names one (``API/defaultSocketPath(environment:)``).
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String
    {
        API.defaultSocketPath(environment: environment)
    }

    /// Serves until graceful shutdown. A socket it cannot take (another photosd's, a file of the
    /// user's, a directory it cannot write) is logged as an error and the daemon goes on without
    /// its API: ingest and hooks do not depend on it.
    public func run() async throws {
        do {
            // No socket (an optional one that could not be had): the TCP listener alone.
            if !socketPath.isEmpty { try SocketFile.prepare(socketPath) }
        } catch {
            logger.error("API not started", metadata: ["socket": "\(socketPath)", "reason": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        // Both listeners share the listings' cursors, the bound on streams and token uses.
        let fetches = FetchRoutes(library: library, cursors: ListingCursors())
        let streams = StreamCount(limit: maximumStreams)
        let uses = TokenUses()
        let uploads = Uploads(importDirectory: library.importDirectory, maximumSize: maximumUploadSize)
        uploads.sweep()
        let codes = LoginCodes()
        let router = makeRouter(
            transport: .unixSocket(owner: ownerUID), fetches: fetches, streams: streams, uses: uses, uploads: uploads,
            codes: codes)
        let socketPath = self.socketPath
        let logger = self.logger
        let onListening = self.onListening
        let listening = Flag()
        var tcp: Application<RouterResponder<APIContext>>?
        if let listen {
            tcp = Application(
                router: makeRouter(
                    transport: .tcp(port: listen.port), fetches: fetches, streams: streams, uses: uses,
                    uploads: uploads,
                    codes: codes),
                server: .http1(configuration: .init(idleTimeout: .nanoseconds(Int64(idleTimeout / .nanoseconds(1))))),
                configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "photosd"),
                onServerRunning: { _ in
                    logger.info("API listening", metadata: ["address": "\(listen)"])
                },
                logger: logger)
        }
        let application = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .nanoseconds(Int64(idleTimeout / .nanoseconds(1))))),
            configuration: .init(address: .unixDomainSocket(path: socketPath), serverName: "photosd"),
            onServerRunning: { _ in
                listening.set()
                chmod(socketPath, 0o600)
                logger.info("API listening", metadata: ["socket": "\(socketPath)"])
                onListening()
            },
            logger: logger)
        do {
            if let tcp, socketPath.isEmpty {
                try await tcp.run()
            } else if let tcp {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        // A port that cannot be had (another program's) costs the TCP listener, not
                        // the socket: its clients are served on.
                        do {
                            try await tcp.run()
                        } catch {
                            logger.error(
                                "API TCP listener stopped", metadata: ["address": "\(listen!)", "reason": "\(error)"])
                        }
                    }
                    group.addTask { try await application.run() }
                }
            } else {
                try await application.run()
            }
        } catch {
            // Bound and served, then failed: the socket is ours to remove. Never bound: not ours.
            if listening.isSet { SocketFile.remove(socketPath) }
            logger.error("API stopped", metadata: ["socket": "\(socketPath)", "reason": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        if listening.isSet { SocketFile.remove(socketPath) }
    }

    /// The API's routes behind the error and access middleware, for one listener.
    private func makeRouter(
        transport: Transport, fetches: FetchRoutes, streams: StreamCount, uses: TokenUses, uploads: Uploads,
        codes: LoginCodes
    ) -> Router<APIContext> {
        // HEAD wherever GET, as RFC 9110 9.3.2 asks: GET's status and headers without its body. The
        // paths with a HEAD route of their own (an asset's file and thumbnail, which then read no
        // file) keep it.
        let router = Router(context: APIContext.self, options: .autoGenerateHeadEndpoints)
        // Outermost: a request's time and answer as the client gets them, refusals and errors included.
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: AccessMiddleware(database: library.database, transport: transport, touched: uses))
        OperationsRoutes(database: library.database, status: status, metrics: metrics).add(to: router)
        addStatusRoutes(to: router)
        fetches.add(to: router)
        // Change streams and live queries share the bound on open streams.
        ChangeRoutes(database: library.database, streams: streams).add(to: router)
        LiveQueryRoutes(library: library, fetches: fetches, streams: streams).add(to: router)
        ChangeBatchRoutes(library: library, uploads: uploads).add(to: router)
        TrashRoutes(library: library).add(to: router)
        RejectedRoutes(database: library.database).add(to: router)
        DayIndexRoutes(fetches: fetches).add(to: router)
        HookRoutes(database: library.database).add(to: router)
        uploads.add(to: router)
        WebRoutes(
            library: library, listen: listen, transport: transport, codes: codes,
            pages: WebPages(library: library, status: status, startup: startup)
        ).add(to: router)
        return router
    }

    /// Each route the API's router serves, as method and pattern (`GET /v1/assets/**`): what tests
    /// that must cover every route are generated from.
    func routes() -> [(method: HTTPRequest.Method, path: String)] {
        let router = makeRouter(
            transport: .tcp(port: listen?.port ?? 0), fetches: FetchRoutes(library: library, cursors: ListingCursors()),
            streams: StreamCount(limit: maximumStreams), uses: TokenUses(),
            uploads: Uploads(importDirectory: library.importDirectory, maximumSize: maximumUploadSize),
            codes: LoginCodes())
        return router.routes.map { ($0.method, $0.path.description) }
    }

    private func addStatusRoutes(to router: Router<APIContext>) {
        let database = library.database
        router.get("/v1/status") { _, _ in
            guard var status = try self.status() else {
                // As `photos status` says it: the crawl's progress, until the status is written.
                if let progress = self.startup() {
                    throw APIError(.serviceUnavailable, "photosd is starting: \(progress.summary)")
                }
                throw APIError(.serviceUnavailable, "photosd has no status yet")
            }
            status.addHooks(from: database)
            return try Self.json(status)
        }
        // The watched import folders: the section of the status the import service writes.
        router.get("/v1/imports") { _, _ in
            guard let status = try self.status() else {
                if let progress = self.startup() {
                    throw APIError(.serviceUnavailable, "photosd is starting: \(progress.summary)")
                }
                throw APIError(.serviceUnavailable, "photosd has no status yet")
            }
            return try Self.json(ImportListing(imports: status.imports ?? []))
        }
    }

    /// Each path the API serves, and the methods it answers there.
    static let methods: [(path: String, methods: [HTTPRequest.Method])] = [
        ("/", [.get]), ("/v1/version", [.get]), ("/v1/openapi.json", [.get]), ("/metrics", [.get]),
        ("/v1/health", [.get]), ("/v1/status", [.get]), ("/v1/imports", [.get]), ("/v1/rejected", [.get]),
        ("/v1/assets", [.get]), ("/v1/albums", [.get]), ("/v1/folders", [.get]),
        ("/v1/assets/**", [.get, .head]), ("/v1/albums/**", [.get]), ("/v1/folders/**", [.get]),
        ("/v1/changes", [.get, .post]), ("/v1/queries", [.post]), ("/v1/uploads", [.post]),
        ("/v1/trash", [.get]), ("/v1/trash/restore", [.post]), ("/v1/trash/empty", [.post]),
        ("/v1/days", [.get]), ("/v1/hooks/{name}/resume", [.post]),
        ("/v1/logins", [.post]), ("/login", [.get]), ("/web", [.get]), ("/web/albums", [.get]),
        ("/web/albums/**", [.get]), ("/web/assets/**", [.get]), ("/web/search", [.get]), ("/web/health", [.get]),
        ("/web/trash", [.get]),
        ("/web/static/{name}", [.get]),
    ]

    /// The methods the API answers at `path`, if it serves that path at all: asked with another
    /// method, a known path is a 405 naming them (`Allow`), not a 404 saying it does not exist.
    /// `HEAD` wherever `GET` (the router makes those routes).
    static func allowedMethods(at path: String) -> [HTTPRequest.Method]? {
        let routed = methods.first { pattern, _ in
            if pattern.contains("{") {
                let wanted = pattern.split(separator: "/"), given = path.split(separator: "/")
                return wanted.count == given.count
                    && zip(wanted, given).allSatisfy { $0 == $1 || ($0.hasPrefix("{") && $0.hasSuffix("}")) }
            }
            guard pattern.hasSuffix("/**") else { return path == pattern }
            let prefix = pattern.dropLast(2)
            return path.hasPrefix(prefix) && path.count > prefix.count
        }?.methods
        guard let routed else { return nil }
        return routed.contains(.head) ? routed : routed.flatMap { $0 == .get ? [.get, .head] : [$0] }
    }

    static func json(_ value: some Encodable) throws -> Response {
        FetchRoutes.json(Array(try WireJSON.makeEncoder().encode(value)))
    }
}

/// Turns whatever a route throws into the API's error body: ``APIError``s as they are, anything
/// else through ``APIError/from(_:)``, and an unknown path into a 404 with the same shape. A `HEAD`
/// request's error is its status and headers without the body (RFC 9110 9.3.2).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let error = Self.apiError(error, request)
            guard request.method == .head else { throw error }
            return try error.response(from: request, context: context).createHeadResponse()
        }
    }

    private static func apiError(_ error: any Error, _ request: Request) -> any HTTPResponseError {
        switch error {
        case let error as HTTPError:
            // The router found no route: for a path it serves with other methods, that is a 405.
            if error.status == .notFound, let allowed = APIServer.allowedMethods(at: request.uri.path) {
                return APIError.methodNotAllowed(request.method, path: request.uri.path, allowed: allowed)
            }
            return APIError(error.status, error.body ?? error.status.reasonPhrase)
        case let error as any HTTPResponseError:
            // The API's own (APIError, APIRangeError): already in its shape.
            return error
        default:
            return APIError.from(error)
        }
    }
}

/// The socket's file: a stale one (a socket nothing answers on) is replaced; anything else at the
/// path is left alone and refused.
enum SocketFile {
    /// Takes the path for a new socket: refused as ``check(_:)`` refuses, a stale socket removed.
    /// The directory is not made: a socket under a directory that is not there is a mistyped path.
    static func prepare(_ path: String) throws {
        if try check(path) { unlink(path) }
    }

    /// Whether the path is free (false) or a stale socket nobody answers on (true); anything else
    /// at the path (a file of the user's, another program's live socket) is refused.
    @discardableResult
    static func check(_ path: String) throws(APIStartError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw APIStartError(
                "\(path) exists and is not a socket; photosd leaves it alone (choose another with --socket)")
        }
        guard !answers(path) else {
            throw APIStartError("another process serves \(path) (another photosd?); choose another with --socket")
        }
        return true
    }

    /// Removes the socket this server bound, if a socket is still there.
    static func remove(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }

    /// Whether something accepts connections on the socket.
    static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}

/// Set once, read from anywhere.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// The API cannot start: the socket's path is taken.
public struct APIStartError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Where the optional TCP listener listens: a loopback address (127.0.0.0/8 or ::1) and a port,
/// written `127.0.0.1:8421` or `[::1]:8421`. Any other address is refused: the API has no TLS, and
/// its tokens would cross the network in the clear.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The loopback address, as written (without brackets for IPv6).
    public let host: String
    /// The TCP port.
    public let port: Int

    /// Parses `HOST:PORT`; throws a message naming what is wrong.
    public init(_ text: String) throws(ListenAddressError) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddressError("'\(text)' is not [IPV6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw ListenAddressError("'\(text)' is not HOST:PORT") }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = Int(port), (1...65535).contains(number) else {
            throw ListenAddressError("'\(port)' in '\(text)' is not a port from 1 to 65535")
        }
        guard Self.isLoopback(String(host)) else {
            throw ListenAddressError(
                "'\(host)' is not a loopback address: photosd listens on TCP only on 127.0.0.1 (127.0.0.0/8) or [::1]")
        }
        self.host = String(host)
        self.port = number
    }

    /// Whether `host` is a literal loopback address (names such as localhost are refused: what
    /// they resolve to is not this code's to promise).
    static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A `--listen` address photosd refuses.
public struct ListenAddressError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
