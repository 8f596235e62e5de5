/// Decides a file's type from libmagic's answer, the file's first bytes, and — only where the
/// content is ambiguous — its extension.
///
/// libmagic is vague in a few places a photo library cares about: camera RAW files built on TIFF
/// are all `image/tiff`, ISO base media files are named by a guess at the brand, and data it does
/// not know is `application/octet-stream`, and a few bytes of binary can pass for `text/plain`.
/// The rules here settle those cases, preferring evidence in the content (an `ftyp` brand, a
/// format signature, a DNGVersion tag) over the name.
enum TypeClassifier {
    /// The type of a file whose libmagic MIME type is `magicMIMEType`, whose first bytes are
    /// `head`, and whose name ends in `.fileExtension` (without the dot; empty when none).
    static func classify(magicMIMEType: String, head: ArraySlice<UInt8>, fileExtension: String) -> FileType {
        let magic = magicMIMEType.trimmingWhitespace().lowercased()
        let byExtension = FileType.withExtension(fileExtension)

        if magic == "inode/x-empty" || magic == "application/x-empty" || head.isEmpty {
            return FileType.generic("inode/x-empty")
        }
        if head.matches(ascii: "ftyp", at: 4), let branded = isoMediaType(head: head) {
            return branded
        }
        // libmagic calls a few bytes of binary "text/plain", and data it cannot place
        // "application/octet-stream"; a format signature at the start is stronger evidence.
        if magic == "text/plain" || magic == "application/octet-stream", let signed = signatureType(head) {
            if signed == .tiff { return tiffType(head: head, byExtension: byExtension) }
            return signed
        }
        if magic == "image/tiff" {
            return tiffType(head: head, byExtension: byExtension)
        }
        if magic == "text/xml" || magic == "application/xml", fileExtension.lowercased() == "aae" {
            return FileType.generic("application/vnd.apple.photos")
        }
        if let known = FileType.withMIMEType(magic) {
            return known
        }
        if magic == "application/octet-stream" || magic.isEmpty, let byExtension {
            return byExtension
        }
        return FileType.generic(magic.isEmpty ? "application/octet-stream" : magic)
    }

    /// The type a file's first bytes settle without libmagic, whose answer costs tens of
    /// microseconds a file (a first scan's readers spent 6% of their time there, on one file in
    /// nine): an ISO base media file of a known brand, a signature that no other format this
    /// module reads shares (JPEG, PNG, GIF, WebP), or one whose answer from libmagic is known
    /// (``magicMIMEType(bySignature:)``), classified as that answer would be. Nil when libmagic is
    /// to be asked. Where it answers, it answers as ``classify(magicMIMEType:head:fileExtension:)``
    /// does.
    static func settledBySignature(head: ArraySlice<UInt8>, fileExtension: String) -> FileType? {
        if head.matches(ascii: "ftyp", at: 4), let branded = isoMediaType(head: head) { return branded }
        if head.matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.matches(ascii: "GIF87a") || head.matches(ascii: "GIF89a") { return .gif }
        if head.matches(ascii: "RIFF"), head.matches(ascii: "WEBP", at: 8) { return .webp }
        guard let magic = magicMIMEType(bySignature: head) else { return nil }
        return classify(magicMIMEType: magic, head: head, fileExtension: fileExtension)
    }

    /// What libmagic answers for a file that starts with one of these signatures, whatever
    /// follows: its rules look no further (libmagic 5.44 on the corpus and on thousands of heads
    /// altered past the signature; `MediaSnifferTests` asks libmagic again). A TIFF header is
    /// `image/tiff` unless it is Canon's CR2 (the header of offset 16, then `CR`); which RAW family
    /// a TIFF is, the classifier settles from the extension and the DNGVersion tag.
    static func magicMIMEType(bySignature head: ArraySlice<UInt8>) -> String? {
        if head.matches([0x49, 0x49, 0x2A, 0x00, 0x10, 0x00, 0x00, 0x00, 0x43, 0x52]) { return "image/x-canon-cr2" }
        if head.matches([0x49, 0x49, 0x2A, 0x00]) || head.matches([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if head.matches(ascii: "RIFF"), head.matches(ascii: "AVI ", at: 8) { return "video/x-msvideo" }
        if head.matches(ascii: "FUJIFILMCCD-RAW ") { return "image/x-fuji-raf" }
        if head.matches([0x49, 0x49, 0x1A, 0x00, 0x00, 0x00]), head.matches(ascii: "HEAPCCDR", at: 6) {
            return "image/x-canon-crw"
        }
        if head.matches([0xFF, 0x0A]) { return "image/jxl" }
        return nil
    }

    /// A TIFF-based type: a RAW when the extension names one (read by the TIFF parser or, for the families it does
    /// not read, such as IIQ and 3FR, by LibRaw) or IFD0 has a DNGVersion tag.
    private static func tiffType(head: ArraySlice<UInt8>, byExtension: FileType?) -> FileType {
        if let raw = byExtension, raw.isTIFFBasedRAW || (raw.container == .libRaw && RAWSignature(head: head) == .tiff)
        {
            return raw
        }
        if tiffHasDNGVersion(head) { return .dng }
        return .tiff
    }

    /// The type whose unambiguous signature starts `head`, if any.
    private static func signatureType(_ head: ArraySlice<UInt8>) -> FileType? {
        if head.matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.matches(ascii: "GIF87a") || head.matches(ascii: "GIF89a") { return .gif }
        if head.matches(ascii: "RIFF"), head.matches(ascii: "WEBP", at: 8) { return .webp }
        if head.matches(ascii: "RIFF"), head.matches(ascii: "AVI ", at: 8) { return .avi }
        if head.matches([0x49, 0x49, 0x2A, 0x00]) || head.matches([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if RAWSignature(head: head) == .minolta { return .mrw }
        return nil
    }

    /// The type named by an ISO base media file's `ftyp` box: major brand first, then the
    /// compatible brands. `nil` for brands this module does not know.
    static func isoMediaType(head: ArraySlice<UInt8>) -> FileType? {
        guard let size = head.u32(at: 0, .bigEndian), size >= 16, let major = head.fourCC(at: 8) else { return nil }
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= min(Int(size), head.count) {
            if let brand = head.fourCC(at: offset) { compatible.append(brand) }
            offset += 4
        }
        if let type = type(ofBrand: major) {
            // `mif1`/`msf1` say only "some HEIF"; a more specific compatible brand wins.
            if major == "mif1" || major == "msf1" {
                if compatible.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
                if compatible.contains("heic") { return .heic }
            }
            return type
        }
        for brand in compatible {
            if let type = type(ofBrand: brand) { return type }
        }
        return nil
    }

    private static func type(ofBrand brand: String) -> FileType? {
        switch brand {
        case "heic", "heim", "heis", "hevc": .heic
        // ExifTool (the corpus oracle) calls `heix` files, such as Canon's .HIF, HEIF.
        case "heix", "hevx", "mif1", "mif2": .heif
        case "msf1", "hevs": .heicSequence
        case "avif", "avis", "avio": .avif
        case "crx ": .cr3
        case "qt  ": .quickTime
        case "M4V ", "M4VH", "M4VP": .m4v
        case "M4A ", "M4B ", "M4P ": .m4a
        case "3g2a", "3g2b", "3g2c": .threeGPP2
        case "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "avc1",
            "dash", "mmp4", "MSNV", "NDAS", "f4v ", "XAVC", "MP4 ":
            .mpeg4
        default:
            brand.hasPrefix("3gp") || brand.hasPrefix("3ge") || brand.hasPrefix("3gg") || brand.hasPrefix("3gs")
                ? .threeGPP : nil
        }
    }

    /// Whether the TIFF header in `head` leads to an IFD0 with the DNGVersion tag (0xC612).
    private static func tiffHasDNGVersion(_ head: ArraySlice<UInt8>) -> Bool {
        let order: ByteOrder
        if head.matches(ascii: "II") {
            order = .littleEndian
        } else if head.matches(ascii: "MM") {
            order = .bigEndian
        } else {
            return false
        }
        guard let offset = head.u32(at: 4, order).map(Int.init), let count = head.u16(at: offset, order) else {
            return false
        }
        for index in 0..<Int(count) {
            guard let tag = head.u16(at: offset + 2 + 12 * index, order) else { return false }
            if tag == 0xC612 { return true }
        }
        return false
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, newlines and NULs.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isPadding }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isPadding })!
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    fileprivate var isPadding: Bool {
        value == 0 || value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0D
    }
}
