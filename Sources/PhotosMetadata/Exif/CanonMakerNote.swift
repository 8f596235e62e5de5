/// The one Canon maker-note field a library classifies by: the shooting mode.
///
/// Canon's maker note is a bare TIFF directory at the note's first byte whose value offsets count
/// from the EXIF TIFF header (unlike Apple's).
enum CanonMakerNote {
    /// EasyMode value of the HDR scene mode ("High Dynamic Range").
    static let highDynamicRange = 51

    /// EasyMode: element 11 of the CameraSettings array (tag 0x0001), the mode dial's setting.
    static func easyMode(in tiff: TIFFBytes, noteOffset: Int) -> Int? {
        guard let entries = tiff.entries(at: noteOffset),
            let settings = tiff.shorts(entries.first { $0.tag == 0x0001 }), settings.count > 11
        else { return nil }
        return Int(Int16(truncatingIfNeeded: settings[11]))
    }
}
