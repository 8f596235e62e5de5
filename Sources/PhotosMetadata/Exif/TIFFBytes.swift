/// A TIFF-style directory structure held in memory: an EXIF block's TIFF, or a maker note whose
/// offsets count from its own start (Apple's).
///
/// libexif hands out entries, not where they sit in the block, and misreads maker notes whose
/// offsets are not relative to the TIFF header. This reader walks the bytes itself; every
/// directory and value is checked against the buffer, so a corrupt offset yields `nil`, never a
/// read outside it.
struct TIFFBytes {
    /// Offsets in the structure count from the first byte of `bytes`.
    let bytes: ArraySlice<UInt8>
    let order: ByteOrder

    /// A structure whose byte order is already known (a maker note with its own header).
    init(bytes: ArraySlice<UInt8>, order: ByteOrder) {
        self.bytes = bytes
        self.order = order
    }

    /// The TIFF structure of an EXIF block (`Exif\0\0` then `II*\0` or `MM\0*`), or `nil`.
    init?(exifBlock block: [UInt8]) {
        guard block.count > 14, block.bytes.matches(ascii: "Exif\0\0") else { return nil }
        let tiff = block[6...]
        if tiff.matches(ascii: "II*\0") {
            self.init(bytes: tiff, order: .littleEndian)
        } else if tiff.matches(ascii: "MM\0*") {
            self.init(bytes: tiff, order: .bigEndian)
        } else {
            return nil
        }
    }

    /// The offset of IFD0, from the TIFF header.
    var firstDirectoryOffset: Int? {
        bytes.u32(at: 4, order).map(Int.init)
    }

    /// The entries of the directory at `offset`, at most 1 000; `nil` when its table does not fit.
    func entries(at offset: Int) -> [TIFFEntry]? {
        guard let count = bytes.u16(at: offset, order).map(Int.init), count > 0, count <= 1000,
            let table = bytes.slice(at: offset + 2, count: 12 * count)
        else { return nil }
        return (0..<count).compactMap { index in
            let start = 12 * index
            guard let tag = table.u16(at: start, order), let type = table.u16(at: start + 2, order),
                let valueCount = table.u32(at: start + 4, order), let field = table.slice(at: start + 8, count: 4)
            else { return nil }
            return TIFFEntry(tag: tag, type: type, count: valueCount, field: field)
        }
    }

    /// The directory at `offset` read in whichever byte order makes it a plausible directory (every
    /// entry of a known type), this structure's first: maker notes do not all follow their EXIF
    /// block's order (ExifTool reads them in an "unknown" order, and tries both). Returns the
    /// structure in the order that worked, with the entries; `nil` when neither does.
    func directoryInEitherOrder(at offset: Int) -> (tiff: TIFFBytes, entries: [TIFFEntry])? {
        for order in [order, order == .littleEndian ? .bigEndian : .littleEndian] {
            let tiff = TIFFBytes(bytes: bytes, order: order)
            if let entries = tiff.entries(at: offset), entries.allSatisfy({ (1...13).contains($0.type) }) {
                return (tiff, entries)
            }
        }
        return nil
    }

    /// Where an entry's values start when they are stored out of line (more than 4 bytes), or
    /// `nil` when they are inline or do not fit in the structure.
    func valueOffset(_ entry: TIFFEntry) -> Int? {
        guard let byteCount = entry.byteCount, byteCount > 4, let offset = entry.field.u32(at: 0, order).map(Int.init),
            bytes.slice(at: offset, count: byteCount) != nil
        else { return nil }
        return offset
    }

    /// The bytes of an entry's values, or `nil` when they lie outside the structure.
    func value(_ entry: TIFFEntry) -> ArraySlice<UInt8>? {
        guard let byteCount = entry.byteCount else { return nil }
        if byteCount <= 4 { return entry.field.prefix(byteCount) }
        guard let offset = entry.field.u32(at: 0, order).map(Int.init) else { return nil }
        return bytes.slice(at: offset, count: byteCount)
    }

    /// The text of an ASCII entry up to its first NUL, trimmed; `nil` when empty or not ASCII.
    func string(_ entry: TIFFEntry?) -> String? {
        guard let entry, entry.type == 2, let value = value(entry) else { return nil }
        let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// The first value of a BYTE, SHORT, LONG (or IFD pointer) entry, or of their signed forms.
    func integer(_ entry: TIFFEntry?) -> Int? {
        guard let entry, entry.count >= 1, let value = value(entry) else { return nil }
        switch entry.type {
        case 1, 7: return value.u8(at: 0).map(Int.init)
        case 6: return value.u8(at: 0).map { Int(Int8(bitPattern: $0)) }
        case 3: return value.u16(at: 0, order).map(Int.init)
        case 8: return value.u16(at: 0, order).map { Int(Int16(bitPattern: $0)) }
        case 4, 13: return value.u32(at: 0, order).map(Int.init)
        case 9: return value.u32(at: 0, order).map { Int(Int32(bitPattern: $0)) }
        default: return nil
        }
    }

    /// The SHORT values of an entry (Canon's CameraSettings array).
    func shorts(_ entry: TIFFEntry?) -> [Int]? {
        guard let entry, entry.type == 3 || entry.type == 8, let value = value(entry) else { return nil }
        return stride(from: 0, to: value.count - 1, by: 2).compactMap { value.u16(at: $0, order).map(Int.init) }
    }
}
