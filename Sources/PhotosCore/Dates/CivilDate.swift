/// Days since 1970-01-01 as a proleptic Gregorian year, month and day, without a calendar object:
/// Howard Hinnant's `civil_from_days`, in eras of 400 years. Writing dates (ISO 8601 JSON) and
/// reading cameras' second counts both need it, thousands of times a second.
///
/// ```swift
/// CivilDate.from(daysSince1970: 0)       // (1970, 1, 1)
/// CivilDate.from(daysSince1970: 19_000)  // (2022, 1, 8)
/// ```
public enum CivilDate {
    /// The year, month (1-12) and day (1-31) of a day count since 1970-01-01 (negative before it).
    @inlinable
    public static func from<Count: BinaryInteger>(daysSince1970 days: Count)
        -> (year: Count, month: Count, day: Count)
    {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension CivilDate {
    /// The days since 1970-01-01 (negative before it) of a proleptic Gregorian year, month (1-12) and
    /// day: Howard Hinnant's `days_from_civil`, the inverse of ``from(daysSince1970:)``.
    /// ```swift
    /// CivilDate.daysSince1970(year: 2022, month: 1, day: 8)  // 19_000
    /// ```
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The number of days of a month (1-12) of a proleptic Gregorian year.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
