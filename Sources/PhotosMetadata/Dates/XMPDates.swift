import Foundation

/// Creation dates in an XMP packet, found without a full RDF parser.
///
/// The three properties ExifTool ranks after EXIF's own dates, as attributes
/// (`xmp:CreateDate="2021-10-27T10:43:46+02:00"`) or elements (see ``XMPProperties``).
enum XMPDates {
    /// The properties searched, in rank order.
    static let properties = ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"]

    /// Ranked candidates from `packet` (UTF-8 text; other bytes are ignored).
    static func dates(in packet: ArraySlice<UInt8>) -> [ExifSummary.RankedDate] {
        var found: [ExifSummary.RankedDate] = []
        for (index, property) in properties.enumerated() {
            if let value = XMPProperties.value(of: property, in: packet), let date = CapturedDate(parsing: value) {
                found.append(ExifSummary.RankedDate(rank: ExifSummary.Rank.xmp + index, date: date))
            }
        }
        return found
    }
}
