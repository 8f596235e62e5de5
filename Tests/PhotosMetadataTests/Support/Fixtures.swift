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
        case shorts([UInt16])
        case longs([UInt32])
        /// UNDEFINED bytes (a maker note, a UserComment).
        case undefined([UInt8])
        /// A pointer to a sub-directory (ExifIFD, GPS IFD).
        case directory([UInt16: Value], padding: Int)
        /// An UNDEFINED entry holding a bare directory whose value offsets count from the TIFF
        /// header, as Canon's maker note does.
        case makerNote([UInt16: Value])
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
        var pending: [(fieldOffset: Int, entries: [UInt16: Value], padding: Int, isMakerNote: Bool)] = []
        for (tag, value) in sorted {
            let (type, count, bytes) = encode(value)
            table += u16(tag) + u16(type) + u32(count)
            if case let .directory(children, padding) = value {
                pending.append((start + table.count, children, padding, false))
                table += [0, 0, 0, 0]
            } else if case let .makerNote(children) = value {
                pending.append((start + table.count, children, 0, true))
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
        for (fieldOffset, children, padding, isMakerNote) in pending {
            output += [UInt8](repeating: 0, count: padding)
            let directoryStart = output.count
            output.replaceSubrange(fieldOffset..<(fieldOffset + 4), with: u32(UInt32(directoryStart)))
            write(children, into: &output)
            if isMakerNote {  // the count is the directory's length with its values
                let length = UInt32(output.count - directoryStart)
                output.replaceSubrange((fieldOffset - 4)..<fieldOffset, with: u32(length))
            }
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
        case let .shorts(values): return (3, UInt32(values.count), values.flatMap { u16($0) })
        case let .longs(values): return (4, UInt32(values.count), values.flatMap { u32($0) })
        case let .undefined(bytes): return (7, UInt32(bytes.count), bytes)
        case .directory: return (4, 1, [])
        case .makerNote: return (7, 0, [])
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

/// Apple maker notes: `Apple iOS\0`, version 1, `MM`, then a big-endian directory at offset 14
/// whose value offsets count from the note's first byte.
enum AppleMakerNoteBuilder {
    enum Value {
        case ascii(String)
        case slong(Int32)
    }

    static func note(_ entries: [UInt16: Value]) -> [UInt8] {
        let sorted = entries.sorted { $0.key < $1.key }
        let header: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
        let tiff = TIFFBuilder(bigEndian: true)
        var table = tiff.u16(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = header.count + 2 + 12 * sorted.count + 4
        for (tag, value) in sorted {
            switch value {
            case let .ascii(text):
                let bytes = Array(text.utf8) + [0]
                table += tiff.u16(tag) + tiff.u16(2) + tiff.u32(UInt32(bytes.count))
                table += tiff.u32(UInt32(dataStart + data.count))
                data += bytes
            case let .slong(number):
                table += tiff.u16(tag) + tiff.u16(9) + tiff.u32(1) + tiff.u32(UInt32(bitPattern: number))
            }
        }
        return header + table + [0, 0, 0, 0] + data
    }
}

/// Minimal JPEG files: SOI, an optional EXIF APP1 and XMP APP1, a baseline frame header, one scan
/// of a few entropy-coded bytes, EOI. Enough for every header parser; not a decodable picture.
enum JPEGBuilder {
    static func jpeg(
        width: UInt16, height: UInt16, exif tiff: [UInt8]? = nil, xmp: String? = nil, endOfImage: Bool = true
    ) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if let tiff {
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            bytes += [0xFF, 0xE1] + be16(UInt16(payload.count + 2)) + payload
        }
        if let xmp {
            let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)
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

    /// The byte range of the first scan header (from its FF DA marker to the first entropy-coded
    /// byte) in a JPEG this builder made.
    static func scanHeaderRange(in jpeg: [UInt8]) -> Range<Int>? {
        guard let start = (0..<(jpeg.count - 3)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }) else {
            return nil
        }
        let length = Int(jpeg[start + 2]) << 8 | Int(jpeg[start + 3])
        return start..<(start + 2 + length)
    }
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

/// ISO base media boxes, and a minimal QuickTime movie: one video track whose sample durations
/// (`stts`) are given, and optional QuickTime keys.
enum MovieBuilder {
    /// A box: 32-bit size, type (one byte a character, so `©xyz` is 0xA9 `xyz`), payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } + payload
    }

    /// A movie of `width`×`height` whose video track has `samples` runs of (count, duration) in
    /// `timescale`; `textKeys` and `integerKeys` become QuickTime `mdta` keys (well-known types 1 and
    /// 21), `userData` atoms of a `udta` box (type and payload, in order); `brand` is the `ftyp`'s and
    /// `moovExtra` more boxes at the end of `moov`.
    static func movie(
        width: UInt16 = 320, height: UInt16 = 240, timescale: UInt32 = 600, samples: [(UInt32, UInt32)],
        textKeys: [String: String] = [:], integerKeys: [String: Int8] = [:], userData: [(String, [UInt8])] = [],
        brand: String = "qt  ", moovExtra: [UInt8] = []
    ) -> [UInt8] {
        let duration = samples.reduce(UInt32(0)) { $0 + $1.0 * $1.1 }
        let mvhd = box("mvhd", [UInt8](repeating: 0, count: 12) + be32(timescale) + be32(duration) + zeros(80))
        let tkhd = box(
            "tkhd",
            zeros(40) + identityMatrix + be32(UInt32(width) << 16) + be32(UInt32(height) << 16))
        let mdhd = box("mdhd", zeros(12) + be32(timescale) + be32(duration) + zeros(4))
        let hdlr = box("hdlr", zeros(8) + Array("vide".utf8) + zeros(13))
        let stts = box("stts", zeros(4) + be32(UInt32(samples.count)) + samples.flatMap { be32($0.0) + be32($0.1) })
        let trak = box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", box("stbl", stts))))

        var names: [String] = []
        var items: [UInt8] = []
        for (name, value) in textKeys.sorted(by: { $0.key < $1.key }) {
            names.append(name)
            items += box(index(names.count), box("data", be32(1) + zeros(4) + Array(value.utf8)))
        }
        for (name, value) in integerKeys.sorted(by: { $0.key < $1.key }) {
            names.append(name)
            items += box(index(names.count), box("data", be32(21) + zeros(4) + [UInt8(bitPattern: value)]))
        }
        var meta: [UInt8] = []
        if !names.isEmpty {
            let keys = names.flatMap { be32(UInt32(8 + $0.utf8.count)) + Array("mdta".utf8) + Array($0.utf8) }
            meta = box(
                "meta",
                box("hdlr", zeros(8) + Array("mdta".utf8) + zeros(13))
                    + box("keys", zeros(4) + be32(UInt32(names.count)) + keys) + box("ilst", items))
        }
        let udta = userData.isEmpty ? [] : box("udta", userData.flatMap { box($0.0, $0.1) })
        let ftyp = box("ftyp", Array(brand.utf8) + zeros(4) + Array(brand.utf8))
        return ftyp + box("moov", mvhd + trak + meta + udta + moovExtra) + box("mdat", zeros(16))
    }

    /// The four bytes of item-list index `value`, which QuickTime writes as the item's box type.
    private static func index(_ value: Int) -> String {
        String(decoding: be32(UInt32(value)), as: UTF8.self)
    }

    private static let identityMatrix: [UInt8] =
        be32(0x0001_0000) + zeros(12) + be32(0x0001_0000) + zeros(12) + be32(0x4000_0000)

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
}

/// Minimal PNG files: IHDR, an optional APNG animation control chunk, one IDAT of a few bytes,
/// IEND. The chunk structure is valid (CRCs included); the pixels are not decodable.
enum PNGBuilder {
    /// `chunks` (whole chunks, see ``chunk(_:_:)``) go before the image data.
    static func png(width: UInt32, height: UInt32, animationFrames: UInt32? = nil, chunks: [[UInt8]] = []) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", MovieBuilder.be32(width) + MovieBuilder.be32(height) + [8, 0, 0, 0, 0])
        if let animationFrames {
            bytes += chunk("acTL", MovieBuilder.be32(animationFrames) + MovieBuilder.be32(0))
        }
        bytes += chunks.flatMap { $0 }
        bytes += chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00])
        bytes += chunk("IEND", [])
        return bytes
    }

    /// A text chunk (`tEXt`, or `zTXt` with the text deflated) of `keyword` and `text`.
    static func text(_ keyword: String, _ text: [UInt8], compressed: Bool = false) -> [UInt8] {
        compressed
            ? chunk("zTXt", Array(keyword.utf8) + [0, 0] + storedZlib(text))
            : chunk("tEXt", Array(keyword.utf8) + [0] + text)
    }

    /// ImageMagick's raw profile text of `bytes`: a blank line, the profile's name, its length, then hexadecimal.
    static func rawProfile(_ name: String, _ bytes: [UInt8]) -> [UInt8] {
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        return Array("\n\(name)\n    \(bytes.count)\n\(hex)\n".utf8)
    }

    /// A zlib stream of `data` in one stored (uncompressed) deflate block, at most 65 535 bytes.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        let length = UInt16(data.count)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + data + MovieBuilder.be32(b << 16 | a)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return MovieBuilder.be32(UInt32(data.count)) + typed + MovieBuilder.be32(crc32(typed))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
