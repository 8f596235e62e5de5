/// How long the daemon waits before trying a failed scan again: doubling from ``initial`` up to
/// ``maximum`` while failures follow each other, back to nothing after a success.
///
/// A library on a full disk (or locked, or damaged) fails every scan at once; without a pause the
/// daemon retried dozens of times a second, each time logging and burning a core.
/// ```swift
/// var backoff = RetryBackoff()
/// backoff.failed()     // 0.5 s
/// backoff.failed()     // 1 s, then 2, 4, ... 60, 60
/// backoff.succeeded()  // nil: retry at once next time
/// ```
public struct RetryBackoff: Sendable, Hashable {
    /// The wait after the first failure.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration
    /// Failures since the last success.
    public private(set) var failures = 0

    /// A backoff from `initial`, doubling up to `maximum`.
    public init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The wait before the next try; nil after a success.
    public var delay: Duration? {
        guard failures > 0 else { return nil }
        var delay = initial
        // Doubling stops at the cap, so a long run of failures neither loops long nor overflows.
        for _ in 0..<min(failures - 1, 64) where delay < maximum { delay = min(delay * 2, maximum) }
        return delay
    }

    /// Records a failure; returns the wait before the next try.
    @discardableResult
    public mutating func failed() -> Duration {
        failures += 1
        return delay ?? initial
    }

    /// Records a success: the next failure waits ``initial`` again.
    public mutating func succeeded() {
        failures = 0
    }
}

extension Duration {
    /// The duration in seconds, as a Double (for logs and status files).
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
