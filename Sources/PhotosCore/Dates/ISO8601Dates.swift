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
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
