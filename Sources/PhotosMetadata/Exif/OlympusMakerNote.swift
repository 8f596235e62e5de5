/// The Olympus (and OM System) maker-note fields that say a picture is an in-camera HDR.
///
/// Layout (ExifTool's MakerNoteOlympus, 2 and 3): `OLYMP\0` or `EPSON\0` then a directory at
/// offset 8 whose value offsets count from the EXIF TIFF header; `OLYMPUS\0` and a byte-order mark
/// (directory at 12), or `OM SYSTEM\0` (directory at 16), whose offsets count from the note's first
/// byte. Newer notes keep the shooting settings in a CameraSettings sub-directory (tag 0x2020), and
/// compacts such as the TG-830 more of the main directory's tags in a MainInfo one (0x4000): an IFD
/// pointer in newer notes, the directory's own bytes as the value in older ones; their offsets
/// count from the same base either way. Tag numbers and values follow ExifTool's Olympus tables.
enum OlympusMakerNote {
    enum Tag {
        /// SceneMode of the main directory or of MainInfo (int16u, compacts such as the XZ-2): 103
        /// is HDR.
        static let sceneMode: UInt16 = 0x0403
        /// MainInfo: a sub-directory read with the main directory's tags.
        static let mainInfo: UInt16 = 0x4000
        /// CameraSettings: the sub-directory with the tags below.
        static let cameraSettings: UInt16 = 0x2020
        /// CameraSettings' SceneMode (int16u): 154 HDR, 204 Backlight HDR.
        static let settingsSceneMode: UInt16 = 0x0509
        /// CameraSettings' StackedImage (2 int32u): the kind, then the number of exposures; kinds 5
        /// and 6 are HDR1 and HDR2 (the E-M1's in-camera HDR, from 4 exposures).
        static let stackedImage: UInt16 = 0x0804
    }

    static let hdrSceneMode = 103
    static let hdrSettingsSceneModes: Set<Int> = [154, 204]
    static let hdrStacks: Set<Int> = [5, 6]

    /// Whether the maker note at `noteOffset` of `tiff` is Olympus' and says the picture is an HDR;
    /// false for another maker's note, or one too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int) -> Bool {
        let note = tiff.bytes.dropFirst(noteOffset)
        let base: TIFFBytes
        let directory: Int
        if note.matches(ascii: "OLYMP\0") || note.matches(ascii: "EPSON\0") {
            (base, directory) = (tiff, noteOffset + 8)
        } else if note.matches(ascii: "OLYMPUS\0") {
            (base, directory) = (TIFFBytes(bytes: note, order: tiff.order), 12)
        } else if note.matches(ascii: "OM SYSTEM\0") {
            (base, directory) = (TIFFBytes(bytes: note, order: tiff.order), 16)
        } else {
            return false
        }
        guard let (main, entries) = base.directoryInEitherOrder(at: directory) else { return false }
        // The sub-directory that `tag` holds, in the byte order that reads it.
        func subdirectory(_ tag: UInt16) -> (tiff: TIFFBytes, entries: [TIFFEntry])? {
            guard let pointer = entries.first(where: { $0.tag == tag }),
                let start = pointer.type == 4 || pointer.type == 13 ? main.integer(pointer) : main.valueOffset(pointer)
            else { return nil }
            return main.directoryInEitherOrder(at: start)
        }
        if main.integer(entries.first { $0.tag == Tag.sceneMode }) == hdrSceneMode { return true }
        if let (info, infoEntries) = subdirectory(Tag.mainInfo),
            info.integer(infoEntries.first { $0.tag == Tag.sceneMode }) == hdrSceneMode
        {
            return true
        }
        guard let (camera, cameraEntries) = subdirectory(Tag.cameraSettings) else { return false }
        func entry(_ tag: UInt16) -> TIFFEntry? { cameraEntries.first { $0.tag == tag } }
        return camera.integer(entry(Tag.settingsSceneMode)).map(hdrSettingsSceneModes.contains) == true
            || camera.integer(entry(Tag.stackedImage)).map(hdrStacks.contains) == true
    }
}
