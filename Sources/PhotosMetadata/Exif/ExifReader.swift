internal import CExif

/// One parsed EXIF block: owns a libexif `ExifData` and frees it in `deinit`.
///
/// The block is handed over whole and with its exact length (a JPEG APP1 payload, or one built by
/// ``ExifBlockBuilder``), so libexif never sees a length it could read past. Values are read
/// from each entry's raw bytes in the block's byte order rather than through
/// `exif_entry_get_value`, whose output is formatted and translated text.
///
/// libexif is loaded without its two default options: `IGNORE_UNKNOWN_TAGS` would drop tags
/// written to a directory the standard does not list them in (some cameras put DateTimeOriginal
/// in IFD0), and `FOLLOW_SPECIFICATION` would "fix" the data by adding missing mandatory tags,
/// DateTime among them, stamped with the current time.
final class ExifReader {
    /// The directories of an EXIF block.
    enum Directory: CaseIterable {
        case ifd0, ifd1, exif, gps, interoperability
    }

    /// One entry's format, value count and raw bytes.
    struct Value {
        let format: UInt16
        let components: Int
        let bytes: ArraySlice<UInt8>
    }

    private let data: UnsafeMutablePointer<ExifData>
    /// The block's byte order, which also orders UTF-16 text in UNDEFINED entries.
    let order: ByteOrder

    /// Parses `block`, which starts with `Exif\0\0`; `nil` when libexif finds no entries at all.
    init?(block: [UInt8]) {
        guard block.count >= 14, block.count <= 0xFFFF, block.bytes.matches(ascii: "Exif\0\0"),
            let data = exif_data_new()
        else { return nil }
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        block.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(buffer.count))
        }
        self.data = data
        self.order = exif_data_get_byte_order(data) == EXIF_BYTE_ORDER_INTEL ? .littleEndian : .bigEndian
        let contents = Directory.allCases.compactMap { content($0) }
        guard contents.contains(where: { $0.pointee.count > 0 }) else { return nil }
    }

    deinit {
        exif_data_unref(data)
    }

    /// The raw value of `tag` in `directory`.
    func value(_ tag: UInt16, in directory: Directory) -> Value? {
        guard let content = content(directory),
            let entry = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag))),
            let pointer = entry.pointee.data, entry.pointee.size > 0
        else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(entry.pointee.size)))
        return Value(
            format: UInt16(truncatingIfNeeded: entry.pointee.format.rawValue),
            components: Int(entry.pointee.components),
            bytes: bytes[...]
        )
    }

    /// Text of an ASCII (or, as some writers store it, UNDEFINED or BYTE) entry, up to the first
    /// NUL, trimmed; `nil` when empty.
    func string(_ tag: UInt16, in directory: Directory) -> String? {
        guard let value = value(tag, in: directory), [1, 2, 7].contains(value.format) else { return nil }
        let text = value.bytes.prefix { $0 != 0 }
        let decoded = String(validating: text, as: UTF8.self) ?? String(text.map { Character(Unicode.Scalar($0)) })
        let trimmed = decoded.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The values of a RATIONAL or SRATIONAL entry; a component with a zero denominator is `nil`.
    func rationals(_ tag: UInt16, in directory: Directory) -> [Double?]? {
        guard let value = value(tag, in: directory), value.format == 5 || value.format == 10 else { return nil }
        let count = min(value.components, value.bytes.count / 8)
        guard count > 0 else { return nil }
        return (0..<count).map { index in
            guard let numerator = value.bytes.u32(at: 8 * index, order),
                let denominator = value.bytes.u32(at: 8 * index + 4, order), denominator != 0
            else { return nil }
            if value.format == 10 {
                return Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
            }
            return Double(numerator) / Double(denominator)
        }
    }

    /// The first value of a RATIONAL or SRATIONAL entry as it is stored, numerator and denominator
    /// (signed for SRATIONAL); `nil` when the denominator is zero.
    func rational(_ tag: UInt16, in directory: Directory) -> (numerator: Int, denominator: Int)? {
        guard let value = value(tag, in: directory), value.format == 5 || value.format == 10, value.components >= 1,
            let numerator = value.bytes.u32(at: 0, order), let denominator = value.bytes.u32(at: 4, order),
            denominator != 0
        else { return nil }
        if value.format == 10 {
            return (Int(Int32(bitPattern: numerator)), Int(Int32(bitPattern: denominator)))
        }
        return (Int(numerator), Int(denominator))
    }

    /// The first value of a BYTE, SHORT or LONG entry (or their signed forms).
    func integer(_ tag: UInt16, in directory: Directory) -> Int? {
        guard let value = value(tag, in: directory), value.components >= 1 else { return nil }
        switch value.format {
        case 1, 7: return value.bytes.u8(at: 0).map(Int.init)
        case 6: return value.bytes.u8(at: 0).map { Int(Int8(bitPattern: $0)) }
        case 3: return value.bytes.u16(at: 0, order).map(Int.init)
        case 8: return value.bytes.u16(at: 0, order).map { Int(Int16(bitPattern: $0)) }
        case 4: return value.bytes.u32(at: 0, order).map(Int.init)
        case 9: return value.bytes.u32(at: 0, order).map { Int(Int32(bitPattern: $0)) }
        default: return nil
        }
    }

    /// The thumbnail IFD1 points at (JPEGInterchangeFormat and its length), as libexif cut it
    /// from the block: within the block's bounds or not at all.
    var thumbnail: [UInt8]? {
        guard let pointer = data.pointee.data, data.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(data.pointee.size)))
    }

    private func content(_ directory: Directory) -> UnsafeMutablePointer<ExifContent>? {
        let contents = data.pointee.ifd
        return switch directory {
        case .ifd0: contents.0
        case .ifd1: contents.1
        case .exif: contents.2
        case .gps: contents.3
        case .interoperability: contents.4
        }
    }
}
