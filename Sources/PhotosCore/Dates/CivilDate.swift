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
