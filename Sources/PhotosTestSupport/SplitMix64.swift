/// A small seeded random number generator (SplitMix64), so that a property test or a fuzzed input
/// is the same on every run and a failure can be replayed from its seed.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let count = Int.random(in: 0...40, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
