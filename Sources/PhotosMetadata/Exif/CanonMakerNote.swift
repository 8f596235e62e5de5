/// The Canon maker-note fields that say a picture is an in-camera HDR: the shooting mode
/// (PowerShots' HDR scene, the HDR Art filters) and, on EOS cameras, the HDR mode's own record.
///
/// Canon's maker note is a bare TIFF directory at the note's first byte whose value offsets count
/// from the EXIF TIFF header (unlike Apple's). Tag numbers and values follow ExifTool's Canon table.
enum CanonMakerNote {
    enum Tag {
        /// CameraSettings (int16s array): element 11 is EasyMode, the mode dial's setting.
        static let cameraSettings: UInt16 = 0x0001
        /// HDRInfo (int32s array, ExifTool's Canon::HDRInfo): element 0 is the record's length in
        /// bytes, 1 is HDR (0 Off, 1 Auto, 2 On), 2 is HDREffect (0 Natural, 1 to 4 Art standard,
        /// vivid, bold, embossed).
        static let hdrInfo: UInt16 = 0x4025
    }

    /// EasyMode values that merge exposures: 51 High Dynamic Range (PowerShots' HDR scene), and
    /// the 80D's HDR Art Standard (84), Vivid (85) and Bold (93) creative filters.
    static let hdrEasyModes: Set<Int> = [51, 84, 85, 93]
    /// HDRInfo's HDR values that merge exposures. "Auto" is the HDR mode with the dynamic range
    /// left to the camera (Canon's menu: Disable HDR, Auto, ±1 to ±3 EV), so it merges too.
    /// HDREffect only says how the merged picture looks, not whether there is one.
    static let hdrModes: Set<Int> = [1, 2]

    /// EasyMode: element 11 of the CameraSettings array (tag 0x0001), the mode dial's setting.
    static func easyMode(in tiff: TIFFBytes, noteOffset: Int) -> Int? {
        guard let entries = tiff.entries(at: noteOffset),
            let settings = tiff.shorts(entries.first { $0.tag == Tag.cameraSettings }), settings.count > 11
        else { return nil }
        return Int(Int16(truncatingIfNeeded: settings[11]))
    }

    /// HDRInfo's HDR value, when the record is whole: ExifTool reads it only when its first value
    /// is its own length in bytes (Canon::Validate).
    static func hdrMode(in tiff: TIFFBytes, noteOffset: Int) -> Int? {
        guard let entries = tiff.entries(at: noteOffset), let entry = entries.first(where: { $0.tag == Tag.hdrInfo }),
            [4, 7, 9].contains(entry.type), let value = tiff.value(entry), value.count >= 8,
            let length = value.u32(at: 0, tiff.order), Int(length) == value.count,
            let mode = value.u32(at: 4, tiff.order)
        else { return nil }
        return Int(Int32(bitPattern: mode))
    }

    /// Whether the maker note at `noteOffset` of `tiff` (known to be Canon's by the make) says the
    /// picture is an HDR; false when it says otherwise or is too damaged to read.
    static func isHDR(in tiff: TIFFBytes, noteOffset: Int) -> Bool {
        easyMode(in: tiff, noteOffset: noteOffset).map(hdrEasyModes.contains) == true
            || hdrMode(in: tiff, noteOffset: noteOffset).map(hdrModes.contains) == true
    }
}
