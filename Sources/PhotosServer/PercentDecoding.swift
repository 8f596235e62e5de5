import PhotosCore

/// The API's reading of request targets through the one percent-decoder
/// (``PhotosCore/PercentEncoding``): in a query `+` is a space.
///
/// Byte by byte, without Foundation's string bridging: a query's decoding was 5% of a page
/// request's CPU. As Apple documents `removingPercentEncoding`, a malformed escape (`%4`, `%zz`) or
/// bytes that are not UTF-8 make the whole text undecodable (nil); Foundation on Linux sometimes
/// repaired such bytes instead, sometimes not.
enum PercentDecoding {
    /// `text` decoded, or nil when an escape is malformed or the bytes are not UTF-8.
    static func decode<Text: StringProtocol>(_ text: Text, plusIsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "%")) || (plusIsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        guard let bytes = PercentEncoding.decode(utf8, plusIsSpace: plusIsSpace, malformed: .refused) else {
            return nil
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
