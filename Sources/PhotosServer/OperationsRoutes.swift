import Foundation
import Hummingbird
import PhotosCore
import PhotosStore
import PhotosWire

/// What monitors and tools ask of photosd itself rather than of the library: `GET /` (an index),
/// `GET /v1/health`, `GET /v1/version`, `GET /v1/openapi.json` and `GET /metrics`.
///
/// Each is cheap: health reads the newest change token (one indexed row) and the daemon's status
/// (its small file), never a listing or a scan. Who may ask is ``AccessMiddleware``'s: every
/// authenticated client for all but `/metrics`, which is refused to add-only and limited clients
/// (its hook names are the daemon's, as `/v1/status` is).
struct OperationsRoutes: Sendable {
    let database: LibraryDatabase
    /// The daemon's status (nil before its startup scan is done).
    let status: @Sendable () throws -> DaemonStatus?
    /// The metrics in Prometheus' text format; nil: this server keeps none.
    let metrics: (@Sendable () -> [UInt8])?

    /// The `Content-Type` of Prometheus' text exposition format.
    static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    func add(to router: Router<APIContext>) {
        let (database, status, metrics) = (database, status, metrics)
        router.get("/") { request, _ in
            // A person who types the address: the page, not the index.
            if WebRoutes.prefersHTML(request) {
                return Response(status: .seeOther, headers: [.location: "/web", .cacheControl: "no-store"])
            }
            return try APIServer.json(API.Index(endpoints: OpenAPIDocument.operations))
        }
        router.get("/v1/version") { _, _ in try APIServer.json(API.Version.current) }
        router.get("/v1/openapi.json") { _, _ in FetchRoutes.json(OpenAPIDocument.bytes) }
        router.get("/v1/health") { _, context in
            let token: Int64
            do {
                token = try database.currentToken()
            } catch {
                throw APIError(.serviceUnavailable, "cannot read the library \(database.location): \(error)")
            }
            // A status file that cannot be read says nothing either way: the library answered.
            let current = try? status()
            // Roots are named only to clients that may read the daemon's status.
            let naming = AccessMiddleware.refusal(.get, path: "/v1/status", access: context.access) == nil
            switch HealthCheck.judge(current, namingRoots: naming) {
            case .unavailable(let reason):
                throw APIError(.serviceUnavailable, reason)
            case .rootsOffline(let reason):
                throw APIError(.serviceUnavailable, photos: .libraryVolumeOffline, reason)
            case .serving(let state, let warnings):
                // A library file by its path, one kept in PostgreSQL by its URL (no password).
                let library = database.path ?? (database.dialect == .postgreSQL ? database.location : nil)
                return try APIServer.json(
                    API.Health(
                        status: state, token: token, library: library, version: PhotosVersion.current,
                        warnings: warnings.isEmpty ? nil : warnings))
            }
        }
        router.get("/metrics") { _, _ in
            guard let metrics else { throw APIError(.notFound, "this server keeps no metrics") }
            return Response(
                status: .ok, headers: [.contentType: Self.metricsContentType],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics())))
        }
    }
}

/// Whether photosd can serve, from its status: the rule `GET /v1/health` answers by, as a table.
///
/// | status | answer |
/// |---|---|
/// | none yet (the startup scan runs) | 200, `starting` |
/// | library `unavailable` (scans fail: a full disk, a lock, a damaged file) | 503, its reason |
/// | no root `watching` or `polling` (every one offline, or waiting for the library) | 503 (3114, `libraryVolumeOffline`), each root's state |
/// | some roots offline, others followed | 200, `ok`, a warning per offline root |
/// | every root followed | 200, `ok` |
///
/// Without `namingRoots` (a client that may not read `/v1/status`: add-only, limited) the reasons
/// and warnings say how many roots and in which state, not which.
enum HealthCheck: Equatable {
    /// photosd serves: `state` is `ok` or `starting`; `warnings` name what is wrong beside.
    case serving(state: String, warnings: [String])
    /// photosd cannot serve, for `reason`.
    case unavailable(String)
    /// No root is followed (every one offline, or waiting), for `reason`: the library answers, its
    /// assets are listed (unavailable), but nothing new comes in.
    case rootsOffline(String)

    /// The root states that mean a root is followed (see ``DaemonStatus/Root/state``).
    static let followed: Set<String> = ["watching", "polling"]

    static func judge(_ status: DaemonStatus?, namingRoots: Bool = true) -> HealthCheck {
        guard let status else { return .serving(state: "starting", warnings: []) }
        if let library = status.library, library.state == "unavailable" {
            let failures =
                library.consecutiveFailures == 1 ? "1 failure" : "\(library.consecutiveFailures) failures in a row"
            return .unavailable("the library is unavailable (\(failures)): \(library.reason ?? "no reason recorded")")
        }
        let lost = status.roots.filter { !followed.contains($0.state) }
        let described =
            namingRoots
            ? lost.map { root in "\(root.path) is \(root.state)" + (root.reason.map { ": \($0)" } ?? "") }
            : lost.map { "a root is \($0.state)" }
        if !status.roots.isEmpty, lost.count == status.roots.count {
            return .rootsOffline("no root is followed: " + described.joined(separator: "; "))
        }
        return .serving(state: "ok", warnings: described)
    }
}
