import PhotosCore

/// The user state a sidecar holds for one asset: what the library writes into it, and what other
/// tools put there for the same facts. A field that is `nil` (or an empty album set) is absent from
/// the sidecar: the sidecar says nothing about it, which is not the same as "false" or "no rating".
///
/// ```swift
/// var state = SidecarState()
/// state.localIdentifier = asset.localIdentifier
/// state.isFavorite = true
/// state.rating = 4
/// try SidecarFile.write(state, to: "/photos/IMG_1.JPG.xmp")
/// ```
public struct SidecarState: Hashable, Sendable {
    /// The asset's `localIdentifier` (`photosd:LocalIdentifier`): the same asset after a rebuild.
    public var localIdentifier: String?
    /// `xmp:Rating`: 0 (unrated) to 5 stars, -1 rejected (darktable's reject). digiKam's
    /// `MicrosoftPhoto:Rating` is read when `xmp:Rating` is absent.
    public var rating: Int?
    /// `photosd:Favorite`, also written as `fstop:favorite` (1 or 0), which PhotoPrism reads. When the
    /// two disagree, `fstop:favorite` wins: the library writes them together, so another tool changed it.
    public var isFavorite: Bool?
    /// `photosd:Hidden`.
    public var isHidden: Bool?
    /// `exif:DateTimeOriginal`, with its UTC offset when it has one (`photoshop:DateCreated` is read
    /// when it is absent).
    public var creationDate: SidecarDate?
    /// `exif:GPSLatitude`, `exif:GPSLongitude`, `exif:GPSAltitude` and `exif:GPSAltitudeRef`.
    public var location: SidecarLocation?
    /// The user albums holding the asset (`photosd:Albums`, a bag of identifier and title).
    public var albums: Set<SidecarAlbum>
    /// The other file of a Live Photo or a RAW+JPEG pair (`photosd:Pair`).
    public var pair: SidecarPair?
    /// Where the asset's edit is described (`photosd:Adjustment`).
    public var adjustment: SidecarAdjustment?

    /// A state with every field absent unless given.
    public init(
        localIdentifier: String? = nil, rating: Int? = nil, isFavorite: Bool? = nil, isHidden: Bool? = nil,
        creationDate: SidecarDate? = nil, location: SidecarLocation? = nil, albums: Set<SidecarAlbum> = [],
        pair: SidecarPair? = nil, adjustment: SidecarAdjustment? = nil
    ) {
        self.localIdentifier = localIdentifier
        self.rating = rating
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.creationDate = creationDate
        self.location = location
        self.albums = albums
        self.pair = pair
        self.adjustment = adjustment
    }
}

/// One field of a ``SidecarState``: the unit the three-way merge takes, writes or reports.
public enum SidecarField: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case localIdentifier, rating, isFavorite, isHidden, creationDate, location, albums, pair, adjustment

    /// The field's Swift name (`isFavorite`).
    public var description: String { rawValue }
}

/// One field's value, for comparison and reports.
public enum SidecarValue: Hashable, Sendable, CustomStringConvertible {
    case text(String)
    case integer(Int)
    case flag(Bool)
    case date(SidecarDate)
    case location(SidecarLocation)
    case albums(Set<SidecarAlbum>)
    case pair(SidecarPair)
    case adjustment(SidecarAdjustment)

    /// The value as a person reads it (`4`, `true`, `2024-05-01T10:00:00+02:00`, `48.8566,2.3522`).
    public var description: String {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .flag(let value): String(value)
        case .date(let date): date.description
        case .location(let place): "\(place.latitude),\(place.longitude)" + (place.altitude.map { ",\($0)" } ?? "")
        case .albums(let albums): albums.sorted().map(\.identifier).joined(separator: " ")
        case .pair(let pair): "\(pair.kind.rawValue) \(pair.file)"
        case .adjustment(let adjustment):
            "\(adjustment.formatIdentifier) \(adjustment.formatVersion) \(adjustment.data)"
        }
    }
}

extension SidecarState {
    /// A field's value: `nil` when absent (an empty album set is absent).
    public func value(of field: SidecarField) -> SidecarValue? {
        switch field {
        case .localIdentifier: localIdentifier.map(SidecarValue.text)
        case .rating: rating.map(SidecarValue.integer)
        case .isFavorite: isFavorite.map(SidecarValue.flag)
        case .isHidden: isHidden.map(SidecarValue.flag)
        case .creationDate: creationDate.map(SidecarValue.date)
        case .location: location.map(SidecarValue.location)
        case .albums: albums.isEmpty ? nil : .albums(albums)
        case .pair: pair.map(SidecarValue.pair)
        case .adjustment: adjustment.map(SidecarValue.adjustment)
        }
    }

    /// Copies `field` from `other`.
    public mutating func take(_ field: SidecarField, from other: SidecarState) {
        switch field {
        case .localIdentifier: localIdentifier = other.localIdentifier
        case .rating: rating = other.rating
        case .isFavorite: isFavorite = other.isFavorite
        case .isHidden: isHidden = other.isHidden
        case .creationDate: creationDate = other.creationDate
        case .location: location = other.location
        case .albums: albums = other.albums
        case .pair: pair = other.pair
        case .adjustment: adjustment = other.adjustment
        }
    }
}

/// A date and time as a sidecar writes it: the local wall-clock time, and its offset from UTC when
/// known (`2024-05-01T10:00:00+02:00`); without one (`2024-05-01T10:00:00`) it is a floating local
/// time, which the reader places in a time zone of its choosing.
public struct SidecarDate: Hashable, Sendable, CustomStringConvertible {
    /// The local date and time.
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Nanoseconds past `second` (written as a decimal fraction when not zero).
    public var nanosecond: Int
    /// Seconds east of UTC (whole minutes), or `nil` for a floating local time.
    public var utcOffsetSeconds: Int?

    /// A local date and time as given.
    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0,
        utcOffsetSeconds: Int?
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
        // Sidecars write offsets in minutes.
        self.utcOffsetSeconds = utcOffsetSeconds.map { Int((Double($0) / 60).rounded()) * 60 }
    }

    /// The local time of the instant `secondsSince1970` at `utcOffsetSeconds` east of UTC, to the
    /// millisecond (what the library stores).
    public init(secondsSince1970: Double, utcOffsetSeconds: Int) {
        let milliseconds = Int64((secondsSince1970 * 1000).rounded()) + Int64(utcOffsetSeconds) * 1000
        let (days, inDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millisecondOfDay) = inDay < 0 ? (days - 1, inDay + 86_400_000) : (days, inDay)
        let civil = CivilDate.from(daysSince1970: day)
        let secondOfDay = Int(millisecondOfDay / 1000)
        self.init(
            year: Int(civil.year), month: Int(civil.month), day: Int(civil.day), hour: secondOfDay / 3600,
            minute: secondOfDay / 60 % 60, second: secondOfDay % 60,
            nanosecond: Int(millisecondOfDay % 1000) * 1_000_000, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The instant, in seconds since 1970; a floating time is taken at `floatingOffsetSeconds` east of UTC.
    public func secondsSince1970(floatingOffsetSeconds: Int = 0) -> Double {
        // Howard Hinnant's days_from_civil, the inverse of CivilDate.from.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + Double(nanosecond) / 1e9
        return local - Double(utcOffsetSeconds ?? floatingOffsetSeconds)
    }

    /// The XMP form: `2024-05-01T10:00:00+02:00`, `2024-05-01T10:00:00.250Z`, `2024-05-01T10:00:00`.
    public var description: String { XMPValues.format(self) }
}

/// A place as a sidecar writes it: latitude and longitude to a millionth of a minute of arc (about
/// 2 mm), as `DD,MM.mmmmmmN`, and the altitude to the centimetre. Values are kept at that precision,
/// so a place written and read back is equal to itself.
public struct SidecarLocation: Hashable, Sendable {
    /// Millionths of a minute of arc (north and east positive).
    let latitudeUnits: Int64, longitudeUnits: Int64
    /// Centimetres above sea level (below when negative).
    let altitudeCentimetres: Int64?

    /// Degrees north of the equator (south when negative).
    public var latitude: Double { Double(latitudeUnits) / XMPValues.unitsPerDegree }
    /// Degrees east of Greenwich (west when negative).
    public var longitude: Double { Double(longitudeUnits) / XMPValues.unitsPerDegree }
    /// Metres above sea level (below when negative), if known.
    public var altitude: Double? { altitudeCentimetres.map { Double($0) / 100 } }

    /// A place, rounded to what a sidecar holds; nil when a coordinate is out of range or not a number.
    public init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.latitudeUnits = Int64((latitude * XMPValues.unitsPerDegree).rounded())
        self.longitudeUnits = Int64((longitude * XMPValues.unitsPerDegree).rounded())
        if let altitude, altitude.isFinite, abs(altitude) < 1e9 {
            self.altitudeCentimetres = Int64((altitude * 100).rounded())
        } else {
            self.altitudeCentimetres = nil
        }
    }

    init(latitudeUnits: Int64, longitudeUnits: Int64, altitudeCentimetres: Int64?) {
        self.latitudeUnits = latitudeUnits
        self.longitudeUnits = longitudeUnits
        self.altitudeCentimetres = altitudeCentimetres
    }
}

/// A user album holding the asset: its local identifier and its title when the sidecar was written.
public struct SidecarAlbum: Hashable, Sendable, Comparable {
    /// The album's `localIdentifier` (`photosd:Identifier`).
    public var identifier: String
    /// Its title (`photosd:Title`), for people and for a rebuild that lost the album manifest.
    public var title: String?

    /// An album by identifier and title.
    public init(identifier: String, title: String?) {
        self.identifier = identifier
        self.title = title
    }

    /// By identifier, then title: the order albums are written in.
    public static func < (left: SidecarAlbum, right: SidecarAlbum) -> Bool {
        (left.identifier, left.title ?? "") < (right.identifier, right.title ?? "")
    }
}

/// The other file of a pair the asset is made of (`photosd:Pair`): `photosd:Kind` and `photosd:File`,
/// a name in the same directory.
public struct SidecarPair: Hashable, Sendable {
    /// What pairs the two files.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        /// The name written (`livePhoto`).
        public var rawValue: String
        /// Creates a kind from its written name; other tools' or later versions' names are kept as read.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A Live Photo: the still and its movie (the partner is the movie, or the still).
        public static let livePhoto = Kind(rawValue: "livePhoto")
        /// A RAW file and the JPEG (or HEIC) the camera wrote with it.
        public static let rawAndProcessed = Kind(rawValue: "rawAndProcessed")
    }

    /// What pairs the files.
    public var kind: Kind
    /// The partner's file name, in the same directory.
    public var file: String

    /// A pair of `kind` with the partner `file`.
    public init(kind: Kind, file: String) {
        self.kind = kind
        self.file = file
    }
}

/// Where the asset's edit is described (`photosd:Adjustment`): PhotoKit's adjustment data format and
/// version, and a reference to the data the library keeps (`photosd:Data`: the library decides what;
/// a path relative to its data folder, or a content hash).
public struct SidecarAdjustment: Hashable, Sendable {
    /// `PHAdjustmentData.formatIdentifier` (`photosd:FormatIdentifier`).
    public var formatIdentifier: String
    /// `PHAdjustmentData.formatVersion` (`photosd:FormatVersion`).
    public var formatVersion: String
    /// The reference to the adjustment data (`photosd:Data`).
    public var data: String

    /// An adjustment reference.
    public init(formatIdentifier: String, formatVersion: String, data: String) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }
}
