/// Reads a GIF's logical screen size, and whether it is animated (more than one image); and checks that
/// its first image is there.
///
/// A GIF that ends with its trailer byte (0x3B) is taken as whole after its first two images are
/// counted. Otherwise its blocks are walked to where the file ends: after a whole image it is complete
/// (some writers omit the trailer), right after an image descriptor it is a metadata stub, and inside
/// the image data (or before the first image) it is truncated.
enum GIFParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 13, what: "GIF header and logical screen descriptor")
        guard header.matches(ascii: "GIF87a") || header.matches(ascii: "GIF89a") else {
            throw reader.corrupt("the file does not start with a GIF signature")
        }
        guard let width = header.u16(at: 6, .littleEndian), let height = header.u16(at: 8, .littleEndian),
            width > 0, height > 0
        else { throw reader.corrupt("GIF logical screen has zero size") }
        let endsWithTrailer = try reader.read(at: reader.size - 1, count: 1).first == 0x3B
        let walk = try blocks(in: reader, flags: header.u8(at: 10) ?? 0, upTo: endsWithTrailer ? 2 : Int.max)
        switch walk.end {
        case .counted, .trailer, .afterImage:
            guard walk.images > 0 else {
                throw reader.corrupt("GIF has no image (no image descriptor before its trailer)")
            }
        case .stub:
            break
        case .cut(let position, let what):
            throw reader.truncated("GIF ends inside \(what) at offset \(position)")
        case .unknown(let position, let byte):
            guard walk.images > 0 else {
                throw reader.corrupt("GIF has an unknown block (0x\(String(byte, radix: 16))) at offset \(position)")
            }
        }
        var info = ContainerInfo()
        info.setSize(Int(width), Int(height))
        info.isAnimated = walk.images > 1
        return info
    }

    /// How a walk of the blocks ended.
    private enum End {
        /// `limit` images were counted.
        case counted
        /// At the trailer.
        case trailer
        /// At the end of the file, after a whole image and the blocks that follow it.
        case afterImage
        /// At the end of the file, inside or right after the first image's descriptor, before its data.
        case stub
        /// At the end of the file, inside a block.
        case cut(Int, String)
        /// At a byte that starts no block.
        case unknown(Int, UInt8)
    }

    /// Walks the blocks after the global colour table, counting image descriptors up to `limit`. Each
    /// block's data is skipped sub-block by sub-block (one length byte each), so only headers are read.
    private static func blocks(
        in reader: FileReader, flags: UInt8, upTo limit: Int
    ) throws(MetadataError) -> (images: Int, end: End) {
        var position = 13 + colorTableLength(flags)
        guard position <= reader.size else { return (0, .cut(13, "the global colour table")) }
        var images = 0
        for _ in 0..<1_000_000 {
            guard images < limit else { return (images, .counted) }
            guard let introducer = try reader.read(at: position, count: 1).first else {
                return (images, images > 0 ? .afterImage : .cut(position, "the blocks before its first image"))
            }
            let what: String
            switch introducer {
            case 0x21:  // extension: label, then sub-blocks
                guard position + 2 <= reader.size else { return (images, .cut(position, "an extension")) }
                position += 2
                what = "an extension"
            case 0x2C:  // image descriptor (10 bytes), local colour table, LZW code size, sub-blocks
                let descriptor = try reader.read(at: position, count: 10)
                let data = position + 10 + colorTableLength(descriptor.u8(at: 9) ?? 0) + 1
                guard data < reader.size else { return (images, images == 0 ? .stub : .cut(position, "an image")) }
                images += 1
                position = data
                what = "the image data"
            case 0x3B:
                return (images, .trailer)
            default:
                return (images, .unknown(position, introducer))
            }
            guard let end = try skipSubBlocks(from: position, in: reader) else {
                return (images, .cut(position, what))
            }
            position = end
        }
        return (images, .counted)
    }

    /// The offset after the block terminator of the sub-blocks starting at `position`, or `nil` when the
    /// file ends first. Sub-blocks may be of any length from 1 to 255 (XMP as Adobe and ExifTool write
    /// it is read as sub-blocks of its own bytes' values; some writers cut image data into 16-byte
    /// ones), so their number is not bounded by the file's size over 256: each step moves forward by
    /// at least one byte, which bounds the walk by the file's size.
    private static func skipSubBlocks(from position: Int, in reader: FileReader) throws(MetadataError) -> Int? {
        var position = position
        while position < reader.size {
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
