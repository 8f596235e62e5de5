/// Reads a Canon CRW (CIFF) file: image size and rotation (ImageInfo), capture time (TimeStamp),
/// make and model (MakeModel), from its nested heaps.
///
/// A CIFF heap ends with the offset of its directory; each 10-byte directory record names a tag,
/// a size and an offset into the heap (or holds up to 8 bytes of data itself), and records whose
/// data type is 0x2800 or 0x3000 are heaps of their own.
enum CRWParser {
    private enum Tag {
        static let makeModel: UInt16 = 0x080A
        static let timeStamp: UInt16 = 0x180E
        static let imageInfo: UInt16 = 0x1810
    }

    private struct Found {
        var makeModel: ArraySlice<UInt8>?
        var timeStamp: ArraySlice<UInt8>?
        var imageInfo: ArraySlice<UInt8>?
    }

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 14, what: "CIFF header")
        guard header.matches(ascii: "II"), header.matches(ascii: "HEAPCCDR", at: 6),
            let headerLength = header.u32(at: 2, .littleEndian).map(Int.init), headerLength < reader.size
        else { throw reader.corrupt("the file does not start with a CIFF (CRW) header") }

        var found = Found()
        var budget = 1000
        try readHeap(start: headerLength, end: reader.size, depth: 0, budget: &budget, in: reader, into: &found)

        var info = ContainerInfo()
        if let data = found.imageInfo, let width = data.u32(at: 0, .littleEndian),
            let height = data.u32(at: 4, .littleEndian)
        {
            info.setSize(Int(width), Int(height))
            if let rotation = data.u32(at: 12, .littleEndian).map({ Int(Int32(bitPattern: $0)) }),
                [0, 90, 180, 270].contains(rotation)
            {
                info.rotation = rotation
            }
        }
        if let data = found.timeStamp, let seconds = data.u32(at: 0, .littleEndian), seconds > 0 {
            // The camera's wall-clock time, counted as if it were UTC.
            info.statedDate = CapturedDate(wallClockSecondsSince1970: Int(seconds))
        }
        if let data = found.makeModel {
            let parts = data.split(separator: 0, omittingEmptySubsequences: false)
            let text = { (index: Int) -> String? in
                guard index < parts.count else { return nil }
                let value = String(decoding: parts[index], as: UTF8.self).trimmingWhitespace()
                return value.isEmpty ? nil : value
            }
            info.make = text(0)
            info.model = text(1)
        }
        return info
    }

    private static func readHeap(
        start: Int, end: Int, depth: Int, budget: inout Int, in reader: FileReader, into found: inout Found
    ) throws(MetadataError) {
        guard depth < 6, end - start >= 4 else { return }
        let tableOffset = Int(
            try reader.readExactly(at: end - 4, count: 4, what: "CIFF heap").u32(at: 0, .littleEndian) ?? 0)
        guard tableOffset <= end - start - 2 else {
            throw reader.corrupt("CIFF heap directory offset lies outside its heap")
        }
        let count = Int(
            try reader.readExactly(at: start + tableOffset, count: 2, what: "CIFF directory").u16(at: 0, .littleEndian)
                ?? 0)
        guard tableOffset + 2 + 10 * count <= end - start else {
            throw reader.corrupt("CIFF directory at offset \(start + tableOffset) runs past its heap")
        }
        let records = try reader.readExactly(at: start + tableOffset + 2, count: 10 * count, what: "CIFF directory")
        for index in 0..<count {
            budget -= 1
            guard budget > 0, let tag = records.u16(at: 10 * index, .littleEndian),
                let size = records.u32(at: 10 * index + 2, .littleEndian).map(Int.init),
                let offset = records.u32(at: 10 * index + 6, .littleEndian).map(Int.init)
            else { return }
            let inRecord = tag & 0xC000 == 0x4000
            let dataType = tag & 0x3800
            let data: ArraySlice<UInt8>
            if inRecord {
                guard let bytes = records.slice(at: 10 * index + 2, count: 8) else { continue }
                data = bytes
            } else {
                guard tag & 0xC000 == 0, offset <= end - start, size <= end - start - offset else { continue }
                if dataType == 0x2800 || dataType == 0x3000 {
                    try readHeap(
                        start: start + offset, end: start + offset + size, depth: depth + 1, budget: &budget,
                        in: reader, into: &found
                    )
                    continue
                }
                guard [Tag.makeModel, Tag.timeStamp, Tag.imageInfo].contains(tag & 0x3FFF), size <= 4096 else {
                    continue
                }
                data = try reader.readExactly(at: start + offset, count: size, what: "CIFF value")
            }
            switch tag & 0x3FFF {
            case Tag.makeModel: found.makeModel = found.makeModel ?? data
            case Tag.timeStamp: found.timeStamp = found.timeStamp ?? data
            case Tag.imageInfo: found.imageInfo = found.imageInfo ?? data
            default: break
            }
        }
    }
}
