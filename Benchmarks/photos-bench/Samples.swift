/// Timings of one measure, in milliseconds, with nearest-rank percentiles.
struct Samples: Sendable {
    private(set) var milliseconds: [Double] = []

    mutating func append(_ duration: Duration) {
        milliseconds.append(duration.milliseconds)
    }

    /// The nearest-rank percentile `p` (0...1) of the samples.
    func percentile(_ p: Double) -> Double {
        precondition(!milliseconds.isEmpty, "no samples")
        let sorted = milliseconds.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var p50: Double { percentile(0.50) }
    var p99: Double { percentile(0.99) }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
    }
}

/// Runs `body`, returning its value and how long it took on the continuous clock.
func timed<T>(_ body: () throws -> T) rethrows -> (value: T, duration: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    return (value, clock.now - start)
}

/// Keeps the optimizer from dropping work whose result is otherwise unused.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
