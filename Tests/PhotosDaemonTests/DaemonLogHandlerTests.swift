import Foundation
import Logging
import PhotosDaemon
import Testing

/// photosd's log records: one line each, whatever the message or a value holds.
struct DaemonLogHandlerTests {
    static let date = Date(timeIntervalSince1970: 1_767_225_600.25)

    static func record(_ format: LogFormat, _ message: String, _ metadata: Logger.Metadata) -> String {
        DaemonLogHandler.record(
            format: format, date: date, level: .warning, label: "photosd.hooks", message: message, metadata: metadata,
            source: "PhotosHooks")
    }

    @Test func aTextRecordIsOneLineWithItsNewlinesAndBackslashesEscaped() {
        let line = Self.record(.text, "hook's standard error", ["hook.stderr": "one\ntwo\\three\r\tfour", "hook": "x"])
        #expect(
            line.hasSuffix(
                #" warning photosd.hooks : hook=x hook.stderr=one\ntwo\\three\r\tfour [PhotosHooks] hook's standard error"#
                    + "\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    /// A hook that prints an escape sequence (erase the line, back to its start, then a record of its
    /// own) shows it as text: no raw control character reaches the terminal showing the log.
    @Test(arguments: [
        ("\u{1B}[2K\u{1B}[1G2026-01-01 notice photosd : done", #"\x1B[2K\x1B[1G2026-01-01 notice photosd : done"#),
        ("bell\u{07} nul\u{00} del\u{7F}", #"bell\x07 nul\x00 del\x7F"#),
        ("csi\u{9B}2K", #"csi\xC2\x9B2K"#),
        ("caf\u{E9} \u{1F4F7}", "caf\u{E9} \u{1F4F7}"),
    ])
    func aTextRecordShowsAHooksControlCharactersAsEscapes(printed: String, logged: String) {
        let line = Self.record(.text, "hook's standard output", ["hook.stdout": .string(printed)])
        #expect(line.hasSuffix(" hook.stdout=\(logged) [PhotosHooks] hook's standard output\n"), "\(line)")
        let raw = line.dropLast().unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        #expect(raw.isEmpty, "\(line)")
    }

    @Test func aJSONRecordIsOneObjectALineWithEveryField() throws {
        let line = Self.record(
            .json, "said \"hi\"\nthen left",
            ["hook.stderr": "a\nb", "count": .stringConvertible(3), "list": ["x", "y"], "nested": ["k": "v"]])
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning" && object["label"] as? String == "photosd.hooks")
        #expect(
            object["message"] as? String == "said \"hi\"\nthen left" && object["source"] as? String == "PhotosHooks")
        let time = try #require(object["time"] as? String)
        #expect(time.contains("T") && time.contains(".250"), "\(time)")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["hook.stderr"] as? String == "a\nb" && metadata["count"] as? String == "3")
        #expect(metadata["list"] as? [String] == ["x", "y"] && metadata["nested"] as? [String: String] == ["k": "v"])
    }
}
