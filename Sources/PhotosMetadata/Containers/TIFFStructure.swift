/// One entry of a TIFF image file directory.
struct TIFFEntry: Sendable {
    let tag: UInt16
    let type: UInt16
    let count: UInt32
    /// The 4-byte value-or-offset field as stored.
    let field: ArraySlice<UInt8>

    /// The size in bytes of one value of `type`; `nil` for unknown types.
    var elementSize: Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// The size of all values, or `nil` for unknown types and absurd counts.
    var byteCount: Int? {
        guard let elementSize, count <= UInt32(FileReader.maximumRead / elementSize) else { return nil }
        return Int(count) * elementSize
    }
}

/// One image file directory: its entries and the offset of the next directory in the chain.
struct TIFFDirectory: Sendable {
    let offset: Int
    let entries: [TIFFEntry]
    let nextOffset: Int

    subscript(tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
}

/// A TIFF structure inside a file: a whole TIFF, DNG, NEF or CR2, or an EXIF block stored in a PNG
/// `eXIf` chunk, a WebP `EXIF` chunk or a HEIF `Exif` item.
///
/// Offsets inside the structure are relative to its header at `base`; every directory, value and
/// strip is checked against `length` before it is read, so a corrupt offset is an error, never a
/// read outside the structure.
struct TIFFStructure {
    enum Tag {
        static let newSubfileType: UInt16 = 0x00FE
        static let imageWidth: UInt16 = 0x0100
        static let imageLength: UInt16 = 0x0101
        static let stripOffsets: UInt16 = 0x0111
        static let stripByteCounts: UInt16 = 0x0117
        static let tileOffsets: UInt16 = 0x0144
        static let tileByteCounts: UInt16 = 0x0145
        static let subIFDs: UInt16 = 0x014A
        static let xmp: UInt16 = 0x02BC
        static let exifIFD: UInt16 = 0x8769
        static let gpsIFD: UInt16 = 0x8825
        static let pixelXDimension: UInt16 = 0xA002
        static let pixelYDimension: UInt16 = 0xA003
    }

    let reader: FileReader
    let base: Int
    let length: Int
    let order: ByteOrder
    /// The offset of IFD0.
    let firstDirectoryOffset: Int

    /// Reads the 8-byte TIFF header at `base`; `length` bounds the structure.
    ///
    /// Classic TIFF (42) and the TIFF-like RAW variants of Olympus (`IIRO`, `IIRS`) and Panasonic
    /// (`IIU`) are accepted; BigTIFF is not.
    init(reader: FileReader, base: Int, length: Int) throws(MetadataError) {
        guard base >= 0, length >= 8, base <= reader.size - length else {
            throw reader.truncated("TIFF structure at offset \(base) (\(length) bytes) runs past the end of the file")
        }
        self.reader = reader
        self.base = base
        self.length = length
        let header = try reader.readExactly(at: base, count: 8, what: "TIFF header")
        if header.matches(ascii: "II") {
            order = .littleEndian
        } else if header.matches(ascii: "MM") {
            order = .bigEndian
        } else {
            throw reader.corrupt("TIFF header at offset \(base) has no byte-order mark (II or MM)")
        }
        let magic = header.u16(at: 2, order) ?? 0
        guard [42, 0x4F52, 0x5352, 0x0055].contains(magic) else {
            throw reader.corrupt("TIFF header at offset \(base) has magic number \(magic), not 42")
        }
        firstDirectoryOffset = Int(header.u32(at: 4, order) ?? 0)
    }

    /// The entry count and table length of the directory at `offset`, checked to lie inside the structure.
    private func entryTable(at offset: Int, name: String) throws(MetadataError) -> (count: Int, tableLength: Int) {
        guard offset >= 8, offset <= length - 2 else {
            throw reader.corrupt("\(name) offset \(offset) lies outside the TIFF structure (\(length) bytes)")
        }
        let countBytes = try reader.readExactly(at: base + offset, count: 2, what: "\(name) entry count")
        let count = Int(countBytes.u16(at: 0, order) ?? 0)
        guard count > 0 else { throw reader.corrupt("\(name) at offset \(offset) has no entries") }
        let tableLength = 2 + 12 * count
        guard tableLength <= length - offset else {
            throw reader.corrupt(
                "\(name) at offset \(offset) declares \(count) entries, which run past the end of the TIFF structure"
            )
        }
        return (count, tableLength)
    }

    /// The directory at `offset`, checked to lie inside the structure.
    func directory(at offset: Int, name: String) throws(MetadataError) -> TIFFDirectory {
        let (count, tableLength) = try entryTable(at: offset, name: name)
        let table = try reader.readExactly(at: base + offset, count: min(tableLength + 4, length - offset), what: name)
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let start = 2 + 12 * index
            guard let tag = table.u16(at: start, order), let type = table.u16(at: start + 2, order),
                let valueCount = table.u32(at: start + 4, order), let field = table.slice(at: start + 8, count: 4)
            else { break }
            entries.append(TIFFEntry(tag: tag, type: type, count: valueCount, field: field))
        }
        let next = table.u32(at: tableLength, order).map(Int.init) ?? 0
        return TIFFDirectory(offset: offset, entries: entries, nextOffset: next)
    }

    /// The next-directory offset stored after the directory at `offset`, checked like ``directory(at:name:)`` but
    /// without reading the entries: two small reads, so walking a long chain costs little whatever it declares.
    func nextDirectoryOffset(after offset: Int, name: String) throws(MetadataError) -> Int {
        let (_, tableLength) = try entryTable(at: offset, name: name)
        guard tableLength + 4 <= length - offset else { return 0 }
        let next = try reader.readExactly(at: base + offset + tableLength, count: 4, what: "\(name) link")
        return next.u32(at: 0, order).map(Int.init) ?? 0
    }

    /// The directory at `offset`, or `nil` when it is corrupt (for optional sub-directories).
    func optionalDirectory(at offset: Int, name: String) -> TIFFDirectory? {
        try? directory(at: offset, name: name)
    }

    /// The bytes of an entry's values, or `nil` when they lie outside the structure or are huge.
    func valueBytes(_ entry: TIFFEntry, limit: Int = FileReader.maximumRead) -> ArraySlice<UInt8>? {
        guard let byteCount = entry.byteCount, byteCount <= limit else { return nil }
        if byteCount <= 4 { return entry.field.prefix(byteCount) }
        guard let offset = entry.field.u32(at: 0, order).map(Int.init), offset <= length,
            byteCount <= length - offset
        else { return nil }
        return try? reader.readExactly(at: base + offset, count: byteCount, what: "TIFF value")
    }

    /// The unsigned integer values of a BYTE, SHORT or LONG entry.
    func integers(_ entry: TIFFEntry, limit: Int = 65_536) -> [Int]? {
        guard [1, 3, 4, 13].contains(entry.type), Int(entry.count) <= limit, let bytes = valueBytes(entry),
            let size = entry.elementSize
        else { return nil }
        return stride(from: 0, to: bytes.count, by: size).compactMap { offset -> Int? in
            switch size {
            case 1: bytes.u8(at: offset).map(Int.init)
            case 2: bytes.u16(at: offset, order).map(Int.init)
            default: bytes.u32(at: offset, order).map(Int.init)
            }
        }
    }

    /// The first integer value of an entry.
    func integer(_ entry: TIFFEntry?) -> Int? {
        guard let entry else { return nil }
        return integers(entry, limit: 1 << 20)?.first
    }

    /// The directory's image size, when both ImageWidth and ImageLength are positive.
    func imageSize(_ directory: TIFFDirectory) -> (width: Int, height: Int)? {
        guard let width = integer(directory[Tag.imageWidth]), let height = integer(directory[Tag.imageLength]),
            width > 0, height > 0
        else { return nil }
        return (width, height)
    }

    /// What a directory says about its pixel data.
    enum ImageData {
        /// No strip or tile entries.
        case absent
        /// The strip or tile tables cannot be read: the named entries point outside the structure or count
        /// more values than any image has.
        case unreadable(String)
        /// Where the pixel data lies, relative to `base`: from the first strip or tile to the end of the last one;
        /// `nil` when every strip and tile is empty (zero bytes long).
        case extent(Range<Int>?)
    }

    /// Where the directory's pixel data ends, or why that cannot be told.
    func imageData(_ directory: TIFFDirectory) -> ImageData {
        let pairs = [
            (Tag.stripOffsets, Tag.stripByteCounts, "strip tables"),
            (Tag.tileOffsets, Tag.tileByteCounts, "tile tables"),
        ]
        for (offsetsTag, countsTag, what) in pairs {
            guard let offsetsEntry = directory[offsetsTag], let countsEntry = directory[countsTag] else { continue }
            // A scan stored a row per strip has as many strips as rows.
            guard let offsets = integers(offsetsEntry, limit: 1 << 20),
                let counts = integers(countsEntry, limit: 1 << 20), !offsets.isEmpty, !counts.isEmpty
            else { return .unreadable(what) }
            let stored = zip(offsets, counts).filter { $0.1 > 0 }
            guard let start = stored.map(\.0).min(), let end = stored.map({ $0.0 + $0.1 }).max() else {
                return .extent(nil)
            }
            return .extent(start..<end)
        }
        return .absent
    }

    /// The sub-IFD offsets listed by a directory's SubIFDs entry (DNG, NEF), at most eight.
    func subDirectoryOffsets(_ directory: TIFFDirectory) -> [Int] {
        guard let entry = directory[Tag.subIFDs] else { return [] }
        return Array((integers(entry, limit: 64) ?? []).prefix(8))
    }

    /// The offset stored in a pointer entry (ExifIFD, GPS IFD).
    func pointer(_ directory: TIFFDirectory, _ tag: UInt16) -> Int? {
        guard let entry = directory[tag], entry.count >= 1 else { return nil }
        return entry.field.u32(at: 0, order).map(Int.init)
    }
}
