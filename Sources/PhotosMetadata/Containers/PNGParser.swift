internal import CZlib
import Foundation

/// Walks a PNG's chunks: IHDR for the size (CRC-checked), `eXIf` for EXIF (or a `zTXt` or `tEXt` raw
/// profile of it, see ``RawProfile``), an uncompressed `iTXt` XMP packet (or ImageMagick's `zTXt` raw profile of
/// one), a `tEXt` `Creation Time`, APNG's `acTL` frame count; and checks that
/// the chunks reach IEND inside the file with image data on the way. A file that stops right after the header of
/// its first IDAT chunk, before any pixel byte, is a metadata stub and is described by its headers.
///
/// Only chunk headers are read, never the image data. Once the first IDAT is reached, a file
/// that ends with an IEND chunk is taken as complete without walking the remaining IDAT chunks
/// (a large PNG holds thousands); metadata chunks written after the image data are therefore not
/// read.
enum PNGParser {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        var info = ContainerInfo()
        let head = try reader.readExactly(at: 0, count: 8 + 8 + 13 + 4, what: "PNG signature and IHDR chunk")
        guard head.matches(signature) else { throw reader.corrupt("the file does not start with the PNG signature") }
        guard head.u32(at: 8, .bigEndian) == 13, head.matches(ascii: "IHDR", at: 12),
            let width = head.u32(at: 16, .bigEndian), let height = head.u32(at: 20, .bigEndian)
        else { throw reader.corrupt("PNG does not start with a 13-byte IHDR chunk") }
        guard let ihdr = head.slice(at: 12, count: 17), CRC32.checksum(ihdr) == head.u32(at: 29, .bigEndian) else {
            throw reader.corrupt("PNG IHDR chunk fails its CRC check")
        }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw reader.corrupt("PNG IHDR gives an impossible size \(width)×\(height)")
        }

        var position = 8
        var sawImageData = false
        while true {
            let header = try reader.readExactly(at: position, count: 8, what: "PNG chunk header")
            guard let length = header.u32(at: 0, .bigEndian).map(Int.init), length <= 0x7FFF_FFFF,
                let type = header.fourCC(at: 4)
            else { throw reader.corrupt("PNG chunk at offset \(position) has an impossible length") }
            let end = position + 12 + length
            if type == "IDAT", !sawImageData, position + 8 == reader.size {
                // A metadata stub: the file stops right after the header of its first IDAT, before any pixel byte.
                info.setSize(Int(width), Int(height))
                return info
            }
            guard end <= reader.size else {
                throw reader.truncated(
                    "PNG chunk \(type) at offset \(position) (\(length) bytes) runs past the end of the file")
            }
            switch type {
            case "IDAT" where !sawImageData:
                sawImageData = true
                if try endsWithIEND(reader) {
                    info.setSize(Int(width), Int(height))
                    return info
                }
            case "acTL":
                // An animated PNG announces its frame count before the first IDAT.
                let fields = try reader.readExactly(at: position + 8, count: min(length, 4), what: "acTL")
                info.isAnimated = (fields.u32(at: 0, .bigEndian) ?? 0) > 1
            case "eXIf" where info.exifBlock == nil:
                info.exifBlock = ExifBlocks.fromTIFF(in: reader, at: position + 8, length: length)
            case "zTXt" where length <= RawProfile.largestChunk:
                let chunk = try reader.readExactly(at: position + 8, count: length, what: "zTXt")
                if info.exifBlock == nil { info.exifBlock = RawProfile.exif(fromZTXt: chunk) }
                if info.xmpPacket == nil { info.xmpPacket = RawProfile.xmp(fromZTXt: chunk).map { $0[...] } }
            case "tEXt" where length <= RawProfile.largestChunk:
                let chunk = try reader.readExactly(at: position + 8, count: length, what: "tEXt")
                if info.exifBlock == nil { info.exifBlock = RawProfile.exif(fromTEXt: chunk) }
                if info.statedDate == nil { info.statedDate = creationTime(fromTEXt: chunk) }
            case "iTXt" where info.xmpPacket == nil && length <= FileReader.maximumRead:
                info.xmpPacket = try xmp(fromITXt: reader.readExactly(at: position + 8, count: length, what: "iTXt"))
            case "IEND":
                guard sawImageData else { throw reader.corrupt("PNG has no image data (no IDAT chunk before IEND)") }
                info.setSize(Int(width), Int(height))
                return info
            default:
                break
            }
            position = end
            if position == reader.size {
                throw reader.truncated("PNG ends after \(type) at offset \(position) without an IEND chunk")
            }
        }
    }

    private static let creationTimeKeyword = Array("Creation Time".utf8)

    /// The `Creation Time` text of a `tEXt` chunk (PNG's "time of original image creation"), which PNG
    /// recommends writing as RFC 1123 (`Mon, 9 Aug 2004 21:17:36 -0000`) and some software writes as EXIF does
    /// (`1999:01:01 00:08:50`); ExifTool reads both, as PNG CreationTime.
    static func creationTime(fromTEXt chunk: ArraySlice<UInt8>) -> CapturedDate? {
        guard let nul = chunk.firstIndex(of: 0), Array(chunk[chunk.startIndex..<nul]) == creationTimeKeyword else {
            return nil
        }
        let text = String(decoding: chunk[(nul + 1)...], as: UTF8.self)
        return CapturedDate(parsing: text) ?? rfc1123(text)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An RFC 1123 date (`[Mon,] 9 Aug 2004 21:17:36 [-0000|GMT]`); the day name is not checked.
    static func rfc1123(_ text: String) -> CapturedDate? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        guard words.count >= 4, let day = Int(words[0]),
            let month = months.firstIndex(of: words[1].prefix(3).lowercased()), let year = Int(words[2]),
            words[2].count == 4
        else { return nil }
        let zone = words.count > 4 ? words[4] : ""
        let offset = ["GMT", "UT", "UTC", "Z"].contains(zone) ? "Z" : zone
        let day2 = day < 10 ? "0\(day)" : "\(day)"
        let month2 = month < 9 ? "0\(month + 1)" : "\(month + 1)"
        return CapturedDate(parsing: "\(year):\(month2):\(day2) \(words[3])\(offset)")
    }

    /// Whether the file's last 12 bytes are an IEND chunk.
    private static func endsWithIEND(_ reader: FileReader) throws(MetadataError) -> Bool {
        guard reader.size >= 12 else { return false }
        return try reader.read(at: reader.size - 12, count: 12).matches(iend)
    }

    private static let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// The XMP packet of an `iTXt` chunk with the XMP keyword, when it is not compressed.
    private static func xmp(fromITXt data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard data.matches(xmpKeyword), data.u8(at: xmpKeyword.count) == 0,
            data.u8(at: xmpKeyword.count + 1) == 0  // compression flag
        else { return nil }
        // Skip the compression method, then the NUL-terminated language tag and translated keyword.
        var offset = xmpKeyword.count + 3
        for _ in 0..<2 {
            guard let rest = data.slice(at: offset, count: data.count - offset),
                let nul = rest.firstIndex(of: 0)
            else { return nil }
            offset += (nul - rest.startIndex) + 1
        }
        return data.slice(at: offset, count: data.count - offset)
    }
}

/// EXIF kept in a PNG's compressed text chunk as ImageMagick writes it: keyword `Raw profile type
/// exif` (or `APP1`), and the text "\nexif\n  LENGTH\n" then the bytes in hexadecimal, 36 a line.
enum RawProfile {
    /// The largest chunk read, and the most text it may inflate to: an EXIF block is at most
    /// 64 KiB, twice that in hexadecimal with its line breaks.
    static let largestChunk = 256 << 10
    static let largestText = 256 << 10

    private static let keywords = ["Raw profile type exif", "Raw profile type APP1"].map { Array($0.utf8) }

    private static let xmpKeyword = Array("Raw profile type xmp".utf8)

    /// The EXIF block of a `zTXt` chunk's data, or nil when it holds none.
    static func exif(fromZTXt chunk: ArraySlice<UInt8>) -> [UInt8]? {
        guard let text = inflatedText(chunk, keywords: keywords) else { return nil }
        return exif(fromText: text[...])
    }

    /// The EXIF block of a `tEXt` chunk's data (the same profile, not compressed), or nil when it holds none.
    static func exif(fromTEXt chunk: ArraySlice<UInt8>) -> [UInt8]? {
        guard let nul = chunk.firstIndex(of: 0), keywords.contains(Array(chunk[chunk.startIndex..<nul])) else {
            return nil
        }
        return exif(fromText: chunk[(nul + 1)...])
    }

    /// The XMP packet of a `zTXt` chunk of keyword `Raw profile type xmp` (as ImageMagick writes it), or nil.
    static func xmp(fromZTXt chunk: ArraySlice<UInt8>) -> [UInt8]? {
        guard let text = inflatedText(chunk, keywords: [xmpKeyword]) else { return nil }
        return bytes(fromText: text[...], limit: largestText / 2)
    }

    /// The inflated text of a `zTXt` chunk whose keyword is one of `keywords`.
    private static func inflatedText(_ chunk: ArraySlice<UInt8>, keywords: [[UInt8]]) -> [UInt8]? {
        guard let nul = chunk.firstIndex(of: 0), keywords.contains(Array(chunk[chunk.startIndex..<nul])),
            chunk.index(after: nul) < chunk.endIndex, chunk[chunk.index(after: nul)] == 0  // deflate
        else { return nil }
        return inflate(chunk[(nul + 2)...])
    }

    /// The EXIF block of the raw profile's text: a name line, a length line, then hexadecimal digits.
    static func exif(fromText text: ArraySlice<UInt8>) -> [UInt8]? {
        bytes(fromText: text, limit: 0xFFFF).flatMap { ExifBlocks.fromTIFF(bytes: $0[...]) }
    }

    /// The bytes of a raw profile's text, at most `limit`.
    private static func bytes(fromText text: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        let lines = text.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: true)
        guard lines.count == 3,
            let length = Int(String(decoding: lines[1], as: UTF8.self).trimmingCharacters(in: .whitespaces)),
            length > 0, length <= limit
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        for character in lines[2] {
            let digit: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = character - UInt8(ascii: "A") + 10
            case UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
                if bytes.count == length { break }
            } else {
                high = digit
            }
        }
        guard bytes.count == length else { return nil }
        return bytes
    }

    /// zlib data inflated, at most ``largestText`` bytes; nil when damaged or larger.
    private static func inflate(_ data: ArraySlice<UInt8>) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: largestText)
        var length = uLongf(largestText)
        let status = data.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                uncompress(target.baseAddress, &length, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output.prefix(Int(length)))
    }
}

/// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
