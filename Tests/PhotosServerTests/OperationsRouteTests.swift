import Foundation
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `GET /`, `/v1/health`, `/v1/version` and `/v1/openapi.json` of the API in this process, and the
/// health rule as a table. photosd's own answers, and its metrics, are DaemonOperationsTests'.
@Suite struct OperationsRouteTests {
    /// A daemon status with these roots (path, state) and, if given, a library failure.
    static func status(roots: [(String, String)], libraryFailure: String? = nil) -> DaemonStatus {
        var status = DaemonStatus(
            pid: 42, startedAt: 1, updatedAt: 2,
            roots: roots.map { DaemonStatus.Root(path: $0.0, state: $0.1, reason: $0.1 == "offline" ? "gone" : nil) },
            watches: 1, watchBudget: 100, unwatchedDirectories: 0, queueDepth: 0, ingested: 0, updated: 0, moved: 0,
            removed: 0, rejected: 0, lastErrors: [])
        status.library = DaemonStatus.Library(
            state: libraryFailure == nil ? "available" : "unavailable", reason: libraryFailure,
            consecutiveFailures: libraryFailure == nil ? 0 : 3, retryAt: nil)
        return status
    }

    @Test func healthIsATable() {
        let rows: [(DaemonStatus?, HealthCheck)] = [
            (nil, .serving(state: "starting", warnings: [])),
            (Self.status(roots: [("/a", "watching"), ("/b", "polling")]), .serving(state: "ok", warnings: [])),
            (
                Self.status(roots: [("/a", "watching"), ("/b", "offline")]),
                .serving(state: "ok", warnings: ["/b is offline: gone"])
            ),
            (
                Self.status(roots: [("/a", "offline"), ("/b", "waiting")]),
                .rootsOffline("no root is followed: /a is offline: gone; /b is waiting")
            ),
            (
                Self.status(roots: [("/a", "watching")], libraryFailure: "disk full"),
                .unavailable("the library is unavailable (3 failures in a row): disk full")
            ),
        ]
        for (status, expected) in rows {
            #expect(HealthCheck.judge(status) == expected, "\(status?.roots.map(\.state) ?? [])")
        }
        // A client that may not read the daemon's status is not told which roots.
        let unnamed = HealthCheck.judge(Self.status(roots: [("/a", "offline"), ("/b", "waiting")]), namingRoots: false)
        #expect(unnamed == .rootsOffline("no root is followed: a root is offline; a root is waiting"))
        let warned = HealthCheck.judge(Self.status(roots: [("/a", "watching"), ("/b", "offline")]), namingRoots: false)
        #expect(warned == .serving(state: "ok", warnings: ["a root is offline"]))
    }

    @Test func healthIs503WithTheReasonWhileTheLibraryIsUnavailable() async throws {
        let status = Self.status(roots: [("/p", "watching")], libraryFailure: "database or disk is full")
        try await APIServerTests.withServer(status: status) { socket, _ in
            let reply = try await APIServerTests.get(socket, "/v1/health")
            #expect(reply.status == 503)
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
            #expect(error.error.message.contains("database or disk is full"), "\(error.error.message)")
        }
    }

    @Test func healthWarnsOfAnOfflineRootBesideAWatchedOne() async throws {
        let status = Self.status(roots: [("/p", "watching"), ("/q", "offline")])
        try await APIServerTests.withServer(status: status) { socket, fixture in
            let reply = try await APIServerTests.get(socket, "/v1/health")
            #expect(reply.status == 200)
            let health = try JSONDecoder().decode(API.Health.self, from: Data(reply.body))
            #expect(health.status == "ok" && health.warnings == ["/q is offline: gone"])
            #expect(health.version == PhotosVersion.current && health.library == fixture.library.database.path)
            // A limited client is told that a root is offline, not which.
            let secret = try fixture.library.database.createAccessToken(level: .limited, albums: []).secret
            let limited = try await APIServerTests.get(
                socket, "/v1/health", headers: ["Authorization": "Bearer \(secret)"])
            #expect(limited.status == 200)
            #expect(
                try JSONDecoder().decode(API.Health.self, from: Data(limited.body)).warnings == ["a root is offline"])
        }
    }

    @Test func versionIndexAndDocumentAreServed() async throws {
        try await APIServerTests.withServer { socket, _ in
            let version = try await APIServerTests.get(socket, "/v1/version")
            #expect(version.status == 200 && version.headers["content-type"] == "application/json")
            #expect(try JSONDecoder().decode(API.Version.self, from: Data(version.body)) == API.Version.current)
            #expect(Set(try version.object().keys) == ["name", "version", "apiVersion"])
            #expect(API.Version.current.version == PhotosVersion.current && API.Version.current.apiVersion == "1")

            let index = try JSONDecoder().decode(
                API.Index.self, from: Data(try await APIServerTests.get(socket, "/").body))
            #expect(index.version == PhotosVersion.current && index.openapi == "/v1/openapi.json")
            // Every operation of the document, and each one answered by this server (not a 404 or 405).
            let document = try OpenAPISchema.document()
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let operations = paths.flatMap { path, operations in
                operations.keys.filter { ["get", "head", "post"].contains($0) }.map { "\($0.uppercased()) \(path)" }
            }
            #expect(Set(index.endpoints) == Set(operations) && index.endpoints.count == operations.count)
            #expect(
                index.endpoints.contains("GET /v1/assets/{id}/original") && index.endpoints.contains("GET /metrics"))

            let served = try await APIServerTests.get(socket, "/v1/openapi.json")
            #expect(served.status == 200 && served.headers["content-type"] == "application/json")
            #expect(served.body == OpenAPIDocument.bytes)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(served.body)) as? [String: Any])
            #expect(try OpenAPISchema.canonical(object) == (try OpenAPISchema.canonical(document)))
        }
    }

    @Test func theRootPathIsServedAndOtherMethodsThereAre405() async throws {
        try await APIServerTests.withServer { socket, _ in
            let posted = try await offPool { try UnixHTTPClient.request(socket, "POST", "/", body: Array("{}".utf8)) }
            #expect(posted.status == 405 && posted.headers["allow"] == "GET, HEAD", "\(posted.text)")
            // Still canonical paths only: an empty segment is a 404.
            #expect(try await APIServerTests.get(socket, "//").status == 404)
        }
    }
}

/// The compiled OpenAPI JSON against `openapi/photosd.yaml`, read by Yams.
@Suite struct OpenAPIDocumentTests {
    @Test func theServedJSONIsTheYAMLDocument() throws {
        let yaml = try OpenAPISchema.document()
        let compiled = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        #expect(
            try OpenAPISchema.canonical(compiled) == (try OpenAPISchema.canonical(yaml)),
            "Sources/PhotosServer/OpenAPIDocument+JSON.swift is not openapi/photosd.yaml: run scripts/openapi-json")
        // The API's version is the document's.
        #expect((yaml["info"] as? [String: Any])?["version"] as? String == API.version)
    }
}
