/// The text forms of the values sidecars hold, written and read (pure). Readers take what other tools
/// write as well: darktable's EXIF-style dates (`2023:07:14 18:22:05`), coordinates in seconds
/// (`48,51,24N`) or decimal degrees, ratings as decimals (`3.0`).
///
/// | value | written | also read |
/// |---|---|---|
/// | date | `2024-05-01T10:00:00+02:00`, `…:00.25Z`, floating `…T10:00:00` | `2024:05:01 10:00:00`, `2024-05-01`, `2024` |
/// | coordinate | `48,51.396000N` | `48,51,23.76N`, `48.8566N`, `-48.8566` |
/// | altitude | `3520/100` and ref `0` (above) or `1` (below) | `35.2`, `352/10` |
/// | Boolean | `True`, `False` | `true`, `1`, `0` |
public enum XMPValues {
    /// Millionths of a minute of arc per degree: the precision coordinates are written at.
    static let unitsPerDegree = 60_000_000.0

    // MARK: Dates

    /// The XMP form of a date: `2024-05-01T10:00:00+02:00`; `Z` at UTC; no offset when floating; a
    /// fraction of a second when there is one, without trailing zeros.
    public static func format(_ date: SidecarDate) -> String {
        var text =
            "\(padded(date.year, 4))-\(padded(date.month, 2))-\(padded(date.day, 2))T"
            + "\(padded(date.hour, 2)):\(padded(date.minute, 2)):\(padded(date.second, 2))"
        if date.nanosecond > 0 {
            var fraction = padded(date.nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        if let offset = date.utcOffsetSeconds {
            if offset == 0 {
                text += "Z"
            } else {
                let minutes = (abs(offset) + 30) / 60
                text += (offset < 0 ? "-" : "+") + padded(minutes / 60, 2) + ":" + padded(minutes % 60, 2)
            }
        }
        return text
    }

    /// A date in XMP's forms (ISO 8601: a year, a month, a day, minutes, seconds, a fraction, `Z` or an
    /// offset) or EXIF's (`2023:07:14 18:22:05`); nil for anything else or an impossible date.
    public static func date(from text: String) -> SidecarDate? {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let year = scanner.digits(exactly: 4) else { return nil }
        var result = SidecarDate(year: year, month: 1, day: 1, utcOffsetSeconds: nil)
        let dateSeparator = scanner.peek
        if dateSeparator == UInt8(ascii: "-") || dateSeparator == UInt8(ascii: ":") {
            scanner.advance()
            guard let month = scanner.digits(exactly: 2) else { return nil }
            result.month = month
            if scanner.take(dateSeparator!) {
                guard let day = scanner.digits(exactly: 2) else { return nil }
                result.day = day
                if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: " ")) {
                    guard let hour = scanner.digits(exactly: 2), scanner.take(UInt8(ascii: ":")),
                        let minute = scanner.digits(exactly: 2)
                    else { return nil }
                    result.hour = hour
                    result.minute = minute
                    if scanner.take(UInt8(ascii: ":")) {
                        guard let second = scanner.digits(exactly: 2) else { return nil }
                        result.second = second
                        if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                            guard let fraction = scanner.fraction(nanosecondDigits: 9) else { return nil }
                            result.nanosecond = fraction
                        }
                    }
                    guard let offset = scanner.offset() else { return nil }
                    result.utcOffsetSeconds = offset
                }
            }
        }
        scanner.skipSpaces()
        guard scanner.atEnd, (1...12).contains(result.month), (1...31).contains(result.day),
            result.day <= daysIn(month: result.month, year: result.year), result.hour < 24, result.minute < 60,
            result.second < 61
        else { return nil }
        return result
    }

    // MARK: Places

    /// `48,51.396000N`: degrees, minutes to a millionth, and the hemisphere (`N`/`S` for a latitude,
    /// `E`/`W` for a longitude).
    static func formatCoordinate(units: Int64, isLatitude: Bool) -> String {
        let reference = isLatitude ? (units < 0 ? "S" : "N") : (units < 0 ? "W" : "E")
        let magnitude = units.magnitude
        let degrees = magnitude / 60_000_000
        let minutes = magnitude % 60_000_000 / 1_000_000
        let millionths = magnitude % 1_000_000
        return "\(degrees),\(padded(Int(minutes), 2)).\(padded(Int(millionths), 6))\(reference)"
    }

    /// A coordinate in millionths of a minute of arc, south and west negative: `DD,MM.mmmmK`,
    /// `DD,MM,SS.sK` or `DD.ddddK` (`K` one of `NSEW`, any case, or none with a sign).
    static func coordinateUnits(from text: String, isLatitude: Bool) -> Int64? {
        var body = Substring(text.trimmingSpaces)
        var negative = false
        if let last = body.last, "NSEWnsew".contains(last) {
            let reference = last.uppercased()
            guard isLatitude ? "NS".contains(reference) : "EW".contains(reference) else { return nil }
            negative = reference == "S" || reference == "W"
            body = body.dropLast()
        }
        if body.first == "-" {
            negative.toggle()
            body = body.dropFirst()
        } else if body.first == "+" {
            body = body.dropFirst()
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumberOrDot) })
        else { return nil }
        var units: Int64
        switch parts.count {
        case 1:
            guard let degrees = Double(parts[0]) else { return nil }
            units = Int64((degrees * unitsPerDegree).rounded())
        case 2:
            guard let degrees = Int64(parts[0]), let minutes = millionths(of: parts[1]) else { return nil }
            units = degrees * 60_000_000 + minutes
        default:
            guard let degrees = Int64(parts[0]), let minutes = Int64(parts[1]), let seconds = Double(parts[2]) else {
                return nil
            }
            units = degrees * 60_000_000 + minutes * 1_000_000 + Int64((seconds * 1_000_000 / 60).rounded())
        }
        let limit: Int64 = (isLatitude ? 90 : 180) * 60_000_000
        guard units <= limit else { return nil }
        return negative ? -units : units
    }

    /// `12.3456789` as 12,345,679 millionths (rounded at the seventh decimal), exactly, without a Double.
    private static func millionths(of text: Substring) -> Int64? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = Int64(pieces[0].isEmpty ? "0" : pieces[0]), whole < 1_000_000_000 else { return nil }
        var fraction: Int64 = 0
        if pieces.count == 2 {
            let digits = Array(pieces[1].utf8)
            guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            for index in 0..<6 { fraction = fraction * 10 + (index < digits.count ? Int64(digits[index] - 48) : 0) }
            if digits.count > 6, digits[6] >= 53 { fraction += 1 }
        }
        return whole * 1_000_000 + fraction
    }

    /// `3520/100`: an altitude's magnitude in centimetres, as the rational EXIF writes.
    static func formatAltitude(centimetres: Int64) -> String { "\(centimetres.magnitude)/100" }

    /// An altitude's magnitude in centimetres from `3520/100`, `35.2` or `35`.
    static func altitudeCentimetres(from text: String) -> Int64? {
        let parts = text.trimmingSpaces.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let numerator = Double(parts[0]) else { return nil }
        let denominator = parts.count == 2 ? Double(parts[1]) : 1
        guard let denominator, denominator != 0 else { return nil }
        let metres = numerator / denominator
        guard metres.isFinite, abs(metres) < 1e9 else { return nil }
        return Int64((metres * 100).rounded())
    }

    // MARK: Simple values

    /// `True`/`False` (XMP's Boolean), also `true`, `1`, `0`.
    static func bool(from text: String) -> Bool? {
        switch text.trimmingSpaces.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }

    /// A rating from -1 to 5 (`4`, `4.0`); nil outside that range.
    static func rating(from text: String) -> Int? {
        guard let value = Double(text.trimmingSpaces), value.isFinite else { return nil }
        let rounded = Int(value.rounded())
        return (-1...5).contains(rounded) ? rounded : nil
    }

    /// digiKam's and Windows' `MicrosoftPhoto:Rating` percentages (1, 25, 50, 75, 99) as stars.
    static func rating(fromPercent text: String) -> Int? {
        guard let value = Double(text.trimmingSpaces), value.isFinite, value >= 0, value <= 100 else { return nil }
        switch value {
        case 0: return 0
        case ..<13: return 1
        case ..<38: return 2
        case ..<63: return 3
        case ..<88: return 4
        default: return 5
        }
    }

    // MARK: Helpers

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads a date's characters.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }
        mutating func advance() { position += 1 }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        mutating func skipSpaces() { while peek == UInt8(ascii: " ") { position += 1 } }

        mutating func digits(exactly count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            position += count
            return value
        }

        /// The digits of a fraction of a second, as nanoseconds (digits past the ninth are dropped).
        mutating func fraction(nanosecondDigits: Int) -> Int? {
            var value = 0
            var count = 0
            while let byte = peek, byte >= 48, byte <= 57 {
                if count < nanosecondDigits {
                    value = value * 10 + Int(byte - 48)
                    count += 1
                }
                position += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<nanosecondDigits { value *= 10 }
            return value
        }

        /// `Z`, `+02:00`, `-0530`, `+02`: seconds east of UTC; `.some(nil)` when there is none.
        mutating func offset() -> Int?? {
            if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return .some(0) }
            guard let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return .some(nil) }
            advance()
            guard let hours = digits(exactly: 2), hours <= 23 else { return nil }
            var minutes = 0
            if take(UInt8(ascii: ":")) {
                guard let value = digits(exactly: 2) else { return nil }
                minutes = value
            } else if let value = digits(exactly: 2) {
                minutes = value
            }
            guard minutes < 60 else { return nil }
            let seconds = (hours * 60 + minutes) * 60
            return .some(sign == UInt8(ascii: "-") ? -seconds : seconds)
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line ends.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring { String(self).trimmingSpaces }
}

extension Character {
    fileprivate var isNumberOrDot: Bool { isASCII && (isNumber || self == ".") }
}
