import PhotosCore
import Testing

/// The mapping between path bytes and strings, as a table, and its round trip on every short input.
@Suite struct PathBytesTests {
    /// Bytes, the string that stands for them, and how a table shows it.
    static let table: [(bytes: [UInt8], string: String, shown: String)] = [
        (Array("IMG_0001.jpg".utf8), "IMG_0001.jpg", "IMG_0001.jpg"),
        (Array("café.jpg".utf8), "café.jpg", "café.jpg"),
        (Array("caf".utf8) + [0xE9] + Array(".jpg".utf8), "caf\u{EFE9}.jpg", "caf\\xE9.jpg"),
        (Array("caf\u{FFFD}.jpg".utf8), "caf\u{FFFD}.jpg", "caf\u{FFFD}.jpg"),
        ([0xFF], "\u{EFFF}", "\\xFF"),
        ([0x80], "\u{EF80}", "\\x80"),
        // A real U+EFE9 in a name (EE BF A9) is escaped byte by byte, so it cannot pass for 0xE9.
        ([0xEE, 0xBF, 0xA9], "\u{EFEE}\u{EFBF}\u{EFA9}", "\\xEE\\xBF\\xA9"),
        // U+EF7F, just below the range, is itself.
        ([0xEE, 0xBD, 0xBF], "\u{EF7F}", "\u{EF7F}"),
        // Overlong, surrogate, truncated and out-of-range sequences are bytes.
        ([0xC0, 0xAF], "\u{EFC0}\u{EFAF}", "\\xC0\\xAF"),
        ([0xED, 0xA0, 0x80], "\u{EFED}\u{EFA0}\u{EF80}", "\\xED\\xA0\\x80"),
        ([0x61, 0xE2, 0x82], "a\u{EFE2}\u{EF82}", "a\\xE2\\x82"),
        ([0xF4, 0x90, 0x80, 0x80], "\u{EFF4}\u{EF90}\u{EF80}\u{EF80}", "\\xF4\\x90\\x80\\x80"),
        (Array("😀".utf8), "😀", "😀"),
        // Controls, escapes and backslashes are shown escaped, never sent to the terminal.
        (Array("a\nb\tc\r".utf8), "a\nb\tc\r", "a\\nb\\tc\\r"),
        (Array("\u{1B}[31mred".utf8), "\u{1B}[31mred", "\\x1B[31mred"),
        (Array("back\\slash\u{7F}".utf8), "back\\slash\u{7F}", "back\\\\slash\\x7F"),
        (Array("next\u{85}line".utf8), "next\u{85}line", "next\\xC2\\x85line"),
        (Array("gpj.\u{202E}exe".utf8), "gpj.\u{202E}exe", "gpj.\\xE2\\x80\\xAEexe"),
    ]

    @Test(arguments: table.indices)
    func bytesStringsAndDisplay(row: Int) {
        let (bytes, string, shown) = Self.table[row]
        #expect(PathBytes.string(bytes) == string)
        #expect(PathBytes.bytes(string) == bytes)
        #expect(PathBytes.displayed(string) == shown)
        #expect(!PathBytes.displayed(string).unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    /// Every sequence of up to three bytes drawn from the interesting ones maps to a string and back,
    /// and no two sequences share a string.
    @Test func everyShortByteStringRoundTripsAndNoTwoCollide() {
        let alphabet: [UInt8] = [
            0x41, 0x5C, 0x7F, 0x80, 0xA9, 0xBD, 0xBF, 0xC2, 0xC3, 0xE2, 0xED, 0xEE, 0xEF, 0xF0, 0xFF,
        ]
        var seen: [String: [UInt8]] = [:]
        var inputs: [[UInt8]] = [[]]
        for _ in 0..<3 { inputs = inputs.flatMap { prefix in alphabet.map { prefix + [$0] } } + inputs }
        for bytes in inputs {
            let string = PathBytes.string(bytes)
            #expect(PathBytes.bytes(string) == bytes, "\(bytes)")
            if let other = seen[string], other != bytes { Issue.record("\(bytes) and \(other) share \(string)") }
            seen[string] = bytes
        }
    }

    @Test func cStringsCarryTheBytes() {
        let path = "/tmp/caf\u{EFE9}"
        let bytes = PathBytes.withCString(path) { pointer in
            (0..<9).map { UInt8(bitPattern: pointer[$0]) }
        }
        #expect(bytes == Array("/tmp/caf".utf8) + [0xE9])
        #expect(PathBytes.withCString(path) { PathBytes.string(cString: $0) } == path)
    }

    @Test func columnsCountWhatATerminalShows() {
        #expect(PathBytes.columns("abc") == 3)
        #expect(PathBytes.columns("e\u{301}") == 1, "a combining accent takes no column")
        #expect(PathBytes.columns("写真") == 4)
        #expect(PathBytes.columns("😀") == 2)
    }
}
