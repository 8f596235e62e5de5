/// The one percent-decoder of bytes: `%XX` is the byte XX (RFC 3986), and in an HTML form's query
/// `+` is a space. The API's request targets and the Trash's `Path=` keys read through it.
public enum PercentEncoding {
    /// What a `%` not followed by two hex digits makes of the text.
    public enum Malformed: Sendable {
        /// It stays as it is (another tool's file is read, not judged).
        case kept
        /// The whole text is undecodable (nil).
        case refused
    }

    /// The bytes `text` stands for; nil only for a malformed escape under `.refused`.
    public static func decode(
        _ text: some Collection<UInt8>, plusIsSpace: Bool = false, malformed: Malformed = .kept
    ) -> [UInt8]? {
        let bytes = Array(text)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                {
                    out.append(high << 4 | low)
                    index += 3
                    continue
                }
                if malformed == .refused { return nil }
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return out
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
