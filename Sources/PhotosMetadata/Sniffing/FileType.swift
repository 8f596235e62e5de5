/// One known file type: its MIME type, uniform type identifier, kind, and the parser that reads
/// its headers.
struct FileType: Sendable, Hashable {
    /// Which header parser understands the type.
    enum Container: Sendable, Hashable {
        case jpeg, png, gif, webp, bmp, tiff, isoMedia, avi, matroska, crw, raf, jpegXL, psd, none
        /// A camera RAW family no parser here reads: LibRaw reads its headers (``LibRawReader``).
        case libRaw
    }

    let mimeType: String
    let uniformTypeIdentifier: String?
    let kind: MediaKind
    let container: Container
    /// Lower-case file extensions, Apple's preferred one first (`UTType.preferredFilenameExtension`);
    /// sniffing uses them only to break ties where the content is ambiguous.
    let extensions: [String]

    var sniffResult: SniffResult {
        SniffResult(mimeType: mimeType, kind: kind, uniformTypeIdentifier: uniformTypeIdentifier)
    }

    /// Whether the type is a camera RAW built on TIFF (DNG, NEF, CR2, ...).
    var isTIFFBasedRAW: Bool { container == .tiff && mimeType != "image/tiff" }
}

extension FileType {
    static let jpeg = image("image/jpeg", "public.jpeg", .jpeg, ["jpeg", "jpg", "jpe", "jfif"])
    static let png = image("image/png", "public.png", .png, ["png"])
    static let gif = image("image/gif", "com.compuserve.gif", .gif, ["gif"])
    static let webp = image("image/webp", "org.webmproject.webp", .webp, ["webp"])
    static let bmp = image("image/bmp", "com.microsoft.bmp", .bmp, ["bmp", "dib"])
    static let tiff = image("image/tiff", "public.tiff", .tiff, ["tiff", "tif"])
    static let heic = image("image/heic", "public.heic", .isoMedia, ["heic"])
    static let heif = image("image/heif", "public.heif", .isoMedia, ["heif", "hif"])
    static let heicSequence = image("image/heic-sequence", "public.heics", .isoMedia, ["heics"])
    static let avif = image("image/avif", "public.avif", .isoMedia, ["avif"])
    static let jpegXL = image("image/jxl", "public.jpeg-xl", .jpegXL, ["jxl"])
    static let photoshop = image("image/vnd.adobe.photoshop", "com.adobe.photoshop-image", .psd, ["psd", "psb"])
    static let dng = image("image/x-adobe-dng", "com.adobe.raw-image", .tiff, ["dng"])
    static let nef = image("image/x-nikon-nef", "com.nikon.raw-image", .tiff, ["nef"])
    static let nrw = image("image/x-nikon-nrw", "com.nikon.nrw-raw-image", .tiff, ["nrw"])
    static let cr2 = image("image/x-canon-cr2", "com.canon.cr2-raw-image", .tiff, ["cr2"])
    static let cr3 = image("image/x-canon-cr3", "com.canon.cr3-raw-image", .isoMedia, ["cr3"])
    static let crw = image("image/x-canon-crw", "com.canon.crw-raw-image", .crw, ["crw"])
    static let raf = image("image/x-fujifilm-raf", "com.fuji.raw-image", .raf, ["raf"])
    static let arw = image("image/x-sony-arw", "com.sony.arw-raw-image", .tiff, ["arw"])
    static let orf = image("image/x-olympus-orf", "com.olympus.raw-image", .tiff, ["orf"])
    // TIFF-like, but its size is in Panasonic's own tags (sensor borders) and its EXIF in the embedded JPEG.
    static let rw2 = image("image/x-panasonic-rw2", "com.panasonic.rw2-raw-image", .libRaw, ["rw2"])
    static let pef = image("image/x-pentax-pef", "com.pentax.raw-image", .tiff, ["pef"])
    static let srw = image("image/x-samsung-srw", "com.samsung.raw-image", .tiff, ["srw"])
    // RAW families read through LibRaw: one library instead of a parser per maker.
    static let mrw = image("image/x-minolta-mrw", "com.konicaminolta.raw-image", .libRaw, ["mrw"])
    static let x3f = image("image/x-sigma-x3f", "com.sigma.raw-image", .libRaw, ["x3f"])
    static let iiq = image("image/x-phaseone-iiq", "com.phaseone.raw-image", .libRaw, ["iiq"])
    static let threeFR = image("image/x-hasselblad-3fr", "com.hasselblad.3fr-raw-image", .libRaw, ["3fr"])
    static let fff = image("image/x-hasselblad-fff", "com.hasselblad.fff-raw-image", .libRaw, ["fff"])
    static let erf = image("image/x-epson-erf", "com.epson.raw-image", .libRaw, ["erf"])
    static let mos = image("image/x-leaf-mos", "com.leafamerica.raw-image", .libRaw, ["mos"])
    static let mef = image("image/x-mamiya-mef", "com.mamiya.raw-image", .libRaw, ["mef"])
    static let kdc = image("image/x-kodak-kdc", "com.kodak.raw-image", .libRaw, ["kdc"])
    static let dcr = image("image/x-kodak-dcr", "com.kodak.raw-image", .libRaw, ["dcr"])
    static let srf = image("image/x-sony-srf", "com.sony.raw-image", .libRaw, ["srf"])
    static let sr2 = image("image/x-sony-sr2", "com.sony.sr2-raw-image", .libRaw, ["sr2"])
    static let rwl = image("image/x-leica-rwl", "com.leica.rwl-raw-image", .libRaw, ["rwl"])

    static let quickTime = video("video/quicktime", "com.apple.quicktime-movie", .isoMedia, ["mov", "qt"])
    static let mpeg4 = video("video/mp4", "public.mpeg-4", .isoMedia, ["mp4"])
    static let m4v = video("video/x-m4v", "com.apple.m4v-video", .isoMedia, ["m4v"])
    static let threeGPP = video("video/3gpp", "public.3gpp", .isoMedia, ["3gp"])
    static let threeGPP2 = video("video/3gpp2", "public.3gpp2", .isoMedia, ["3g2"])
    static let avi = video("video/x-msvideo", "public.avi", .avi, ["avi"])
    static let webm = video("video/webm", "org.webmproject.webm", .matroska, ["webm"])
    static let matroska = video("video/x-matroska", "org.matroska.mkv", .matroska, ["mkv"])
    static let mpeg = video("video/mpeg", "public.mpeg", .none, ["mpg", "mpeg"])
    static let mpegTS = video("video/mp2t", "public.mpeg-2-transport-stream", .none, ["mts", "m2ts"])

    static let m4a = FileType(
        mimeType: "audio/mp4", uniformTypeIdentifier: "com.apple.m4a-audio", kind: .audio,
        container: .isoMedia, extensions: ["m4a"]
    )

    /// Every type the module names, in lookup order.
    static let known: [FileType] = [
        .jpeg, .png, .gif, .webp, .bmp, .tiff, .heic, .heif, .heicSequence, .avif, .jpegXL, .photoshop,
        .dng, .nef, .nrw, .cr2, .cr3, .crw, .raf, .arw, .orf, .rw2, .pef, .srw,
        .mrw, .x3f, .iiq, .threeFR, .fff, .erf, .mos, .mef, .kdc, .dcr, .srf, .sr2, .rwl,
        .quickTime, .mpeg4, .m4v, .threeGPP, .threeGPP2, .avi, .webm, .matroska, .mpeg, .mpegTS, .m4a,
    ]

    /// Types that are not media but have a well-known identifier.
    static let documents: [String: String] = [
        "application/pdf": "com.adobe.pdf",
        "text/plain": "public.plain-text",
        "text/xml": "public.xml",
        "application/xml": "public.xml",
        "text/html": "public.html",
        "application/json": "public.json",
        "application/zip": "public.zip-archive",
        "application/vnd.apple.photos": "com.apple.photos.apple-adjustment-envelope",
        "image/svg+xml": "public.svg-image",
        "image/x-icon": "com.microsoft.ico",
        "image/vnd.microsoft.icon": "com.microsoft.ico",
        "image/vnd.adobe.photoshop": "com.adobe.photoshop-image",
        "audio/mpeg": "public.mp3",
        "audio/x-wav": "com.microsoft.waveform-audio",
        "audio/wav": "com.microsoft.waveform-audio",
        "audio/flac": "org.xiph.flac",
        "audio/x-flac": "org.xiph.flac",
        "audio/aac": "public.aac-audio",
        "audio/x-aiff": "public.aiff-audio",
    ]

    /// Image types a photo library does not treat as photos (icons, vector drawings).
    private static let notPhotos: Set<String> = ["image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon"]

    /// libmagic spellings that mean the same as one of ours.
    private static let aliases: [String: String] = [
        "image/x-ms-bmp": "image/bmp",
        "image/x-fuji-raf": "image/x-fujifilm-raf",
        "image/x-x3f": "image/x-sigma-x3f",
        "image/x-canon-cr3": "image/x-canon-cr3",
        "image/heif-sequence": "image/heic-sequence",
        "audio/x-m4a": "audio/mp4",
        "video/x-mp4": "video/mp4",
    ]

    /// The type with this MIME type (after alias normalisation), if the module knows it.
    static func withMIMEType(_ mimeType: String) -> FileType? {
        let normalized = aliases[mimeType] ?? mimeType
        return known.first { $0.mimeType == normalized }
    }

    /// The media type whose extension is `fileExtension` (lower-cased), if any.
    static func withExtension(_ fileExtension: String) -> FileType? {
        let lowered = fileExtension.lowercased()
        guard !lowered.isEmpty else { return nil }
        return known.first { $0.extensions.contains(lowered) }
    }

    /// A type for a MIME type the module has no parser for: kind from the top-level type.
    static func generic(_ mimeType: String) -> FileType {
        let normalized = aliases[mimeType] ?? mimeType
        let kind: MediaKind
        if normalized.hasPrefix("image/"), !notPhotos.contains(normalized) {
            kind = .image
        } else if normalized.hasPrefix("video/") {
            kind = .video
        } else if normalized.hasPrefix("audio/") {
            kind = .audio
        } else {
            kind = .other
        }
        return FileType(
            mimeType: normalized, uniformTypeIdentifier: documents[normalized], kind: kind,
            container: .none, extensions: []
        )
    }

    private static func image(_ mime: String, _ uti: String, _ container: Container, _ extensions: [String]) -> FileType
    {
        FileType(mimeType: mime, uniformTypeIdentifier: uti, kind: .image, container: container, extensions: extensions)
    }

    private static func video(_ mime: String, _ uti: String, _ container: Container, _ extensions: [String]) -> FileType
    {
        FileType(mimeType: mime, uniformTypeIdentifier: uti, kind: .video, container: container, extensions: extensions)
    }
}
