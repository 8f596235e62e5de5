import Foundation

/// Degrees of latitude or longitude.
public typealias CLLocationDegrees = Double
/// Meters.
public typealias CLLocationDistance = Double
/// Meters of accuracy.
public typealias CLLocationAccuracy = Double
/// Meters per second.
public typealias CLLocationSpeed = Double
/// Meters per second of accuracy.
public typealias CLLocationSpeedAccuracy = Double
/// Degrees clockwise from true north.
public typealias CLLocationDirection = Double
/// Degrees of accuracy of a direction.
public typealias CLLocationDirectionAccuracy = Double

/// The coordinate Core Location uses for "no coordinate".
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether a coordinate lies on the globe: latitude within ±90 degrees, longitude within ±180.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180
}

/// A coordinate at a latitude and longitude (Core Location's C-style maker).
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

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
    /// Speed in meters per second; negative when unknown.
    public let speed: CLLocationSpeed
    /// Accuracy of ``speed`` in meters per second; negative when unknown.
    public let speedAccuracy: CLLocationSpeedAccuracy
    /// Direction of travel in degrees clockwise from true north (0 to 359.9); negative when unknown.
    public let course: CLLocationDirection
    /// Accuracy of ``course`` in degrees; negative when unknown.
    public let courseAccuracy: CLLocationDirectionAccuracy

    /// The mean radius of the Earth in meters (IUGG), the sphere ``distance(from:)`` measures on.
    static let earthRadius: CLLocationDistance = 6_371_008.8

    /// A location at a latitude and longitude, altitude unknown.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date())
    }

    /// A location with its accuracies and time; speed and course unknown.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
            verticalAccuracy: verticalAccuracy, course: -1, speed: -1, timestamp: timestamp)
    }

    /// A location with its course and speed; their accuracies unknown.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
            verticalAccuracy: verticalAccuracy, course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1,
            timestamp: timestamp)
    }

    /// A location with every value given.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
        speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
    }

    /// The distance in meters to `location` along the surface of the Earth: the great circle
    /// between the two coordinates on a sphere of the Earth's mean radius (haversine), altitudes
    /// ignored. It is within 0.5% of the distance on the WGS 84 ellipsoid.
    ///
    /// ```swift
    /// let paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
    /// let london = CLLocation(latitude: 51.5074, longitude: -0.1278)
    /// paris.distance(from: london)   // about 343 560
    /// ```
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radians = Double.pi / 180
        let latitude1 = coordinate.latitude * radians
        let latitude2 = location.coordinate.latitude * radians
        let halfLatitude = (latitude2 - latitude1) / 2
        let halfLongitude = (location.coordinate.longitude - coordinate.longitude) * radians / 2
        let chord =
            sin(halfLatitude) * sin(halfLatitude)
            + cos(latitude1) * cos(latitude2) * sin(halfLongitude) * sin(halfLongitude)
        return 2 * Self.earthRadius * asin(min(1, chord.squareRoot()))
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
