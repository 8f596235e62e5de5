import Foundation

/// Builds small TIFF structures entry by entry, for EXIF blocks and TIFF files with known
/// content. Offsets are laid out by the builder; `padding` puts empty space before a directory to
/// place it far into the file.
struct TIFFBuilder {
    enum Value: Sendable {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case byte(UInt8)
        case rationals([(UInt32, UInt32)])
        /// A pointer to a sub-directory (ExifIFD, GPS IFD).
        case directory([UInt16: Value], padding: Int)
    }

    var bigEndian = true

    /// The TIFF bytes, header included, with IFD0 holding `entries` after `ifd0Padding` zero bytes.
    func build(_ entries: [UInt16: Value], ifd0Padding: Int = 0) -> [UInt8] {
        var output: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        output += u32(UInt32(8 + ifd0Padding))
        output += [UInt8](repeating: 0, count: ifd0Padding)
        write(entries, into: &output)
        return output
    }

    private func write(_ entries: [UInt16: Value], into output: inout [UInt8]) {
        let start = output.count
        let sorted = entries.sorted { $0.key < $1.key }
        let tableLength = 2 + 12 * sorted.count + 4
        output += [UInt8](repeating: 0, count: tableLength)
        var table: [UInt8] = u16(UInt16(sorted.count))
        var pending: [(fieldOffset: Int, entries: [UInt16: Value], padding: Int)] = []
        for (tag, value) in sorted {
            let (type, count, bytes) = encode(value)
            table += u16(tag) + u16(type) + u32(count)
            if case let .directory(children, padding) = value {
                pending.append((start + table.count, children, padding))
                table += [0, 0, 0, 0]
            } else if bytes.count <= 4 {
                table += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                table += u32(UInt32(output.count))
                output += bytes
                if output.count % 2 == 1 { output.append(0) }
            }
        }
        table += [0, 0, 0, 0]
        output.replaceSubrange(start..<(start + tableLength), with: table)
        for (fieldOffset, children, padding) in pending {
            output += [UInt8](repeating: 0, count: padding)
            output.replaceSubrange(fieldOffset..<(fieldOffset + 4), with: u32(UInt32(output.count)))
            write(children, into: &output)
        }
    }

    private func encode(_ value: Value) -> (UInt16, UInt32, [UInt8]) {
        switch value {
        case let .ascii(text):
            let bytes = Array(text.utf8) + [0]
            return (2, UInt32(bytes.count), bytes)
        case let .short(number): return (3, 1, u16(number))
        case let .long(number): return (4, 1, u32(number))
        case let .byte(number): return (1, 1, [number])
        case let .rationals(values):
            return (5, UInt32(values.count), values.flatMap { u32($0.0) + u32($0.1) })
        case .directory: return (4, 1, [])
        }
    }

    func u16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }
}

/// Minimal JPEG files: SOI, an optional EXIF APP1, a baseline frame header, one scan of a few
/// entropy-coded bytes, EOI. Enough for every header parser; not a decodable picture.
enum JPEGBuilder {
    static func jpeg(width: UInt16, height: UInt16, exif tiff: [UInt8]? = nil, endOfImage: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if let tiff {
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            bytes += [0xFF, 0xE1] + be16(UInt16(payload.count + 2)) + payload
        }
        // SOF0: precision 8, height, width, one component.
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08] + be16(height) + be16(width) + [0x01, 0x01, 0x11, 0x00]
        // SOS: one component, then some entropy-coded data with a stuffed 0xFF.
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        bytes += [0x12, 0x34, 0xFF, 0x00, 0x56, 0x78, 0x9A]
        if endOfImage { bytes += [0xFF, 0xD9] }
        return bytes
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}

/// A temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("PhotosMetadataTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name` and returns the file's path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }
}

/// A small deterministic random number generator (SplitMix64), so that fuzzed inputs are the same
/// on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
