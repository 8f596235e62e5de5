/// The Canon maker-note fields that say a picture is an in-camera HDR: the shooting mode
/// (PowerShots' HDR scene, the HDR Art filters) and, on EOS cameras, the HDR mode's own record.
///
/// Canon's maker note is a bare TIFF directory at the note's first byte whose value offsets count
/// from the EXIF TIFF header (unlike Apple's). Tag numbers and values follow ExifTool's Canon table.
/// Both records are read only when their first value is their own length in bytes, as ExifTool
/// checks (Canon::Validate): a note whose offsets went stale reads as no record, not as a wrong one.
struct CanonMakerNote {
    enum Tag {
        /// CameraSettings (int16s array): element 0 is the array's length in bytes, element 11 is
        /// EasyMode, the mode dial's setting.
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

    let tiff: TIFFBytes
    let entries: [TIFFEntry]
    /// How far the values moved with the note: a program that moved the note without rewriting
    /// its offsets leaves an 8-byte footer at its end, the byte-order mark then the note's first
    /// offset, and ExifTool reads the values shifted by the difference (MakerNotes::FixBase).
    let shift: Int

    /// The note at `noteOffset` of `tiff`, `noteLength` bytes long; `nil` when its directory does
    /// not fit.
    init?(in tiff: TIFFBytes, noteOffset: Int, noteLength: Int) {
        guard let entries = tiff.entries(at: noteOffset) else { return nil }
        self.tiff = tiff
        self.entries = entries
        self.shift = Self.shift(tiff, entries, noteOffset: noteOffset, noteLength: noteLength)
    }

    private static func shift(_ tiff: TIFFBytes, _ entries: [TIFFEntry], noteOffset: Int, noteLength: Int) -> Int {
        let mark = tiff.order == .littleEndian ? "II*\0" : "MM\0*"
        guard noteLength > 8, let footer = tiff.bytes.slice(at: noteOffset + noteLength - 8, count: 8),
            footer.matches(ascii: mark), let original = footer.u32(at: 4, tiff.order).map(Int.init)
        else { return 0 }
        // Picasa and ACDSee rewrite the offsets but not the footer: when the last value ends right
        // before the footer (or one padding byte before), the offsets are right as they are.
        let ends = entries.compactMap { entry -> Int? in
            guard let byteCount = entry.byteCount, byteCount > 4 else { return nil }
            return entry.field.u32(at: 0, tiff.order).map { Int($0) + byteCount }
        }
        if let last = ends.max(), [0, 1].contains(noteOffset + noteLength - 8 - last) { return 0 }
        return noteOffset - original
    }

    /// The bytes of an entry's values, where the note's shift puts them; `nil` when outside.
    func value(_ entry: TIFFEntry) -> ArraySlice<UInt8>? {
        guard let byteCount = entry.byteCount else { return nil }
        if byteCount <= 4 { return entry.field.prefix(byteCount) }
        guard let offset = entry.field.u32(at: 0, tiff.order).map(Int.init) else { return nil }
        return tiff.bytes.slice(at: offset + shift, count: byteCount)
    }

    /// The values of the record `tag` holds, each `width` bytes (2 or 4), when the record is whole:
    /// its first value is its own length in bytes.
    func record(_ tag: UInt16, types: Set<UInt16>, width: Int) -> [Int]? {
        guard let entry = entries.first(where: { $0.tag == tag }), types.contains(entry.type),
            let bytes = value(entry), bytes.count >= 2 * width
        else { return nil }
        let values = stride(from: 0, through: bytes.count - width, by: width).compactMap { index in
            width == 2
                ? bytes.u16(at: index, tiff.order).map { Int(Int16(bitPattern: $0)) }
                : bytes.u32(at: index, tiff.order).map { Int(Int32(bitPattern: $0)) }
        }
        return values.first == bytes.count ? values : nil
    }

    /// EasyMode: element 11 of the CameraSettings array (tag 0x0001), the mode dial's setting.
    var easyMode: Int? {
        guard let settings = record(Tag.cameraSettings, types: [3, 8], width: 2), settings.count > 11 else {
            return nil
        }
        return settings[11]
    }

    /// HDRInfo's HDR value (element 1 of tag 0x4025).
    var hdrMode: Int? {
        record(Tag.hdrInfo, types: [4, 7, 9], width: 4)?[1]
    }

    /// Whether the note says the picture is an HDR; false when it says otherwise.
    var isHDR: Bool {
        easyMode.map(Self.hdrEasyModes.contains) == true || hdrMode.map(Self.hdrModes.contains) == true
    }
}
