/// The Casio maker-note fields that say a picture is an in-camera HDR.
///
/// Layout (ExifTool's MakerNoteCasio2, the notes of Exilim cameras that shoot HDR): `QVC\0` (or
/// `DCI\0`, Concord's) and two more bytes, then a TIFF directory at offset 6 whose value offsets
/// count from the EXIF TIFF header, in a byte order of the note's own. The older, headerless Casio
/// note has no HDR field. Tag numbers and values follow ExifTool's Casio Type2 table.
enum CasioMakerNote {
    enum Tag {
        /// BestShotMode (int16u): its values differ by model; on the EX-FC200S, 6 is HDR and 7 HDR Art.
        static let bestShotMode: UInt16 = 0x3007
        /// ArtMode (int16u): 39 HDR, 52 Art HDR.
        static let artMode: UInt16 = 0x301B
    }

    static let hdrArtModes: Set<Int> = [39, 52]
    /// The one model whose BestShotMode values ExifTool names an HDR among.
    static let bestShotModel = "EX-FC200S"
    static let hdrBestShotModes: Set<Int> = [6, 7]

    /// Whether the maker note at `noteOffset` of `tiff` is Casio's and says the picture is an HDR;
    /// false for another maker's note, or one too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int, model: String?) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        guard note.matches(ascii: "QVC\0") || note.matches(ascii: "DCI\0"),
            let (tiff, entries) = tiff.directoryInEitherOrder(at: noteOffset + 6)
        else { return false }
        func value(_ tag: UInt16) -> Int? { tiff.integer(entries.first { $0.tag == tag }) }
        if value(Tag.artMode).map(hdrArtModes.contains) == true { return true }
        return model == bestShotModel && value(Tag.bestShotMode).map(hdrBestShotModes.contains) == true
    }
}
