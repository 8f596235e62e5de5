import Foundation

/// A wait in a test that did not see its event: its deadline passed, or the process that was to
/// make the event exited. Thrown by ``waitUntil(_:timeout:whileRunning:isolation:_:)``,
/// ``blockUntil(_:timeout:whileRunning:_:)`` and ``waitForExit(of:_:timeout:isolation:)``; its
/// description names what the test waited for, so the failing test says why.
public struct WaitFailed: Error, CustomStringConvertible {
    /// What was awaited: `"photosd to write its status file"`.
    public let what: String
    /// Why the wait ended: `"timed out after 300.0 seconds"`, `"the process exited with status 1"`.
    public let reason: String

    /// A failed wait for `what`, for `reason`: for waits of their own kind (a socket's messages).
    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    /// `"timed out after 300.0 seconds waiting for photosd to write its status file"`.
    public var description: String { "\(reason) waiting for \(what)" }

    static func check(
        _ what: () -> String, deadline: ContinuousClock.Instant, timeout: Duration, process: TestProcess?
    ) throws {
        if let process, !process.isRunning {
            throw WaitFailed(
                what: what(), reason: "the process exited with status \(process.terminationStatus)")
        }
        guard ContinuousClock.now < deadline else {
            throw WaitFailed(what: what(), reason: "timed out after \(timeout)")
        }
    }
}

/// How long tests wait for an event by default: long, because the machine may be loaded by other
/// builds and a wait must not depend on its speed (in a full `swift test` on 2 cores, blocking
/// suites were seen to hold the shared pool, where the awaited work runs, for over a minute). An
/// event that comes ends the wait at once, so a generous deadline costs nothing when the test passes.
public let defaultWaitTimeout: Duration = .seconds(300)

/// How often a wait looks at its condition: short, so that a wait ends soon after its event.
let waitInterval: Duration = .milliseconds(10)

/// Waits until `condition` holds (a change-log token reaching a value, a file appearing, a status
/// field, a hook run recorded, a socket answering), looking at it every few milliseconds; throws
/// ``WaitFailed`` naming `what` when `timeout` passes first, or at once when `process` (the daemon or
/// child that was to make the event) exits before the condition holds.
///
/// ```swift
/// try await waitUntil("the scan's two assets") { try database.assetCount() == 2 }
/// try await waitUntil("photosd's socket", whileRunning: daemon) { FileManager.default.fileExists(atPath: socket) }
/// ```
///
/// It suspends between looks, so it does not hold a thread of the shared pool; the condition runs on
/// the caller's actor and must not block (wrap blocking work in ``offPool(_:)``). Time in which the
/// wait itself could not run (every thread of the pool held by other tests) does not count towards
/// `timeout`: the awaited work, on the same pool, could not run either.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = defaultWaitTimeout, whileRunning process: TestProcess? = nil,
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws {
    var deadline = ContinuousClock.now + timeout
    while try await !condition() {
        // The condition is looked at once more after an exit: the process may have made it and gone.
        if let process, !process.isRunning, try await condition() { return }
        try WaitFailed.check(what, deadline: deadline, timeout: timeout, process: process)
        let asleep = ContinuousClock.now
        try await Task.sleep(for: waitInterval)
        // Time this wait could not run is time the awaited work (on the same shared pool) could not
        // either: other tests' blocking work held every thread. The deadline is for the work, so it
        // moves by that time; a wait that runs on time keeps its deadline.
        let late = ContinuousClock.now - asleep - waitInterval
        if late > .milliseconds(500) { deadline += late }
    }
}

/// ``waitUntil(_:timeout:whileRunning:isolation:_:)`` for synchronous code: blocks its thread between
/// looks, so call it only off the shared pool (inside ``offPool(_:)``, or from a synchronous test).
public func blockUntil(
    _ what: @autoclosure () -> String, timeout: Duration = defaultWaitTimeout, whileRunning process: TestProcess? = nil,
    _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        if let process, !process.isRunning, try condition() { return }
        try WaitFailed.check(what, deadline: deadline, timeout: timeout, process: process)
        // The poll interval of a blocking wait: nothing can wake a blocked thread sooner.
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// Waits until `process` has exited; throws ``WaitFailed`` naming `what` (`"photos scan to exit"`)
/// when it still runs after `timeout`. It does not reap a process that will not stop: the caller
/// kills it (a test's `defer`).
public func waitForExit(
    of process: TestProcess, _ what: @autoclosure () -> String, timeout: Duration = defaultWaitTimeout,
    isolation: isolated (any Actor)? = #isolation
) async throws {
    try await waitUntil(what(), timeout: timeout) { !process.isRunning }
}
