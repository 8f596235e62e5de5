/// The first bytes of the camera RAW families LibRaw reads: what a file must start with before
/// LibRaw is given it, whatever its name says.
///
/// LibRaw decides a file's family by content, and its parsers are large; a file that does not
/// start as a RAW family does (a JPEG or a text file named `.mrw`) never reaches them.
enum RAWSignature: Sendable, Hashable {
    /// TIFF (`II*\0`, `MM\0*`): DNG, NEF, CR2, ARW, PEF, SRW, IIQ, 3FR, ERF, MOS...
    case tiff
    /// Panasonic RW2 and RAW, Leica RWL (`IIU\0`).
    case panasonic
    /// Olympus ORF (`IIRO`, `IIRS`, `MMOR`).
    case olympus
    /// Minolta MRW (`\0MRM`).
    case minolta
    /// Sigma and Foveon X3F (`FOVb`).
    case sigma
    /// Canon CRW (CIFF: `HEAPCCDR` at offset 6).
    case canonCIFF
    /// Fujifilm RAF (`FUJIFILMCCD-RAW`).
    case fujifilm
    /// Canon CR3 (an ISO base media `ftyp` box of brand `crx `).
    case canonCR3

    /// The family `head` (a file's first bytes) starts as, or nil.
    init?(head: ArraySlice<UInt8>) {
        if head.matches([0x49, 0x49, 0x2A, 0x00]) || head.matches([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if head.matches([0x49, 0x49, 0x55, 0x00]) {
            self = .panasonic
        } else if head.matches(ascii: "IIRO") || head.matches(ascii: "IIRS") || head.matches(ascii: "MMOR") {
            self = .olympus
        } else if head.matches([0x00, 0x4D, 0x52, 0x4D]) {
            self = .minolta
        } else if head.matches(ascii: "FOVb") {
            self = .sigma
        } else if head.matches(ascii: "HEAPCCDR", at: 6) {
            self = .canonCIFF
        } else if head.matches(ascii: "FUJIFILMCCD-RAW") {
            self = .fujifilm
        } else if head.matches(ascii: "ftyp", at: 4), head.matches(ascii: "crx ", at: 8) {
            self = .canonCR3
        } else {
            return nil
        }
    }

    /// Whether LibRaw's timestamp for the family is the file's own count of seconds since 1970 on the
    /// camera's clock (CIFF's and X3F's), rather than `mktime` of an EXIF date in the process's zone.
    var countsWallClockSeconds: Bool { self == .canonCIFF || self == .sigma }
}
