/// The maker note of iPhone and iPad pictures, JPEG and HEIF alike.
///
/// Layout: `Apple iOS\0`, a 16-bit version, a byte-order mark (`MM`), then a TIFF directory at
/// offset 14 whose value offsets count from the start of the maker note, not from the EXIF TIFF
/// header. libexif 0.6.24 resolves them against the wrong base (on a real iPhone JPEG it returns
/// `5` where ExifTool reads the ContentIdentifier), so the note is read here from the raw bytes.
/// Tag numbers and meanings follow ExifTool's Apple table.
struct AppleMakerNote: Sendable, Hashable {
    enum Tag {
        static let hdrImageType: UInt16 = 0x000A
        static let burstUUID: UInt16 = 0x000B
        /// ExifTool 12.57 calls it MediaGroupUUID, later versions ContentIdentifier.
        static let contentIdentifier: UInt16 = 0x0011
        static let imageCaptureType: UInt16 = 0x0014
    }

    /// The Live Photo identifier, shared with the movie's `com.apple.quicktime.content.identifier`.
    var contentIdentifier: String?
    /// The identifier shared by all frames of a burst.
    var burstIdentifier: String?
    /// HDRImageType: 3 = the HDR composite, 4 = the normal exposure kept beside it.
    var hdrImageType: Int?
    /// ImageCaptureType: 1 = ProRAW, 2 = Portrait, 10 = Photo, 11 = Manual Focus, 12 = Scene. It
    /// does not mark screenshots (they carry no maker note).
    var imageCaptureType: Int?

    /// Reads the note that starts at `note`'s first byte; `nil` when it is not an Apple maker note
    /// or its directory does not fit. The slice may run past the note's own end (values are
    /// bounds-checked against it).
    init?(_ note: ArraySlice<UInt8>) {
        guard note.matches(ascii: "Apple iOS\0") else { return nil }
        let order: ByteOrder = note.matches(ascii: "II", at: 12) ? .littleEndian : .bigEndian
        let tiff = TIFFBytes(bytes: note, order: order)
        guard let entries = tiff.entries(at: 14) else { return nil }
        func entry(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
        contentIdentifier = tiff.string(entry(Tag.contentIdentifier))
        burstIdentifier = tiff.string(entry(Tag.burstUUID))
        hdrImageType = tiff.integer(entry(Tag.hdrImageType))
        imageCaptureType = tiff.integer(entry(Tag.imageCaptureType))
    }

    /// Whether the picture belongs to an HDR capture: the composite (3) or the normal exposure
    /// saved with it (4), as ExifTool's users and the corpus oracle count them.
    var isHDR: Bool {
        hdrImageType == 3 || hdrImageType == 4
    }
}
