import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The hooks' durable cursors as the library keeps them: where a hook starts, how a run moves it,
/// how failures count and park it, and how `photos hooks resume|replay` move it from outside.
@Suite struct HookCursorTests {
    let database: LibraryDatabase

    init() throws {
        database = try LibraryDatabase()
    }

    /// Commits one change-log entry (an asset inserted); returns its token.
    @discardableResult
    func commit() throws -> Int64 {
        let asset = AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image)
        return try #require(try database.write { try $0.insertAsset(asset) }.token)
    }

    static func run(_ outcome: String, error: String? = nil, tail: String = "stderr") -> HookRunRecord {
        HookRunRecord(startedAt: 1_700_000_000, duration: 0.25, outcome: outcome, errorTail: error, tailName: tail)
    }

    @Test func aNewHookStartsAfterTheNewestEntryAndARemovedOneKeepsItsCursor() throws {
        try commit()
        let newest = try commit()
        let states = try database.enrollHooks(["a", "b"], historyLimit: 10)
        #expect(states.map(\.name) == ["a", "b"])
        #expect(states.allSatisfy { $0.cursor == newest && $0.enabled && $0.failures == 0 && $0.generation == 0 })
        try database.acknowledgeHook("a", through: newest, generation: 0, objects: 1, run: Self.run("exit 0"))
        try commit()
        // `b` is no longer configured: disabled, its row and cursor kept; `a` is not enrolled again.
        try database.enrollHooks(["a"], historyLimit: 10)
        #expect(try database.hookState(named: "b")?.enabled == false)
        #expect(try database.hookState(named: "b")?.cursor == newest)
        #expect(try database.hookState(named: "a")?.runs == 1)
        // Configured again, it goes on from its cursor, not from the newest entry.
        try database.enrollHooks(["a", "b"], historyLimit: 10)
        let again = try #require(try database.hookState(named: "b"))
        #expect(again.enabled && again.cursor == newest)
        #expect(try database.hookStates().map(\.name) == ["a", "b"])
        #expect(try database.hookState(named: "never") == nil)
    }

    @Test func anAcknowledgedRunMovesTheCursorAndCountsItsObjects() throws {
        let start = try database.enrollHooks(["h"], historyLimit: 10)[0].cursor
        let first = try commit()
        let second = try commit()
        #expect(try database.changeCount(after: start) == 2)
        #expect(try database.acknowledgeHook("h", through: first, generation: 0, objects: 3, run: Self.run("exit 0")))
        var state = try #require(try database.hookState(named: "h"))
        #expect(state.cursor == first && state.runs == 1 && state.delivered == 3)
        #expect(state.lastOutcome == "exit 0" && state.lastRunAt == 1_700_000_000 && state.lastDuration == 0.25)
        #expect(try database.changeCount(after: state.cursor) == 1)
        // A batch nothing of which was the hook's: the cursor moves, no run is counted.
        #expect(try database.acknowledgeHook("h", through: second, generation: 0, objects: 0, run: nil))
        state = try #require(try database.hookState(named: "h"))
        #expect(state.cursor == second && state.runs == 1 && state.delivered == 3)
        // An acknowledgement that arrives late never moves the cursor back.
        try database.acknowledgeHook("h", through: first, generation: 0, objects: 1, run: Self.run("exit 0"))
        #expect(try database.hookState(named: "h")?.cursor == second)
    }

    @Test func failuresCountUpAndParkTheHookWithItsReason() throws {
        let start = try database.enrollHooks(["h"], historyLimit: 10)[0].cursor
        try commit()
        let once = try #require(
            try database.recordHookFailure("h", generation: 0, run: Self.run("exit 7", error: "boom"), maxFailures: 3))
        #expect(once.failures == 1 && !once.isParked && once.cursor == start)
        #expect(once.lastOutcome == "exit 7" && once.lastError == "boom")
        try database.recordHookFailure("h", generation: 0, run: Self.run("exit 7", error: "boom"), maxFailures: 3)
        let parked = try #require(
            try database.recordHookFailure("h", generation: 0, run: Self.run("exit 7", error: "boom"), maxFailures: 3))
        #expect(parked.failures == 3 && parked.isParked && parked.cursor == start)
        #expect(parked.parkedReason == "exit 7 after 3 failed runs in a row; stderr: boom")
        #expect(parked.runs == 0, "a failed run is no run delivered")
    }

    @Test func aWebhooksParkedReasonNamesTheBodyAndAnEmptyTailIsLeftOut() throws {
        try database.enrollHooks(["web", "quiet"], historyLimit: 10)
        let web = try database.recordHookFailure(
            "web", generation: 0, run: Self.run("HTTP 500", error: "oops", tail: "body"), maxFailures: 1)
        #expect(web?.parkedReason == "HTTP 500 after 1 failed runs in a row; body: oops")
        let quiet = try database.recordHookFailure(
            "quiet", generation: 0, run: Self.run("signal 9", error: ""), maxFailures: 1)
        #expect(quiet?.parkedReason == "signal 9 after 1 failed runs in a row")
        // At most 0 failures still parks at the first: a hook is never retried forever unparked.
        try database.resumeHook("quiet")
        let zero = try database.recordHookFailure("quiet", generation: 1, run: Self.run("exit 1"), maxFailures: 0)
        #expect(zero?.isParked == true)
    }

    @Test func aSuccessAfterFailuresClearsThem() throws {
        try database.enrollHooks(["h"], historyLimit: 10)
        let token = try commit()
        try database.recordHookFailure("h", generation: 0, run: Self.run("exit 1"), maxFailures: 5)
        try database.recordHookFailure("h", generation: 0, run: Self.run("exit 1"), maxFailures: 5)
        #expect(try database.hookState(named: "h")?.failures == 2)
        try database.acknowledgeHook("h", through: token, generation: 0, objects: 1, run: Self.run("exit 0"))
        let state = try #require(try database.hookState(named: "h"))
        #expect(state.failures == 0 && state.cursor == token && state.lastOutcome == "exit 0")
    }

    @Test func resumeUnparksFromTheSameCursorAndTheOldRunnersWritesAreRefused() throws {
        let start = try database.enrollHooks(["h"], historyLimit: 10)[0].cursor
        let token = try commit()
        try database.recordHookFailure("h", generation: 0, run: Self.run("exit 7"), maxFailures: 1)
        let resumed = try database.resumeHook("h")
        #expect(!resumed.isParked && resumed.parkedReason == nil && resumed.failures == 0)
        #expect(resumed.cursor == start && resumed.generation == 1)
        // The runner that parked it knew generation 0: what it writes now is refused, row untouched.
        #expect(try !database.acknowledgeHook("h", through: token, generation: 0, objects: 1, run: Self.run("exit 0")))
        #expect(try database.recordHookFailure("h", generation: 0, run: Self.run("exit 7"), maxFailures: 1) == nil)
        #expect(try database.hookState(named: "h") == resumed)
        // The runner started again for generation 1 moves it.
        #expect(try database.acknowledgeHook("h", through: token, generation: 1, objects: 1, run: Self.run("exit 0")))
        #expect(try database.hookState(named: "h")?.cursor == token)
    }

    @Test func replayMovesTheCursorWithinTheLogAndUnparks() throws {
        let start = try database.enrollHooks(["h"], historyLimit: 10)[0].cursor
        try commit()
        let newest = try commit()
        try database.acknowledgeHook("h", through: newest, generation: 0, objects: 2, run: nil)
        try database.recordHookFailure("h", generation: 0, run: Self.run("exit 7"), maxFailures: 1)
        let back = try database.moveHookCursor("h", to: start)
        #expect(back.cursor == start && !back.isParked && back.failures == 0 && back.generation == 1)
        #expect(try database.changeCount(after: back.cursor) == 2)
        // Past either end, the cursor stops at the end.
        #expect(try database.moveHookCursor("h", to: newest + 100).cursor == newest)
        #expect(try database.moveHookCursor("h", to: -5).cursor == 0)
        #expect(try database.hookState(named: "h")?.generation == 3)
    }

    @Test func resumeOrReplayOfAnUnknownHookIsNotFound() throws {
        #expect { try database.resumeHook("ghost") } throws: { ($0 as? StoreError)?.code == .notFound }
        #expect { try database.moveHookCursor("ghost", to: 0) } throws: { ($0 as? StoreError)?.code == .notFound }
        // The daemon's writes for a hook it never enrolled change nothing.
        #expect(try !database.acknowledgeHook("ghost", through: 1, generation: 0, objects: 1, run: nil))
        #expect(try database.recordHookFailure("ghost", generation: 0, run: Self.run("exit 1"), maxFailures: 1) == nil)
        #expect(try database.hookStates().isEmpty)
    }

    @Test func pruningKeepsWhatAnEnabledHookHasNotAcknowledged() throws {
        let start = try database.enrollHooks(["h"], historyLimit: 100)[0].cursor
        for _ in 0..<4 { try commit() }
        try database.pruneHistory(keeping: 1)
        #expect(try database.changes(after: start).count == 4, "held back for the hook")
        // Acknowledged, they may go.
        try database.acknowledgeHook("h", through: try database.currentToken(), generation: 0, objects: 4, run: nil)
        try database.pruneHistory(keeping: 1)
        #expect(try database.prunedThrough() == (try database.currentToken()) - 1)
        #expect { try database.changes(after: start) } throws: { ($0 as? StoreError)?.code == .historyExpired }
    }
}
