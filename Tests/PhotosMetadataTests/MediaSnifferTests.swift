import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMetadata

@Suite struct MediaSnifferTests {
    static let sniffer = try! MediaSniffer()

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),  // the corpus lives outside the repository
        arguments: Corpus.files
    )
    func corpusFileSniffsAsTheOracleType(record: Corpus.Record) {
        let result = Self.sniffer.sniff(path: record.url.path)

        // ExifTool's MIME type where it has one (it names RAW formats and HEIF brands better than
        // libmagic); libmagic's for files ExifTool does not know (empty, .DS_Store).
        #expect(result.mimeType == record.mime ?? record.libmagicMIME)
        let expectedKind: MediaKind =
            switch record.kind {
            case "image": .image
            case "video": .video
            case "bad": record.mime?.hasPrefix("image/") == true ? .image : .other
            default: .other
            }
        #expect(result.kind == expectedKind)
        if result.kind == .image || result.kind == .video {
            #expect(result.uniformTypeIdentifier != nil)
        }
    }

    /// A name claims media by an extension of a type the sniffer knows, in any case; then an
    /// unreadable file is a rejection, where `notes.txt` or a bare name is only not media.
    @Test(arguments: [
        ("IMG_0001.JPG", true), ("clip.mts", true), ("DSC_0001.NEF", true), ("voice.m4a", true), ("scan.jfif", true),
        ("IMG_0001.AAE", false), ("notes.txt", false), ("README", false), ("archive.jpg.zip", false), (".jpg", true),
    ])
    func aNameClaimsMediaByAKnownExtension(name: String, claims: Bool) {
        #expect(MediaSniffer.nameClaimsMedia(name) == claims, "\(name)")
    }

    /// A file its signature settles without libmagic gets the type libmagic's answer would give it.
    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),  // the corpus lives outside the repository
        arguments: Corpus.files
    )
    func aTypeSettledBySignatureIsTheTypeLibmagicGives(record: Corpus.Record) throws {
        let reader = try FileReader(path: record.url.path)
        let head = reader.head[...]
        let fileExtension = MediaSniffer.fileExtension(of: record.url.path)
        guard let settled = TypeClassifier.settledBySignature(head: head, fileExtension: fileExtension) else { return }
        let byMagic = TypeClassifier.classify(
            magicMIMEType: Self.sniffer.magicMIMEType(head), head: head, fileExtension: fileExtension)
        #expect(settled == byMagic, "\(record.path)")
    }

    @Test func theSignaturesSettleTheirTypesAndLeaveTheRestToLibmagic() {
        func settled(_ head: [UInt8], _ fileExtension: String = "") -> FileType? {
            TypeClassifier.settledBySignature(head: head[...], fileExtension: fileExtension)
        }
        #expect(settled([0xFF, 0xD8, 0xFF, 0xE1, 0, 0]) == .jpeg)
        #expect(settled([0x89] + Array("PNG\r\n".utf8) + [0x1A, 0x0A, 0]) == .png)
        #expect(settled(Array("GIF89a".utf8)) == .gif)
        #expect(settled(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(settled(Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8)) == .avi)
        // A TIFF header is a TIFF, or the RAW family its extension names.
        #expect(settled([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "tif") == .tiff)
        #expect(settled([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], "NEF") == .nef)
        #expect(settled([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 2, 0], "tif") == .cr2)
        // Matroska and WebM differ past their signature, where libmagic reads the document type.
        #expect(settled([0x1A, 0x45, 0xDF, 0xA3, 0x01, 0, 0, 0]) == nil)
        #expect(settled(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(settled([]) == nil)
    }

    /// libmagic answers what ``TypeClassifier/magicMIMEType(bySignature:)`` says it does for every
    /// head that starts with one of its signatures, whatever follows: 150 heads a signature, of
    /// seeded random bytes of several lengths after it.
    @Test func libmagicAnswersWhatEachSignatureIsTakenToSay() {
        var random = SplitMix64(seed: 35)
        let signatures: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00, 0x10, 0x00, 0x00, 0x00, 0x43, 0x52], [0x49, 0x49, 0x2A, 0x00],
            [0x4D, 0x4D, 0x00, 0x2A], Array("RIFF".utf8) + [1, 2, 3, 4] + Array("AVI ".utf8),
            Array("FUJIFILMCCD-RAW ".utf8), [0x49, 0x49, 0x1A, 0x00, 0x00, 0x00] + Array("HEAPCCDR".utf8),
            [0xFF, 0x0A],
        ]
        for signature in signatures {
            for index in 0..<150 {
                let length = [0, 4, 12, 60, 500, 4_000][index % 6]
                let head = signature + (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                let taken = TypeClassifier.magicMIMEType(bySignature: head[...])
                #expect(taken != nil)
                #expect(taken == Self.sniffer.magicMIMEType(head[...]), "\(head.prefix(16))")
            }
        }
    }

    /// Sniffing reads only the first 64 KiB; libmagic must still say what `file --mime-type` says
    /// about the whole file.
    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),  // the corpus lives outside the repository
        arguments: Corpus.files
    )
    func libmagicOnTheFileHeadAgreesWithTheFileCommand(record: Corpus.Record) throws {
        let reader = try FileReader(path: record.url.path)
        #expect(Self.sniffer.magicMIMEType(reader.head[...]) == record.libmagicMIME)
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),  // the corpus lives outside the repository
        arguments: [
            ("Camera/RAW/DSC_0070.NEF", "com.nikon.raw-image"),
            ("Camera/RAW/IMG_0350.CR2", "com.canon.cr2-raw-image"),
            ("Camera/RAW/canon_eos_6d.dng", "com.adobe.raw-image"),
            ("Phone/DCIM/100APPLE/IMG_0815.HEIC", "public.heic"),
            ("Downloads/fox.avif", "public.avif"),
            ("Downloads/gif.gif", "com.compuserve.gif"),
            ("Downloads/webp.webp", "org.webmproject.webp"),
            ("Scans/example.tif", "public.tiff"),
            ("Phone/DCIM/100APPLE/IMG_0420.MOV", "com.apple.quicktime-movie"),
            ("Videos/misc/mp4.mp4", "public.mpeg-4"),
            ("Phone/old phone/sample.3gp", "public.3gpp"),
        ])
    func corpusFileHasItsUniformTypeIdentifier(path: String, identifier: String) {
        #expect(
            Self.sniffer.sniff(path: Corpus.directory.appendingPathComponent(path).path).uniformTypeIdentifier
                == identifier)
    }

    static let tiffHeader: [UInt8] = [
        0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]
    static let dngHeader: [UInt8] = [
        0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x12, 0xC6, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00,
        0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    static func ftyp(_ major: String, _ compatible: [String] = []) -> [UInt8] {
        let size = UInt8(16 + 4 * compatible.count)
        return [0, 0, 0, size] + Array("ftyp\(major)".utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
    }

    /// The rule table: content first, the extension only where libmagic is vague.
    @Test(arguments: [
        ("image/tiff", tiffHeader, "NEF", "image/x-nikon-nef"),
        ("image/tiff", tiffHeader, "cr2", "image/x-canon-cr2"),
        ("image/tiff", tiffHeader, "tif", "image/tiff"),
        ("image/tiff", tiffHeader, "jpg", "image/tiff"),
        ("image/tiff", dngHeader, "", "image/x-adobe-dng"),
        ("application/octet-stream", [0x01, 0x02] as [UInt8], "HEIC", "image/heic"),
        ("application/octet-stream", [0x01, 0x02], "", "application/octet-stream"),
        ("image/png", [0x89, 0x50], "jpg", "image/png"),
        ("video/mp4", ftyp("qt  "), "mp4", "video/quicktime"),
        ("video/quicktime", ftyp("isom", ["mp42"]), "mov", "video/mp4"),
        ("image/heic", ftyp("heix", ["mif1", "heix"]), "HIF", "image/heif"),
        ("image/heif", ftyp("mif1", ["avif"]), "avif", "image/avif"),
        ("video/3gpp", ftyp("3gp5", ["3gp4"]), "3gp", "video/3gpp"),
        ("video/mp4", ftyp("M4A ", ["isom"]), "m4a", "audio/mp4"),
        ("image/x-ms-bmp", Array("BM".utf8), "bmp", "image/bmp"),
        ("image/x-fuji-raf", Array("FUJIFILM".utf8), "raf", "image/x-fujifilm-raf"),
        ("text/xml", Array("<?xml".utf8), "AAE", "application/vnd.apple.photos"),
        ("text/plain", Array("hello".utf8), "jpg", "text/plain"),
        ("text/plain", [0xFF, 0xD8, 0xFF], "", "image/jpeg"),
        ("application/octet-stream", [0x4D, 0x4D, 0x00, 0x2A], "nef", "image/x-nikon-nef"),
        ("inode/x-empty", [], "jpg", "inode/x-empty"),
        // RAW families read through LibRaw: MRW by its signature whatever its name, X3F by libmagic's name, the
        // TIFF-based ones (IIQ, 3FR) and RW2 by extension, and a TIFF named .iiq only when it starts as a TIFF.
        ("application/octet-stream", [0x00, 0x4D, 0x52, 0x4D, 0x00], "", "image/x-minolta-mrw"),
        ("application/octet-stream", [0x00, 0x4D, 0x52, 0x4D, 0x00], "jpg", "image/x-minolta-mrw"),
        ("image/x-x3f", Array("FOVb".utf8), "x3f", "image/x-sigma-x3f"),
        ("image/tiff", tiffHeader, "IIQ", "image/x-phaseone-iiq"),
        ("image/tiff", tiffHeader, "3fr", "image/x-hasselblad-3fr"),
        ("application/octet-stream", [0x49, 0x49, 0x55, 0x00], "RW2", "image/x-panasonic-rw2"),
        ("image/jpeg", [0xFF, 0xD8, 0xFF], "iiq", "image/jpeg"),
    ])
    func typeIsDecidedByContentAndByExtensionOnlyWhereContentIsVague(
        magic: String, head: [UInt8], fileExtension: String, expected: String
    ) {
        #expect(
            TypeClassifier.classify(magicMIMEType: magic, head: head[...], fileExtension: fileExtension).mimeType
                == expected)
    }

    @Test(arguments: [
        ("/a/b/IMG_0001.HEIC", "HEIC"), ("/a/b/.DS_Store", ""), ("photo", ""), ("/a.b/c", ""), ("x.tar.gz", "gz"),
    ])
    func extensionIsTakenFromTheLastPathComponent(path: String, expected: String) {
        #expect(MediaSniffer.fileExtension(of: path) == expected)
    }

    @Test func unreadableFileSniffsAsUnknownData() {
        let result = Self.sniffer.sniff(path: "/nonexistent/photo.jpg")
        #expect(result == SniffResult(mimeType: "application/octet-stream", kind: .other, uniformTypeIdentifier: nil))
    }
}
