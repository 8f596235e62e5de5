import Foundation
import PhotosCore
import Testing

/// Day counts to calendar dates, across eras, leap days and before 1970.
@Suite struct CivilDateTests {
    @Test(arguments: [
        (0, 1970, 1, 1), (-1, 1969, 12, 31), (59, 1970, 3, 1), (11_016, 2000, 2, 29), (11_017, 2000, 3, 1),
        (19_000, 2022, 1, 8), (-719_468, 0, 3, 1), (-25_567, 1900, 1, 1), (47_541, 2100, 3, 1),
    ])
    func dayCountsAreGregorianDates(days: Int, year: Int, month: Int, day: Int) {
        let date = CivilDate.from(daysSince1970: days)
        #expect(date.year == year && date.month == month && date.day == day)
        let wide = CivilDate.from(daysSince1970: Int64(days))
        #expect(wide.year == Int64(year) && wide.month == Int64(month) && wide.day == Int64(day))
    }

    @Test func datesAreDayCountsAgainOverFourCenturies() {
        for days in stride(from: -200_000, through: 200_000, by: 37) {
            let date = CivilDate.from(daysSince1970: days)
            #expect(CivilDate.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
            #expect(date.day <= CivilDate.daysInMonth(year: date.year, month: date.month))
        }
        #expect(CivilDate.daysInMonth(year: 2000, month: 2) == 29 && CivilDate.daysInMonth(year: 1900, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2024, month: 2) == 29 && CivilDate.daysInMonth(year: 2023, month: 2) == 28)
    }

    /// Strict RFC 3339 beside Foundation's formatter: the same instant wherever both read the text.
    @Test(arguments: [
        "2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59-00:30",
        "2000-02-29T23:59:59.250+14:00", "1600-03-01T00:00:00Z", "9999-12-31T23:59:59-14:00",
    ])
    func isoDatesAreTheInstantsFoundationReads(text: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let expected = try #require(formatter.date(from: text) ?? plain.date(from: text), "\(text)")
        let read = try #require(ISO8601Dates.dateAndOffset(from: text), "\(text)")
        #expect(abs(read.date.timeIntervalSince(expected)) < 0.000_5, "\(text)")
        // RFC 3339 allows a lower-case t and z, which Foundation refuses.
        let lower = text.replacingOccurrences(of: "T", with: "t").replacingOccurrences(of: "Z", with: "z")
        #expect(ISO8601Dates.dateAndOffset(from: lower)?.date == read.date, "\(lower)")
    }
}
