import Foundation

/// Creation dates in an XMP packet, found without a full RDF parser.
///
/// XMP writes a property either as an attribute (`xmp:CreateDate="2021-10-27T10:43:46+02:00"`) or
/// as an element (`<xmp:CreateDate>…</xmp:CreateDate>`); both are recognised for the three
/// properties ExifTool ranks after EXIF's own dates, with their conventional prefixes.
enum XMPDates {
    /// The properties searched, in rank order.
    static let properties = ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"]

    /// Ranked candidates from `packet` (UTF-8 text; other bytes are ignored).
    static func dates(in packet: ArraySlice<UInt8>) -> [ExifSummary.RankedDate] {
        let text = String(decoding: packet, as: UTF8.self)
        var found: [ExifSummary.RankedDate] = []
        for (index, property) in properties.enumerated() {
            if let value = value(of: property, in: text), let date = CapturedDate(parsing: value) {
                found.append(ExifSummary.RankedDate(rank: ExifSummary.Rank.xmp + index, date: date))
            }
        }
        return found
    }

    /// The value of `property` as an attribute or a simple element.
    static func value(of property: String, in text: String) -> String? {
        if let range = text.range(of: property + "=\"") {
            let rest = text[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { return String(rest[..<end]) }
        }
        if let range = text.range(of: property + "='") {
            let rest = text[range.upperBound...]
            if let end = rest.firstIndex(of: "'") { return String(rest[..<end]) }
        }
        if let range = text.range(of: "<" + property + ">") {
            let rest = text[range.upperBound...]
            if let end = rest.range(of: "</" + property + ">") { return String(rest[..<end.lowerBound]) }
        }
        return nil
    }
}
