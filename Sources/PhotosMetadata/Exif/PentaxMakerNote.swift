/// The Pentax maker-note fields that say a picture is an in-camera HDR (also Ricoh's Pentax
/// models, and Samsung's GX cameras, which write Pentax's note).
///
/// Layout (ExifTool's MakerNotePentax and MakerNotePentax5): `AOC\0` then a byte-order mark
/// (`MM` or `II`) and a TIFF directory at offset 6, or `PENTAX \0`, the mark at offset 8 and the
/// directory at 10. Pentax's value offsets vary by model, but the fields read here are held in the
/// directory entries themselves. Tag numbers and values follow ExifTool's Pentax table (12.57).
enum PentaxMakerNote {
    enum Tag {
        /// DriveMode (4 int8u): the fourth says single, multiple or HDR exposure.
        static let driveMode: UInt16 = 0x0034
        /// HDR (4 int8u): the first is 0 off, 1 HDR Auto, 2 to 4 HDR 1 to 3, 5 HDR Advanced.
        static let hdr: UInt16 = 0x0085
    }

    /// DriveMode's fourth byte for HDR: HDR, HDR Strong 1 to 3, HDR Manual, HDR Auto.
    static let hdrExposures: Set<Int> = [0x10, 0x20, 0x30, 0x40, 0x50, 0xE0]
    static let hdrModes = 1...5

    /// Whether the maker note at `noteOffset` of `tiff` is Pentax's and says the picture is an HDR;
    /// false for another maker's note, or one too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        let mark: Int
        if note.matches(ascii: "AOC\0") {
            mark = 4
        } else if note.matches(ascii: "PENTAX \0") {
            mark = 8
        } else {
            return false
        }
        let order: ByteOrder =
            note.matches(ascii: "MM", at: mark)
            ? .bigEndian : note.matches(ascii: "II", at: mark) ? .littleEndian : tiff.order
        guard
            let (structure, entries) = TIFFBytes(bytes: tiff.bytes, order: order)
                .directoryInEitherOrder(at: noteOffset + mark + 2)
        else { return false }
        func byte(_ tag: UInt16, _ index: Int) -> Int? {
            guard let entry = entries.first(where: { $0.tag == tag }), entry.type == 1 || entry.type == 7 else {
                return nil
            }
            return structure.value(entry)?.u8(at: index).map(Int.init)
        }
        return byte(Tag.hdr, 0).map(hdrModes.contains) == true
            || byte(Tag.driveMode, 3).map(hdrExposures.contains) == true
    }
}
