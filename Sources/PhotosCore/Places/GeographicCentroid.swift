import Foundation

/// The centre of some places on the globe: the mean of their directions from the Earth's centre,
/// so that photos on both sides of the antimeridian (179.9° and -179.9°) centre near 180°, not 0°,
/// and photos around a pole centre at the pole.
///
/// ```swift
/// GeographicCentroid.of([(48.85, 2.29), (48.86, 2.35)])   // about (48.855, 2.32)
/// ```
public enum GeographicCentroid {
    /// The centre of `positions` (latitude, longitude in degrees); nil when there are none, or
    /// when they balance out (two antipodes): no place is their centre.
    public static func of(_ positions: [(latitude: Double, longitude: Double)]) -> (
        latitude: Double, longitude: Double
    )? {
        var (x, y, z, count) = (0.0, 0.0, 0.0, 0)
        for (latitude, longitude) in positions {
            let (φ, λ) = (latitude * .pi / 180, longitude * .pi / 180)
            x += cos(φ) * cos(λ)
            y += cos(φ) * sin(λ)
            z += sin(φ)
            count += 1
        }
        guard count > 0 else { return nil }
        let length = (x * x + y * y + z * z).squareRoot()
        guard length / Double(count) > 1e-9 else { return nil }
        let latitude = asin(max(-1, min(1, z / length))) * 180 / .pi
        // At a pole every longitude is the same place: 0.
        let longitude = x * x + y * y < 1e-24 ? 0 : atan2(y, x) * 180 / .pi
        return (latitude, longitude)
    }
}
