import Foundation
import HTTPTypes
import Hummingbird
import Photos
import PhotosCore
import PhotosStore
import PhotosWire

/// The web page: the login URL, the pages under `/web` and their scripts and styles, and
/// `POST /v1/logins`, which makes login URLs for `photos open`.
///
/// The pages are HTML rendered from templates (``WebPages``); what they show of the library their
/// scripts fetch from the API's own routes (listings, the day index, thumbnails, the change
/// stream), with the session's access, as any client does. Every answer here carries
/// ``securityHeaders``: a Content-Security-Policy that lets the page load nothing from another
/// origin and run no inline script.
struct WebRoutes: Sendable {
    let library: PHPhotoLibrary
    /// Where browsers reach this photosd (the login URL's host and port); nil: no TCP listener.
    let listen: ListenAddress?
    let transport: Transport
    let codes: LoginCodes
    let pages: WebPages

    /// Routes any client may reach without a session: they hold nothing of the library.
    static let publicRoutes: Set<String> = ["/login", "/web/static/{name}"]

    /// How long a browser session lasts unless the login asks otherwise: 30 days.
    static let defaultSessionLifetime: TimeInterval = 30 * 86_400

    /// Whether the request comes from a browser's address bar: it asks for HTML before JSON.
    static func prefersHTML(_ request: Request) -> Bool {
        let accept = request.headers[.accept] ?? ""
        guard let html = accept.range(of: "text/html") else { return false }
        guard let json = accept.range(of: "application/json") else { return true }
        return html.lowerBound < json.lowerBound
    }

    /// Whether a route is a page a person opens (answered with HTML, also when refused).
    static func isPage(_ route: String) -> Bool {
        route == "/web" || (route.hasPrefix("/web/") && !publicRoutes.contains(route))
    }

    /// The headers of every page, script and style: nothing from another origin, no inline script
    /// or style, no framing, no referrer.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; "
            + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("X-Frame-Options")!: "DENY",
    ]

    func add(to router: Router<APIContext>) {
        router.get("/login") { request, _ in try self.login(Query(request.uri.query)) }
        router.post("/v1/logins") { request, context in
            try await self.createLogin(request, context: context)
        }
        router.get("/web/static/{name}") { request, context in
            let name = context.parameters.get("name") ?? ""
            guard let file = WebResources.files[name] else { throw APIError(.notFound, "no file \(name)") }
            var headers = Self.securityHeaders
            headers[.contentType] = file.contentType
            headers[.eTag] = file.etag
            headers[.cacheControl] = "no-cache"
            if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
            return Response(
                status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: file.body)))
        }
        router.get("/web") { request, context in try self.page(.timeline, request, context) }
        router.get("/web/albums") { request, context in try self.page(.albums, request, context) }
        router.get("/web/albums/**") { request, context in
            try self.page(.album(FetchRoutes.identifier(context)), request, context)
        }
        router.get("/web/assets/**") { request, context in
            try self.page(.asset(FetchRoutes.identifier(context)), request, context)
        }
        router.get("/web/search") { request, context in try self.page(.search, request, context) }
        router.get("/web/health") { request, context in try self.page(.health, request, context) }
        router.get("/web/trash") { request, context in try self.page(.trash, request, context) }
    }

    private func page(_ page: WebPages.Page, _ request: Request, _ context: APIContext) throws -> Response {
        let html = try pages.render(page, query: Query(request.uri.query), access: context.access)
        var headers = Self.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    // MARK: Logging in

    /// `GET /login?code=CODE`: spends the one-time code, sets the session cookie and sends the
    /// browser to the timeline.
    private func login(_ query: Query) throws -> Response {
        guard let code = query["code"], let secret = codes.redeem(code) else {
            return WebPages.signInNeeded(
                reason: "This login link was used already or has expired (a link works once, for 5 minutes).")
        }
        let token = try? library.database.accessToken(secret: secret)
        var headers = Self.securityHeaders
        headers[.setCookie] = WebSession.setCookie(
            transport.cookieName, secret: secret, expires: token?.expiresAt.map { Date(timeIntervalSince1970: $0) })
        headers[.location] = "/web"
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    /// What `POST /v1/logins` takes.
    struct LoginRequest: Decodable {
        /// `read-only` (the default), `read-write` or `limited`.
        var access: String?
        /// For `limited`: the albums' local identifiers.
        var albums: [String]?
        /// How long the session lasts, in seconds (default 30 days).
        var expiresIn: Double?
        /// The token's name in `photos token list`.
        var name: String?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case access, albums, expiresIn, name
        }

        init() {}

        /// Strict: a field it does not know (a misspelt `albums`) is refused, never skipped.
        init(from decoder: any Decoder) throws {
            try StrictFields.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a login request")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            access = try container.decodeIfPresent(String.self, forKey: .access)
            albums = try container.decodeIfPresent([String].self, forKey: .albums)
            expiresIn = try container.decodeIfPresent(Double.self, forKey: .expiresIn)
            name = try container.decodeIfPresent(String.self, forKey: .name)
        }
    }

    /// `POST /v1/logins`: makes a token for a browser session and a one-time URL that sets it.
    private func createLogin(_ request: Request, context: APIContext) async throws -> Response {
        if context.access.csrf != nil {
            throw APIError(.forbidden, "a browser session cannot make logins; run photos open")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 64 * 1024)
        } catch {
            throw APIError(.contentTooLarge, "a login request is at most 64 KiB of JSON")
        }
        let asked: LoginRequest
        do {
            asked = body.readableBytes == 0 ? LoginRequest() : try JSONDecoder().decode(LoginRequest.self, from: body)
        } catch {
            throw APIError(.badRequest, "the body is not a login request: \(StrictFields.message(error))")
        }
        let levelName = asked.access ?? AccessLevel.readOnly.rawValue
        guard let level = AccessLevel(rawValue: levelName), level != .addOnly else {
            throw APIError(.badRequest, "access must be read-only, read-write or limited, not '\(levelName)'")
        }
        var albums = asked.albums ?? []
        if level == .limited, albums.isEmpty { throw APIError(.badRequest, "a limited login names its albums") }
        if level != .limited, !albums.isEmpty { throw APIError(.badRequest, "only a limited login names albums") }
        if !albums.isEmpty {
            let checked = try library.database.limitedTokenAlbums(albums)
            if let refusal = checked.refusal { throw APIError(.badRequest, refusal) }
            albums = checked.identifiers
        }
        let lifetime = asked.expiresIn ?? Self.defaultSessionLifetime
        guard lifetime >= 60, lifetime <= 366 * 86_400 else {
            throw APIError(.badRequest, "expiresIn must be from 60 seconds to a year")
        }
        guard let listen else {
            throw APIError(
                .conflict,
                "photosd has no TCP listener for a browser to reach: set listen = \"127.0.0.1:8421\" in the config "
                    + "(or start photosd with --listen 127.0.0.1:8421)")
        }
        let expires = Date().addingTimeInterval(lifetime)
        let (token, secret) = try library.database.createAccessToken(
            level: level, albums: albums, name: asked.name ?? "browser (photos open)", expiresAt: expires, owner: "web")
        let code = codes.issue(for: secret)
        let login = API.Login(
            url: "http://\(listen)/login?code=\(code)", token: token.id, access: level.rawValue,
            expiresAt: ISO8601.string(expires, offset: 0),
            urlExpiresAt: ISO8601.string(Date() + LoginCodes.lifetime, offset: 0))
        var response = try APIServer.json(login)
        response.status = .created
        return response
    }
}
