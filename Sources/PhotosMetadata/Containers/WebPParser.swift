/// Walks a WebP's RIFF chunks: the canvas size from VP8X, or the frame size from a lossy (VP8)
/// or lossless (VP8L) bitstream header; EXIF and XMP chunks; the number of animation frames (ANMF).
///
/// A file cut short (its RIFF size says more than it holds) is truncated, unless it stops right after the header
/// of its first bitstream (VP8's 10-byte frame header, VP8L's 5-byte one): a metadata stub, described by its headers.
enum WebPParser {
    /// The length of the bitstream header that states a frame's size.
    private static let bitstreamHeaderLength = ["VP8 ": 10, "VP8L": 5]

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 12, what: "RIFF header")
        guard header.matches(ascii: "RIFF"), header.matches(ascii: "WEBP", at: 8),
            let riffSize = header.u32(at: 4, .littleEndian).map(Int.init)
        else { throw reader.corrupt("the file does not start with a RIFF WEBP header") }
        let riffEnd = 8 + riffSize
        let isCut = riffEnd > reader.size
        let end = min(riffEnd, reader.size)
        let cut = reader.truncated("WebP RIFF size says \(riffEnd) bytes but the file has \(reader.size)")

        var info = ContainerInfo()
        var canvas: (Int, Int)?
        var frame: (Int, Int)?
        var sawImage = false
        var frameCount = 0
        var position = 12
        var isStub = false
        while position + 8 <= end {
            let chunkHeader = try reader.readExactly(at: position, count: 8, what: "WebP chunk header")
            guard let type = chunkHeader.fourCC(at: 0), var size = chunkHeader.u32(at: 4, .littleEndian).map(Int.init)
            else { break }
            let payload = position + 8
            if payload + size > end {
                // A metadata stub stops right after the bitstream's own header, which states the frame's size.
                guard isCut, !sawImage, let headerLength = Self.bitstreamHeaderLength[type],
                    payload + headerLength == reader.size
                else {
                    if isCut { throw cut }
                    throw reader.truncated(
                        "WebP chunk \(type) at offset \(position) (\(size) bytes) runs past the RIFF end")
                }
                size = headerLength
                isStub = true
            }
            switch type {
            case "VP8X":
                let fields = try reader.readExactly(at: payload, count: min(size, 10), what: "VP8X")
                if let width = fields.u24(at: 4, .littleEndian), let height = fields.u24(at: 7, .littleEndian) {
                    canvas = (Int(width) + 1, Int(height) + 1)
                }
            case "VP8 ":
                sawImage = true
                let fields = try reader.readExactly(at: payload, count: min(size, 10), what: "VP8 frame header")
                guard fields.matches([0x9D, 0x01, 0x2A], at: 3), let width = fields.u16(at: 6, .littleEndian),
                    let height = fields.u16(at: 8, .littleEndian)
                else { throw reader.corrupt("WebP VP8 frame header lacks its start code") }
                frame = frame ?? (Int(width & 0x3FFF), Int(height & 0x3FFF))
            case "VP8L":
                sawImage = true
                let fields = try reader.readExactly(at: payload, count: min(size, 5), what: "VP8L header")
                guard fields.u8(at: 0) == 0x2F, let bits = fields.u32(at: 1, .littleEndian) else {
                    throw reader.corrupt("WebP VP8L header lacks its signature")
                }
                frame = frame ?? (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
            case "ANMF":
                sawImage = true
                frameCount += 1
            case "EXIF" where info.exifBlock == nil:
                info.exifBlock = ExifBlocks.fromTIFF(in: reader, at: payload, length: size)
            case "XMP " where info.xmpPacket == nil && size <= FileReader.maximumRead:
                info.xmpPacket = try reader.readExactly(at: payload, count: size, what: "XMP")
            default:
                break
            }
            if isStub { break }
            position = payload + size + (size & 1)
        }
        if isCut, !isStub { throw cut }
        guard sawImage else { throw reader.corrupt("WebP has no image data (no VP8, VP8L or ANMF chunk)") }
        if let (width, height) = canvas ?? frame { info.setSize(width, height) }
        info.isAnimated = frameCount > 1
        return info
    }
}
