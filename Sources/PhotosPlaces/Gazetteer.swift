import Foundation

/// Populated places indexed by position, answering "which place is nearest to here, within so many
/// metres": what names an album after where its photos were taken.
///
/// Built from a GeoNames file the user supplies (`cities1000.txt`...; see ``init(contentsOf:countryNames:)``),
/// read once, streaming, into a grid of half-degree cells: each place is a few numbers and its
/// name's bytes, in arrays sorted by cell, so a lookup reads the few cells a circle around the
/// position touches.
///
/// ```swift
/// let gazetteer = try Gazetteer(contentsOf: "/home/me/.local/share/photosd/places/cities1000.txt")
/// gazetteer.nearestPlace(latitude: 45.76, longitude: 4.84)?.name   // "Lyon"
/// gazetteer.nearestPlace(latitude: 0, longitude: -30)               // nil: the Atlantic
/// ```
public final class Gazetteer: Sendable {
    /// How far a position may be from a place to be named after it: 50 km, a town's surroundings
    /// (a hike or a beach out of town still bears the town's name), not a region's.
    public static let defaultRadius = 50_000.0
    /// The mean radius of the Earth (IUGG), in metres: what the haversine distance uses.
    public static let earthRadius = 6_371_008.8

    /// Places read from the file, after those skipped.
    public var count: Int { latitudes.count }
    /// Lines that were not a place in GeoNames' format (too few or too many columns, a coordinate
    /// that is not a number or out of range, no name): skipped, never fatal. A truncated file's
    /// last line is one.
    public let skippedLines: Int
    /// Well-formed lines left out because they do not name a living populated place (another
    /// feature class than `P`, or a historical, abandoned, destroyed place or a section of one).
    public let otherFeatures: Int

    // The places, sorted by cell (row-major, `cellStarts[cell]..<cellStarts[cell + 1]`).
    private let latitudes: [Float]
    private let longitudes: [Float]
    private let populations: [UInt32]
    /// Two ASCII letters, the first in the high byte; 0 for none.
    private let countries: [UInt16]
    /// The names' UTF-8 bytes, one after the other; place `i`'s are `nameStarts[i]..<nameStarts[i + 1]`.
    private let nameBytes: [UInt8]
    private let nameStarts: [UInt32]
    private let cellStarts: [UInt32]
    /// Country names by code, from tzdata's `iso3166.tab`.
    private let countryNames: [String: String]

    static let cellDegrees = 0.5
    static let rows = Int(180 / cellDegrees)
    static let columns = Int(360 / cellDegrees)

    /// The gazetteer of these places, with these country names by ISO code.
    public convenience init(places: [Place], countryNames: [String: String] = [:]) {
        var builder = Builder()
        for place in places {
            builder.add(
                name: Array(place.name.utf8), country: Self.countryKey(place.countryCode),
                latitude: place.latitude, longitude: place.longitude, population: place.population)
        }
        self.init(builder: builder, skippedLines: 0, otherFeatures: 0, countryNames: countryNames)
    }

    init(builder: Builder, skippedLines: Int, otherFeatures: Int, countryNames: [String: String]) {
        let count = builder.latitudes.count
        // A counting sort by cell: the cells' starts, then each place at its cell's next slot.
        var starts = [UInt32](repeating: 0, count: Self.rows * Self.columns + 1)
        var cells = [Int](repeating: 0, count: count)
        for i in 0..<count {
            let cell = Self.cell(latitude: Double(builder.latitudes[i]), longitude: Double(builder.longitudes[i]))
            cells[i] = cell
            starts[cell + 1] += 1
        }
        for cell in 0..<(starts.count - 1) { starts[cell + 1] += starts[cell] }
        var next = starts
        var order = [Int](repeating: 0, count: count)
        for i in 0..<count {
            order[Int(next[cells[i]])] = i
            next[cells[i]] += 1
        }
        latitudes = order.map { builder.latitudes[$0] }
        longitudes = order.map { builder.longitudes[$0] }
        populations = order.map { builder.populations[$0] }
        countries = order.map { builder.countries[$0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(builder.nameBytes.count)
        var nameStarts: [UInt32] = [0]
        nameStarts.reserveCapacity(count + 1)
        for i in order {
            bytes.append(contentsOf: builder.nameBytes[Int(builder.nameStarts[i])..<Int(builder.nameStarts[i + 1])])
            nameStarts.append(UInt32(bytes.count))
        }
        nameBytes = bytes
        self.nameStarts = nameStarts
        cellStarts = starts
        self.skippedLines = skippedLines
        self.otherFeatures = otherFeatures
        self.countryNames = countryNames
    }

    /// The place nearest to a position (degrees) within `radius` metres along the Earth's surface;
    /// nil when there is none, or the position is not one (NaN, a latitude beyond ±90°).
    public func nearestPlace(latitude: Double, longitude: Double, within radius: Double = defaultRadius) -> Place? {
        nearestIndex(latitude: latitude, longitude: longitude, within: radius).map(place(at:))
    }

    /// The name of a country by ISO 3166 code (`FR` → `France`), as tzdata's table gives it; nil
    /// when the table was not found or lacks the code.
    public func countryName(forCode code: String) -> String? {
        countryNames[code]
    }

    /// The distance in metres between two positions along the Earth's surface (the haversine formula).
    public static func distance(
        from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)
    ) -> Double {
        let (φ1, φ2) = (a.latitude * .pi / 180, b.latitude * .pi / 180)
        let Δφ = φ2 - φ1
        let Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    // MARK: Internals

    /// The index of the nearest place within `radius` metres (the more populated of two as near,
    /// then the first read).
    func nearestIndex(latitude: Double, longitude: Double, within radius: Double) -> Int? {
        guard (-90...90).contains(latitude), longitude.isFinite, radius >= 0, count > 0 else { return nil }
        let longitude = Self.normalized(longitude)
        let degrees = radius / (Self.earthRadius * .pi / 180)
        let rows = Self.row(latitude - degrees)...Self.row(latitude + degrees)
        // The widest the circle gets, in longitude: at its edge nearest a pole.
        let farthest = min(90, max(abs(latitude - degrees), abs(latitude + degrees)))
        let span = farthest >= 89.999 ? 360 : degrees / cos(farthest * .pi / 180)
        let columns: [Int]
        if span >= 180 {
            columns = Array(0..<Self.columns)
        } else {
            let first = Int(((longitude - span + 180) / Self.cellDegrees).rounded(.down))
            let last = Int(((longitude + span + 180) / Self.cellDegrees).rounded(.down))
            // Across the antimeridian, the columns wrap.
            columns = (first...last).map { ($0 % Self.columns + Self.columns) % Self.columns }
        }
        var best: (index: Int, distance: Double)?
        for row in rows {
            for column in columns {
                let cell = row * Self.columns + column
                for i in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    let distance = Self.distance(
                        from: (latitude, longitude), to: (Double(latitudes[i]), Double(longitudes[i])))
                    guard distance <= radius else { continue }
                    if let current = best {
                        if distance > current.distance { continue }
                        if distance == current.distance && populations[i] <= populations[current.index] { continue }
                    }
                    best = (i, distance)
                }
            }
        }
        return best?.index
    }

    func place(at i: Int) -> Place {
        Place(
            name: name(at: i), countryCode: countryCode(at: i), latitude: Double(latitudes[i]),
            longitude: Double(longitudes[i]), population: Int(populations[i]))
    }

    func name(at i: Int) -> String {
        String(decoding: nameBytes[Int(nameStarts[i])..<Int(nameStarts[i + 1])], as: UTF8.self)
    }

    func countryCode(at i: Int) -> String {
        let key = countries[i]
        guard key != 0 else { return "" }
        return String(decoding: [UInt8(key >> 8), UInt8(key & 0xFF)], as: UTF8.self)
    }

    static func countryKey(_ code: String) -> UInt16 {
        let bytes = Array(code.utf8)
        guard bytes.count == 2 else { return 0 }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    static func row(_ latitude: Double) -> Int {
        min(rows - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
    }

    static func cell(latitude: Double, longitude: Double) -> Int {
        let column = min(columns - 1, max(0, Int(((normalized(longitude) + 180) / cellDegrees).rounded(.down))))
        return row(latitude) * columns + column
    }

    /// The longitude in -180..<180.
    static func normalized(_ longitude: Double) -> Double {
        guard !(-180..<180).contains(longitude) else { return longitude }
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }

    /// Places as they are read, before they are sorted by cell.
    struct Builder {
        var latitudes: [Float] = []
        var longitudes: [Float] = []
        var populations: [UInt32] = []
        var countries: [UInt16] = []
        var nameBytes: [UInt8] = []
        var nameStarts: [UInt32] = [0]

        mutating func add(
            name: some Collection<UInt8>, country: UInt16, latitude: Double, longitude: Double, population: Int
        ) {
            latitudes.append(Float(latitude))
            longitudes.append(Float(normalized(longitude)))
            populations.append(UInt32(clamping: population))
            countries.append(country)
            nameBytes.append(contentsOf: name)
            nameStarts.append(UInt32(nameBytes.count))
        }
    }
}
