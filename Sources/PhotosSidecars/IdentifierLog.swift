import Foundation
import PhotosLinux

/// Which local identifier each photo of a root had, kept at the top of each root that may hold user
/// state (`write = "sidecars"` or `"files"`) as `.photosd-identifiers`: so that a library rebuilt
/// from the disk alone gives back the identifier of a photo that has neither a sidecar nor a place
/// in a user album (nothing else on the disk names it).
///
/// The file is JSON Lines, appended to and read from the end:
///
/// ```
/// {"format":"photosd-identifiers","version":1}
/// {"id":"0F3C…/L0/001","path":"2024/IMG_1.JPG"}
/// {"id":"9A1B…/L0/001","path":"2024/Trip/IMG_2.JPG"}
/// {"checkpoint":1234,"library":"5D2E…","lines":4}
/// {"id":"0F3C…/L0/001","path":"2024/IMG_0001.JPG"}
/// {"checkpoint":1240,"library":"5D2E…","lines":6}
/// ```
///
/// - The first line says whose the file is: a file of that name whose first line is not this
///   header is another program's, read by nothing and never written.
/// - An entry names an asset and the path of its photo (its first original), relative to the root.
///   Later entries win: a path's last entry, and an identifier's last entry, count; an entry that
///   is no longer the last for its path or for its identifier says nothing. `{"id":…,"deleted":true}`
///   forgets an identifier.
/// - A checkpoint records that the entries above it hold every asset placed or moved up to that
///   change-log `token` of the library `library` (``LibraryDatabase/libraryIdentifier()``), and how
///   many lines the file had then (to know when to compact it).
/// - A line that cannot be read (a stop in the middle of an append leaves the last line cut) is
///   passed over.
public enum IdentifierLog {
    /// The file's name at the top of a root.
    public static let fileName = ".photosd-identifiers"
    /// What the header's `format` says.
    public static let formatName = "photosd-identifiers"
    /// The version this build writes and reads.
    public static let currentVersion = 1

    /// The log's path in `root`.
    public static func path(inRoot root: String) -> String {
        (root.hasSuffix("/") ? root : root + "/") + fileName
    }

    /// How far a log is synced: through the change-log token `token` of the library `library`.
    public struct Checkpoint: Hashable, Sendable {
        /// The library's identifier.
        public var library: String
        /// The last change-log token whose placed and moved assets the log holds.
        public var token: Int64
        /// How many lines the file had with this checkpoint.
        public var lines: Int

        /// A checkpoint of the library `library` at change-log token `token`, the file then `lines` long.
        public init(library: String, token: Int64, lines: Int) {
            self.library = library
            self.token = token
            self.lines = lines
        }
    }

    /// Where a log ends: what a catch-up needs to append to it.
    public struct Tail: Sendable {
        /// The file as it was read: an append goes only to this file.
        public var identity: FileIdentity
        /// The last checkpoint, if any.
        public var checkpoint: Checkpoint?
        /// Whether the file ends with a newline (not: a stop cut its last line).
        public var endsWithNewline: Bool
    }

    /// What a whole log says.
    public struct Contents: Sendable {
        /// The identifier of each path (relative to the root) that is still the last word on both.
        public var identifiers: [String: String]
        /// The last checkpoint, if any.
        public var checkpoint: Checkpoint?
        /// How many lines the file has.
        public var lines: Int
    }

    // MARK: Lines

    /// The first line of every log, with its newline.
    public static var header: String { "{\"format\":\"\(formatName)\",\"version\":\(currentVersion)}\n" }

    /// An entry: the asset `identifier` has its photo at `path` (relative to the root), with its newline.
    public static func entry(identifier: String, path: String) -> String {
        "{\"id\":\(quoted(identifier)),\"path\":\(quoted(path))}\n"
    }

    /// A checkpoint line, with its newline.
    public static func line(_ checkpoint: Checkpoint) -> String {
        "{\"checkpoint\":\(checkpoint.token),\"library\":\(quoted(checkpoint.library)),\"lines\":\(checkpoint.lines)}\n"
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// One line, decoded; the fields a line may have.
    private struct Line: Decodable {
        var format: String?
        var version: Int?
        var id: String?
        var path: String?
        var deleted: Bool?
        var checkpoint: Int64?
        var library: String?
        var lines: Int?

        var asCheckpoint: Checkpoint? {
            guard let checkpoint, let library else { return nil }
            return Checkpoint(library: library, token: checkpoint, lines: lines ?? 0)
        }
    }

    /// Checks the first line: ours, of a version this build reads.
    private static func checkHeader(_ first: Data, path: String) throws {
        guard let line = try? JSONDecoder().decode(Line.self, from: first), line.format == formatName else {
            throw ManifestError(
                path: path, reason: "it is not a photosd identifier log (its first line is not its header)")
        }
        guard let version = line.version, version <= currentVersion else {
            throw ManifestError(
                path: path, reason: "it is version \(line.version ?? 0); this build reads up to \(currentVersion)")
        }
    }

    /// The file at `path` if it is a regular file; nil when there is none. A symbolic link, a
    /// directory or anything else of that name is another program's.
    private static func regularFile(_ path: String) throws -> FileIdentity? {
        guard let identity = try FileOperations.identity(path) else { return nil }
        guard identity.isRegularFile else { throw ManifestError(path: path, reason: "it is not a regular file") }
        return identity
    }

    // MARK: Reading

    /// The whole log at `path`: every path's identifier; nil when there is no file. A file of that
    /// name that is not a log is an error naming it.
    public static func read(_ path: String) throws -> Contents? {
        guard try regularFile(path) != nil else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ManifestError(path: path, reason: "it cannot be read")
        }
        return try parse(data, path: path)
    }

    /// What the bytes of a log say (`path` names it in errors).
    public static func parse(_ data: Data, path: String) throws -> Contents {
        var lines = split(data)
        // A last line without its newline was cut by a stop mid-append.
        if !data.isEmpty, data.last != 0x0A { lines.removeLast() }
        guard let first = lines.first else {
            throw ManifestError(path: path, reason: "it is not a photosd identifier log (it is empty)")
        }
        try checkHeader(first, path: path)
        let decoder = JSONDecoder()
        // Each path's last entry and each identifier's last entry, by line number.
        var byPath: [String: (identifier: String, line: Int)] = [:]
        var lastLine: [String: Int] = [:]
        var checkpoint: Checkpoint?
        // Every line at once (one decoder pass); line by line, passing over the unreadable, only when
        // some line cannot be read.
        var joined = Data("[".utf8)
        for (number, text) in lines.enumerated() {
            if number > 0 { joined.append(UInt8(ascii: ",")) }
            joined.append(text)
        }
        joined.append(UInt8(ascii: "]"))
        let decoded: [Line?] =
            (try? decoder.decode([Line].self, from: joined)) ?? lines.map { try? decoder.decode(Line.self, from: $0) }
        for (number, found) in decoded.enumerated().dropFirst() {
            guard let line = found else { continue }
            if let id = line.id {
                lastLine[id] = number
                if line.deleted != true, let relative = line.path { byPath[relative] = (id, number) }
            } else if let found = line.asCheckpoint {
                checkpoint = found
            }
        }
        var identifiers: [String: String] = [:]
        for (relative, entry) in byPath where lastLine[entry.identifier] == entry.line {
            identifiers[relative] = entry.identifier
        }
        return Contents(identifiers: identifiers, checkpoint: checkpoint, lines: lines.count)
    }

    /// The end of the log at `path`: its last checkpoint, read from the end of the file (a catch-up
    /// does not read what it will not use); nil when there is no file. A file of that name that is
    /// not a log is an error naming it.
    public static func tail(_ path: String) throws -> Tail? {
        guard let identity = try regularFile(path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ManifestError(path: path, reason: "it cannot be read")
        }
        defer { try? handle.close() }
        let head = try handle.read(upToCount: 4096) ?? Data()
        guard let newline = head.firstIndex(of: 0x0A) else {
            throw ManifestError(path: path, reason: "it is not a photosd identifier log (it has no header line)")
        }
        try checkHeader(head[head.startIndex..<newline], path: path)
        let size = try handle.seekToEnd()
        var window: UInt64 = 64 * 1024
        let decoder = JSONDecoder()
        while true {
            let start = size > window ? size - window : 0
            try handle.seek(toOffset: start)
            let data = try handle.readToEnd() ?? Data()
            var lines = split(data)
            if start > 0, !lines.isEmpty { lines.removeFirst() }  // begun mid-line
            if data.last != 0x0A, !lines.isEmpty { lines.removeLast() }  // cut by a stop
            for text in lines.reversed() {
                if let line = try? decoder.decode(Line.self, from: text), let checkpoint = line.asCheckpoint {
                    return Tail(identity: identity, checkpoint: checkpoint, endsWithNewline: data.last == 0x0A)
                }
            }
            if start == 0 { return Tail(identity: identity, checkpoint: nil, endsWithNewline: data.last == 0x0A) }
            window *= 4
        }
    }

    /// The lines of `data`, without their newlines (the last one, if not ended, included).
    private static func split(_ data: Data) -> [Data] {
        data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast(data.last == 0x0A ? 1 : 0)
            .map { Data($0) }
    }

    // MARK: Writing

    /// Appends `lines` (each with its newline) to the log whose end is `tail`, in one `write` and one
    /// `fsync`; a line a stop cut is ended first, so that it stays one unreadable line. Only the file
    /// read as `tail` is written.
    public static func append(_ lines: [String], to path: String, after tail: Tail) throws {
        var text = tail.endsWithNewline ? "" : "\n"
        for line in lines { text += line }
        try FileOperations.append(Data(text.utf8), to: path, expecting: tail.identity)
    }

    /// Writes the log at `path` whole (the header, then `lines`), atomically (temporary name, `fsync`,
    /// `rename`), only over the file `replacing` (nil: only where there is none).
    public static func rewrite(_ path: String, lines: [String], replacing: FileIdentity?) throws {
        var text = header
        for line in lines { text += line }
        try FileOperations.replace(path, with: Data(text.utf8), expecting: .some(replacing))
    }
}
