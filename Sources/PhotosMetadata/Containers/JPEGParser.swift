import Glibc
/// Reads a JPEG's marker segments up to the first scan: the frame size (SOFn), the EXIF APP1
/// payload and the XMP packet; then checks that the image data ends with an EOI marker.
///
/// A JPEG without a frame header or a scan has no picture (an EXIF-only stub) and is corrupt; one
/// whose entropy-coded data is cut off before EOI is truncated. Data after EOI (camera padding,
/// maker trailers, a motion-photo video) is fine, and a Google or Samsung motion photo's video
/// there is located (see ``XMPHints``).
///
/// One kind of cut file is accepted: a *metadata stub* that ends inside or right after its first
/// scan header, before any entropy-coded byte, with an intact frame header. Test suites and
/// metadata tools keep such files (exiv2's sample of a Sigma SD10 is one) and their metadata and
/// size are whole. An interrupted copy almost always stops inside the image data, which is far
/// larger than the 10-odd bytes of a scan header, and is still rejected as truncated.
enum JPEGParser {
    private static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// How far back from the end of the file EOI is first looked for.
    private static let tailLength = 64 * 1024
    /// Chunk size of the forward scan, used only when the tail has no EOI.
    private static let scanChunk = 1024 * 1024

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        try parse(reader, at: 0, requireImage: true)
    }

    /// Parses the JPEG that starts at `base` (a RAW's embedded preview, for instance). With
    /// `requireImage` false the walk stops quietly at the first scan and the completeness check
    /// is skipped: only the metadata segments are wanted.
    static func parse(_ reader: FileReader, at base: Int, requireImage: Bool) throws(MetadataError) -> ContainerInfo {
        var info = ContainerInfo()
        let start = try reader.readExactly(at: base, count: 2, what: "JPEG start-of-image marker")
        guard start.matches([0xFF, 0xD8]) else {
            throw reader.corrupt("no JPEG SOI marker at offset \(base)")
        }

        var position = base + 2
        var frame: (width: Int, height: Int)?
        var scanStart: Int?
        var multiPicture: MultiPictureIndex?
        for _ in 0..<100_000 {
            let header = try reader.read(at: position, count: 4)
            guard header.count >= 2 else {
                throw reader.truncated("JPEG ends at offset \(position), before any image data (no SOS marker)")
            }
            guard header.u8(at: 0) == 0xFF else {
                // Some writers leave padding between segments; decoders resynchronise on the next 0xFF.
                position = try nextMarker(after: position, in: reader)
                continue
            }
            let marker = header.u8(at: 1) ?? 0
            switch marker {
            case 0xFF:
                position += 1
                continue
            case 0x01, 0xD0...0xD8:
                position += 2
                continue
            case 0xD9:
                throw reader.corrupt(
                    "JPEG ends (EOI at offset \(position)) without image data: "
                        + (frame == nil ? "no frame header (SOF)" : "no scan (SOS)")
                )
            default:
                break
            }
            guard let length = header.u16(at: 2, .bigEndian).map(Int.init) else {
                if marker == 0xDA, requireImage, let frame {
                    return metadataStub(info, frame: frame)
                }
                throw reader.truncated("JPEG ends inside the marker at offset \(position)")
            }
            guard length >= 2 else {
                throw reader.corrupt("JPEG segment FF\(hex(marker)) at offset \(position) has length \(length)")
            }
            let payloadStart = position + 4
            let segmentEnd = position + 2 + length
            guard segmentEnd <= reader.size else {
                if marker == 0xDA, requireImage, let frame {
                    return metadataStub(info, frame: frame)
                }
                throw reader.truncated(
                    "JPEG segment FF\(hex(marker)) at offset \(position) (\(length) bytes) "
                        + "runs past the end of the file"
                )
            }
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                if frame == nil {
                    let fields = try reader.readExactly(at: payloadStart, count: min(5, length - 2), what: "SOF")
                    guard let height = fields.u16(at: 1, .bigEndian), let width = fields.u16(at: 3, .bigEndian) else {
                        throw reader.corrupt("JPEG frame header at offset \(position) is too short")
                    }
                    guard width > 0 else {
                        throw reader.corrupt("JPEG frame header at offset \(position) gives width 0")
                    }
                    frame = (Int(width), Int(height))
                }
            case 0xE1:
                let payloadLength = length - 2
                let signature = try reader.read(at: payloadStart, count: min(payloadLength, xmpSignature.count))
                if info.exifBlock == nil, signature.matches(exifSignature) {
                    info.exifBlock = Array(try reader.readExactly(at: payloadStart, count: payloadLength, what: "EXIF"))
                } else if info.xmpPacket == nil, signature.matches(xmpSignature) {
                    info.xmpPacket = try reader.readExactly(
                        at: payloadStart + xmpSignature.count, count: payloadLength - xmpSignature.count, what: "XMP"
                    )
                }
            case 0xE2 where requireImage && multiPicture == nil:
                // The MPF index of the images stored after this one (CIPA DC-007).
                let payloadLength = length - 2
                if try reader.read(at: payloadStart, count: 4).matches(MultiPictureIndex.signature) {
                    let payload = try reader.readExactly(
                        at: payloadStart, count: min(payloadLength, MultiPictureIndex.maximumLength), what: "MPF")
                    multiPicture = MultiPictureIndex(payload, at: payloadStart)
                }
            case 0xDA where !requireImage:
                scanStart = segmentEnd
            case 0xDA:
                guard frame != nil else {
                    throw reader.corrupt("JPEG scan at offset \(position) comes before any frame header (SOF)")
                }
                scanStart = segmentEnd
            default:
                break
            }
            if scanStart != nil { break }
            position = segmentEnd
        }
        if !requireImage {
            if let frame { info.setSize(frame.width, frame.height) }
            return info
        }
        guard let scanStart, let frame else {
            throw reader.corrupt("JPEG has too many segments before its first scan")
        }
        if scanStart == reader.size {
            return metadataStub(info, frame: frame)
        }
        guard try hasEndOfImage(after: scanStart, in: reader) else {
            throw reader.truncated(
                "JPEG ends inside the image data: no EOI marker after the scan at offset \(scanStart)")
        }
        info.setSize(frame.width, frame.height)
        if let packet = info.xmpPacket, let length = XMPHints(packet).motionPhotoVideoLength {
            info.embeddedVideo = try embeddedMovie(length: length, in: reader)
        }
        if let multiPicture {
            info.hasDepth = try multiPicture.holdsDepth(in: reader)
        }
        return info
    }

    /// A JPEG that ends in or right after its first scan header: described by its headers alone.
    private static func metadataStub(_ info: ContainerInfo, frame: (width: Int, height: Int)) -> ContainerInfo {
        var info = info
        info.setSize(frame.width, frame.height)
        return info
    }

    /// The range of the last `length` bytes when they hold an ISO media movie (`ftyp` first).
    private static func embeddedMovie(length: Int, in reader: FileReader) throws(MetadataError) -> Range<Int>? {
        guard length >= 8, length < reader.size else { return nil }
        let start = reader.size - length
        guard try reader.read(at: start + 4, count: 4).matches(ascii: "ftyp") else { return nil }
        return start..<reader.size
    }

    /// The offset of the next 0xFF within 64 KiB after `position`.
    private static func nextMarker(after position: Int, in reader: FileReader) throws(MetadataError) -> Int {
        let bytes = try reader.read(at: position, count: 64 * 1024)
        guard let index = bytes.firstIndex(of: 0xFF) else {
            if position + bytes.count >= reader.size {
                throw reader.truncated("JPEG ends at offset \(reader.size), before any image data (no SOS marker)")
            }
            throw reader.corrupt("JPEG has no marker where one was expected at offset \(position)")
        }
        return position + (index - bytes.startIndex)
    }

    /// Whether an EOI marker (FF D9) follows `scanStart`.
    ///
    /// Inside entropy-coded data a 0xFF byte is always followed by 0x00 or a restart marker, so the
    /// first FF D9 after the scan header is the image's end. The last 64 KiB are searched first,
    /// which settles almost every file with one read; only files with a long trailer (a motion
    /// photo's video) are scanned forward from the scan.
    private static func hasEndOfImage(after scanStart: Int, in reader: FileReader) throws(MetadataError) -> Bool {
        // Nearly every JPEG ends with its EOI or a little padding after it: look there first.
        let nearEnd = max(scanStart, reader.size - 4096)
        if containsEOI(try reader.read(at: nearEnd, count: reader.size - nearEnd)) { return true }
        let tailStart = max(scanStart, reader.size - tailLength)
        if containsEOI(try reader.read(at: tailStart, count: reader.size - tailStart)) { return true }
        var position = scanStart
        while position < tailStart {
            let count = min(scanChunk, tailStart + 1 - position)
            let chunk = try reader.read(at: position, count: count)
            if chunk.isEmpty { return false }
            if containsEOI(chunk) { return true }
            position += max(1, chunk.count - 1)
        }
        return false
    }

    private static func containsEOI(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard buffer.count >= 2 else { return false }
            var offset = 0
            while offset < buffer.count - 1 {
                guard let hit = memchr(buffer.baseAddress! + offset, 0xFF, buffer.count - 1 - offset) else {
                    return false
                }
                let at = UnsafeRawPointer(buffer.baseAddress!).distance(to: UnsafeRawPointer(hit))
                if buffer[at + 1] == 0xD9 { return true }
                offset = at + 1
            }
            return false
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
