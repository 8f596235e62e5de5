/// Reads a Windows bitmap's size from its DIB header.
enum BMPParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 26, what: "BMP headers")
        guard header.matches(ascii: "BM"), let dibSize = header.u32(at: 14, .littleEndian) else {
            throw reader.corrupt("the file does not start with a BMP signature")
        }
        var info = ContainerInfo()
        if dibSize == 12 {
            info.setSize(Int(header.u16(at: 18, .littleEndian) ?? 0), Int(header.u16(at: 20, .littleEndian) ?? 0))
        } else if dibSize >= 40 {
            // Height is negative for top-down bitmaps.
            let width = Int(Int32(bitPattern: header.u32(at: 18, .littleEndian) ?? 0))
            let height = Int(Int32(bitPattern: header.u32(at: 22, .littleEndian) ?? 0))
            info.setSize(width, abs(height))
        }
        guard info.width != nil else { throw reader.corrupt("BMP header gives no usable size") }
        return info
    }
}
