import Foundation
import PhotosTestSupport
import PhotosWire
import Testing

/// The hand-made ISO 8601 text is Foundation's `ISO8601DateFormatter`'s, byte for byte.
@Suite struct ISO8601Tests {
    /// Dates where a formatter could go wrong: whole and fractional seconds, milliseconds that
    /// round up into the next second, minute, day and year, before 1970, leap days, and the ends of
    /// the hand-made path's domain (before 1583 and after 9999 Foundation's formatter is used).
    static let dates: [Double] = [
        0, 1, -1, 0.5, -0.5, -0.0004, 0.0004, 1_600_000_000, 1_600_000_000.25, 1_600_000_000.9996,
        1_600_000_000.1235, 1_577_836_799.9999, 951_782_400, 951_868_799.5, 1_709_164_800.001, -86_400.75,
        -2_208_988_800, -12_212_553_600, -12_212_553_601, -12_219_292_800, -62_135_596_800, 253_402_300_799.5,
        253_402_300_800, 1_234_567_890.123_456,
    ]
    /// Offsets of real zones, whole minutes, up to ±14 hours.
    static let offsets = [0, 60, -60, 3600, -18_000, 19_800, -34_200, 45_900, 50_400, -50_400, -43_200]

    @Test(arguments: offsets)
    func edgeDatesAreWrittenAsFoundationWritesThem(offset: Int) {
        for seconds in Self.dates {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601.string(date, offset: offset) == ISO8601.foundation(date, offset: offset), "\(seconds)")
        }
    }

    /// `ISO8601.foundation`, with one formatter per offset and precision (creating one costs
    /// milliseconds; 20,000 of them would make this test slow).
    final class CachedReference {
        private var formatters: [[Int]: ISO8601DateFormatter] = [:]

        func string(_ date: Date, offset: Int) -> String {
            let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
            let formatter =
                formatters[[offset, whole ? 1 : 0]]
                ?? {
                    let formatter = ISO8601DateFormatter()
                    formatter.timeZone = TimeZone(secondsFromGMT: offset)!
                    formatter.formatOptions =
                        whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
                    formatters[[offset, whole ? 1 : 0]] = formatter
                    return formatter
                }()
            let text = formatter.string(from: date)
            return offset == 0 && text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
        }
    }

    @Test func randomDatesAreWrittenAsFoundationWritesThem() {
        let reference = CachedReference()
        #expect(
            reference.string(Date(timeIntervalSince1970: 0.5), offset: 0)
                == ISO8601.foundation(Date(timeIntervalSince1970: 0.5), offset: 0))
        var random = SplitMix64(seed: 0x1508_601)
        for index in 0..<20_000 {
            let whole = Double(Int64(random.next() % 250_000_000_000)) - 12_000_000_000
            let fraction: Double =
                switch index % 4 {
                case 0: 0
                case 1: Double(random.next() >> 11) / Double(1 << 53)
                case 2: Double(random.next() % 1000) / 1000 + 0.0005
                default: Double(random.next() % 10_000) / 10_000
                }
            let date = Date(timeIntervalSince1970: whole + fraction)
            let offset = Self.offsets[index % Self.offsets.count]
            let fast = ISO8601.string(date, offset: offset)
            let expected = reference.string(date, offset: offset)
            if fast != expected {
                Issue.record("\(whole + fraction) at \(offset): \(fast) != \(expected)")
                return
            }
        }
    }

    @Test func utcIsWrittenAsAnOffsetAndFractionsOnlyWhenThere() {
        #expect(ISO8601.string(Date(timeIntervalSince1970: 1_577_880_000), offset: 0) == "2020-01-01T12:00:00+00:00")
        #expect(
            ISO8601.string(Date(timeIntervalSince1970: 1_577_880_000.25), offset: -19_800)
                == "2020-01-01T06:30:00.250-05:30")
        // Offsets that are not whole minutes go through Foundation (which drops the seconds).
        let odd = Date(timeIntervalSince1970: -2_500_000_000)
        #expect(ISO8601.string(odd, offset: 561) == ISO8601.foundation(odd, offset: 561))
        // Beyond ±14 hours Foundation's formatter would stop the program: such dates are written at UTC.
        let date = Date(timeIntervalSince1970: 1_577_880_000)
        #expect(ISO8601.string(date, offset: 16 * 3600) == "2020-01-01T12:00:00+00:00")
        #expect(ISO8601.foundation(date, offset: -64_800) == "2020-01-01T12:00:00+00:00")
    }
}
