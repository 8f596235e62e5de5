/// Reads a TIFF or a TIFF-based camera RAW (DNG, NEF, CR2, ARW, ...): the image size, the EXIF
/// block, the XMP packet; and checks that the image data lies inside the file, or that the file stops exactly
/// where its first strip or tile begins (a metadata stub, holding none of the image data). Strips of a few
/// placeholder bytes, or of none, are the file's business: ExifTool's sample RAWs are made so.
///
/// A plain TIFF's picture is IFD0. A RAW's IFD0 is usually a small preview: the full-size image
/// is a SubIFD (DNG, NEF), a later IFD in the chain, or — for CR2, whose raw IFD carries no size —
/// only described by EXIF's PixelXDimension; the largest of these is the RAW's size, as ExifTool
/// reports it.
enum TIFFParser {
    /// How many directories of the IFD chain are checked; a multi-page fax may hold hundreds.
    static let maximumChain = 1024

    static func parse(_ reader: FileReader, type: FileType) throws(MetadataError) -> ContainerInfo {
        let tiff = try TIFFStructure(reader: reader, base: 0, length: reader.size)
        let ifd0 = try tiff.directory(at: tiff.firstDirectoryOffset, name: "IFD0")
        // Every directory the file links to must lie inside it and be reached once: an offset past the end or a
        // chain that loops back is a file whose structure lies, which a TIFF reader would chase forever.
        // Only a RAW's first few linked directories are read in full; the rest of the chain is checked by its links.
        var visited: Set<Int> = [ifd0.offset]
        var chain: [TIFFDirectory] = []
        var previous = ifd0.offset
        var next = ifd0.nextOffset
        while next != 0, visited.count < maximumChain {
            guard visited.insert(next).inserted else {
                throw reader.corrupt(
                    "the directory at offset \(previous) links back to offset \(next): the IFD chain loops")
            }
            let name = "IFD\(visited.count - 1)"
            previous = next
            if type.isTIFFBasedRAW, chain.count < 4 {
                let directory = try tiff.directory(at: next, name: name)
                chain.append(directory)
                next = directory.nextOffset
            } else {
                next = try tiff.nextDirectoryOffset(after: next, name: name)
            }
        }
        var images: [TIFFDirectory] = [ifd0]
        if type.isTIFFBasedRAW {
            for offset in tiff.subDirectoryOffsets(ifd0) {
                guard visited.insert(offset).inserted else {
                    throw reader.corrupt("a SubIFD of IFD0 points back to the directory at offset \(offset)")
                }
                images.append(try tiff.directory(at: offset, name: "SubIFD"))
            }
            images += chain
        }
        var hasImageData = false
        var firstByte = Int.max
        var beyondEnd: (directory: Int, end: Int)?
        for directory in images {
            switch tiff.imageData(directory) {
            case .absent:
                continue
            case .unreadable(let what):
                throw reader.corrupt(
                    "the \(what) of the directory at offset \(directory.offset) lie outside the file or are too many")
            case .extent(let extent):
                hasImageData = true
                guard let extent else { continue }
                firstByte = min(firstByte, extent.lowerBound)
                if extent.upperBound > reader.size, beyondEnd == nil {
                    beyondEnd = (directory.offset, extent.upperBound)
                }
            }
        }
        guard hasImageData else {
            throw reader.corrupt("no TIFF directory points to image data (strips or tiles)")
        }
        // A metadata stub stops exactly where its first strip or tile begins: it holds none of the image data.
        if let beyondEnd, firstByte != reader.size {
            throw reader.truncated(
                "TIFF image data of the directory at offset \(beyondEnd.directory) ends at \(beyondEnd.end), "
                    + "past the end of the file (\(reader.size) bytes)"
            )
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
