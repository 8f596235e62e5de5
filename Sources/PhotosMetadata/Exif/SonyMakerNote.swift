/// The Sony maker-note fields that say a picture is an in-camera HDR (several exposures merged).
///
/// Layout (ExifTool's MakerNoteSony and MakerNoteSony5): `SONY DSC \0\0\0`, `SONY CAM \0\0\0` or
/// `SONY MOBILE\0` then a TIFF directory at offset 12, or, in ARW and SR2 files, the directory at
/// the note's first byte; value offsets count from the EXIF TIFF header, in a byte order of the
/// note's own. Tag numbers and values follow ExifTool's Sony table (12.57). The fields read here
/// are held in the directory entries themselves.
///
/// Sony's Dynamic Range Optimizer (DRO, tags 0xB025 and 0xB04F) brightens the shadows of one
/// exposure: it is not HDR, and does not make one.
enum SonyMakerNote {
    enum Tag {
        /// HDR (int32u read as two int16u): the setting (0 off, 1 auto, 0x10 to 0x1A 1 to 6 EV), then
        /// which picture this is (0 the uncorrected one kept beside the HDR, 1 to 3 the HDR).
        static let hdr: UInt16 = 0x200A
        /// PictureEffect (int16u): 64 to 66 are HDR Painting low, standard and high, an effect made
        /// of three exposures.
        static let pictureEffect: UInt16 = 0x200E
        /// SceneMode (int32u, Minolta's scene modes): 33 is HDR.
        static let sceneMode: UInt16 = 0xB023
        /// ExposureMode (int16u): 38 is Backlight Correction HDR, the compacts' HDR scene.
        static let exposureMode: UInt16 = 0xB041
    }

    /// HDR settings of tag 0x200A that merge exposures: Auto, and 1.0 to 6.0 EV.
    static let hdrSettings: Set<Int> = Set([0x01] + Array(0x10...0x1A))
    static let hdrPictureEffects: Set<Int> = [64, 65, 66]
    static let hdrSceneMode = 33
    static let backlightCorrectionHDR = 38

    /// Whether the maker note at `noteOffset` of `tiff` is Sony's and says the picture belongs to
    /// an HDR capture (as for Apple's, the uncorrected exposure kept beside the HDR counts); false
    /// for another maker's note, or one too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int, make: String?) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        let directory: Int
        if ["SONY DSC ", "SONY CAM ", "SONY MOBILE"].contains(where: { note.matches(ascii: $0) }) {
            directory = noteOffset + 12
        } else if make?.uppercased().hasPrefix("SONY") == true, !note.matches([0x01, 0x00]) {
            directory = noteOffset
        } else {
            return false
        }
        guard let (tiff, entries) = tiff.directoryInEitherOrder(at: directory) else { return false }
        func entry(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
        // ExifTool reads the 32-bit value as two 16-bit ones in the note's order: the setting first.
        if let hdr = entry(Tag.hdr), let value = tiff.value(hdr), value.count >= 4,
            let setting = value.u16(at: 0, tiff.order), hdrSettings.contains(Int(setting))
        {
            return true
        }
        return tiff.integer(entry(Tag.sceneMode)) == hdrSceneMode
            || tiff.integer(entry(Tag.pictureEffect)).map(hdrPictureEffects.contains) == true
            || tiff.integer(entry(Tag.exposureMode)) == backlightCorrectionHDR
    }
}
