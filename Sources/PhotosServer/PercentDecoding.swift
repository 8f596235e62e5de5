/// The one percent-decoder of request targets: `%XX` is the byte XX, and in a query (HTML forms,
/// curl's `--data-urlencode`) `+` is a space.
///
/// Byte by byte, without Foundation's string bridging: a query's decoding was 5% of a page
/// request's CPU. As Apple documents `removingPercentEncoding`, a malformed escape (`%4`, `%zz`) or
/// bytes that are not UTF-8 make the whole text undecodable (nil); Foundation on Linux sometimes
/// repaired such bytes instead, sometimes not.
enum PercentDecoding {
    /// `text` decoded, or nil when an escape is malformed or the bytes are not UTF-8.
    static func decode<Text: StringProtocol>(_ text: Text, plusIsSpace: Bool = false) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) || (plusIsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            index += 1
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index + 1 < utf8.count, let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 2
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
