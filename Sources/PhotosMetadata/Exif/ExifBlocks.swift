/// Turns EXIF stored as a bare TIFF structure (PNG `eXIf`, WebP `EXIF`, HEIF `Exif` items) into a
/// block for ``ExifReader``.
enum ExifBlocks {
    private static let header: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// The EXIF block for the TIFF structure at `offset` (`length` bytes, optionally starting with
    /// `Exif\0\0`), or `nil` when it cannot be read. A structure that fits libexif's 64 KiB is
    /// passed whole; a larger one is compacted by ``ExifBlockBuilder``.
    static func fromTIFF(in reader: FileReader, at offset: Int, length: Int) -> [UInt8]? {
        var offset = offset
        var length = length
        if let prefix = try? reader.read(at: offset, count: 6), prefix.matches(header) {
            offset += 6
            length -= 6
        }
        guard length >= 8 else { return nil }
        if length + header.count <= 0xFFFE {
            guard let bytes = try? reader.readExactly(at: offset, count: length, what: "EXIF") else { return nil }
            return header + bytes
        }
        guard let tiff = try? TIFFStructure(reader: reader, base: offset, length: length) else { return nil }
        return ExifBlockBuilder.block(from: tiff)
    }

    /// The EXIF block for a TIFF structure in memory (optionally starting with `Exif\0\0`), or
    /// `nil` when it is too short, or too long for libexif's 64 KiB.
    static func fromTIFF(bytes: ArraySlice<UInt8>) -> [UInt8]? {
        let tiff = bytes.starts(with: header) ? bytes.dropFirst(header.count) : bytes
        guard tiff.count >= 8, tiff.count + header.count <= 0xFFFE else { return nil }
        return header + tiff
    }
}
