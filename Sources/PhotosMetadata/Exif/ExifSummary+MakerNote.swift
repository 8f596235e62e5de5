extension ExifSummary {
    private enum PointerTag {
        static let exifIFD: UInt16 = 0x8769
        static let makerNote: UInt16 = 0x927C
    }

    /// Finds the maker note in the EXIF directory of `block` and reads Apple's identifiers and HDR
    /// type, or whether another maker's note says HDR (Canon, Sony, Nikon, Pentax, Panasonic,
    /// Olympus, Fujifilm, Casio). A missing or damaged note leaves the summary unchanged.
    mutating func readMakerNote(in block: [UInt8]) {
        guard let tiff = TIFFBytes(exifBlock: block), let ifd0Offset = tiff.firstDirectoryOffset,
            let ifd0 = tiff.entries(at: ifd0Offset),
            let exifOffset = tiff.integer(ifd0.first { $0.tag == PointerTag.exifIFD }),
            let exifEntries = tiff.entries(at: exifOffset),
            let note = exifEntries.first(where: { $0.tag == PointerTag.makerNote }),
            let noteOffset = tiff.valueOffset(note)
        else { return }
        // Apple's values may sit past the count the EXIF entry declares; bound them by the block.
        if let apple = AppleMakerNote(tiff.bytes.dropFirst(noteOffset)) {
            contentIdentifier = apple.contentIdentifier
            burstIdentifier = apple.burstIdentifier
            isHDR = isHDR || apple.isHDR
        } else if make?.hasPrefix("Canon") == true {
            // Canon's note has no signature: the make says whose it is.
            if CanonMakerNote(in: tiff, noteOffset: noteOffset, noteLength: Int(note.count))?.isHDR == true {
                isHDR = true
            }
        } else if SonyMakerNote.isHDR(in: tiff, noteOffset: noteOffset, make: make)
            || NikonMakerNote.isHDR(in: tiff, noteOffset: noteOffset)
            || PentaxMakerNote.isHDR(in: tiff, noteOffset: noteOffset)
            || PanasonicMakerNote.isHDR(in: tiff, noteOffset: noteOffset, make: make)
            || OlympusMakerNote.isHDR(in: tiff, noteOffset: noteOffset)
            || FujifilmMakerNote.isHDR(in: tiff, noteOffset: noteOffset)
            || CasioMakerNote.isHDR(in: tiff, noteOffset: noteOffset, model: model)
        {
            // Each looks for its own note's signature first. Samsung's, Ricoh's, Sigma's, Kodak's
            // and Minolta's notes have no HDR field that ExifTool reads (Minolta's HDR scene mode
            // is read from the Sony cameras that use it).
            isHDR = true
        }
    }
}
