/// Reads a GIF's logical screen size.
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
        return info
    }
}
