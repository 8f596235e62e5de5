import Foundation
import HTTPTypes
import Hummingbird
import Photos
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// The web page's server side: what is compiled in matches its sources, the search form's
/// predicate, and the session rules (one-time login URLs, the cookie, CSRF, the CSP) over a real
/// loopback listener.
@Suite struct WebPageTests {
    /// The repository's `Sources/PhotosServer/Web/Resources`.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/PhotosServer/Web/Resources")

    @Test func whatIsCompiledInIsWhatTheSourcesSay() throws {
        let manager = FileManager.default
        let statics = try manager.contentsOfDirectory(atPath: Self.resources.appendingPathComponent("static").path)
        #expect(Set(statics) == Set(WebResources.files.keys), "run scripts/web-embed")
        for name in statics {
            let text = try String(contentsOf: Self.resources.appendingPathComponent("static/\(name)"), encoding: .utf8)
            #expect(WebResources.files[name]?.body == text, "\(name) changed: run scripts/web-embed")
        }
        let templates = try manager.contentsOfDirectory(
            atPath: Self.resources.appendingPathComponent("templates").path)
        #expect(Set(templates.map { String($0.dropLast(".mustache".count)) }) == Set(WebResources.templates.keys))
        for name in templates {
            let text = try String(
                contentsOf: Self.resources.appendingPathComponent("templates/\(name)"), encoding: .utf8)
            #expect(
                WebResources.templates[String(name.dropLast(".mustache".count))] == text,
                "\(name): run scripts/web-embed")
        }
        // Each parses: a template that does not would render as nothing.
        #expect(WebPages.templateErrors.isEmpty, "\(WebPages.templateErrors)")
    }

    @Test(arguments: [
        ("type=image", "mediaType == image"),
        ("favorites=1&type=video", "mediaType == video AND favorite == YES"),
        ("name=IMG_0", #"filename CONTAINS[c] "IMG_0""#),
        ("camera=Canon", #"(make CONTAINS[c] "Canon" OR model CONTAINS[c] "Canon")"#),
        // Quotes and backslashes stay inside the string: nothing a person types reaches past it.
        (#"name=a%22+OR+TRUEPREDICATE+OR+%22\"#, #"filename CONTAINS[c] "a\" OR TRUEPREDICATE OR \"\\""#),
        ("predicate=pixelWidth+>+4000&favorites=yes", "favorite == YES AND (pixelWidth > 4000)"),
    ])
    func theSearchFormBecomesOnePredicate(query: String, predicate: String) throws {
        let form = SearchForm(Query(query), timeZone: .current)
        #expect(form.values["errors"] as? [String] == [])
        #expect(form.values["query"] as? String == predicate)
    }

    /// Whole days of the library's time zone, as the timeline's days are, not of the machine's.
    @Test func aDateRangeCoversWholeDaysOfTheLibrarysTimeZone() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let form = SearchForm(Query("from=2024-05-03&to=2024-05-03"), timeZone: tokyo)
        let predicate = try #require(form.values["query"] as? String)
        #expect(
            predicate
                == #"creationDate >= CAST("2024-05-03T00:00:00+09:00", "NSDate") AND creationDate < CAST("2024-05-04T00:00:00+09:00", "NSDate")"#
        )
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(
            SearchForm.day("2024-03-31", adding: 1, in: paris) == "2024-04-01T00:00:00+02:00",
            "after the clocks changed")
    }

    @Test(arguments: [
        ("type=pictures", "type must be image"), ("from=2024-13-01", "from must be a date"),
        ("to=yesterday", "to must be a date"), ("from=2024-02-30", "from must be a date"),
        ("predicate=colour+==+1", "colour"),
    ])
    func aBadFieldIsSaidAndNothingIsSearched(query: String, message: String) {
        let form = SearchForm(Query(query), timeZone: .current)
        let errors = form.values["errors"] as? [String] ?? []
        #expect(errors.contains { $0.contains(message) }, "\(errors)")
        #expect(form.values["searched"] as? Bool == false)
    }

    @Test func aLoginCodeWorksOnceAndNotAfterItsTime() {
        let codes = LoginCodes()
        let now = Date()
        let code = codes.issue(for: "pht_a", now: now)
        #expect(code.count == 48)
        #expect(codes.redeem("nope", now: now) == nil)
        #expect(codes.redeem(code, now: now) == "pht_a")
        #expect(codes.redeem(code, now: now) == nil)
        let late = codes.issue(for: "pht_b", now: now)
        #expect(codes.redeem(late, now: now + LoginCodes.lifetime + 1) == nil)
        #expect(codes.issue(for: "pht_c", now: now) != codes.issue(for: "pht_c", now: now))
    }

    @Test func theSessionCookieIsFoundByItsNameAlone() {
        let fields: HTTPFields = [.cookie: "a=1; photosd_session_8421=pht_x; photosd_session=pht_y"]
        #expect(WebSession.cookie("photosd_session_8421", in: fields) == "pht_x")
        #expect(WebSession.cookie("photosd_session", in: fields) == "pht_y")
        #expect(WebSession.cookie("photosd_session_1", in: fields) == nil)
        #expect(WebSession.cookie("a", in: [.cookie: "a="]) == nil)
        #expect(WebSession.csrfToken(for: "pht_x") == WebSession.csrfToken(for: "pht_x"))
        #expect(WebSession.csrfToken(for: "pht_x") != WebSession.csrfToken(for: "pht_y"))
        #expect(!WebSession.csrfToken(for: "pht_x").contains("pht_x"))
        #expect(WebSession.constantTimeEqual("abc", "abc") && !WebSession.constantTimeEqual("abc", "abd"))
        #expect(!WebSession.constantTimeEqual("abc", "ab"))
    }

    @Test(arguments: [
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true), ("application/json", false),
        ("", false), ("application/json, text/html", false), ("*/*", false),
    ])
    func aBrowserIsToldApartByWhatItAccepts(accept: String, html: Bool) {
        var head = HTTPRequest(method: .get, scheme: "http", authority: "photosd", path: "/")
        if !accept.isEmpty { head.headerFields[.accept] = accept }
        #expect(WebRoutes.prefersHTML(Request(head: head, body: .init(buffer: .init()))) == html)
    }

    @Test func aWrongMethodOnAPageOrAStaticFileIsA405() {
        #expect(APIServer.allowedMethods(at: "/web/static/app.js") == [.get, .head])
        #expect(APIServer.allowedMethods(at: "/web/static/a/b.js") == nil)
        #expect(APIServer.allowedMethods(at: "/web/assets/X/L0/001") == [.get, .head])
        #expect(APIServer.allowedMethods(at: "/v1/logins") == [.post])
    }

    // MARK: Over a real listener

    /// One request over loopback TCP.
    /// A login of `access` asked on the socket (as `photos open` does): the cookie header its URL sets.
    static func login(_ socket: String, port: Int, _ request: String) async throws -> (cookie: String, csrf: String) {
        let made = try await offPool {
            try UnixHTTPClient.request(
                socket, "POST", "/v1/logins", headers: ["Content-Type": "application/json"], body: Array(request.utf8))
        }
        #expect(made.status == 201, "\(made.text)")
        let login = try JSONDecoder().decode(API.Login.self, from: Data(made.body))
        let prefix = "http://127.0.0.1:\(port)"
        #expect(login.url.hasPrefix(prefix + "/login?code="))
        let target = String(login.url.dropFirst(prefix.count))
        let landed = try await UnixHTTPClient.tcp(port, "GET", target)
        #expect(landed.status == 303 && landed.headers["location"] == "/web")
        let setCookie = try #require(landed.headers["set-cookie"])
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age="] {
            #expect(setCookie.contains(attribute), "\(setCookie)")
        }
        #expect(setCookie.hasPrefix("photosd_session_\(port)=pht_"))
        // The URL works once.
        let again = try await UnixHTTPClient.tcp(port, "GET", target)
        #expect(again.status == 401 && again.text.contains("photos open"))
        let cookie = String(setCookie.prefix { $0 != ";" })
        let page = try await UnixHTTPClient.tcp(port, "GET", "/web", headers: ["Cookie": cookie])
        let csrf = try #require(
            page.text.firstMatch(of: /<meta name="csrf-token" content="([^"]+)">/).map { String($0.1) })
        return (cookie, csrf)
    }

    @Test func aBrowserSessionSeesThePagesAndChangesOnlyWithItsCSRFTokenAndLevel() async throws {
        let port = try LoopbackPort.free()
        try await APIServerTests.withServer(listen: try ListenAddress("127.0.0.1:\(port)")) { socket, fixture in
            let beach = try #require(fixture.assets["beach.jpg"])
            let trip = try #require(fixture.collections["Trip"])
            // Without a session: the pages say how to get one; the API says 401 as ever.
            let anonymous = try await UnixHTTPClient.tcp(port, "GET", "/web")
            #expect(anonymous.status == 401 && anonymous.text.contains("photos open"))
            #expect(anonymous.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/", headers: ["Accept": "text/html"]).status == 401)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/v1/assets").status == 401)
            // The scripts and styles are served to anyone, with ETags.
            let script = try await UnixHTTPClient.tcp(port, "GET", "/web/static/app.js")
            #expect(script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true)
            let etag = try #require(script.headers["etag"])
            #expect(
                try await UnixHTTPClient.tcp(port, "GET", "/web/static/app.js", headers: ["If-None-Match": etag]).status
                    == 304)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/static/nope.js").status == 404)

            let reader = try await Self.login(socket, port: port, "{}")
            let session = ["Cookie": reader.cookie]
            for target in [
                "/web", "/web/albums", "/web/albums/\(trip)", "/web/assets/\(beach)", "/web/search?camera=Canon",
                "/web/health", "/web/trash",
            ] {
                let page = try await UnixHTTPClient.tcp(port, "GET", target, headers: session)
                #expect(page.status == 200, "\(target): \(page.text)")
                #expect(page.headers["content-type"] == "text/html; charset=utf-8")
                #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)
                #expect(page.headers["cache-control"] == "no-store")
                #expect(page.text.contains("<main id=\"main\""), "\(target)")
            }
            let albums = try await UnixHTTPClient.tcp(port, "GET", "/web/albums", headers: session)
            #expect(albums.text.contains("Trip") && albums.text.contains("Winter"), "\(albums.text)")
            #expect(
                try await UnixHTTPClient.tcp(port, "GET", "/", headers: session.merging(["Accept": "text/html"]) { $1 })
                    .status
                    == 303)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/v1/assets", headers: session).status == 200)
            // A read-only session changes nothing, CSRF token or not; it cannot make logins either.
            let edit = #"{"changes":[{"op":"editAsset","asset":"\#(beach)","isFavorite":false}]}"#
            let refused = try await UnixHTTPClient.tcp(
                port, "POST", "/v1/changes", headers: session.merging(["X-CSRF-Token": reader.csrf]) { $1 }, body: edit)
            #expect(refused.status == 403, "\(refused.text)")

            let writer = try await Self.login(socket, port: port, #"{"access":"read-write"}"#)
            let write = ["Cookie": writer.cookie]
            // No token, a wrong one, another session's, or a cross-site request: refused.
            for headers in [
                write, write.merging(["X-CSRF-Token": "nope"]) { $1 },
                write.merging(["X-CSRF-Token": reader.csrf]) { $1 },
                write.merging(["X-CSRF-Token": writer.csrf, "Sec-Fetch-Site": "cross-site"]) { $1 },
            ] {
                let reply = try await UnixHTTPClient.tcp(port, "POST", "/v1/changes", headers: headers, body: edit)
                #expect(reply.status == 403, "\(headers): \(reply.text)")
            }
            #expect(try fixture.asset("beach.jpg").isFavorite)
            let done = try await UnixHTTPClient.tcp(
                port, "POST", "/v1/changes",
                headers: write.merging(["X-CSRF-Token": writer.csrf, "Sec-Fetch-Site": "same-origin"]) { $1 },
                body: edit)
            #expect(done.status == 200, "\(done.text)")
            #expect(try !fixture.asset("beach.jpg").isFavorite)
            // A session cannot make another.
            let minted = try await UnixHTTPClient.tcp(
                port, "POST", "/v1/logins", headers: write.merging(["X-CSRF-Token": writer.csrf]) { $1 }, body: "{}")
            #expect(minted.status == 403, "\(minted.text)")

            // Revoking the token ends the session at once.
            for token in try fixture.library.database.accessTokens() where token.owner == "web" {
                try fixture.library.database.revokeAccessToken(token.id)
            }
            let ended = try await UnixHTTPClient.tcp(port, "GET", "/web", headers: write)
            #expect(ended.status == 401 && ended.text.contains("session has ended"), "\(ended.text)")
        }
    }

    @Test func aLimitedSessionSeesItsAlbumsAndNotTheDaemon() async throws {
        let port = try LoopbackPort.free()
        try await APIServerTests.withServer(listen: try ListenAddress("127.0.0.1:\(port)")) { socket, fixture in
            let trip = try #require(fixture.collections["Trip"])
            let winter = try #require(fixture.collections["Winter"])
            let session = try await Self.login(socket, port: port, #"{"access":"limited","albums":["\#(trip)"]}"#)
            let headers = ["Cookie": session.cookie]
            let albums = try await UnixHTTPClient.tcp(port, "GET", "/web/albums", headers: headers)
            #expect(albums.status == 200 && albums.text.contains("Trip") && !albums.text.contains("Winter"))
            #expect(!albums.text.contains("/web/health"), "the health page is not offered")
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/health", headers: headers).status == 403)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/trash", headers: headers).status == 403)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/albums/\(winter)", headers: headers).status == 404)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/albums/\(trip)", headers: headers).status == 200)
            // A photo's page: its albums' photos only, and nothing for one that is not there.
            let beach = try #require(fixture.assets["beach.jpg"])
            let sunset = try #require(fixture.assets["sunset.heic"])
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/assets/\(beach)", headers: headers).status == 200)
            #expect(try await UnixHTTPClient.tcp(port, "GET", "/web/assets/\(sunset)", headers: headers).status == 404)
            #expect(
                try await UnixHTTPClient.tcp(port, "GET", "/web/assets/NOPE/L0/001", headers: headers).status == 404)
        }
    }

    @Test func aLoginIsRefusedWithoutAListenerOrWithABadRequest() async throws {
        try await APIServerTests.withServer { socket, _ in
            func post(_ body: String) async throws -> UnixHTTPClient.Reply {
                try await offPool {
                    try UnixHTTPClient.request(
                        socket, "POST", "/v1/logins", headers: ["Content-Type": "application/json"],
                        body: Array(body.utf8))
                }
            }
            let noListener = try await post("{}")
            #expect(noListener.status == 409 && noListener.text.contains("listen"), "\(noListener.text)")
            for body in [
                #"{"access":"add-only"}"#, #"{"access":"limited"}"#, #"{"albums":["X"]}"#, #"{"expiresIn":1}"#, "[",
            ] {
                #expect(try await post(body).status == 400, "\(body)")
            }
            // A misspelt field is refused, never skipped; a limited login names albums of the library
            // that are not smart albums, as `photos token create` does.
            let favorites = try #require(SmartAlbum.all.first { $0.subtype == .smartAlbumFavorites }).localIdentifier
            for (body, reason) in [
                (#"{"acces":"read-write"}"#, "unknown field acces in a login request"),
                (#"{"access":"limited","albums":["\#(favorites)"]}"#, "\(favorites) is a smart album"),
                (#"{"access":"limited","albums":["NOPE/L0/040"]}"#, "no album NOPE/L0/040 in the library"),
            ] {
                let refused = try await post(body)
                #expect(refused.status == 400 && refused.text.contains(reason), "\(body): \(refused.text)")
            }
            // Too large: a 413 with the API's error body, as every other route gives it.
            let large = try await post(#"{"name":""# + String(repeating: "x", count: 70_000) + #""}"#)
            #expect(large.status == 413, "\(large.text)")
            #expect(try JSONDecoder().decode(API.ErrorBody.self, from: Data(large.body)).error.code == 413)
        }
    }

    /// An album page offers a read-write session to rename the album, but not a smart album's.
    @Test func aSmartAlbumsPageOffersNoRename() throws {
        let fixture = try LibraryFixture()
        let pages = WebPages(library: fixture.library, status: { nil }, startup: { nil })
        let writer = ClientAccess(level: .readWrite, albums: [], tokenID: "t")
        let options = PHFetchOptions()
        options.photoLibrary = fixture.library
        let favorites = try #require(
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: options)
                .firstObject)
        let trip = try #require(fixture.collections["Trip"])
        #expect(try pages.render(.album(trip), query: Query(""), access: writer).contains("data-rename"))
        let smart = try pages.render(.album(favorites.localIdentifier), query: Query(""), access: writer)
        #expect(smart.contains("Favorites") && !smart.contains("data-rename"))
    }
}

/// The health page names the files the library could not read, with the reason, so that "7 rejected"
/// is not a number alone.
@Suite struct HealthPageRejectedFilesTests {
    func page(rejecting count: Int) throws -> String {
        let fixture = try LibraryFixture()
        try fixture.library.database.write { transaction in
            for index in 0..<count {
                try transaction.reject(
                    RejectedFile(
                        path: String(format: "/photos/bad %03d <b>.jpg", index), code: "truncated",
                        reason: "the JPEG ends inside its image data", fileSize: 10, modificationTime: 0,
                        rejectedDate: 0))
            }
        }
        let pages = WebPages(library: fixture.library, status: { nil }, startup: { nil })
        return try pages.render(
            .health, query: Query(""), access: ClientAccess(level: .readOnly, albums: [], tokenID: "t"))
    }

    @Test func eachRejectedFileIsNamedWithItsReason() throws {
        let html = try page(rejecting: 2)
        #expect(html.contains("Files that could not be read"))
        #expect(html.contains("2 files look like photos or videos but could not be read"))
        // The name is escaped: a file's name is never markup.
        #expect(html.contains("<code>/photos/bad 000 &lt;b&gt;.jpg</code>"), "\(html)")
        #expect(html.contains("<code>/photos/bad 001 &lt;b&gt;.jpg</code>"))
        #expect(html.contains("the JPEG ends inside its image data"))
        #expect(!html.contains("more: <code>photos rejected</code>"))
    }

    @Test func theFirstHundredAreNamedAndTheRestCounted() throws {
        let html = try page(rejecting: WebPages.rejectedShown + 3)
        #expect(html.contains("\(WebPages.rejectedShown + 3) files look like photos or videos"))
        #expect(html.contains("bad 099 &lt;b&gt;.jpg"))
        #expect(!html.contains("bad 100 &lt;b&gt;.jpg"))
        #expect(html.contains("And 3 more: <code>photos rejected</code> lists every one."))
    }

    @Test func noRejectedFileNoSection() throws {
        let html = try page(rejecting: 0)
        #expect(html.contains("<h1>Health</h1>"))
        #expect(!html.contains("Files that could not be read"))
    }

    @Test func oneIsOneFile() throws {
        #expect(try page(rejecting: 1).contains("1 file looks like a photo or a video but could not be read"))
    }
}

/// `GET /v1/rejected`: the same files, by path, a window at a time, with their count.
@Suite struct RejectedRouteTests {
    @Test func aWindowOfTheRejectedFilesByPathAndTheirCount() async throws {
        try await APIServerTests.withServer { socket, fixture in
            try fixture.library.database.write { transaction in
                for name in ["c.jpg", "a.jpg", "b.jpg"] {
                    try transaction.reject(
                        RejectedFile(
                            path: "/photos/\(name)", code: "corrupt", reason: "no frame header in \(name)",
                            fileSize: 1, modificationTime: 0, rejectedDate: 0))
                }
            }
            func listing(_ target: String) async throws -> API.RejectedListing {
                let reply = try await APIServerTests.get(socket, target)
                #expect(reply.status == 200, "\(target): \(String(decoding: reply.body, as: UTF8.self))")
                return try JSONDecoder().decode(API.RejectedListing.self, from: Data(reply.body))
            }
            let all = try await listing("/v1/rejected")
            #expect(all.total == 3)
            #expect(all.files.map(\.path) == ["/photos/a.jpg", "/photos/b.jpg", "/photos/c.jpg"])
            #expect(
                all.files[0]
                    == API.RejectedFile(path: "/photos/a.jpg", code: "corrupt", reason: "no frame header in a.jpg"))
            let window = try await listing("/v1/rejected?offset=1&limit=1")
            #expect(window.files.map(\.path) == ["/photos/b.jpg"] && window.total == 3)
            let past = try await listing("/v1/rejected?offset=7")
            #expect(past.files.isEmpty && past.total == 3)
            for bad in [
                "/v1/rejected?limit=0", "/v1/rejected?limit=10001", "/v1/rejected?offset=-1", "/v1/rejected?colour=1",
            ] {
                #expect(try await APIServerTests.get(socket, bad).status == 400, "\(bad)")
            }
        }
    }
}
