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
}
