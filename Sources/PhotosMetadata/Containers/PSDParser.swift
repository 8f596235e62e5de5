/// Reads a Photoshop document (PSD, or PSB for large documents): the canvas size from its header, and EXIF
/// (resource 0x0422) and XMP (0x0424) from its image resources, as ExifTool reads them.
///
/// Header: `8BPS`, version 1 (PSD) or 2 (PSB), six reserved bytes, channels, then height and width (32-bit,
/// big-endian). Then the colour mode data and the image resources, each a 32-bit length and its bytes; a
/// resource is `8BIM` (or another writer's signature), its 16-bit ID, a Pascal name padded to an even length, a 32-bit size and its data,
/// padded to an even length. The layers and the image data after them are not read.
enum PSDParser {
    private static let exifResource: UInt16 = 0x0422
    private static let xmpResource: UInt16 = 0x0424
    /// The resource signatures ExifTool accepts: Photoshop's, ImageReady's and other writers'.
    private static let signatures = ["8BIM", "MeSa", "PHUT", "AgHg", "DCSR"]

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 30, what: "Photoshop header")
        guard header.matches(ascii: "8BPS"), let version = header.u16(at: 4, .bigEndian), version == 1 || version == 2
        else { throw reader.corrupt("the file does not start with a Photoshop header (8BPS, version 1 or 2)") }
        guard let height = header.u32(at: 14, .bigEndian), let width = header.u32(at: 18, .bigEndian), width > 0,
            height > 0
        else { throw reader.corrupt("Photoshop header gives no usable size") }
        var info = ContainerInfo()
        info.setSize(Int(width), Int(height))
        let colorModeLength = Int(header.u32(at: 26, .bigEndian) ?? 0)
        let resourcesStart = 30 + colorModeLength + 4
        guard resourcesStart <= reader.size,
            let length = try reader.readExactly(at: resourcesStart - 4, count: 4, what: "Photoshop resources length")
                .u32(at: 0, .bigEndian).map(Int.init)
        else { return info }
        let end = min(resourcesStart + length, reader.size)
        var position = resourcesStart
        var count = 0
        while position + 12 <= end, count < 10_000 {
            count += 1
            let head = try reader.readExactly(at: position, count: 7, what: "Photoshop resource")
            guard signatures.contains(where: { head.matches(ascii: $0) }), let id = head.u16(at: 4, .bigEndian),
                let nameLength = head.u8(at: 6).map(Int.init)
            else { break }
            let sizeAt = position + 6 + (nameLength + 2) / 2 * 2
            guard sizeAt + 4 <= end,
                let size = try reader.readExactly(at: sizeAt, count: 4, what: "Photoshop resource size")
                    .u32(at: 0, .bigEndian).map(Int.init),
                size <= end - (sizeAt + 4)
            else { break }
            let data = sizeAt + 4
            if id == exifResource, info.exifBlock == nil {
                info.exifBlock = ExifBlocks.fromTIFF(in: reader, at: data, length: size)
            } else if id == xmpResource, info.xmpPacket == nil, size <= 4 * 1024 * 1024 {
                info.xmpPacket = try reader.readExactly(at: data, count: size, what: "Photoshop XMP")
            }
            position = data + (size + 1) / 2 * 2
        }
        return info
    }
}
