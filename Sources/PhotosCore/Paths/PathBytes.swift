/// The bytes of a Linux file name or path and the `String` that stands for them, both ways, without loss.
///
/// Linux names are bytes, Swift strings are Unicode, and a name need not be valid UTF-8 (a Latin-1
/// `café` from an old camera card is `63 61 66 E9`). Decoding such bytes the usual way replaces the
/// byte with U+FFFD, which no `open` can find again, and which collides with a real name holding
/// U+FFFD. This mapping keeps every name:
///
/// - a valid UTF-8 name is its own string (the common case costs one validation);
/// - a byte that is not part of valid UTF-8 becomes the private-use code point U+EF00 + byte
///   (bytes 0x80–0xFF become U+EF80–U+EFFF, the "UTF-8b" idea of Python's `surrogateescape`,
///   with code points a Swift string can hold);
/// - so that two byte strings never share a string, a name that really holds one of those 128
///   code points (valid UTF-8 `EE BE 80`…`EE BF BF`) has each of its three bytes escaped the same way.
///
/// ``bytes(_:)`` maps every U+EF80–U+EFFF back to its byte and everything else to UTF-8, so
/// `bytes(string(b)) == b` for every `b`. Strings that come from the disk are always of that form;
/// a string typed by someone is taken as UTF-8 unless it holds those code points.
///
/// ```swift
/// let name = PathBytes.string([0x63, 0x61, 0x66, 0xE9])   // "caf\u{EFE9}"
/// PathBytes.bytes(name)                                     // [0x63, 0x61, 0x66, 0xE9]
/// PathBytes.displayed(name)                                 // "caf\\xE9"
/// ```
public enum PathBytes {
    /// The code points that stand for undecodable bytes: U+EF80 (byte 0x80) to U+EFFF (byte 0xFF).
    public static let escapeRange: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// The string standing for `bytes` (a name as `readdir` or inotify gives it, without its NUL).
    public static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let string = bytes.withContiguousStorageIfAvailable({ string(UnsafeRawBufferPointer($0)) }) {
            return string
        }
        return Array(bytes).withUnsafeBytes { string($0) }
    }

    /// The string standing for `bytes`; the crawler's path, one call per name, so not generic.
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        let units = bytes.assumingMemoryBound(to: UInt8.self)
        // ASCII (most camera names), or valid UTF-8 without the lead byte of the escape range:
        // the string is the bytes.
        if units.allSatisfy({ $0 < 0x80 }) { return String(decoding: units, as: UTF8.self) }
        if !units.contains(0xEE), let valid = String(validating: units, as: UTF8.self) { return valid }
        return escaping(Array(units))
    }

    /// The slow path of ``string(_:)-(UnsafeRawBufferPointer)``: some byte needs escaping.
    private static func escaping(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            guard length > 0 else {
                scalars.append(escape(bytes[index]))
                index += 1
                continue
            }
            let value = scalarValue(bytes[index..<index + length])
            if escapeRange.contains(value) {
                for byte in bytes[index..<index + length] { scalars.append(escape(byte)) }
            } else {
                scalars.append(Unicode.Scalar(value)!)
            }
            index += length
        }
        return String(scalars)
    }

    /// The bytes `string` stands for: each U+EF80–U+EFFF is its byte, every other code point its UTF-8.
    public static func bytes(_ string: String) -> [UInt8] {
        if !mayHoldEscapes(string) { return Array(string.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if let byte = escapedByte(scalar) {
                bytes.append(byte)
            } else {
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of `path`: what every system call that takes a
    /// path (`open`, `stat`, `opendir`, `inotify_add_watch`...) must be given instead of the
    /// string's UTF-8.
    ///
    /// Inlinable so that each call site is specialised: a generic call per `lstat` asked the
    /// runtime for `Result`'s metadata every time (perf, on a rescan).
    @inlinable
    public static func withCString<Result, Failure: Error>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if !mayHoldEscapes(path) {
            // The string's own UTF-8 is the path: no copy.
            var outcome: Swift.Result<Result, Failure>?
            path.withCString { chars in outcome = Swift.Result { () throws(Failure) -> Result in try body(chars) } }
            return try outcome!.get()
        }
        var bytes = Self.bytes(path)
        bytes.append(0)
        let outcome: Swift.Result<Result, Failure> = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                Swift.Result { () throws(Failure) -> Result in try body(chars.baseAddress!) }
            }
        }
        return try outcome.get()
    }

    /// The string standing for the NUL-terminated `cString` (a `d_name`, a `realpath` result).
    public static func string(cString: UnsafePointer<CChar>) -> String {
        var length = 0
        while cString[length] != 0 { length += 1 }
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            string(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// The byte a code point of the escape range stands for; nil for any other code point.
    public static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        escapeRange.contains(scalar.value) ? UInt8(scalar.value - 0xEF00) : nil
    }

    /// Whether `string` holds a byte that is not valid UTF-8 (or an escaped code point of the range).
    public static func hasEscapedBytes(_ string: String) -> Bool {
        mayHoldEscapes(string) && string.unicodeScalars.contains { escapeRange.contains($0.value) }
    }

    /// False when `string` holds no code point of the escape range: those all start with the
    /// byte 0xEE in UTF-8, which nothing else in a path is likely to hold.
    @usableFromInline
    static func mayHoldEscapes(_ string: String) -> Bool {
        var string = string  // withUTF8 needs a variable; a native string is not copied.
        return string.withUTF8(containsEE)
    }

    /// Whether `buffer` holds the byte 0xEE, eight bytes at a time (a `stat` per file goes
    /// through here: a byte loop cost the crawler 4% of a rescan's instructions).
    private static func containsEE(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(buffer)
        var index = 0
        while index + 8 <= raw.count {
            // A zero byte in word ^ 0xEE..EE is an 0xEE byte in the word (the "has zero byte" test).
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0xEEEE_EEEE_EEEE_EEEE
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
            index += 8
        }
        while index < raw.count {
            if raw[index] == 0xEE { return true }
            index += 1
        }
        return false
    }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0xEF00 + UInt32(byte))!
    }

    /// The length of the valid UTF-8 sequence starting at `index` (Unicode's table 3-7: no
    /// overlong forms, no surrogates, nothing past U+10FFFF), or 0 when the byte starts none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }

    /// The code point of a valid UTF-8 sequence.
    private static func scalarValue(_ sequence: ArraySlice<UInt8>) -> UInt32 {
        let lead = UInt32(sequence.first!)
        var value: UInt32
        switch sequence.count {
        case 1: return lead
        case 2: value = lead & 0x1F
        case 3: value = lead & 0x0F
        default: value = lead & 0x07
        }
        for byte in sequence.dropFirst() { value = value << 6 | UInt32(byte & 0x3F) }
        return value
    }
}

extension PathBytes {
    /// `text` (a name, a path, a message holding one) made safe to print on a terminal or in a
    /// table, one line, and unambiguous: every `\xNN` in the result is the byte NN of the name.
    ///
    /// - A backslash is `\\`; tab, line feed and carriage return are `\t`, `\n`, `\r`.
    /// - Other C0 controls (ESC is `\x1B`), DEL (`\x7F`), an undecodable byte (`\xE9`) and the
    ///   UTF-8 bytes of C1 controls, line and paragraph separators and the invisible direction
    ///   and width marks (U+202E is `\xE2\x80\xAE`) are `\xNN` per byte.
    /// - Everything else, U+FFFD included, is itself.
    public static func displayed(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x5C || $0 >= 0x7F }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default:
                if let byte = escapedByte(scalar) {
                    result += hex(byte)
                } else if isInvisible(scalar) {
                    UTF8.encode(scalar) { result += hex($0) }
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Controls and the code points that change how the text around them shows without showing
    /// themselves (bidirectional overrides: the "Trojan Source" trick; zero-width characters).
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// How many terminal columns `text` takes: two for East Asian wide and emoji characters, one for
    /// any other character (a base with its combining marks). Meant for ``displayed(_:)`` text.
    public static func columns(_ text: String) -> Int {
        var width = 0
        for character in text {
            guard let first = character.unicodeScalars.first else { continue }
            width += isWide(first) ? 2 : 1
        }
        return width
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD,
            0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
