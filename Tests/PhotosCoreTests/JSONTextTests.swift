import Foundation
import PhotosCore
import Testing

/// Hand-written JSON strings and arrays, against Foundation's encoder and parser.
@Suite struct JSONTextTests {
    static let strings = [
        "", "plain", "/home/me/Pictures/IMG_0001.HEIC", "say \"hi\"", "back\\slash", "tab\tnew\nline\r",
        "bell\u{07} nul\u{00} unit\u{1F}", "café 写真 📷", "caf\u{EFE9}", "\u{7F}del", "</script>",
    ]

    @Test(arguments: strings)
    func aStringIsWhatJSONEncoderWrites(string: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        var bytes: [UInt8] = []
        JSONText.appendString(string, to: &bytes)
        #expect(bytes == Array(try encoder.encode(string)))
    }

    @Test func anArrayParsesBackToItsStrings() throws {
        let text = JSONText.array(Self.strings)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
        #expect(parsed == Self.strings)
        #expect(JSONText.array([String]()) == "[]")
        #expect(JSONText.array(["a", "b"]) == #"["a","b"]"#)
        #expect(JSONText.array([Int64]()) == "[]")
        #expect(JSONText.array([1, -2, Int64.max]) == "[1,-2,9223372036854775807]")
    }

    @Test func integersAreWrittenAsTheirDescriptions() {
        var random = SystemRandomNumberGenerator()
        let edges: [Int64] = [0, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1]
        let integers =
            edges
            + (0..<2_000).map { index in
                // Every length of digits.
                Int64.random(in: -Int64.max...Int64.max, using: &random) >> (index % 63)
            }
        #expect(JSONText.array(integers) == "[" + integers.map(String.init).joined(separator: ",") + "]")
        #expect(JSONText.array([Int64.min]) == "[-9223372036854775808]")
    }
}
