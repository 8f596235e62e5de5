/// The Panasonic maker-note fields that say a picture is an in-camera HDR (also Leica's models
/// that write Panasonic's note).
///
/// Layout (ExifTool's MakerNotePanasonic, MakerNoteLeica and MakerNoteLeica10): `Panasonic\0\0\0`
/// then a TIFF directory at offset 12; when the make is `LEICA`, `LEICA\0\0\0` and the directory
/// at 8; `LEICA CAMERA AG\0` and the directory at 18 (the D-Lux 7). Value offsets count from the
/// EXIF TIFF header, in a byte order of the note's own. The fields
/// read here are held in the directory entries themselves. Tag numbers and values follow
/// ExifTool's Panasonic table.
enum PanasonicMakerNote {
    enum Tag {
        /// ShootingMode (int16u): 51 and 64 are HDR (the scene mode of different generations).
        static let shootingMode: UInt16 = 0x001F
        /// HDR (int16u): 0 Off, 100, 200 or 300 for 1 to 3 EV, with 0x8000 added when the camera
        /// chose the step (32868 "1 EV (Auto)").
        static let hdr: UInt16 = 0x009E
        /// SceneMode (int16u): the same values as ShootingMode, 0 Off.
        static let sceneMode: UInt16 = 0x8001
    }

    static let hdrShootingModes: Set<Int> = [51, 64]
    static let hdrSteps: Set<Int> = [100, 200, 300]
    /// The bit of the HDR value that says the camera chose the step; the picture is merged either way.
    static let automaticStep = 0x8000

    /// Whether the maker note at `noteOffset` of `tiff` is Panasonic's and says the picture is an
    /// HDR; false for another maker's note, or one too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int, make: String?) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        let directory: Int
        if note.matches(ascii: "Panasonic\0") {
            directory = noteOffset + 12
        } else if make == "LEICA", note.matches(ascii: "LEICA\0\0\0") {
            directory = noteOffset + 8
        } else if note.matches(ascii: "LEICA CAMERA AG\0") {
            directory = noteOffset + 18
        } else {
            return false
        }
        guard let (tiff, entries) = tiff.directoryInEitherOrder(at: directory) else { return false }
        func value(_ tag: UInt16) -> Int? { tiff.integer(entries.first { $0.tag == tag }) }
        if let hdr = value(Tag.hdr), hdrSteps.contains(hdr & ~automaticStep) { return true }
        return [Tag.shootingMode, Tag.sceneMode].contains { value($0).map(hdrShootingModes.contains) == true }
    }
}
