/// A point on the earth as movies state it: latitude and longitude in signed decimal degrees, and
/// an altitude in metres when one is given.
///
/// QuickTime's `com.apple.quicktime.location.ISO6709` key and the `©xyz` user data atom hold an
/// ISO 6709 string (the standard's Annex H); the 3GPP `loci` box holds fixed-point numbers. Both
/// end here, so one rule decides what a usable point is: latitude within ±90°, longitude within
/// ±180°, all numbers finite.
///
/// The string forms, told apart by the number of digits before the decimal sign:
///
/// | Part      | Degrees       | Degrees and minutes | Degrees, minutes and seconds |
/// |-----------|---------------|---------------------|------------------------------|
/// | latitude  | `±DD.DDDD`    | `±DDMM.MMMM`        | `±DDMMSS.SSSS`               |
/// | longitude | `±DDD.DDDD`   | `±DDDMM.MMMM`       | `±DDDMMSS.SSSS`              |
///
/// The decimal part is optional (`+40-075/`), and only the last unit may have one. An altitude
/// (`±A.AAA`, any number of digits) may follow, then a coordinate reference system (`CRSWGS_84`),
/// then the closing `/`, which some writers leave out. Text from the first NUL on and white space
/// at either end are padding. Anything else — a missing sign, minutes or seconds of 60 or more,
/// a digit count that fits no form, a second point, other text — gives `nil`: no location is
/// better than a wrong one.
///
/// ```swift
/// let point = ISO6709Location(parsing: "+40.7484-073.9857+057.000/")
/// // latitude 40.7484, longitude -73.9857, altitude 57
/// ```
struct ISO6709Location: Equatable, Sendable {
    /// Degrees north (negative: south), within ±90.
    let latitude: Double
    /// Degrees east (negative: west), within ±180.
    let longitude: Double
    /// Metres above the reference surface (negative: below), when stated.
    let altitude: Double?

    /// A point whose numbers are in range; `nil` otherwise.
    init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
            altitude?.isFinite ?? true
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// The point an ISO 6709 string states; `nil` when the string is not one well-formed point.
    init?(parsing text: some StringProtocol) {
        var scanner = Scanner(text)
        guard let latitude = scanner.angle(degreeDigits: 2), let longitude = scanner.angle(degreeDigits: 3)
        else { return nil }
        var altitude: Double?
        if scanner.peek == UInt8(ascii: "+") || scanner.peek == UInt8(ascii: "-") {
            guard let value = scanner.number() else { return nil }
            altitude = value.value
        }
        guard scanner.referenceSystem(), scanner.end() else { return nil }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// Reads the string's parts in order over its UTF-8 bytes.
    private struct Scanner {
        private let bytes: [UInt8]
        private var index = 0

        init(_ text: some StringProtocol) {
            let content = text.utf8.prefix { $0 != 0 }
            let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
            bytes = Array(content.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// A sign, digits, and an optional decimal part of at least one digit: the value, and
        /// the number of digits before the decimal sign.
        mutating func number() -> (value: Double, integerDigits: Int)? {
            guard let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            let start = index
            index += 1
            let integerDigits = digits()
            guard integerDigits > 0 else { return nil }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
            return (value, integerDigits)
        }

        /// A latitude (2 degree digits) or longitude (3) in any of the three forms, in degrees.
        mutating func angle(degreeDigits: Int) -> Double? {
            let digitsStart = index + 1
            guard let number = number() else { return nil }
            let minutesStart = digitsStart + degreeDigits
            let magnitude: Double
            switch number.integerDigits - degreeDigits {
            case 0:
                return number.value
            case 2:
                guard let minutes = decimal(minutesStart..<index), minutes < 60 else { return nil }
                magnitude = integer(digitsStart..<minutesStart) + minutes / 60
            case 4:
                let minutes = integer(minutesStart..<minutesStart + 2)
                guard let seconds = decimal(minutesStart + 2..<index), minutes < 60, seconds < 60 else { return nil }
                magnitude = integer(digitsStart..<minutesStart) + minutes / 60 + seconds / 3600
            default:
                return nil
            }
            return number.value.sign == .minus ? -magnitude : magnitude
        }

        /// An optional `CRS` suffix naming the reference system; `false` when it names none.
        mutating func referenceSystem() -> Bool {
            guard bytes[index...].starts(with: "CRS".utf8) else { return true }
            index += 3
            let start = index
            while let byte = peek, byte != UInt8(ascii: "/"), byte > 0x20, byte < 0x7F { index += 1 }
            return index > start
        }

        /// Whether only the optional closing `/` is left.
        mutating func end() -> Bool {
            if peek == UInt8(ascii: "/") { index += 1 }
            return index == bytes.count
        }

        private mutating func digits() -> Int {
            let start = index
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }

        private func integer(_ range: Range<Int>) -> Double {
            Double(bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
        }

        private func decimal(_ range: Range<Int>) -> Double? {
            Double(String(decoding: bytes[range], as: UTF8.self))
        }
    }
}
