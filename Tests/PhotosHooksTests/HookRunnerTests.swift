import Foundation
import Logging
import Photos
import PhotosCore
import PhotosStore
import PhotosTestSupport
import Testing

@testable import PhotosHooks

/// The runner against a real library: what hooks are given, and when their cursors move.
@Suite struct HookRunnerTests {
    /// A hook that copies its payload to `<dir>/<since>-<until>.json`, failing while `<dir>/broken` exists.
    static func recorder(_ name: String, in directory: URL) -> HookDefinition {
        HookDefinition(
            name: name,
            command: [
                "/bin/sh", "-c",
                #"if [ -e "$0/broken" ]; then echo "broken on purpose" >&2; exit 7; fi; cat > "$0/$PHOTOS_SINCE-$PHOTOS_UNTIL.json""#,
                directory.path,
            ])
    }

    /// Runs `hooks` over the fixture's library while `body` runs.
    static func withRunner(
        _ hooks: [HookDefinition], fixture: LibraryFixture, _ body: () async throws -> Void
    ) async throws {
        let runner = HookRunner(
            hooks: hooks, database: fixture.library.database, libraryPath: fixture.libraryURL.path,
            logger: Logger(label: "hooks-test"), backoffBase: .milliseconds(50))
        let task = Task { try await runner.run() }
        defer { task.cancel() }
        // The runner enrolls its hooks before it follows anything.
        try await waitUntil("the runner to enroll its hooks", timeout: bound) {
            try hooks.allSatisfy { try fixture.library.database.hookState(named: $0.name) != nil }
        }
        try await body()
        task.cancel()
        try await task.value
    }

    /// How long these tests wait for a hook's cursor or state. (A deadline, not a measure: in a full
    /// run on a loaded machine, three runs of a failing hook took longer than 20 s to get threads.)
    static let bound: Duration = .seconds(90)

    /// The payloads a recorder wrote, oldest first.
    static func payloads(in directory: URL) throws -> [[String: Any]] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted { Int($0.split(separator: "-")[0])! < Int($1.split(separator: "-")[0])! }
            .map { name in
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
    }

    static func identifiers(_ payload: [String: Any], _ type: String, _ kind: String) -> [String] {
        let changes = payload["changes"] as? [[String: Any]] ?? []
        return changes.flatMap { change in
            ((change[type] as? [String: Any])?[kind] as? [[String: Any]] ?? []).compactMap {
                $0["localIdentifier"] as? String
            }
        }
    }

    func favorite(_ name: String, in fixture: LibraryFixture) throws {
        let asset = fixture.asset(name)
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
    }

    /// A backlog is worked through without settling before each batch: `settle_ms` waits for
    /// changes still to come, not for those committed already, which fill the batch.
    @Test func aBatchTheBacklogFillsDoesNotWaitToSettle() async throws {
        let database = try LibraryDatabase()
        for _ in 0..<5 { try PostgreSQLTestServer.insertPhoto(at: "/photos/\(UUID().uuidString).jpg", in: database) }
        var batches = HookBatches(database: database, after: 0, limit: 2)
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<2 {
            guard case .changes(let entries) = try await batches.next(settle: .seconds(30)) else {
                Issue.record("no batch")
                return
            }
            #expect(entries.count == 2)
        }
        #expect(clock.now - started < .seconds(15), "two full batches of the backlog, without settling")
    }

    @Test func aChangeReachesTheHookAndMovesItsCursor() async throws {
        let fixture = try LibraryFixture()
        let output = try TemporaryDirectory(prefix: "hook-out")
        let database = fixture.library.database
        try await Self.withRunner([Self.recorder("record", in: output.url)], fixture: fixture) {
            let before = try database.hookState(named: "record")!.cursor
            try favorite("secret.jpg", in: fixture)
            let token = try database.currentToken()
            try await waitUntil("hook record's cursor at \(token)", timeout: Self.bound) {
                try database.hookState(named: "record")?.cursor == token
            }
            let payloads = try Self.payloads(in: output.url)
            #expect(payloads.count == 1)
            let payload = try #require(payloads.first)
            #expect(payload["hook"] as? String == "record")
            #expect(payload["since"] as? Int == Int(before))
            #expect(payload["until"] as? Int == Int(token))
            #expect(Self.identifiers(payload, "assets", "updated") == [fixture.assets["secret.jpg"]!])
            let state = try #require(try database.hookState(named: "record"))
            #expect(state.runs == 1 && state.delivered >= 1 && state.lastOutcome == "exit 0")
        }
    }

    @Test func theFilterKeepsOutWhatItShould() async throws {
        let fixture = try LibraryFixture()
        let output = try TemporaryDirectory(prefix: "hook-out")
        let database = fixture.library.database
        var hook = Self.recorder("favorites", in: output.url)
        hook.objects = [.asset]
        hook.changes = [.updated]
        hook.predicate = "favorite == YES AND mediaType == 1"
        try await Self.withRunner([hook], fixture: fixture) {
            // Hidden, not a favorite: filtered out, but the cursor still moves past it.
            let hidden = fixture.asset("screen.png")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: hidden).isHidden = true }
            let skipped = try database.currentToken()
            try await waitUntil("hook favorites's cursor at \(skipped)", timeout: Self.bound) {
                try database.hookState(named: "favorites")?.cursor == skipped
            }
            #expect(try Self.payloads(in: output.url).isEmpty)
            // A video made a favorite: not an image. An image made a favorite: given.
            try favorite("movie.mov", in: fixture)
            try favorite("sunset.heic", in: fixture)
            let token = try database.currentToken()
            try await waitUntil("hook favorites's cursor at \(token)", timeout: Self.bound) {
                try database.hookState(named: "favorites")?.cursor == token
            }
            let payloads = try Self.payloads(in: output.url)
            #expect(payloads.flatMap { Self.identifiers($0, "assets", "updated") } == [fixture.assets["sunset.heic"]!])
            #expect(payloads.allSatisfy { Self.identifiers($0, "assetCollections", "updated").isEmpty })
        }
    }

    @Test func aFailingHookIsRetriedThenParkedThenResumed() async throws {
        let fixture = try LibraryFixture()
        let output = try TemporaryDirectory(prefix: "hook-out")
        let database = fixture.library.database
        _ = FileManager.default.createFile(atPath: output.path("broken").path, contents: nil)
        var hook = Self.recorder("flaky", in: output.url)
        hook.maxFailures = 3
        try await Self.withRunner([hook], fixture: fixture) {
            let before = try database.hookState(named: "flaky")!.cursor
            try favorite("secret.jpg", in: fixture)
            try await waitUntil("hook flaky to be parked", timeout: Self.bound) {
                try database.hookState(named: "flaky")?.isParked == true
            }
            let parked = try #require(try database.hookState(named: "flaky"))
            #expect(parked.failures == 3)
            #expect(parked.cursor == before)
            #expect(parked.parkedReason?.contains("exit 7") == true)
            #expect(parked.parkedReason?.contains("broken on purpose") == true)
            // Parked means parked: a new change runs nothing.
            try favorite("beach.jpg", in: fixture)
            try await Task.sleep(for: .milliseconds(300))  // Kept: a quiet period, proving that nothing runs.
            #expect(try database.hookState(named: "flaky")?.failures == 3)
            // Fixed and resumed: both changes, from the old cursor.
            try FileManager.default.removeItem(at: output.path("broken"))
            try database.resumeHook("flaky")
            let token = try database.currentToken()
            try await waitUntil("hook flaky's cursor at \(token)", timeout: Self.bound) {
                try database.hookState(named: "flaky")?.cursor == token
            }
            let payloads = try Self.payloads(in: output.url)
            #expect(payloads.first?["since"] as? Int == Int(before))
            #expect(
                Set(payloads.flatMap { Self.identifiers($0, "assets", "updated") })
                    == [fixture.assets["secret.jpg"]!, fixture.assets["beach.jpg"]!])
        }
    }

    @Test func aCursorOlderThanTheHistoryGetsOneExpiredRun() async throws {
        let fixture = try LibraryFixture()
        let output = try TemporaryDirectory(prefix: "hook-out")
        let database = fixture.library.database
        try favorite("secret.jpg", in: fixture)
        try favorite("beach.jpg", in: fixture)
        try await Self.withRunner([Self.recorder("late", in: output.url)], fixture: fixture) {
            // History is pruned (the hook, at the newest entry, holds nothing back), then the cursor
            // is moved to before it.
            try database.pruneHistory(keeping: 1)
            #expect(try database.prunedThrough() > 0)
            try database.moveHookCursor("late", to: 0)
            let newest = try database.currentToken()
            try await waitUntil("hook late's cursor at \(newest)", timeout: Self.bound) {
                try database.hookState(named: "late")?.cursor == newest
            }
            let payloads = try Self.payloads(in: output.url)
            #expect(payloads.count == 1)
            #expect(payloads.first?["expired"] as? Bool == true)
            #expect(payloads.first?["since"] as? Int == 0)
            #expect(payloads.first?["until"] as? Int == Int(newest))
            #expect((payloads.first?["changes"] as? [Any])?.isEmpty == true)
            // After it, changes flow again.
            try favorite("pano.jpg", in: fixture)
            let token = try database.currentToken()
            try await waitUntil("hook late's cursor at \(token)", timeout: Self.bound) {
                try database.hookState(named: "late")?.cursor == token
            }
            #expect(try Self.payloads(in: output.url).count == 2)
        }
    }

    @Test func anEnabledHookHoldsHistoryBackUpToItsBound() throws {
        let fixture = try LibraryFixture()
        let database = fixture.library.database
        try database.enrollHooks(["slow"], historyLimit: 3)
        let start = try database.hookState(named: "slow")!.cursor
        for name in ["secret.jpg", "beach.jpg"] { try favorite(name, in: fixture) }
        // The library keeps 1 entry of its own; the hook needs the 2 after its cursor.
        try database.pruneHistory(keeping: 1)
        #expect(try database.changes(after: start).count == 2)
        for name in ["pano.jpg", "movie.mov", "sunset.heic"] { try favorite(name, in: fixture) }
        // Five entries behind, bound 3: the oldest two go, and the hook will get an expired run.
        try database.pruneHistory(keeping: 1)
        #expect(throws: StoreError.self) { try database.changes(after: start) }
        #expect(try database.changes(after: try database.prunedThrough()).count == 3)
        // A hook no longer configured holds nothing.
        try database.enrollHooks([], historyLimit: 3)
        try database.pruneHistory(keeping: 1)
        #expect(try database.changes(after: try database.prunedThrough()).count == 1)
    }
}
