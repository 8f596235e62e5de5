import Foundation
import PhotosCore

/// ISO 8601 dates with an explicit UTC offset, as the wire shapes write them:
/// `2020-01-01T10:00:00+01:00`, with milliseconds (`…:00.250+01:00`) when the date is not a whole
/// second, and `+00:00` rather than `Z` at UTC.
///
/// The text is byte for byte what Foundation's `ISO8601DateFormatter` writes (`PhotosWireTests`
/// checks it over many dates and offsets), but made by hand: on Linux a formatter costs about 2 ms
/// to create and 30 µs per date once made, which capped the asset JSON at about 1,250 assets a second.
/// Dates outside the hand-made path's domain (before 1583, where ICU switches to the Julian calendar;
/// after 9999; offsets that are not whole minutes, which Foundation rounds to one) go through
/// Foundation's formatter. Offsets beyond ±14 hours (no zone has one; Foundation's formatter stops the
/// program on them) are written at UTC: the instant is kept, the offset is not.
public enum ISO8601 {
    /// The widest offset written as it is: the widest of any time zone (Kiribati, +14:00).
    static let widestOffset = 14 * 3600

    /// Formats `date` as seen at `offset` seconds east of UTC, with milliseconds when not whole.
    public static func string(_ date: Date, offset: Int) -> String {
        fast(date, offset: offset) ?? foundation(date, offset: offset)
    }

    /// The calendar day ``string(_:offset:)`` writes for `date` at `offset`, as the number
    /// `YYYYMMDD`, without writing the text (the day index compares one per asset); nil outside the
    /// hand-made path's domain, where only the text says.
    package static func dayNumber(_ date: Date, offset: Int) -> Int64? {
        Fields(date, offset: offset).map { $0.year * 10_000 + $0.month * 100 + $0.day }
    }

    /// The same text through Foundation's `ISO8601DateFormatter`, one formatter per call: the reference
    /// the hand-made path is checked against.
    public static func foundation(_ date: Date, offset: Int) -> String {
        let offset = abs(offset) <= widestOffset ? offset : 0
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        var text = formatter.string(from: date)
        if offset == 0, text.hasSuffix("Z") { text = String(text.dropLast()) + "+00:00" }
        return text
    }

    /// 1583-01-01T00:00:00 and 10000-01-01T00:00:00 as local seconds since 1970: ICU's calendar is
    /// the proleptic Gregorian one only between these.
    private static let localSeconds: Range<Int64> = -12_212_553_600..<253_402_300_800

    /// The hand-made text, or nil outside its domain.
    static func fast(_ date: Date, offset: Int) -> String? {
        guard let fields = Fields(date, offset: offset) else { return nil }
        // Written in place: one allocation for the string, none for a buffer (it was a tenth of the
        // asset JSON's time).
        return String(unsafeUninitializedCapacity: Fields.maximumLength) { fields.write(into: $0.baseAddress!) }
    }

    /// A date's fields at an offset, in the hand-made path's domain (nil outside it).
    package struct Fields {
        static let maximumLength = 29

        let year, month, day, secondOfDay, millisecond: Int64
        let whole: Bool
        let offset: Int

        init?(_ date: Date, offset: Int) {
            guard offset % 60 == 0, abs(offset) <= widestOffset else { return nil }
            let since1970 = date.timeIntervalSince1970
            whole = since1970.rounded(.down) == since1970
            // Milliseconds as CoreFoundation rounds them: from the reference date, half up.
            let milliseconds = ((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down)
            guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return nil }
            let local = Int64(milliseconds) + Int64(offset) * 1000
            let (seconds, millisecond) = floorDivision(local, 1000)
            guard localSeconds.contains(seconds) else { return nil }
            let (days, secondOfDay) = floorDivision(seconds, 86_400)
            (year, month, day) = CivilDate.from(daysSince1970: days)
            self.secondOfDay = secondOfDay
            self.millisecond = millisecond
            self.offset = offset
        }

        /// Writes the text at `output` (room for ``maximumLength`` bytes); returns its length.
        func write(into output: UnsafeMutablePointer<UInt8>) -> Int {
            var count = 0
            func put(_ byte: UInt8) {
                output[count] = byte
                count += 1
            }
            func put(_ value: Int64, digits: Int) {
                var divisor: Int64 = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / divisor % 10))
                    divisor /= 10
                }
            }
            put(year, digits: 4)
            put(UInt8(ascii: "-"))
            put(month, digits: 2)
            put(UInt8(ascii: "-"))
            put(day, digits: 2)
            put(UInt8(ascii: "T"))
            put(secondOfDay / 3600, digits: 2)
            put(UInt8(ascii: ":"))
            put(secondOfDay / 60 % 60, digits: 2)
            put(UInt8(ascii: ":"))
            put(secondOfDay % 60, digits: 2)
            if !whole {
                put(UInt8(ascii: "."))
                put(millisecond, digits: 3)
            }
            put(UInt8(ascii: offset < 0 ? "-" : "+"))
            let minutes = Int64(abs(offset) / 60)
            put(minutes / 60, digits: 2)
            put(UInt8(ascii: ":"))
            put(minutes % 60, digits: 2)
            return count
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }
}
