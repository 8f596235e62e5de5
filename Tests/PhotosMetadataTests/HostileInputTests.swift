import Foundation
import PhotosMetadata
import PhotosTestSupport
import Testing

/// Files whose structure lies are rejected with a reason, never described with invented values: directory chains
/// that loop or leave the file, tables whose counts overflow, boxes nested thousands deep, headers without an
/// image, and sizes no camera makes.
@Suite struct HostileInputTests {
    static let extractor = MetadataExtractor()

    /// The error extracting `bytes` (written as `name`) throws, or `nil` when it extracts.
    private func rejection(
        _ bytes: [UInt8], as name: String, extractor: MetadataExtractor = Self.extractor
    ) throws -> MetadataError? {
        let directory = try TemporaryDirectory()
        let path = try directory.write(bytes, to: name)
        do {
            _ = try extractor.extract(path: path)
            return nil
        } catch {
            #expect(error.path == path)
            return error
        }
    }

    // MARK: TIFF

    /// A little-endian TIFF laid out by hand: header, then directories at the given offsets, each a list of
    /// (tag, type, count, value-or-offset) and a next-directory offset. Unused space is zeros.
    static func tiff(size: Int, directories: [(offset: Int, entries: [(UInt16, UInt16, UInt32, UInt32)], next: UInt32)])
        -> [UInt8]
    {
        var bytes = [UInt8](repeating: 0, count: size)
        func put16(_ value: UInt16, at offset: Int) {
            bytes[offset] = UInt8(value & 0xFF)
            bytes[offset + 1] = UInt8(value >> 8)
        }
        func put32(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * UInt32(index)) & 0xFF) }
        }
        bytes[0] = 0x49
        bytes[1] = 0x49
        put16(42, at: 2)
        put32(UInt32(directories[0].offset), at: 4)
        for directory in directories {
            put16(UInt16(directory.entries.count), at: directory.offset)
            for (index, entry) in directory.entries.enumerated() {
                let start = directory.offset + 2 + 12 * index
                put16(entry.0, at: start)
                put16(entry.1, at: start + 2)
                put32(entry.2, at: start + 4)
                put32(entry.3, at: start + 8)
            }
            put32(directory.next, at: directory.offset + 2 + 12 * directory.entries.count)
        }
        return bytes
    }

    /// ImageWidth 16, ImageLength 16 (SHORT), one strip of 64 bytes at offset 200.
    static let image: [(UInt16, UInt16, UInt32, UInt32)] = [
        (0x0100, 3, 1, 16), (0x0101, 3, 1, 16), (0x0111, 4, 1, 200), (0x0117, 4, 1, 64),
    ]

    @Test func wellFormedHandMadeTIFFExtracts() throws {
        let bytes = Self.tiff(size: 300, directories: [(8, Self.image, 0)])
        let directory = try TemporaryDirectory()
        let metadata = try Self.extractor.extract(path: try directory.write(bytes, to: "ok.tif"))
        #expect(metadata.pixelWidth == 16 && metadata.pixelHeight == 16)
    }

    @Test(arguments: ["scan.tif", "camera.dng"])
    func tiffWhoseDirectoryPointsToItselfIsCorrupt(name: String) throws {
        let bytes = Self.tiff(size: 300, directories: [(8, Self.image, 8)])
        let error = try #require(try rejection(bytes, as: name))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("loops"), "\(error)")
    }

    @Test func tiffWhoseSecondDirectoryPointsBackToTheFirstIsCorrupt() throws {
        let bytes = Self.tiff(size: 300, directories: [(8, Self.image, 100), (100, Self.image, 8)])
        let error = try #require(try rejection(bytes, as: "pages.tif"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("links back to offset 8"), "\(error)")
    }

    @Test func rawWhoseSubIFDPointsBackToIFD0IsCorrupt() throws {
        let entries = Self.image + [(0x014A, 4, 1, 8)]
        let bytes = Self.tiff(size: 300, directories: [(8, entries, 0)])
        let error = try #require(try rejection(bytes, as: "camera.nef"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("points back"), "\(error)")
    }

    @Test(arguments: [UInt32(300), 0x7FFF_FFF0, 0xFFFF_FFFF])
    func tiffWhoseNextDirectoryLiesPastTheEndIsCorrupt(offset: UInt32) throws {
        let bytes = Self.tiff(size: 300, directories: [(8, Self.image, offset)])
        let error = try #require(try rejection(bytes, as: "scan.tif"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("outside the TIFF structure"), "\(error)")
    }

    @Test func tiffWhoseFirstDirectoryLiesPastTheEndIsCorrupt() throws {
        var bytes = Self.tiff(size: 300, directories: [(8, Self.image, 0)])
        bytes[4...7] = [0x00, 0x00, 0x00, 0x10]  // 0x10000000
        let error = try #require(try rejection(bytes, as: "scan.tif"))
        #expect(error.code == .corrupt)
    }

    @Test func tiffWhoseStripTableLiesPastTheEndIsCorrupt() throws {
        // Four strips, so the tables are stored out of line, at offsets past the 300-byte file.
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (0x0100, 3, 1, 16), (0x0101, 3, 1, 16), (0x0111, 4, 4, 0xFFFF_FF00), (0x0117, 4, 4, 0x1000),
        ]
        let error = try #require(try rejection(Self.tiff(size: 300, directories: [(8, entries, 0)]), as: "scan.tif"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("strip tables"), "\(error)")
    }

    @Test(arguments: [UInt32.max, 0x4000_0000, 0x2000_0001])
    func tiffWhoseStripCountOverflowsIsCorrupt(count: UInt32) throws {
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (0x0100, 3, 1, 16), (0x0101, 3, 1, 16), (0x0111, 4, count, 100), (0x0117, 4, count, 100),
        ]
        let error = try #require(try rejection(Self.tiff(size: 300, directories: [(8, entries, 0)]), as: "scan.tif"))
        #expect(error.code == .corrupt)
    }

    @Test func tiffWithoutImageDataIsCorrupt() throws {
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [(0x0100, 3, 1, 16), (0x0101, 3, 1, 16)]
        let error = try #require(try rejection(Self.tiff(size: 300, directories: [(8, entries, 0)]), as: "scan.tif"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("no TIFF directory points to image data"), "\(error)")
    }

    @Test func tiffWithoutASizeIsCorrupt() throws {
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [(0x0111, 4, 1, 200), (0x0117, 4, 1, 64)]
        let error = try #require(try rejection(Self.tiff(size: 300, directories: [(8, entries, 0)]), as: "scan.tif"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("size"), "\(error)")
    }

    @Test(arguments: [(UInt32.max, UInt32(1)), (16_777_216, 16_777_216), (40_000, 30_000), (1_000_001, 1)])
    func tiffDeclaringAnAbsurdSizeIsTooLarge(width: UInt32, height: UInt32) throws {
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (0x0100, 4, 1, width), (0x0101, 4, 1, height), (0x0111, 4, 1, 200), (0x0117, 4, 1, 64),
        ]
        let error = try #require(try rejection(Self.tiff(size: 300, directories: [(8, entries, 0)]), as: "scan.tif"))
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("\(width)×\(height)"), "\(error)")
    }

    // MARK: Declared sizes

    @Test(arguments: [(UInt32(60_000), UInt32(60_000)), (16_777_216, 16_777_216), (0x7FFF_FFFF, 1), (31_623, 31_623)])
    func pngDeclaringMoreThanAGigapixelIsTooLarge(width: UInt32, height: UInt32) throws {
        let error = try #require(try rejection(PNGBuilder.png(width: width, height: height), as: "huge.png"))
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("limit"), "\(error)")
    }

    @Test func sizesUpToTheLimitAreKept() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(PNGBuilder.png(width: 31_622, height: 31_622), to: "big.png")
        let metadata = try Self.extractor.extract(path: path)
        #expect(metadata.pixelWidth == 31_622)  // 999 950 884 pixels
    }

    @Test func theLimitIsAnOptionOfTheExtractor() throws {
        let strict = MetadataExtractor(limits: .init(maximumPixelCount: 100, maximumDimension: 20))
        #expect(try rejection(PNGBuilder.png(width: 10, height: 10), as: "a.png", extractor: strict) == nil)
        #expect(try rejection(PNGBuilder.png(width: 11, height: 10), as: "a.png", extractor: strict)?.code == .tooLarge)
        #expect(try rejection(PNGBuilder.png(width: 21, height: 1), as: "a.png", extractor: strict)?.code == .tooLarge)
        #expect(MetadataExtractor().limits == .init(maximumPixelCount: 1_000_000_000, maximumDimension: 1_000_000))
    }

    @Test func jpegAndGIFDeclaringTheLargestSizeTheirFieldsHoldAreTooLarge() throws {
        let jpeg = try #require(try rejection(JPEGBuilder.jpeg(width: 65_535, height: 65_535), as: "huge.jpg"))
        #expect(jpeg.code == .tooLarge)
        var gif = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00]
        gif += [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let gifError = try #require(try rejection(gif, as: "huge.gif"))
        #expect(gifError.code == .tooLarge, "\(gifError)")
    }

    // MARK: ISO base media

    /// `ftyp` then `moov` boxes nested `depth` deep, each exactly enclosing the next.
    static func nestedMovie(depth: Int, type: String = "moov") -> [UInt8] {
        var bytes = MovieBuilder.box("ftyp", Array("isom".utf8) + MovieBuilder.zeros(4) + Array("isom".utf8))
        bytes.reserveCapacity(bytes.count + 8 * depth)
        for level in 0..<depth {
            bytes += MovieBuilder.be32(UInt32(8 * (depth - level))) + Array(type.utf8)
        }
        return bytes
    }

    @Test(arguments: [10, 5_000, 100_000])
    func movieOfNestedBoxesIsCorrupt(depth: Int) throws {
        let error = try #require(try rejection(Self.nestedMovie(depth: depth), as: "nested.mp4"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("movie header"), "\(error)")
    }

    @Test func movieOfNestedTrackBoxesIsCorrupt() throws {
        let inner = Array(Self.nestedMovie(depth: 3_000, type: "trak").dropFirst(20))
        let bytes =
            MovieBuilder.box("ftyp", Array("isom".utf8) + MovieBuilder.zeros(4) + Array("isom".utf8))
            + MovieBuilder.box("moov", inner)
        let error = try #require(try rejection(bytes, as: "nested.mp4"))
        #expect(error.code == .corrupt)
    }

    @Test(arguments: [1 << 32, (1 << 32) + 8, UInt64(Int64.max)] as [UInt64])
    func boxLargerThanTheFileIsTruncated(size: UInt64) throws {
        var bytes = MovieBuilder.movie(samples: [(30, 20)])
        bytes += MovieBuilder.be32(1) + Array("mdat".utf8)
        bytes += MovieBuilder.be32(UInt32(size >> 32)) + MovieBuilder.be32(UInt32(size & 0xFFFF_FFFF))
        // Some media data: a file that stops right after the `mdat` header is a metadata stub
        // (StrippedImageDataTests).
        bytes += MovieBuilder.zeros(64)
        let error = try #require(try rejection(bytes, as: "big.mp4"))
        #expect(error.code == .truncated)
        #expect(error.message.contains("runs past the end"), "\(error)")
    }

    @Test func heifWithoutAnImageSizeIsCorrupt() throws {
        let ftyp = MovieBuilder.box("ftyp", Array("heic".utf8) + MovieBuilder.zeros(4) + Array("mif1heic".utf8))
        let meta = MovieBuilder.box(
            "meta",
            MovieBuilder.zeros(4)
                + MovieBuilder.box("hdlr", MovieBuilder.zeros(8) + Array("pict".utf8) + MovieBuilder.zeros(13)))
        let error = try #require(
            try rejection(ftyp + meta + MovieBuilder.box("mdat", MovieBuilder.zeros(64)), as: "a.heic"))
        #expect(error.code == .corrupt)
        #expect(error.message.contains("size"), "\(error)")
    }

    /// An `iloc` whose offset and length fields are zero bytes wide: each item declares 65 535 extents that cost
    /// no data, so 60 KB of items once meant 655 million steps. The walk now stops after 10 000 extents; the image
    /// keeps its size, without the EXIF item that cannot be located.
    @Test func heifWhoseItemLocationsDeclareMillionsOfEmptyExtentsIsDescribedQuickly() throws {
        let ftyp = MovieBuilder.box("ftyp", Array("heic".utf8) + MovieBuilder.zeros(4) + Array("mif1heic".utf8))
        let exifEntry = MovieBuilder.box(
            "infe", [2, 0, 0, 0] + [0, 1] + [0, 0] + Array("Exif".utf8) + [0])
        let iinf = MovieBuilder.box("iinf", MovieBuilder.zeros(4) + [0, 1] + exifEntry)
        var locations: [UInt8] = [0, 0, 0, 0, 0x00, 0x00] + [0x27, 0x10]  // version 0, all sizes 0, 10 000 items
        for item in 0..<10_000 {
            locations += [UInt8((item + 2) >> 8 & 0xFF), UInt8((item + 2) & 0xFF), 0, 0, 0xFF, 0xFF]
        }
        let iloc = MovieBuilder.box("iloc", locations)
        let ispe = MovieBuilder.box("ispe", MovieBuilder.zeros(4) + MovieBuilder.be32(640) + MovieBuilder.be32(480))
        let iprp = MovieBuilder.box("iprp", MovieBuilder.box("ipco", ispe))
        let meta = MovieBuilder.box("meta", MovieBuilder.zeros(4) + iinf + iloc + iprp)
        let directory = try TemporaryDirectory()
        let path = try directory.write(ftyp + meta + MovieBuilder.box("mdat", MovieBuilder.zeros(16)), to: "tiles.heic")

        let metadata = try Self.extractor.extract(path: path)

        #expect(metadata.mimeType == "image/heic")
        #expect(metadata.pixelWidth == 640 && metadata.pixelHeight == 480)
    }

    /// A HEIF whose coded picture is 640x480, with a clean aperture (`clap`: width and height as
    /// fractions) and a rotation (`irot`), its item listing them in `order` (2: `clap`, 3: `irot`).
    static func heif(aperture: (UInt32, UInt32, UInt32, UInt32), quarterTurns: UInt8, order: [UInt8]) -> [UInt8] {
        let ftyp = MovieBuilder.box("ftyp", Array("heic".utf8) + MovieBuilder.zeros(4) + Array("mif1heic".utf8))
        let pitm = MovieBuilder.box("pitm", MovieBuilder.zeros(4) + [0, 1])
        let ispe = MovieBuilder.box("ispe", MovieBuilder.zeros(4) + MovieBuilder.be32(640) + MovieBuilder.be32(480))
        let clap = MovieBuilder.box(
            "clap",
            MovieBuilder.be32(aperture.0) + MovieBuilder.be32(aperture.1) + MovieBuilder.be32(aperture.2)
                + MovieBuilder.be32(aperture.3) + MovieBuilder.zeros(16))
        let irot = MovieBuilder.box("irot", [quarterTurns])
        // Properties 1 (ispe), 2 (clap) and 3 (irot); item 1 lists ispe, then `order`.
        let ipma = MovieBuilder.box("ipma", MovieBuilder.zeros(4) + MovieBuilder.be32(1) + [0, 1, 3, 1] + order)
        let iprp = MovieBuilder.box("iprp", MovieBuilder.box("ipco", ispe + clap + irot) + ipma)
        let meta = MovieBuilder.box("meta", MovieBuilder.zeros(4) + pitm + iprp)
        return ftyp + meta + MovieBuilder.box("mdat", MovieBuilder.zeros(16))
    }

    /// A HEIF whose coded image is cropped by a clean aperture (`clap`) and turned by `irot`: its
    /// size as displayed is the crop's, turned; a nonsense aperture is ignored.
    @Test(
        arguments: [
            ((600, 1, 400, 1), UInt8(1), (400, 600)),
            ((1201, 2, 801, 2), 0, (601, 401)),
            ((600, 1, 400, 1), 0, (600, 400)),
            ((0, 1, 400, 1), 0, (640, 480)),
            ((900, 1, 400, 1), 0, (640, 480)),
            ((600, 0, 400, 1), 0, (640, 480)),
        ] as [((UInt32, UInt32, UInt32, UInt32), UInt8, (Int, Int))])
    func heifCleanApertureCropsTheDisplayedSize(
        aperture: (UInt32, UInt32, UInt32, UInt32), quarterTurns: UInt8, expected: (Int, Int)
    ) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            Self.heif(aperture: aperture, quarterTurns: quarterTurns, order: [2, 3]), to: "crop.heic")

        let metadata = try Self.extractor.extract(path: path)

        #expect(metadata.pixelWidth == expected.0 && metadata.pixelHeight == expected.1)
    }

    /// Readers apply a HEIF item's transforms in the order its `ipma` entry lists them: a `clap`
    /// listed after `irot` crops the turned picture (its width is the displayed width), one listed
    /// before crops the coded picture, which `irot` then turns. The coded picture is 640x480.
    @Test(
        arguments: [
            // irot then clap: the aperture is measured on the turned 480x640 picture.
            ([3, 2], UInt8(1), (400, 600), (400, 600)),
            ([3, 2], 3, (300, 200), (300, 200)),
            ([3, 2], 2, (600, 400), (600, 400)),
            // clap then irot: the aperture is measured on the coded picture, then turned.
            ([2, 3], 1, (600, 400), (400, 600)),
            ([2, 3], 3, (300, 200), (200, 300)),
            // An aperture wider than the picture it crops is ignored.
            ([3, 2], 1, (600, 400), (480, 640)),
            ([2, 3], 1, (400, 600), (480, 640)),
        ] as [([UInt8], UInt8, (UInt32, UInt32), (Int, Int))])
    func heifTransformsApplyInListedOrder(
        order: [UInt8], quarterTurns: UInt8, aperture: (UInt32, UInt32), expected: (Int, Int)
    ) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            Self.heif(aperture: (aperture.0, 1, aperture.1, 1), quarterTurns: quarterTurns, order: order),
            to: "order.heic")

        let metadata = try Self.extractor.extract(path: path)

        #expect(metadata.pixelWidth == expected.0 && metadata.pixelHeight == expected.1)
    }

    /// A low-overhead HEIF or AVIF (brand `mif3`) states its size and orientation in the bits of one `mini` box;
    /// orientations 5 to 8 turn it a quarter. The first row's bytes are those of libheif's `lightning_mini.heif`
    /// (256×256, sides in 15 bits); the second's of its `avif32-mini.heif` (32×32, sides in 7 bits).
    @Test(
        arguments: [
            ([0x08, 0x08, 0x80, 0xFF, 0x01, 0xFE], "heic", (256, 256), 1),
            ([0x08, 0x08, 0x1F, 0x3E, 0x08, 0x01], "avif", (32, 32), 1),
            // 640×480 (sides in 15 bits) at orientations 6 and 3.
            (Self.minimizedFields(orientation: 6, width: 640, height: 480), "avif", (480, 640), 6),
            (Self.minimizedFields(orientation: 3, width: 640, height: 480), "heic", (640, 480), 3),
            (Self.minimizedFields(orientation: 5, width: 640, height: 480), "heic", (480, 640), 5),
        ] as [([UInt8], String, (Int, Int), Int)])
    func minimizedHEIFStatesItsSizeInBits(
        fields: [UInt8], brand: String, expected: (Int, Int), orientation: Int
    ) throws {
        // As libheif writes it: brand mif3, the minor version naming the codec's brand, no compatible brands.
        let ftyp = MovieBuilder.box("ftyp", Array("mif3".utf8) + Array(brand.utf8))
        let mini = MovieBuilder.box("mini", fields + MovieBuilder.zeros(10))
        let directory = try TemporaryDirectory()
        let path = try directory.write(ftyp + mini, to: "mini.\(brand)")

        let metadata = try Self.extractor.extract(path: path)

        #expect(metadata.pixelWidth == expected.0 && metadata.pixelHeight == expected.1)
        #expect(metadata.orientation == orientation)
    }

    /// The first six bytes of a version 0 `mini` box with no flags set, 4:2:0 chroma and 15-bit sides.
    static func minimizedFields(orientation: Int, width: Int, height: Int) -> [UInt8] {
        var bits = UInt64(1) << 35  // chroma subsampling 1 (4:2:0) at bits 11-12 of 48
        bits |= UInt64(orientation - 1) << 32 | UInt64(1) << 31
        bits |= UInt64(width - 1) << 16 | UInt64(height - 1) << 1
        return (0..<6).map { UInt8(truncatingIfNeeded: bits >> UInt64(40 - 8 * $0)) }
    }

    @Test func wellFormedMovieStillExtracts() throws {
        #expect(try rejection(MovieBuilder.movie(samples: [(30, 20)]), as: "ok.mov") == nil)
    }
}
