import Foundation
import Testing

@testable import PhotosMetadata

/// How dates written by cameras and editors are read.
@Suite struct CapturedDateTests {
    @Test(arguments: [
        ("2008:07:01 17:27:03", CapturedDate(year: 2008, month: 7, day: 1, hour: 17, minute: 27, second: 3)),
        ("2008-07-01T17:27:03", CapturedDate(year: 2008, month: 7, day: 1, hour: 17, minute: 27, second: 3)),
        (
            "2021-10-27T10:43:46+02:00",
            CapturedDate(year: 2021, month: 10, day: 27, hour: 10, minute: 43, second: 46, offset: 7200)
        ),
        (
            "2019-07-24T11:25:40+0300",
            CapturedDate(year: 2019, month: 7, day: 24, hour: 11, minute: 25, second: 40, offset: 10800)
        ),
        (
            "2022-07-14T16:05:10.000000Z",
            CapturedDate(year: 2022, month: 7, day: 14, hour: 16, minute: 5, second: 10, offset: 0)
        ),
        (
            "2019:06:06 07:29:51.25",
            CapturedDate(year: 2019, month: 6, day: 6, hour: 7, minute: 29, second: 51, fraction: 0.25)
        ),
        (
            "2021:10:29 13:42-05:30",
            CapturedDate(year: 2021, month: 10, day: 29, hour: 13, minute: 42, second: 0, offset: -19800)
        ),
        ("2004:06:21", CapturedDate(year: 2004, month: 6, day: 21, hour: 0, minute: 0, second: 0)),
        ("  2001:11:27 18:33:44\0", CapturedDate(year: 2001, month: 11, day: 27, hour: 18, minute: 33, second: 44)),
        ("2024:02:29 12:00:00", CapturedDate(year: 2024, month: 2, day: 29, hour: 12, minute: 0, second: 0)),
    ])
    func usableDateIsParsed(text: String, expected: CapturedDate) {
        #expect(CapturedDate(parsing: text) == expected)
    }

    @Test(arguments: [
        "0000:00:00 00:00:00", "    :  :     :  :  ", "", "   ", "2021:00:10 10:00:00", "2021:13:10 10:00:00",
        "2023:02:29 10:00:00", "2021:04:31 10:00:00", "2021:04:10 25:00:00", "2021:04:10 10:61:00",
        "2021:04:10 10:00:00 nonsense", "2021:04:10 10:00:00+25:00", "not a date", "2021:04",
    ])
    func blankZeroOrImpossibleDateIsIgnored(text: String) {
        #expect(CapturedDate(parsing: text) == nil)
    }

    @Test(arguments: [
        ("+01:00", 3600), ("-05:00", -18000), ("+0530", 19800), ("+09", 32400), ("Z", 0), ("  +02:00 ", 7200),
    ])
    func offsetIsParsed(text: String, seconds: Int) {
        #expect(CapturedDate.offset(parsing: text) == seconds)
    }

    @Test(arguments: ["", "   :  ", "01:00", "+1:00", "+19:00", "+01:60", "+ab:cd"])
    func malformedOffsetIsIgnored(text: String) {
        #expect(CapturedDate.offset(parsing: text) == nil)
    }

    @Test(arguments: [("02", 0.02), ("536804", 0.536804), ("5", 0.5), ("  835", 0.835)])
    func subsecondDigitsAreAFraction(text: String, fraction: Double) {
        #expect(CapturedDate.fraction(text) == fraction)
    }

    @Test(arguments: [
        (0, CapturedDate(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0)),
        (1_114_278_876, CapturedDate(year: 2005, month: 4, day: 23, hour: 17, minute: 54, second: 36)),
        (951_782_400, CapturedDate(year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0)),
        (4_102_444_799, CapturedDate(year: 2099, month: 12, day: 31, hour: 23, minute: 59, second: 59)),
    ])
    func cameraSecondCountIsAWallClockDate(seconds: Int, expected: CapturedDate) {
        #expect(CapturedDate(wallClockSecondsSince1970: seconds) == expected)
    }

    @Test func dateWithOffsetIgnoresTheReadingZone() {
        let date = CapturedDate(year: 2021, month: 7, day: 10, hour: 20, minute: 39, second: 25, offset: 3600)
        let tokyo = date.date(in: TimeZone(identifier: "Asia/Tokyo")!)
        let utc = date.date(in: TimeZone(identifier: "UTC")!)
        #expect(tokyo == utc)
        #expect(utc == Date(timeIntervalSince1970: 1_625_945_965))  // 19:39:25 UTC
    }
}
