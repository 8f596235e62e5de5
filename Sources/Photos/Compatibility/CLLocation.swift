import Foundation

/// Degrees of latitude or longitude.
public typealias CLLocationDegrees = Double
/// Meters.
public typealias CLLocationDistance = Double
/// Meters of accuracy.
public typealias CLLocationAccuracy = Double

/// A latitude and longitude, as Core Location's `CLLocationCoordinate2D`.
public struct CLLocationCoordinate2D: Sendable, Hashable {
    /// Degrees, north positive.
    public var latitude: CLLocationDegrees
    /// Degrees, east positive.
    public var longitude: CLLocationDegrees
    /// A coordinate at (0, 0).
    public init() { self.init(latitude: 0, longitude: 0) }
    /// A coordinate at a latitude and longitude.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A small stand-in for Core Location's `CLLocation`, which Linux lacks: where a photo was taken.
///
/// ```swift
/// request.location = CLLocation(latitude: 48.8584, longitude: 2.2945)
/// ```
open class CLLocation: NSObject, @unchecked Sendable {  // Open, so unchecked; immutable: `let`s.
    /// Latitude and longitude, in degrees.
    public let coordinate: CLLocationCoordinate2D
    /// Meters above sea level (0 when unknown).
    public let altitude: CLLocationDistance
    /// Horizontal accuracy in meters; negative means the coordinate is invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// Vertical accuracy in meters; negative means the altitude is unknown.
    public let verticalAccuracy: CLLocationAccuracy
    /// When the location was recorded.
    public let timestamp: Date

    /// A location at a latitude and longitude, altitude unknown.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date())
    }

    /// A location with every value given.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLLocation else { return false }
        return coordinate == other.coordinate && altitude == other.altitude
    }

    open override var hash: Int { coordinate.hashValue ^ altitude.hashValue }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> alt \(altitude)"
    }
}
