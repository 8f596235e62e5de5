/// The Nikon maker-note field that says a picture is an in-camera HDR.
///
/// Layout (ExifTool's MakerNoteNikon): `Nikon\0`, a version (`\x02\x10` or `\x02\x00`), two zero
/// bytes, then a whole TIFF structure (header and directories) at offset 10 whose offsets count
/// from its own header. Older, headerless Nikon notes (before the cameras that shoot HDR) are not
/// read. Tag numbers and values follow ExifTool's Nikon table (12.57).
enum NikonMakerNote {
    /// HDRInfo (undefined bytes): a 4-byte version, then HDR at byte 4 (0 off, 1 on, 48 auto). The
    /// same tag with 6 bytes is ExifTool's HDRInfo2 (version `0200`), whose byte 4 is HDR too (0
    /// off, 1 on).
    static let hdrInfo: UInt16 = 0x0035
    /// HDR "On (normal)": the picture is the merged one. "Auto" (48) lets the camera decide, and
    /// the note does not say what it decided, so it is not taken for HDR.
    static let hdrOn = 1

    /// Whether the maker note at `noteOffset` of `tiff` is Nikon's and says the picture is an HDR;
    /// false for another maker's note, or one too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        guard note.matches(ascii: "Nikon\0\u{02}"), let inner = note.slice(at: 10, count: note.count - 10) else {
            return false
        }
        let order: ByteOrder
        if inner.matches(ascii: "MM\0*") {
            order = .bigEndian
        } else if inner.matches(ascii: "II*\0") {
            order = .littleEndian
        } else {
            return false
        }
        let structure = TIFFBytes(bytes: inner, order: order)
        guard let directory = structure.firstDirectoryOffset, let entries = structure.entries(at: directory),
            let entry = entries.first(where: { $0.tag == hdrInfo }), let info = structure.value(entry), info.count > 4
        else { return false }
        return info.u8(at: 4).map(Int.init) == hdrOn
    }
}
