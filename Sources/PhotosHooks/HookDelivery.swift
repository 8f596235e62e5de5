import Foundation
import PhotosStore

/// How one run's payload reaches a hook: a program reads it on standard input (``HookProcess``,
/// an exec hook) or a server is POSTed it (``HookPost``, a webhook). ``HookRunner`` does the rest
/// (batching, the scope, the cursor, the backoff) the same way for both.
///
/// A run succeeds on exit 0 or a 2xx answer; however it ends, its ``HookProcess/Outcome`` says how
/// (`exit 3`, `HTTP 500`, `timed out after 60 s`) with the tail of what explains a failure.
protocol HookDelivery: Sendable {
    /// What ``HookProcess/Outcome/errorTail`` holds, as a parked reason names it: `stderr` or `body`.
    var tailName: String { get }

    /// Gives the hook `payload`, the changes after `since` through `until`; `started` is called as
    /// the run starts (the process runs, the connection opens). Returns when the run has ended:
    /// finished, failed, timed out, or stopped because the task was cancelled.
    func deliver(_ payload: [UInt8], since: Int64, until: Int64, started: @escaping @Sendable () -> Void) async
        -> HookProcess.Outcome
}

extension HookProcess: HookDelivery {
    var tailName: String { "stderr" }

    /// Runs the program with `payload` on standard input and the run's range in `PHOTOS_SINCE`
    /// and `PHOTOS_UNTIL`.
    func deliver(_ payload: [UInt8], since: Int64, until: Int64, started: @escaping @Sendable () -> Void) async
        -> Outcome
    {
        var process = self
        process.environment["PHOTOS_SINCE"] = "\(since)"
        process.environment["PHOTOS_UNTIL"] = "\(until)"
        return await process.run(input: payload, started: started)
    }
}

extension HookPost: HookDelivery {
    var tailName: String { "body" }

    /// POSTs `payload`, its range in the `X-Photos-Since` and `X-Photos-Until` headers.
    func deliver(_ payload: [UInt8], since: Int64, until: Int64, started: @escaping @Sendable () -> Void) async
        -> HookProcess.Outcome
    {
        await run(input: payload, since: since, until: until, started: started)
    }
}

extension HookProcess.Outcome {
    /// The run as the library records it (``LibraryDatabase/acknowledgeHook(_:through:generation:objects:run:)``,
    /// ``LibraryDatabase/recordHookFailure(_:generation:run:maxFailures:)``).
    func record(tailName: String) -> HookRunRecord {
        HookRunRecord(
            startedAt: startedAt.timeIntervalSince1970,
            duration: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18,
            outcome: termination.description,
            errorTail: errorTail.isEmpty ? nil : errorTail,
            tailName: tailName)
    }
}
