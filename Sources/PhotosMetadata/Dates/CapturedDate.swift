import Foundation
import PhotosCore

/// A date as a file writes it: wall-clock fields, an optional fraction of a second, and the UTC
/// offset when the file states one.
///
/// Parsing is strict about what makes a date usable and lenient about punctuation: EXIF's
/// `2008:07:01 17:27:03`, XMP's `2021-10-27T10:43:46+02:00`, a missing seconds field, a trailing
/// `Z`. All-zero and blank dates (`0000:00:00 00:00:00`, `    :  :     :  :  `), which cameras write
/// when their clock was never set, parse to `nil`, as do impossible ones (month 13, 30 February).
struct CapturedDate: Sendable, Hashable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// The fraction of a second, `0 ..< 1`.
    var fraction: Double = 0
    /// Seconds east of UTC, when known.
    var offset: Int?

    /// Parses an EXIF or XMP date-time; `nil` for blank, all-zero, or invalid dates.
    init?(parsing text: String) {
        let scalars = Array(text.trimmingWhitespace().unicodeScalars)
        var cursor = 0

        func number(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while cursor < scalars.count, digits < maxDigits, let digit = scalars[cursor].digitValue {
                value = value * 10 + digit
                digits += 1
                cursor += 1
            }
            return digits == 0 ? nil : value
        }
        // Two scalars, not a set: a set literal was built at each call, for every date of every file.
        func skip(_ separator: Unicode.Scalar, or other: Unicode.Scalar? = nil) -> Bool {
            guard cursor < scalars.count, scalars[cursor] == separator || scalars[cursor] == other else { return false }
            cursor += 1
            return true
        }

        guard let year = number(maxDigits: 4), skip(":", or: "-"), let month = number(maxDigits: 2),
            skip(":", or: "-"), let day = number(maxDigits: 2)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        if skip(" ", or: "T") {
            while skip(" ") {}
            guard let parsedHour = number(maxDigits: 2), skip(":"), let parsedMinute = number(maxDigits: 2) else {
                return nil
            }
            hour = parsedHour
            minute = parsedMinute
            if skip(":") {
                guard let parsedSecond = number(maxDigits: 2) else { return nil }
                second = parsedSecond
                if skip(".", or: ",") {
                    let start = cursor
                    _ = number(maxDigits: 9)
                    fraction = Self.fraction(String(String.UnicodeScalarView(scalars[start..<cursor]))) ?? 0
                }
            }
        }
        let rest = String(String.UnicodeScalarView(scalars[cursor...])).trimmingWhitespace()
        let offset: Int?
        if rest.isEmpty {
            offset = nil
        } else if let parsed = Self.offset(parsing: rest) {
            offset = parsed
        } else {
            return nil
        }
        guard year >= 1, (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fraction = fraction
        self.offset = offset
        guard isValidDay else { return nil }
    }

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double = 0, offset: Int? = nil)
    {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fraction = fraction
        self.offset = offset
    }

    /// The wall-clock time of a camera that counts seconds since 1970 in local time (Canon CRW).
    init(wallClockSecondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondsOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.from(daysSince1970: days)
        self.init(
            year: year, month: month, day: day, hour: secondsOfDay / 3600, minute: secondsOfDay % 3600 / 60,
            second: secondsOfDay % 60
        )
    }

    /// Parses a UTC offset: `+01:00`, `-0530`, `+09`, `Z`; `nil` for blank or malformed text and
    /// for offsets beyond ±18 hours.
    static func offset(parsing text: String) -> Int? {
        let trimmed = text.trimmingWhitespace()
        if trimmed == "Z" || trimmed == "z" { return 0 }
        let scalars = Array(trimmed.unicodeScalars)
        guard let sign = scalars.first, sign == "+" || sign == "-" else { return nil }
        let digits = scalars.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.digitValue != nil }),
            scalars.dropFirst().allSatisfy({ $0 == ":" || $0.digitValue != nil })
        else { return nil }
        let values = digits.compactMap(\.digitValue)
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == "-" ? -seconds : seconds
    }

    /// Parses EXIF SubSecTime digits (`"02"` is 0.02 s); `nil` for blank or non-digit text.
    static func fraction(_ text: String) -> Double? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ $0.digitValue != nil }) else { return nil }
        return Double("0." + digits.prefix(9))
    }

    /// The instant this date names: at its own offset when known, otherwise read as wall-clock
    /// time in `timeZone`.
    func date(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        if let offset {
            guard let zone = TimeZone(secondsFromGMT: offset) else { return nil }
            calendar.timeZone = zone
        } else {
            calendar.timeZone = timeZone
        }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components)?.addingTimeInterval(fraction)
    }

    private var isValidDay: Bool {
        let daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if day > daysInMonth[month - 1] { return false }
        if month == 2, day == 29 {
            return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        }
        return true
    }
}

extension Unicode.Scalar {
    /// The value of an ASCII digit, or `nil`.
    var digitValue: Int? {
        value >= 0x30 && value <= 0x39 ? Int(value - 0x30) : nil
    }
}
