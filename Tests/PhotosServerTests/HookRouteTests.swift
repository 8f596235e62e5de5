import Foundation
import PhotosCore
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `POST /v1/hooks/{name}/resume`: unparks a hook as `photos hooks resume` does, answers its status
/// as `GET /v1/status` lists it, and is for read-write clients only.
@Suite struct HookRouteTests {
    /// A daemon status without roots: `GET /v1/status` then lists the library's hooks.
    static let status = DaemonStatus(
        pid: 42, startedAt: 1, updatedAt: 2, roots: [], watches: 0, watchBudget: 100, unwatchedDirectories: 0,
        queueDepth: 0, ingested: 0, updated: 0, moved: 0, removed: 0, rejected: 0, lastErrors: [])

    /// Enrolls `name` and parks it after one failed run.
    static func park(_ name: String, in database: LibraryDatabase) throws {
        try database.enrollHooks([name], historyLimit: 10)
        let run = HookRunRecord(startedAt: 1_700_000_000, duration: 0.5, outcome: "exit 3", errorTail: "boom")
        let parked = try database.recordHookFailure(name, generation: 0, run: run, maxFailures: 1)
        try #require(parked?.isParked == true)
    }

    static func post(_ socket: String, _ target: String, headers: [String: String] = [:]) async throws
        -> UnixHTTPClient.Reply
    {
        try await offPool { try UnixHTTPClient.request(socket, "POST", target, headers: headers) }
    }

    @Test func resumingAParkedHookUnparksItAndAnswersItsStatus() async throws {
        try await APIServerTests.withServer(status: Self.status) { socket, fixture in
            let database = fixture.library.database
            try Self.park("notify", in: database)
            let reply = try await Self.post(socket, "/v1/hooks/notify/resume")
            #expect(reply.status == 200 && reply.headers["content-type"] == "application/json", "\(reply.text)")
            let resumed = try JSONDecoder().decode(HookStatus.self, from: Data(reply.body))
            #expect(resumed.name == "notify" && resumed.state == "ok" && resumed.failures == 0)
            #expect(resumed.parkedReason == nil && resumed.lastOutcome == "exit 3")
            let state = try #require(try database.hookState(named: "notify"))
            #expect(!state.isParked && state.failures == 0 && resumed.cursor == state.cursor)
            // The same shape, and values, as the status lists for the hook.
            let status = try JSONDecoder().decode(
                DaemonStatus.self, from: Data(try await APIServerTests.get(socket, "/v1/status").body))
            #expect(status.hooks?.first { $0.name == "notify" } == resumed)
            // Resuming a hook that is not parked answers the same.
            let again = try await Self.post(socket, "/v1/hooks/notify/resume")
            #expect(again.status == 200)
            #expect(try JSONDecoder().decode(HookStatus.self, from: Data(again.body)) == resumed)
        }
    }

    @Test func anUnknownHookIsA404AndAnotherMethodA405() async throws {
        try await APIServerTests.withServer { socket, _ in
            let unknown = try await Self.post(socket, "/v1/hooks/nope/resume")
            #expect(unknown.status == 404, "\(unknown.text)")
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(unknown.body))
            #expect(error.error.code == 404 && error.error.domain == "HTTP" && error.error.message.contains("nope"))
            let got = try await APIServerTests.get(socket, "/v1/hooks/nope/resume")
            #expect(got.status == 405 && got.headers["allow"] == "POST", "\(got.text)")
            // Only that path: others under /v1/hooks are not served.
            #expect(try await APIServerTests.get(socket, "/v1/hooks/nope").status == 404)
            #expect(try await Self.post(socket, "/v1/hooks/nope/pause").status == 404)
        }
    }

    @Test func onlyReadWriteClientsResume() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let database = fixture.library.database
            try Self.park("notify", in: database)
            for level in [AccessLevel.readOnly, .addOnly, .limited] {
                let secret = try database.createAccessToken(
                    level: level, albums: level == .limited ? [fixture.collections["Trip"]!] : []
                ).secret
                let reply = try await Self.post(
                    socket, "/v1/hooks/notify/resume", headers: ["Authorization": "Bearer \(secret)"])
                #expect(reply.status == 403, "\(level): \(reply.text)")
                #expect(try database.hookState(named: "notify")?.isParked == true, "\(level)")
            }
            let secret = try database.createAccessToken(level: .readWrite).secret
            let reply = try await Self.post(
                socket, "/v1/hooks/notify/resume", headers: ["Authorization": "Bearer \(secret)"])
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try database.hookState(named: "notify")?.isParked == false)
        }
    }

    @Test func hookRefusalsAreATable() {
        let path = "/v1/hooks/{name}/resume"
        let rows: [(AccessLevel, String, Bool)] = [
            (.readWrite, "POST", true), (.readOnly, "POST", false), (.addOnly, "POST", false),
            (.limited, "POST", false), (.readOnly, "GET", false), (.limited, "GET", false),
        ]
        for (level, method, allowed) in rows {
            let access = ClientAccess(level: level, albums: [], tokenID: "t")
            #expect(
                (AccessMiddleware.refusal(.init(method)!, path: path, access: access) == nil) == allowed,
                "\(level) \(method)")
        }
        // The day index reads assets: refused to no level that reads them.
        for level in [AccessLevel.readWrite, .readOnly, .limited] {
            let access = ClientAccess(level: level, albums: [], tokenID: "t")
            #expect(AccessMiddleware.refusal(.get, path: "/v1/days", access: access) == nil, "\(level)")
        }
        #expect(
            AccessMiddleware.refusal(
                .get, path: "/v1/days", access: ClientAccess(level: .addOnly, albums: [], tokenID: "t"))
                != nil)
    }
}
