/// Reads a TIFF or a TIFF-based camera RAW (DNG, NEF, CR2, ARW, ...): the image size, the EXIF
/// block, the XMP packet; and checks that the image data lies inside the file.
///
/// A plain TIFF's picture is IFD0. A RAW's IFD0 is usually a small preview: the full-size image
/// is a SubIFD (DNG, NEF), a later IFD in the chain, or — for CR2, whose raw IFD carries no size —
/// only described by EXIF's PixelXDimension; the largest of these is the RAW's size, as ExifTool
/// reports it.
enum TIFFParser {
    static func parse(_ reader: FileReader, type: FileType) throws(MetadataError) -> ContainerInfo {
        let tiff = try TIFFStructure(reader: reader, base: 0, length: reader.size)
        let ifd0 = try tiff.directory(at: tiff.firstDirectoryOffset, name: "IFD0")
        var images: [TIFFDirectory] = [ifd0]
        if type.isTIFFBasedRAW {
            for offset in tiff.subDirectoryOffsets(ifd0) {
                if let directory = tiff.optionalDirectory(at: offset, name: "SubIFD") { images.append(directory) }
            }
            var next = ifd0.nextOffset
            for index in 1...4 where next != 0 {
                guard let directory = tiff.optionalDirectory(at: next, name: "IFD\(index)") else { break }
                images.append(directory)
                next = directory.nextOffset
            }
        }
        for directory in images {
            if let end = tiff.imageDataEnd(directory), end > reader.size {
                throw reader.truncated(
                    "TIFF image data of the directory at offset \(directory.offset) ends at \(end), "
                        + "past the end of the file (\(reader.size) bytes)"
                )
            }
        }

        var info = ContainerInfo()
        var sizes = images.compactMap { tiff.imageSize($0) }
        if type.isTIFFBasedRAW, let exifOffset = tiff.pointer(ifd0, TIFFStructure.Tag.exifIFD),
            let exif = tiff.optionalDirectory(at: exifOffset, name: "EXIF IFD"),
            let width = tiff.integer(exif[TIFFStructure.Tag.pixelXDimension]),
            let height = tiff.integer(exif[TIFFStructure.Tag.pixelYDimension]), width > 0, height > 0
        {
            sizes.append((width, height))
        }
        if type.isTIFFBasedRAW {
            let area = { (size: (width: Int, height: Int)) in Double(size.width) * Double(size.height) }
            if let largest = sizes.max(by: { area($0) < area($1) }) {
                info.setSize(largest.width, largest.height)
            }
        } else if let size = tiff.imageSize(ifd0) {
            info.setSize(size.width, size.height)
        }
        info.exifBlock = ExifBlockBuilder.block(from: tiff)
        if let xmp = ifd0[TIFFStructure.Tag.xmp] {
            info.xmpPacket = tiff.valueBytes(xmp, limit: 4 * 1024 * 1024)
        }
        return info
    }
}
