import Foundation

/// Where the date that files an import came from, best first. The asset keeps it: an asset filed
/// by its file's modification time can say so.
public enum ImportDateSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The capture date the file states, with the UTC offset it states (`OffsetTimeOriginal`, a
    /// QuickTime date with its zone): the wall clock where the picture was taken.
    case captureDateWithOffset = "capture-offset"
    /// The capture date the file states without an offset, shown in the configured time zone.
    case captureDateInTimeZone = "capture-time-zone"
    /// No capture date: the file's modification time, shown in the configured time zone.
    case modificationTime = "file-time"
}

/// What an import knows of one asset when it names and files it: read from its primary file.
///
/// ```swift
/// let facts = ImportFacts(
///     captureDate: Date(timeIntervalSince1970: 1_618_174_073), captureOffset: -5 * 3600,
///     modificationTime: Date(), make: "Apple", model: "iPhone 11 Pro Max")
/// ```
public struct ImportFacts: Sendable, Hashable {
    /// When the picture was taken or the movie recorded, as the file states it; nil when it states none.
    public var captureDate: Date?
    /// The capture date's offset from UTC in seconds east (`-18000` for `-05:00`), when the file states one.
    public var captureOffset: Int?
    /// The file's modification time: the date of last resort.
    public var modificationTime: Date
    /// The camera maker (EXIF `Make`), when the file states it.
    public var make: String?
    /// The camera model (EXIF `Model`), when the file states it.
    public var model: String?

    /// Facts of one asset.
    public init(
        captureDate: Date? = nil, captureOffset: Int? = nil, modificationTime: Date, make: String? = nil,
        model: String? = nil
    ) {
        self.captureDate = captureDate
        self.captureOffset = captureOffset
        self.modificationTime = modificationTime
        self.make = make
        self.model = model
    }

    /// The date that files the asset, the offset its wall clock is read at, and where it came from:
    /// the capture date with its own offset, else the capture date in `timeZone`, else the file's
    /// modification time in `timeZone`.
    public func filingDate(in timeZone: TimeZone) -> (date: Date, offset: Int, source: ImportDateSource) {
        if let captureDate, let captureOffset {
            return (captureDate, captureOffset, .captureDateWithOffset)
        }
        if let captureDate {
            return (captureDate, timeZone.secondsFromGMT(for: captureDate), .captureDateInTimeZone)
        }
        return (modificationTime, timeZone.secondsFromGMT(for: modificationTime), .modificationTime)
    }
}
