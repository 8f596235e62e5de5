import Foundation
import Glibc
import Logging
import PhotosCore
import PhotosWire
import Synchronization

/// How photosd writes its log on standard error: one record per line, whatever a message holds.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-01-02T10:00:00.250+01:00 info photosd : key=value [PhotosDaemon] message`, newlines
    /// and backslashes in the message and values written `\n` and `\\`, other control characters
    /// `\xNN`.
    case text
    /// One JSON object a line: `time` (ISO 8601), `level`, `label`, `message`, `metadata` (an object
    /// of the record's keys), `source` (the module that logged).
    case json
}

/// photosd's log handler: a swift-log `LogHandler` writing ``LogFormat`` records to standard error,
/// each a single line, so that a hook's standard error, an error message or a path with a newline
/// never splits a record (journald and log shippers take a line for a record).
///
/// ```swift
/// LoggingSystem.bootstrap { label in DaemonLogHandler(label: label, format: .json, level: .info) }
/// // {"time":"2026-01-02T10:00:00.250+01:00","level":"info","label":"photosd","message":"ready",…}
/// ```
public struct DaemonLogHandler: LogHandler {
    /// The records' format.
    public let format: LogFormat
    /// The logger's label (`photosd`, `photosd.hooks`, `photosd.api`).
    public let label: String
    /// The least severe level written (`--log-level`).
    public var logLevel: Logger.Level
    /// Metadata every record of this logger carries.
    public var metadata: Logger.Metadata = [:]
    /// Metadata added at each record from the task's context.
    public var metadataProvider: Logger.MetadataProvider?
    /// Where whole lines go; standard error unless a test gives another.
    let write: @Sendable (String) -> Void

    /// A handler for `label`, writing records of `level` and above in `format` to standard error.
    public init(label: String, format: LogFormat, level: Logger.Level = .info) {
        self.init(label: label, format: format, level: level, write: Self.standardError)
    }

    init(label: String, format: LogFormat, level: Logger.Level, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.write = write
    }

    /// One key of ``metadata``.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one record as one line, in the chosen format.
    public func log(
        level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
        file: String, function: String, line: UInt
    ) {
        var merged = self.metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit { merged.merge(explicit) { $1 } }
        write(
            Self.record(
                format: format, date: Date(), level: level, label: label, message: "\(message)", metadata: merged,
                source: source))
    }

    /// One record as its line, newline included.
    public static func record(
        format: LogFormat, date: Date, level: Logger.Level, label: String, message: String,
        metadata: Logger.Metadata, source: String
    ) -> String {
        let time = ISO8601.string(date, offset: TimeZone.current.secondsFromGMT(for: date))
        switch format {
        case .text:
            let values = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\(escaped(text(of: $0.value)))" }
            let pairs = values.isEmpty ? "" : " " + values.joined(separator: " ")
            return "\(time) \(level) \(label) :\(pairs) [\(source)] \(escaped(message))\n"
        case .json:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(128 + message.utf8.count)
            func key(_ name: String) {
                bytes.append(bytes.count == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
                JSONText.appendString(name, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
            }
            key("time")
            JSONText.appendString(time, to: &bytes)
            key("level")
            JSONText.appendString(level.rawValue, to: &bytes)
            key("label")
            JSONText.appendString(label, to: &bytes)
            key("message")
            JSONText.appendString(message, to: &bytes)
            key("metadata")
            appendJSON(.dictionary(metadata), to: &bytes)
            key("source")
            JSONText.appendString(source, to: &bytes)
            bytes.append(contentsOf: "}\n".utf8)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A metadata value as JSON: strings as strings, lists as arrays, dictionaries as objects (keys sorted).
    static func appendJSON(_ value: Logger.Metadata.Value, to bytes: inout [UInt8]) {
        switch value {
        case .string(let text): JSONText.appendString(text, to: &bytes)
        case .stringConvertible(let value): JSONText.appendString(value.description, to: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendJSON(item, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            bytes.append(UInt8(ascii: "{"))
            for (index, entry) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendString(entry.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendJSON(entry.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A value as the text format writes it, before escaping.
    static func text(of value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let items): "[" + items.map(text(of:)).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            "[" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \(text(of: $0.value))" }.joined(separator: ", ")
                + "]"
        }
    }

    /// Text on one line that a terminal shows as it is: backslash, newline, carriage return and tab
    /// written as `\\`, `\n`, `\r`, `\t`, and every other control character (an escape sequence's
    /// ESC is `\x1B`, DEL `\x7F`, a C1 control its UTF-8 bytes) as `\xNN`, as `photos` tables show
    /// names (``PathBytes/displayed(_:)``): what a hook prints can neither split a record nor erase
    /// or forge one on the terminal showing the log.
    static func escaped(_ text: String) -> String { PathBytes.displayed(text) }

    /// Serializes whole lines onto standard error: records from several threads never interleave.
    private static let lock = Mutex(())

    @Sendable static func standardError(_ line: String) {
        lock.withLock { _ in
            var line = line
            line.withUTF8 { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }
}
