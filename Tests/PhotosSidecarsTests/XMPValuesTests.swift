import Testing

@testable import PhotosSidecars

@Suite struct XMPValuesTests {
    /// text → (year, month, day, hour, minute, second, nanosecond, offset) or nil.
    static let dates: [(String, SidecarDate?)] = [
        ("2024-05-01T10:00:00+02:00", SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: 7200)),
        ("2024-05-01T10:00:00Z", SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: 0)),
        ("2024-05-01T10:00:00", SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: nil)),
        (
            "2024-05-01T10:00:00.25-05:30",
            SidecarDate(
                year: 2024, month: 5, day: 1, hour: 10, nanosecond: 250_000_000, utcOffsetSeconds: -19800)
        ),
        ("2024-05-01T10:00", SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: nil)),
        ("2024-05-01", SidecarDate(year: 2024, month: 5, day: 1, utcOffsetSeconds: nil)),
        ("2024", SidecarDate(year: 2024, month: 1, day: 1, utcOffsetSeconds: nil)),
        // darktable writes EXIF's form into XMP.
        (
            "2023:07:14 18:22:05",
            SidecarDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5, utcOffsetSeconds: nil)
        ),
        (
            "2023-07-14T18:22:05.00+02:00",
            SidecarDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5, utcOffsetSeconds: 7200)
        ),
        ("2023-02-30T10:00:00", nil),
        ("2023-13-01", nil),
        ("yesterday", nil),
        ("2024-05-01T25:00:00", nil),
        ("2024-05-01T10:00:00+2", nil),
        ("", nil),
    ]

    @Test(arguments: dates)
    func datesAreReadInXMPAndEXIFForms(text: String, expected: SidecarDate?) {
        #expect(XMPValues.date(from: text) == expected)
    }

    @Test func datesAreWrittenWithTheirOffsetAndReadBackEqual() {
        let cases: [(SidecarDate, String)] = [
            (SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: 7200), "2024-05-01T10:00:00+02:00"),
            (SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: 0), "2024-05-01T10:00:00Z"),
            (SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: nil), "2024-05-01T10:00:00"),
            (
                SidecarDate(
                    year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 59, nanosecond: 120_000_000,
                    utcOffsetSeconds: -34200),
                "1999-12-31T23:59:59.12-09:30"
            ),
        ]
        for (date, text) in cases {
            #expect(XMPValues.format(date) == text)
            #expect(XMPValues.date(from: text) == date)
        }
    }

    @Test func anInstantAndItsOffsetGiveTheLocalTimeAndBack() {
        // 2024-05-01T08:00:00Z, seen at +02:00.
        let date = SidecarDate(secondsSince1970: 1_714_550_400, utcOffsetSeconds: 7200)
        #expect(date == SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: 7200))
        #expect(date.secondsSince1970() == 1_714_550_400)
        let before1970 = SidecarDate(secondsSince1970: -1.5, utcOffsetSeconds: 0)
        #expect(
            before1970
                == SidecarDate(
                    year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 58, nanosecond: 500_000_000,
                    utcOffsetSeconds: 0))
        #expect(before1970.secondsSince1970() == -1.5)
        let floating = SidecarDate(year: 2024, month: 5, day: 1, hour: 10, utcOffsetSeconds: nil)
        #expect(floating.secondsSince1970(floatingOffsetSeconds: 3600) == 1_714_554_000)
    }

    /// text → millionths of a minute of arc, for a latitude.
    static let latitudes: [(String, Int64?)] = [
        ("48,51.396000N", 2_931_396_000),
        ("48,51.396N", 2_931_396_000),
        ("48,51,23.76N", 2_931_396_000),
        ("48.8566N", 2_931_396_000),
        ("33,52.0S", -2_032_000_000),
        ("-33.8666666667", -2_032_000_000),
        ("48,51.3960004N", 2_931_396_000),
        ("48,51.3960005N", 2_931_396_001),
        ("91,0.0N", nil),
        ("48,51.396E", nil),
        ("north", nil),
        ("", nil),
    ]

    @Test(arguments: latitudes)
    func latitudesAreReadInEveryForm(text: String, units: Int64?) {
        #expect(XMPValues.coordinateUnits(from: text, isLatitude: true) == units)
    }

    @Test func coordinatesAreWrittenInDegreesAndMinutes() {
        #expect(XMPValues.formatCoordinate(units: 2_931_396_000, isLatitude: true) == "48,51.396000N")
        #expect(XMPValues.formatCoordinate(units: -2_032_000_001, isLatitude: true) == "33,52.000001S")
        #expect(XMPValues.formatCoordinate(units: -7_402_520_000, isLatitude: false) == "123,22.520000W")
        let place = SidecarLocation(latitude: 48.8566, longitude: -123.3753333, altitude: -12.345)!
        let latitude = XMPValues.formatCoordinate(units: place.latitudeUnits, isLatitude: true)
        #expect(XMPValues.coordinateUnits(from: latitude, isLatitude: true) == place.latitudeUnits)
        #expect(place.altitude == -12.35 || place.altitude == -12.34)
        #expect(SidecarLocation(latitude: 91, longitude: 0) == nil)
        #expect(SidecarLocation(latitude: .nan, longitude: 0) == nil)
    }

    @Test func altitudesRatingsAndBooleansAreReadAsToolsWriteThem() {
        #expect(XMPValues.altitudeCentimetres(from: "3520/100") == 3520)
        #expect(XMPValues.altitudeCentimetres(from: "35.2") == 3520)
        #expect(XMPValues.altitudeCentimetres(from: "1/0") == nil)
        #expect(XMPValues.rating(from: "-1") == -1)
        #expect(XMPValues.rating(from: "4.0") == 4)
        #expect(XMPValues.rating(from: "6") == nil)
        #expect(XMPValues.rating(fromPercent: "1") == 1)
        #expect(XMPValues.rating(fromPercent: "25") == 2)
        #expect(XMPValues.rating(fromPercent: "50") == 3)
        #expect(XMPValues.rating(fromPercent: "75") == 4)
        #expect(XMPValues.rating(fromPercent: "99") == 5)
        #expect(XMPValues.bool(from: "True") == true)
        #expect(XMPValues.bool(from: "1") == true)
        #expect(XMPValues.bool(from: "false") == false)
        #expect(XMPValues.bool(from: "yes") == nil)
    }
}
