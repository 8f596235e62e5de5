/// JSON text written by hand where `JSONEncoder` and `JSONSerialization` cost too much: strings
/// escaped as `JSONEncoder` escapes them, and arrays of strings or integers.
///
/// The store passes sets of paths and identifiers to SQLite as one JSON array (`json_each(?)`),
/// on ingest's and the hooks' hot paths; `JSONSerialization` spent half of a hook payload's time
/// writing those arrays. The wire writer (`WireJSONWriter`) escapes its strings here too.
///
/// ```swift
/// JSONText.array(["/a/b.jpg", "say \"hi\""])   // ["/a/b.jpg","say \"hi\""]
/// ```
public enum JSONText {
    /// Appends `value` as a JSON string: quote, backslash and control characters escaped (`\b \t
    /// \n \f \r` by name, the others as `\u00xx`); everything else, `/` and non-ASCII included, as
    /// it is, which is what `JSONEncoder` writes with `.withoutEscapingSlashes`.
    public static func appendString(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: bytes.append(UInt8(ascii: "\""))
                case 0x5C: bytes.append(UInt8(ascii: "\\"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The strings as one JSON array, in order.
    public static func array<Strings: Sequence<String>>(_ strings: Strings) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(strings.underestimatedCount * 48 + 2)
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(string, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The integers as one JSON array (row ids for `json_each(?)`).
    public static func array(_ integers: [Int64]) -> String {
        // Digits written in place: a string per integer, then joined, was a twentieth of a 50-asset
        // page's time.
        String(unsafeUninitializedCapacity: 2 + integers.count * 21) { output in
            let base = output.baseAddress!
            var count = 0
            base[count] = UInt8(ascii: "[")
            count += 1
            for (index, integer) in integers.enumerated() {
                if index > 0 {
                    base[count] = UInt8(ascii: ",")
                    count += 1
                }
                count += writeInteger(integer, to: base + count)
            }
            base[count] = UInt8(ascii: "]")
            return count + 1
        }
    }

    /// Writes `value`'s decimal digits (and sign) at `output`, which has room for 20 bytes (`Int64.min`
    /// takes them all); returns how many it wrote.
    @inlinable
    public static func writeInteger(_ value: Int64, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var length = 1
        var rest = magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        if value < 0 {
            output[0] = UInt8(ascii: "-")
            length += 1
        }
        // Digits from the right.
        var position = length
        repeat {
            position -= 1
            output[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return length
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
