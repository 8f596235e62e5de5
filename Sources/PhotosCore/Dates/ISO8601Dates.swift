import Foundation

/// Reading ISO 8601 dates that carry their UTC offset, as people and programs write them to the
/// library (the API's `editAsset`, a predicate's `CAST("…", "NSDate")`).
public enum ISO8601Dates {
    /// The instant of an ISO 8601 date and time with a UTC offset (or `Z`), with or without
    /// fractional seconds; nil for anything else, a local time without an offset included.
    /// ```swift
    /// ISO8601Dates.date(from: "2024-05-01T12:00:00+02:00")   // 2024-05-01 10:00:00 UTC
    /// ISO8601Dates.date(from: "2024-05-01T12:00:00")         // nil
    /// ```
    public static func date(from text: String) -> Date? {
        dateAndOffset(from: text)?.date
    }

    /// The instant of an RFC 3339 date and time (`2024-05-01T12:00:00.5+02:00`, `…Z`), and its UTC
    /// offset in seconds (east positive; `Z` is 0); nil for anything else. Strict, unlike
    /// Foundation's formatter, which rolls `2020-02-30` over to March, reads `+25:00` as `+02:00`
    /// and year 0 as year 1: a year is 0001 to 9999, a month and a day exist in it, an hour is 00
    /// to 23, a minute and a second 00 to 59, an offset at most 14:00 (the widest of any time zone).
    /// Fractions are kept to the millisecond (truncated). Years before 1583 are read in the Julian
    /// calendar, as ICU (and so the library's writer) reads and writes them.
    public static func dateAndOffset(from text: String) -> (date: Date, offset: Int)? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
            let day = scanner.number(2), scanner.skip("T") || scanner.skip("t"), let hour = scanner.number(2),
            scanner.skip(":"), let minute = scanner.number(2), scanner.skip(":"), let second = scanner.number(2)
        else { return nil }
        // Milliseconds, as the library writes dates: further digits are dropped, never rounded up
        // into the next second (and day).
        var milliseconds = 0
        if scanner.skip(".") {
            var digits = 0
            while let digit = scanner.number(1) {
                if digits < 3 { milliseconds = milliseconds * 10 + digit }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        let offset: Int
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else {
            let sign: Int
            if scanner.skip("+") {
                sign = 1
            } else if scanner.skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = scanner.number(2), scanner.skip(":"), let minutes = scanner.number(2), minutes <= 59,
                hours * 60 + minutes <= 14 * 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.isAtEnd, (1...9999).contains(year), (1...12).contains(month),
            (1...daysInMonth(year: year, month: month)).contains(day), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        if year >= julianBefore {
            let days = CivilDate.daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
            return (Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000), offset)
        }
        // Before 1583 the dates the library writes are ICU's, in the Julian calendar
        // (`PhotosWire.ISO8601`): read by the same calendar, a date written is read back the same.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let whole = String(decoding: Array(text.utf8).prefix(19), as: UTF8.self).uppercased()
        let zone =
            offset == 0
            ? "Z"
            : (offset < 0 ? "-" : "+") + Self.twoDigits(abs(offset) / 3600) + ":"
                + Self.twoDigits(abs(offset) % 3600 / 60)
        guard let date = formatter.date(from: whole + zone) else { return nil }
        return (date.addingTimeInterval(Double(milliseconds) / 1000), offset)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The first year read in the Gregorian calendar; years before it are ICU's Julian ones.
    private static let julianBefore = 1583

    /// The days of a month as the calendar of its year counts them: Julian before 1583 (a leap
    /// year every fourth), Gregorian after.
    private static func daysInMonth(year: Int, month: Int) -> Int {
        if year < julianBefore, month == 2 { return year % 4 == 0 ? 29 : 28 }
        return CivilDate.daysInMonth(year: year, month: month)
    }

    /// Reads ASCII digits and punctuation from the front of some bytes.
    private struct DigitScanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        /// The number of exactly `count` decimal digits next, consumed; nil (nothing consumed) if
        /// fewer digits are there.
        mutating func number(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// Consumes `character` if it is next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }
    }
}
