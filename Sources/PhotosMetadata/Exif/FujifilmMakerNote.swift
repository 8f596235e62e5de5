/// The Fujifilm maker-note fields that say a picture is an in-camera HDR.
///
/// Layout (ExifTool's MakerNoteFujiFilm): `FUJIFILM` (or `GENERALE`, GE's models), then at offset 8
/// the directory's offset, little-endian like everything in the note, counted from the note's
/// first byte, as are its value offsets. Tag numbers and values follow ExifTool's FujiFilm table.
enum FujifilmMakerNote {
    enum Tag {
        /// PictureMode (int16u): 0x30 is the HDR scene (Advanced mode).
        static let pictureMode: UInt16 = 0x1031
        /// CompositeImageMode (int32u): 128 is HDR (1 Pro Low-light, 2 Pro Focus, 32 Panorama).
        static let compositeImageMode: UInt16 = 0x1150
    }

    static let hdrPictureMode = 0x30
    static let hdrComposite = 128

    /// Whether the maker note at `noteOffset` of `tiff` is Fujifilm's and says the picture is an
    /// HDR; false for another maker's note, or one too damaged to read. The film-simulation dynamic
    /// range settings (DR200, DR400, "HDR800" in tag 0x1403) develop one exposure, so they do not count.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        guard note.matches(ascii: "FUJIFILM") || note.matches(ascii: "GENERALE"),
            let directory = note.u32(at: 8, .littleEndian).map(Int.init)
        else { return false }
        let structure = TIFFBytes(bytes: note, order: .littleEndian)
        guard let entries = structure.entries(at: directory) else { return false }
        func value(_ tag: UInt16) -> Int? { structure.integer(entries.first { $0.tag == tag }) }
        return value(Tag.pictureMode) == hdrPictureMode || value(Tag.compositeImageMode) == hdrComposite
    }
}
