/// The EXIF fields a photo library keeps, interpreted.
///
/// Dates follow the order ExifTool's users expect (and the corpus oracle uses): DateTimeOriginal
/// with OffsetTimeOriginal and SubSecTimeOriginal, then CreateDate (DateTimeDigitized) with
/// OffsetTimeDigitized, then IFD0's DateTime (ModifyDate) with OffsetTime, and last a
/// DateTimeOriginal or CreateDate that a camera wrote to the wrong directory. XMP dates rank
/// between CreateDate and ModifyDate; the extractor merges them (see ``dates``).
struct ExifSummary: Sendable, Hashable {
    /// A creation-date candidate and its rank among all sources (lower wins).
    struct RankedDate: Sendable, Hashable {
        var rank: Int
        var date: CapturedDate
    }

    enum Rank {
        static let dateTimeOriginal = 0
        static let createDate = 1
        static let xmp = 2  // 2, 3, 4: XMP exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate
        static let modifyDate = 5
        static let misplaced = 6
    }

    var dates: [RankedDate] = []
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    /// GPSSpeed in metres per second (see ``speed(_:)``).
    var speed: Double?
    /// GPSTrack in degrees from true north (see ``course(_:)``).
    var course: Double?
    var orientation: Int?
    var make: String?
    var model: String?
    var pixelXDimension: Int?
    var pixelYDimension: Int?
    /// Apple's Live Photo identifier (maker note), see ``AppleMakerNote``.
    var contentIdentifier: String?
    /// Apple's burst identifier (maker note).
    var burstIdentifier: String?
    /// An HDR capture, by Apple's HDRImageType or CustomRendered, or another maker's note.
    var isHDR = false
    /// A screenshot, by the UserComment iOS writes into them.
    var isScreenshot = false
    /// A panorama, by the CustomRendered value iOS writes into them.
    var isPanorama = false
    /// The star rating, 0 to 5 (IFD0 Rating, as Windows and digiKam write it); nil when absent.
    var rating: Int?
    /// The lens, as phones name their cameras ("iPhone 12 front camera 2.71mm f/2.2").
    var lensModel: String?

    enum Tag {
        static let make: UInt16 = 0x010F
        static let rating: UInt16 = 0x4746
        static let lensModel: UInt16 = 0xA434
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let dateTimeOriginal: UInt16 = 0x9003
        static let createDate: UInt16 = 0x9004
        static let offsetTime: UInt16 = 0x9010
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let offsetTimeDigitized: UInt16 = 0x9012
        static let subSecTimeOriginal: UInt16 = 0x9291
        static let pixelXDimension: UInt16 = 0xA002
        static let pixelYDimension: UInt16 = 0xA003
        static let userComment: UInt16 = 0x9286
        static let customRendered: UInt16 = 0xA401
        static let gpsLatitudeRef: UInt16 = 0x0001
        static let gpsLatitude: UInt16 = 0x0002
        static let gpsLongitudeRef: UInt16 = 0x0003
        static let gpsLongitude: UInt16 = 0x0004
        static let gpsAltitudeRef: UInt16 = 0x0005
        static let gpsAltitude: UInt16 = 0x0006
        static let gpsSpeedRef: UInt16 = 0x000C
        static let gpsSpeed: UInt16 = 0x000D
        static let gpsTrackRef: UInt16 = 0x000E
        static let gpsTrack: UInt16 = 0x000F
    }

    init() {}

    /// Interprets the fields of a parsed EXIF block.
    init(_ exif: ExifReader) {
        let offsetTime = exif.string(Tag.offsetTime, in: .exif).flatMap(CapturedDate.offset(parsing:))
        if var original = exif.string(Tag.dateTimeOriginal, in: .exif).flatMap(CapturedDate.init(parsing:)) {
            if original.offset == nil {
                original.offset = exif.string(Tag.offsetTimeOriginal, in: .exif).flatMap(CapturedDate.offset(parsing:))
            }
            if original.fraction == 0,
                let fraction = exif.string(Tag.subSecTimeOriginal, in: .exif).flatMap(CapturedDate.fraction)
            {
                original.fraction = fraction
            }
            dates.append(RankedDate(rank: Rank.dateTimeOriginal, date: original))
        }
        if var created = exif.string(Tag.createDate, in: .exif).flatMap(CapturedDate.init(parsing:)) {
            if created.offset == nil {
                created.offset = exif.string(Tag.offsetTimeDigitized, in: .exif).flatMap(CapturedDate.offset(parsing:))
            }
            dates.append(RankedDate(rank: Rank.createDate, date: created))
        }
        if var modified = exif.string(Tag.dateTime, in: .ifd0).flatMap(CapturedDate.init(parsing:)) {
            if modified.offset == nil { modified.offset = offsetTime }
            dates.append(RankedDate(rank: Rank.modifyDate, date: modified))
        }
        for directory in [ExifReader.Directory.ifd0, .ifd1] {
            for tag in [Tag.dateTimeOriginal, Tag.createDate] {
                if let date = exif.string(tag, in: directory).flatMap(CapturedDate.init(parsing:)) {
                    dates.append(RankedDate(rank: Rank.misplaced, date: date))
                }
            }
        }

        latitude = Self.coordinate(exif, Tag.gpsLatitude, ref: Tag.gpsLatitudeRef, negative: "S", limit: 90)
        longitude = Self.coordinate(exif, Tag.gpsLongitude, ref: Tag.gpsLongitudeRef, negative: "W", limit: 180)
        if let value = exif.rationals(Tag.gpsAltitude, in: .gps)?.first, let metres = value, metres.isFinite {
            altitude = exif.integer(Tag.gpsAltitudeRef, in: .gps) == 1 ? -abs(metres) : metres
        }
        speed = Self.speed(exif)
        course = Self.course(exif)

        if let value = exif.integer(Tag.orientation, in: .ifd0), (1...8).contains(value) {
            orientation = value
        }
        make = exif.string(Tag.make, in: .ifd0)
        model = exif.string(Tag.model, in: .ifd0)
        rating = exif.integer(Tag.rating, in: .ifd0)
        lensModel = exif.string(Tag.lensModel, in: .exif)
        pixelXDimension = exif.integer(Tag.pixelXDimension, in: .exif)
        pixelYDimension = exif.integer(Tag.pixelYDimension, in: .exif)

        // iOS marks screenshots with this comment, in EXIF and in XMP (see ``XMPHints``).
        isScreenshot = Self.userComment(exif) == "Screenshot"
        // CustomRendered beyond the standard's 0 and 1 are Apple's: 2 and 3 HDR (without and with
        // the original kept), 4 that original, 6 panorama, 7 portrait HDR.
        if make == "Apple", let rendered = exif.integer(Tag.customRendered, in: .exif) {
            isHDR = [2, 3, 4, 7].contains(rendered)
            isPanorama = rendered == 6
        }
    }

    /// Interprets a parsed EXIF block and the maker note in its raw bytes, which libexif does not
    /// read correctly (see ``AppleMakerNote``).
    init(_ exif: ExifReader, block: [UInt8]) {
        self.init(exif)
        readMakerNote(in: block)
    }

    /// The UserComment text: an 8-byte character code (`ASCII`, `UNICODE`, or zeros for
    /// undefined), then the text; `nil` when empty.
    static func userComment(_ exif: ExifReader) -> String? {
        guard let value = exif.value(Tag.userComment, in: .exif), value.bytes.count > 8 else { return nil }
        let text = value.bytes.dropFirst(8)
        let decoded: String
        if value.bytes.matches(ascii: "UNICODE\0") {
            let units = stride(from: 0, to: text.count - 1, by: 2).compactMap { text.u16(at: $0, exif.order) }
            decoded = String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
        } else {
            decoded = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
        }
        let trimmed = decoded.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The best creation date among all candidates.
    var bestDate: CapturedDate? {
        dates.min { $0.rank < $1.rank }?.date
    }

    /// Degrees from a GPS degrees/minutes/seconds triple and its N/S or E/W reference.
    ///
    /// Like ExifTool's composite tags, a coordinate without its reference is dropped: the
    /// hemisphere would be a guess.
    private static func coordinate(
        _ exif: ExifReader, _ tag: UInt16, ref: UInt16, negative: String, limit: Double
    ) -> Double? {
        guard let parts = exif.rationals(tag, in: .gps), let reference = exif.string(ref, in: .gps)?.uppercased(),
            reference.hasPrefix("N") || reference.hasPrefix("S") || reference.hasPrefix("E")
                || reference.hasPrefix("W")
        else { return nil }
        var degrees = 0.0
        for (index, part) in parts.prefix(3).enumerated() {
            guard let part, part.isFinite, part >= 0 else { return nil }
            degrees += part / [1.0, 60.0, 3600.0][index]
        }
        guard degrees <= limit else { return nil }
        return reference.hasPrefix(negative) ? -degrees : degrees
    }

    /// Metres per second in a GPS speed unit (GPSSpeedRef): `K` km/h, `M` mph, `N` knots.
    static let metresPerSecond: [String: Double] = ["K": 1000.0 / 3600, "M": 1609.344 / 3600, "N": 1852.0 / 3600]

    /// GPSSpeed in metres per second, as `CLLocation.speed` holds it. The unit is GPSSpeedRef's,
    /// km/h when it is missing (the EXIF standard's default); an unknown unit, or a negative or
    /// non-finite speed, gives none.
    static func speed(_ exif: ExifReader) -> Double? {
        guard let first = exif.rationals(Tag.gpsSpeed, in: .gps)?.first, let value = first, value.isFinite, value >= 0,
            let factor = metresPerSecond[exif.string(Tag.gpsSpeedRef, in: .gps)?.uppercased() ?? "K"]
        else { return nil }
        return value * factor
    }

    /// GPSTrack, the direction the camera was moving in, in degrees clockwise from true north: what
    /// `CLLocation.course` holds ("the direction in which the device is traveling"). GPSImgDirection
    /// is where the lens pointed, a heading rather than a course, and is not taken for one. A track
    /// relative to magnetic north (GPSTrackRef `M`) gives none: turning it to true north needs the
    /// declination at the place and date. A missing GPSTrackRef means true north (the standard's
    /// default).
    static func course(_ exif: ExifReader) -> Double? {
        guard let first = exif.rationals(Tag.gpsTrack, in: .gps)?.first, let value = first, value.isFinite,
            (0...360).contains(value), (exif.string(Tag.gpsTrackRef, in: .gps)?.uppercased() ?? "T") == "T"
        else { return nil }
        return value == 360 ? 0 : value
    }
}
