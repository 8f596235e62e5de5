import Foundation
import Glibc
import PhotosCore

/// The content of a `.trashinfo` file, read and written as the freedesktop.org Trash
/// specification says, and tolerant of what other tools write.
///
/// ```
/// [Trash Info]
/// Path=/home/ana/Pictures/Caf%C3%A9%20Paris/IMG_0001.JPG
/// DeletionDate=2026-11-28T16:05:09
/// X-Photosd-Process=4242
/// X-Photosd-Boot=0d6f…
/// ```
///
/// Reading, as a reader "MUST" per the specification, and as GLib's key files are read:
///
/// | line | taken as |
/// |---|---|
/// | blank, or starting with `#` | nothing |
/// | `[Trash Info]` | the group whose keys count (a file without it is invalid) |
/// | any other `[group]` | the end of the keys that count |
/// | `Path=…` | the original path, percent-decoded byte for byte; the first one wins |
/// | `DeletionDate=…` | the deletion date, local time `YYYY-MM-DDThh:mm:ss`; the first one wins |
/// | `X-Photosd-Process=`, `X-Photosd-Boot=` | the process that wrote it: ``Trash/repair(_:)`` reads them |
/// | anything else (other keys, `Path[fr]=`, a line without `=`) | nothing |
///
/// A file without `Path=` is invalid; one without a readable `DeletionDate=` is kept, without a date.
/// Key and value are trimmed of spaces and tabs, and a line's carriage return is dropped.
public struct TrashInfo: Equatable, Sendable {
    /// The original path as written: absolute, or relative to the trash's top directory.
    public var path: String
    /// The `DeletionDate=` value as written (`2026-11-28T16:05:09`), if any.
    public var deletionDate: String?
    /// The process id in `X-Photosd-Process=`: set only in files this library wrote.
    public var process: Int64?
    /// The boot id in `X-Photosd-Boot=` (`/proc/sys/kernel/random/boot_id`), with ``process``.
    public var boot: String?

    /// An entry's content.
    public init(path: String, deletionDate: String?, process: Int64? = nil, boot: String? = nil) {
        self.path = path
        self.deletionDate = deletionDate
        self.process = process
        self.boot = boot
    }

    /// Reads a `.trashinfo` file's bytes; throws ``TrashError/Code/invalidEntry`` with the reason
    /// (the caller adds the file's name).
    public init(parsing bytes: [UInt8]) throws(TrashError) {
        var inGroup = false
        var sawGroup = false
        var path: String?
        var date: String?
        var process: Int64?
        var boot: String?
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var line = rawLine[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let trimmed = Self.trimmed(line)
            if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { continue }
            if trimmed.first == UInt8(ascii: "[") {
                inGroup = Array(trimmed) == Array("[Trash Info]".utf8)
                sawGroup = sawGroup || inGroup
                continue
            }
            guard inGroup, let equals = trimmed.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: Self.trimmed(trimmed[..<equals]), as: UTF8.self)
            let value = Self.trimmed(trimmed[trimmed.index(after: equals)...])
            switch key {
            case "Path" where path == nil: path = PathBytes.string(Self.percentDecoded(value))
            case "DeletionDate" where date == nil: date = String(decoding: value, as: UTF8.self)
            case "X-Photosd-Process" where process == nil: process = Int64(String(decoding: value, as: UTF8.self))
            case "X-Photosd-Boot" where boot == nil: boot = String(decoding: value, as: UTF8.self)
            default: break
            }
        }
        guard sawGroup else {
            throw TrashError(code: .invalidEntry, message: "no [Trash Info] group")
        }
        guard let path, !path.isEmpty else {
            throw TrashError(code: .invalidEntry, message: "no Path= in its [Trash Info] group")
        }
        self.init(path: path, deletionDate: date, process: process, boot: boot)
    }

    /// The file's bytes: the group, `Path=` percent-encoded, `DeletionDate=`, then the writer's keys.
    public var rendered: [UInt8] {
        var text = "[Trash Info]\nPath=\(Self.percentEncoded(path))\n"
        if let deletionDate { text += "DeletionDate=\(deletionDate)\n" }
        if let process { text += "X-Photosd-Process=\(process)\n" }
        if let boot { text += "X-Photosd-Boot=\(boot)\n" }
        return Array(text.utf8)
    }

    /// `path` escaped as in URLs (RFC 2396, section 2) from its bytes: every byte but the letters,
    /// digits, `-_.~` and `/` becomes `%XX`, as trash-cli writes it (a space is `%20`, `é` is `%C3%A9`,
    /// an undecodable byte 0xE9 is `%E9`).
    public static func percentEncoded(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in PathBytes.bytes(path) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` stands for: each `%XX` is its byte; a `%` not followed by two hex digits is
    /// kept as it is (other tools' files are read, not judged).
    public static func percentDecoded<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8] {
        PercentEncoding.decode(text, malformed: .kept) ?? Array(text)
    }

    /// `time` as a `DeletionDate=` value: local time, `YYYY-MM-DDThh:mm:ss`.
    public static func deletionDate(_ time: Date) -> String {
        var seconds = time_t(time.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour))"
            + ":\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// The instant a `DeletionDate=` value stands for, read as local time; nil when it is not of the
    /// form `YYYY-MM-DDThh:mm:ss` (what follows the seconds, a fraction or a zone, is ignored).
    public static func date(fromDeletionDate text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        return seconds == -1 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            slice = slice.dropFirst()
        }
        while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            slice = slice.dropLast()
        }
        return slice
    }
}
