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
