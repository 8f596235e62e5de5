import Metrics

/// Hook runs counted through swift-metrics, labelled `hook` with the hook's name: photosd serves
/// them at `GET /metrics`.
///
/// | metric | what |
/// |---|---|
/// | `photosd_hook_runs_total` | runs that ended (delivered or failed; a run stopped by shutdown is not one) |
/// | `photosd_hook_failures_total` | runs that failed: a non-zero exit, a signal, a timeout, a webhook's non-2xx or unreachable URL |
/// | `photosd_hook_run_duration_seconds` | how long each run took (a histogram) |
///
/// ```swift
/// let metrics = HookMetrics(hooks: ["thumbnails"])   // each series at 0 from the start
/// metrics.record(hook: "thumbnails", duration: .milliseconds(120), success: true)
/// ```
struct HookMetrics: Sendable {
    static let runs = "photosd_hook_runs_total"
    static let failures = "photosd_hook_failures_total"
    static let duration = "photosd_hook_run_duration_seconds"

    /// Makes each hook's counters, so that a scrape shows them at 0 before the first run.
    init(hooks: [String]) {
        for hook in hooks {
            _ = Counter(label: Self.runs, dimensions: [("hook", hook)])
            _ = Counter(label: Self.failures, dimensions: [("hook", hook)])
        }
    }

    /// Counts one run of `hook` that ended after `duration`.
    func record(hook: String, duration: Duration, success: Bool) {
        Counter(label: Self.runs, dimensions: [("hook", hook)]).increment()
        if !success { Counter(label: Self.failures, dimensions: [("hook", hook)]).increment() }
        Timer(label: Self.duration, dimensions: [("hook", hook)]).record(duration: duration)
    }
}
