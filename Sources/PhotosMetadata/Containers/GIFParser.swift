/// Reads a GIF's logical screen size, and whether it is animated (more than one image).
enum GIFParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 13, what: "GIF header and logical screen descriptor")
        guard header.matches(ascii: "GIF87a") || header.matches(ascii: "GIF89a") else {
            throw reader.corrupt("the file does not start with a GIF signature")
        }
        guard let width = header.u16(at: 6, .littleEndian), let height = header.u16(at: 8, .littleEndian),
            width > 0, height > 0
        else { throw reader.corrupt("GIF logical screen has zero size") }
        guard reader.size > 13 else { throw reader.truncated("GIF ends after its header, with no image") }
        var info = ContainerInfo()
        info.setSize(Int(width), Int(height))
        info.isAnimated = try imageCount(in: reader, flags: header.u8(at: 10) ?? 0, upTo: 2) > 1
        return info
    }

    /// The number of image descriptors, counted up to `limit`, walking the blocks after the
    /// global colour table. Each image's data is skipped sub-block by sub-block (one length byte
    /// each), so only headers are read; a damaged or cut block ends the count quietly.
    private static func imageCount(in reader: FileReader, flags: UInt8, upTo limit: Int) throws(MetadataError) -> Int {
        var position = 13 + colorTableLength(flags)
        var count = 0
        var blocks = 0
        while count < limit, blocks < 10_000 {
            blocks += 1
            guard let introducer = try reader.read(at: position, count: 1).first else { break }
            switch introducer {
            case 0x21:  // extension: label, then sub-blocks
                position += 2
            case 0x2C:  // image descriptor (10 bytes), local colour table, LZW code size, sub-blocks
                guard let descriptor = try reader.read(at: position, count: 10).slice(at: 0, count: 10) else {
                    return count
                }
                count += 1
                position += 10 + colorTableLength(descriptor.u8(at: 9) ?? 0) + 1
            default:  // trailer (0x3B) or damage
                return count
            }
            guard let end = try skipSubBlocks(from: position, in: reader) else { return count }
            position = end
        }
        return count
    }

    /// The offset after the block terminator of the sub-blocks starting at `position`.
    private static func skipSubBlocks(from position: Int, in reader: FileReader) throws(MetadataError) -> Int? {
        var position = position
        for _ in 0..<(reader.size / 256 + 2) {
            guard let length = try reader.read(at: position, count: 1).first else { return nil }
            position += 1 + Int(length)
            if length == 0 { return position }
        }
        return nil
    }

    /// A colour table's size in bytes from a descriptor's packed flags (present when bit 7 is set).
    private static func colorTableLength(_ flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }
}
