/// Reads a Windows bitmap's size from its DIB header, and checks that its pixel array lies in the file.
///
/// The pixel array starts where the file header says (`bfOffBits`) and is as long as its rows (uncompressed
/// and bit-field bitmaps) or as the DIB header's image size (compressed ones, when stated). A file that stops
/// exactly where the pixels begin is a metadata stub; one that stops inside them is truncated.
enum BMPParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let start = try reader.readExactly(at: 0, count: 18, what: "BMP file header")
        guard start.matches(ascii: "BM"), let dibSize = start.u32(at: 14, .littleEndian).map(Int.init) else {
            throw reader.corrupt("the file does not start with a BMP signature")
        }
        let header = try reader.readExactly(at: 0, count: dibSize == 12 ? 26 : 54, what: "BMP DIB header")
        var info = ContainerInfo()
        var bitsPerPixel = 0
        var compression = 0
        var statedLength = 0
        if dibSize == 12 {
            info.setSize(Int(header.u16(at: 18, .littleEndian) ?? 0), Int(header.u16(at: 20, .littleEndian) ?? 0))
            bitsPerPixel = Int(header.u16(at: 24, .littleEndian) ?? 0)
        } else if dibSize >= 40 {
            // Height is negative for top-down bitmaps.
            let width = Int(Int32(bitPattern: header.u32(at: 18, .littleEndian) ?? 0))
            let height = Int(Int32(bitPattern: header.u32(at: 22, .littleEndian) ?? 0))
            info.setSize(width, abs(height))
            bitsPerPixel = Int(header.u16(at: 28, .littleEndian) ?? 0)
            compression = Int(header.u32(at: 30, .littleEndian) ?? 0)
            statedLength = Int(header.u32(at: 34, .littleEndian) ?? 0)
        }
        guard let width = info.width, let height = info.height else {
            throw reader.corrupt("BMP header gives no usable size")
        }
        let pixelOffset = Int(start.u32(at: 10, .littleEndian) ?? 0)
        var length = statedLength
        // BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS: rows of whole 32-bit words.
        if [0, 3, 6].contains(compression), bitsPerPixel > 0 {
            let (bits, overflow) = width.multipliedReportingOverflow(by: bitsPerPixel)
            let (rows, overflow2) = ((bits + 31) / 32 * 4).multipliedReportingOverflow(by: height)
            length = overflow || overflow2 ? Int.max : rows
        }
        if pixelOffset > 0, length > 0, pixelOffset != reader.size,
            pixelOffset > reader.size || length > reader.size - pixelOffset
        {
            throw reader.truncated(
                "BMP pixel data at offset \(pixelOffset) (\(length) bytes) runs past the end of the file "
                    + "(\(reader.size) bytes)")
        }
        return info
    }
}
