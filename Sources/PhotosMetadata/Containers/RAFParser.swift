/// Reads a Fujifilm RAF: the cropped sensor size from the RAF directory, and EXIF from the
/// embedded JPEG preview; and checks that the preview, the directory and the raw data the header points to
/// lie in the file (the raw data may also not have begun: a metadata stub).
enum RAFParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let header = try reader.readExactly(at: 0, count: 108, what: "RAF header")
        guard header.matches(ascii: "FUJIFILMCCD-RAW "), let jpegOffset = header.u32(at: 84, .bigEndian).map(Int.init),
            let jpegLength = header.u32(at: 88, .bigEndian).map(Int.init),
            let directoryOffset = header.u32(at: 92, .bigEndian).map(Int.init),
            let directoryLength = header.u32(at: 96, .bigEndian).map(Int.init)
        else { throw reader.corrupt("the file does not start with a RAF header") }
        guard jpegOffset <= reader.size, jpegLength <= reader.size - jpegOffset,
            directoryOffset <= reader.size, directoryLength <= reader.size - directoryOffset
        else { throw reader.truncated("RAF header points past the end of the file") }
        // The raw (CFA) data: whole, or not begun at all (a metadata stub that stops where it starts).
        if let rawOffset = header.u32(at: 100, .bigEndian).map(Int.init),
            let rawLength = header.u32(at: 104, .bigEndian).map(Int.init), rawLength > 0,
            rawOffset > reader.size || rawLength > reader.size - rawOffset, rawOffset != reader.size
        {
            throw reader.truncated(
                "RAF raw data at offset \(rawOffset) (\(rawLength) bytes) runs past the end of the file "
                    + "(\(reader.size) bytes)")
        }

        // The preview is only a source of EXIF here: a damaged preview costs the EXIF fields,
        // not the file.
        var info = (try? JPEGParser.parse(reader, at: jpegOffset, requireImage: false)) ?? ContainerInfo()
        info.width = nil
        info.height = nil

        // The directory: a count, then (tag, size, value) records. 0x111 is the cropped raw size,
        // 0x100 the full one, both stored as height then width.
        let directory = try reader.readExactly(
            at: directoryOffset, count: min(directoryLength, 64 * 1024), what: "RAF directory")
        var sizes: [UInt16: (Int, Int)] = [:]
        var offset = 4
        for _ in 0..<min(Int(directory.u32(at: 0, .bigEndian) ?? 0), 1024) {
            guard let tag = directory.u16(at: offset, .bigEndian), let size = directory.u16(at: offset + 2, .bigEndian)
            else { break }
            if (tag == 0x100 || tag == 0x111) && size == 4, let height = directory.u16(at: offset + 4, .bigEndian),
                let width = directory.u16(at: offset + 6, .bigEndian)
            {
                sizes[tag] = (Int(width), Int(height))
            }
            offset += 4 + Int(size)
        }
        if let (width, height) = sizes[0x111] ?? sizes[0x100] { info.setSize(width, height) }
        return info
    }
}
