/// JSON text written by hand where `JSONEncoder` and `JSONSerialization` cost too much: strings
/// escaped as `JSONEncoder` escapes them, and arrays of strings or integers.
///
/// The store passes sets of paths and identifiers to SQLite as one JSON array (`json_each(?)`),
/// on ingest's and the hooks' hot paths; `JSONSerialization` spent half of a hook payload's time
/// writing those arrays. The wire writers (`WireJSONWriter`, and the asset JSON written from the
/// store's rows) escape their strings here too: one escaping rule.
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
        value.withUTF8 { utf8 in
            bytes.append(addingCapacity: stringBound(utf8.count)) { span in
                span.withUnsafeMutableBufferPointer { buffer, initialized in
                    initialized += writeString(utf8, to: buffer.baseAddress! + initialized)
                }
            }
        }
    }

    /// The most bytes ``writeString(_:to:)`` writes for `count` bytes of UTF-8: the quotes, and
    /// six a byte at worst (`\u00xx`).
    @inlinable
    public static func stringBound(_ count: Int) -> Int { 2 + 6 * count }

    /// Writes these UTF-8 bytes as a JSON string at `output`, which has room for
    /// ``stringBound(_:)`` bytes, escaped as ``appendString(_:to:)`` escapes; bytes that are not
    /// valid UTF-8 are repaired (U+FFFD) as `String(decoding:as:)` repairs them. Returns how many
    /// bytes it wrote. Plain ASCII is looked at eight bytes at a time: most text is.
    public static func writeString(_ utf8: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        func put(_ byte: UInt8) {
            output[count] = byte
            count += 1
        }
        func put(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            guard !bytes.isEmpty else { return }
            (output + count).update(from: bytes.base.baseAddress! + bytes.startIndex, count: bytes.count)
            count += bytes.count
        }
        put(UInt8(ascii: "\""))
        guard let base = utf8.baseAddress else {
            put(UInt8(ascii: "\""))
            return count
        }
        var start = 0
        var index = 0
        var ascii = true
        while index < utf8.count {
            if index + 8 <= utf8.count, isPlain(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = base[index]
            index += 1
            if byte >= 0x80 {
                ascii = false
                continue
            }
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            put(utf8[start..<index - 1])
            start = index
            put(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: put(UInt8(ascii: "\""))
            case 0x5C: put(UInt8(ascii: "\\"))
            case 0x08: put(UInt8(ascii: "b"))
            case 0x09: put(UInt8(ascii: "t"))
            case 0x0A: put(UInt8(ascii: "n"))
            case 0x0C: put(UInt8(ascii: "f"))
            case 0x0D: put(UInt8(ascii: "r"))
            default:
                put(UInt8(ascii: "u"))
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "0"))
                put(hexDigits[Int(byte >> 4)])
                put(hexDigits[Int(byte & 0xF)])
            }
        }
        if !ascii, String(validating: utf8, as: UTF8.self) == nil {
            // Rare (a swift String is always valid): repaired, each bad byte at most three, so
            // within the bound still.
            var repaired = String(decoding: utf8, as: UTF8.self)
            return repaired.withUTF8 { writeString($0, to: output) }
        }
        put(utf8[start...])
        put(UInt8(ascii: "\""))
        return count
    }

    /// Whether none of eight bytes needs escaping (below 0x20, `"`, `\\`) or is outside ASCII: the
    /// word tests of "Bit Twiddling Hacks" (a byte less than n; a byte equal to n), exact for "any".
    @inline(__always)
    private static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quote = (quotes &- ones) & ~quotes & highs
        let backslash = (backslashes &- ones) & ~backslashes & highs
        return (control | quote | backslash | (word & highs)) == 0
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
