import Foundation
import PhotosMetadata
import Testing

/// Extraction from small files built in the test, each aimed at one rule.
@Suite struct MetadataExtractorTests {
    typealias Entries = [UInt16: TIFFBuilder.Value]

    static let utc = TimeZone(identifier: "UTC")!

    /// EXIF with every field the library keeps, in the given directories.
    static func exif(
        ifd0: Entries = [:], exif: Entries = [:], gps: Entries = [:], bigEndian: Bool = true, exifPadding: Int = 0
    ) -> [UInt8] {
        var root = ifd0
        if !exif.isEmpty { root[0x8769] = .directory(exif, padding: exifPadding) }
        if !gps.isEmpty { root[0x8825] = .directory(gps, padding: 0) }
        return TIFFBuilder(bigEndian: bigEndian).build(root)
    }

    static let southWestBelowSeaLevel: Entries = [
        0x0001: .ascii("S"), 0x0002: .rationals([(33, 1), (51, 1), (5400, 100)]),
        0x0003: .ascii("W"), 0x0004: .rationals([(70, 1), (30, 1), (0, 1)]),
        0x0005: .byte(1), 0x0006: .rationals([(1250, 100)]),
    ]

    @Test func jpegExifGivesDateWithOffsetAndSubsecondsLocationAndCamera() throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(
            ifd0: [0x010F: .ascii("Maker  "), 0x0110: .ascii("Model X"), 0x0112: .short(1)],
            exif: [0x9003: .ascii("2020:02:29 23:59:59"), 0x9011: .ascii("-03:30"), 0x9291: .ascii("25")],
            gps: Self.southWestBelowSeaLevel
        )
        let path = try directory.write(JPEGBuilder.jpeg(width: 640, height: 480, exif: tiff), to: "a.jpg")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.kind == .image)
        #expect(metadata.mimeType == "image/jpeg")
        #expect(metadata.uniformTypeIdentifier == "public.jpeg")
        #expect(metadata.pixelWidth == 640 && metadata.pixelHeight == 480)
        #expect(metadata.orientation == 1)
        #expect(metadata.creationDateOffset == -12_600)
        #expect(metadata.creationDateIsFloating == false)
        // 23:59:59.25 at -03:30 is 03:29:59.25 UTC on 1 March.
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_583_033_399.25))
        #expect(abs(metadata.latitude! - -(33 + 51.0 / 60 + 54.0 / 3600)) < 1e-9)
        #expect(metadata.longitude == -70.5)
        #expect(metadata.altitude == -12.5)
        #expect(metadata.make == "Maker")
        #expect(metadata.model == "Model X")
    }

    /// Stars: `xmp:Rating` (an attribute or an element, a real number allowed), else EXIF's
    /// Rating tag; a rejected picture (-1) and nonsense count as none; no statement is nil.
    @Test(
        arguments: [
            (#"<rdf:Description xmp:Rating="3"/>"#, UInt16?.none, Int?.some(3)),
            ("<xmp:Rating>4.0</xmp:Rating>", 2, 4),
            (#"<rdf:Description xmp:Rating="-1"/>"#, nil, 0),
            (#"<rdf:Description MicrosoftPhoto:Rating="75"/>"#, 5, 5),
            (#"<rdf:Description xap:Rating="2"/>"#, nil, 2),
            (nil, 2, 2),
            (nil, 9, 0),
            (nil, nil, nil),
        ] as [(String?, UInt16?, Int?)])
    func ratingsComeFromXMPThenEXIF(xmp: String?, exifRating: UInt16?, expected: Int?) throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(ifd0: exifRating.map { [0x4746: .short($0)] } ?? [0x0112: .short(1)])
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff, xmp: xmp), to: "r.jpg")
        #expect(try MetadataExtractor().extract(path: path).rating == expected)
    }

    /// XMP's creation date outranks IFD0's ModifyDate, under the `xmp:` prefix or the `xap:` prefix older
    /// Adobe software bound to the same namespace (as in Photoshop CS TIFFs); a date under another
    /// property (`xap:ModifyDate`) is not a creation date.
    @Test(
        arguments: [
            (#"<rdf:Description xmp:CreateDate="2006-06-15T20:49:16+04:00"/>"#, 1_150_390_156, 14_400),
            (#"<rdf:Description xap:CreateDate="2006-06-15T20:49:16+04:00"/>"#, 1_150_390_156, 14_400),
            ("<xap:CreateDate>2008-08-05T12:42:28Z</xap:CreateDate>", 1_217_940_148, 0),
            (#"<rdf:Description xap:ModifyDate="2006-06-15T20:49:16+04:00"/>"#, 1_640_995_200, nil),
        ] as [(String, TimeInterval, Int?)])
    func xmpCreateDateIsReadUnderEitherPrefix(xmp: String, expected: TimeInterval, offset: Int?) throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(ifd0: [0x0132: .ascii("2022:01:01 00:00:00")])
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff, xmp: xmp), to: "x.jpg")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.creationDate == Date(timeIntervalSince1970: expected))
        #expect(metadata.creationDateOffset == offset)
    }

    /// A Canon CR3 keeps IFD0, the EXIF IFD and the GPS IFD as three TIFF structures (`CMT1`, `CMT2`, `CMT4`)
    /// in a `uuid` box of Canon's in `moov`: the camera, the date with its offset and the position come from
    /// them. The same boxes under another UUID are not Canon's and give nothing.
    @Test(arguments: [true, false])
    func canonCR3MetadataBoxesGiveCameraDateAndPosition(canonUUID: Bool) throws {
        let directory = try TemporaryDirectory()
        let ifd0 = TIFFBuilder(bigEndian: false).build([0x010F: .ascii("Canon"), 0x0110: .ascii("Canon EOS R6")])
        let exif = TIFFBuilder(bigEndian: false).build([
            0x9003: .ascii("2021:05:12 12:21:21"), 0x9011: .ascii("+02:00"),
        ])
        let gps = TIFFBuilder(bigEndian: false).build(Self.southWestBelowSeaLevel)
        let uuid: [UInt8] =
            canonUUID
            ? [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
            : [UInt8](repeating: 0x11, count: 16)
        let canon = MovieBuilder.box(
            "uuid",
            uuid + MovieBuilder.box("CMT1", ifd0) + MovieBuilder.box("CMT2", exif) + MovieBuilder.box("CMT4", gps))
        let file = MovieBuilder.movie(samples: [(1, 1)], brand: "crx ", moovExtra: canon)
        let path = try directory.write(file, to: "IMG_0001.CR3")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.mimeType == "image/x-canon-cr3")
        #expect(metadata.make == (canonUUID ? "Canon" : nil))
        #expect(metadata.model == (canonUUID ? "Canon EOS R6" : nil))
        #expect(metadata.creationDateOffset == (canonUUID ? 7200 : nil))
        if canonUUID {
            #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_620_814_881))  // 10:21:21 UTC
            #expect(metadata.longitude == -70.5)
        } else {
            #expect(metadata.latitude == nil)
        }
    }

    /// A PNG's dates and camera from its text chunks: `Creation Time` (RFC 1123 as PNG recommends, or EXIF's
    /// form), outranked by EXIF in a raw profile (`tEXt` as well as `zTXt`), and XMP in ImageMagick's `zTXt`
    /// raw profile. Another keyword is no date.
    @Test(
        arguments: [
            ([PNGBuilder.text("Creation Time", Array("Mon, 9 Aug 2004 21:17:36 -0000".utf8))], 1_092_086_256, 0, nil),
            ([PNGBuilder.text("Creation Time", Array("1999:01:01 00:08:50".utf8))], 915_149_330, nil, nil),
            (
                [
                    PNGBuilder.text("Creation Time", Array("1999:01:01 00:08:50".utf8)),
                    PNGBuilder.text(
                        "Raw profile type exif",
                        PNGBuilder.rawProfile(
                            "exif",
                            MetadataExtractorTests.exif(
                                ifd0: [0x010F: .ascii("Maker")], exif: [0x9003: .ascii("2010:01:02 03:04:05")]))),
                ], 1_262_401_445, nil, "Maker"
            ),
            (
                [
                    PNGBuilder.text(
                        "Raw profile type xmp",
                        PNGBuilder.rawProfile(
                            "xmp", Array(#"<rdf:Description xap:CreateDate="2008-12-15T10:48:49+01:00"/>"#.utf8)),
                        compressed: true)
                ], 1_229_334_529, 3600, nil
            ),
            ([PNGBuilder.text("Creation Times", Array("1999:01:01 00:08:50".utf8))], nil, nil, nil),
        ] as [([[UInt8]], TimeInterval?, Int?, String?)])
    func pngTextChunksGiveDatesAndCamera(chunks: [[UInt8]], expected: TimeInterval?, offset: Int?, make: String?)
        throws
    {
        let directory = try TemporaryDirectory()
        let path = try directory.write(PNGBuilder.png(width: 4, height: 3, chunks: chunks), to: "t.png")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.creationDate == expected.map { Date(timeIntervalSince1970: $0) })
        #expect(metadata.creationDateOffset == offset)
        #expect(metadata.make == make)
    }

    /// An AVI of 320×240 (25 frames of 40 ms) whose header list holds an `IDIT` chunk of `idit`, when given.
    static func avi(idit: String?) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
            Array(id.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        let avih =
            le32(40_000) + le32(0) + le32(0) + le32(0) + le32(25) + le32(0) + le32(1) + le32(0) + le32(320)
            + le32(240) + [UInt8](repeating: 0, count: 16)
        let idit = idit.map { chunk("IDIT", Array($0.utf8) + [0]) } ?? []
        let hdrl = chunk("LIST", Array("hdrl".utf8) + chunk("avih", avih) + idit)
        let movi = chunk("LIST", Array("movi".utf8) + chunk("00dc", [1, 2, 3, 4]))
        let body = Array("AVI ".utf8) + hdrl + movi
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// An AVI's recording date is its `IDIT` chunk, as C's `ctime` writes it (Canon, most cameras) or as EXIF
    /// does with slashes (Pentax); wall-clock time. Text that is no date gives none.
    @Test(
        arguments: [
            ("MON SEP 10 20:52:00 2012\n", 1_347_310_320),
            ("Mon Mar 10 15:04:43 2003\n", 1_047_308_683),
            ("2009/10/27 12:14:34", 1_256_645_674),
            ("not a date", nil),
            (nil, nil),
        ] as [(String?, TimeInterval?)])
    func aviRecordingDateIsItsIDITChunk(idit: String?, expected: TimeInterval?) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.avi(idit: idit), to: "MVI_0001.AVI")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.pixelWidth == 320 && metadata.pixelHeight == 240)
        #expect(metadata.creationDate == expected.map { Date(timeIntervalSince1970: $0) })
        #expect(metadata.creationDateIsFloating == (expected != nil))
    }

    /// A Photoshop document (version 1 PSD, 2 PSB) of `width`×`height` with image resources (ID, data).
    static func photoshop(version: UInt16, width: UInt32, height: UInt32, resources: [(UInt16, [UInt8])]) -> [UInt8] {
        func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        let be32 = MovieBuilder.be32
        var blocks: [UInt8] = []
        for (id, data) in resources {
            // Writers other than Photoshop sign their resources otherwise (here ImageReady's `MeSa`, for XMP).
            blocks +=
                Array((id == 0x0424 ? "MeSa" : "8BIM").utf8) + be16(id) + [0, 0] + be32(UInt32(data.count)) + data
            if data.count % 2 == 1 { blocks.append(0) }
        }
        return Array("8BPS".utf8) + be16(version) + [UInt8](repeating: 0, count: 6) + be16(3) + be32(height)
            + be32(width) + be16(8) + be16(3) + be32(0) + be32(UInt32(blocks.count)) + blocks
            + [UInt8](repeating: 0, count: version == 2 ? 8 : 4) + be16(0) + [1, 2, 3, 4]
    }

    /// A Photoshop document's size is its header's canvas; its camera and date come from the EXIF (resource
    /// 0x0422) and XMP (0x0424) image resources, EXIF's date first. A PSB (version 2) reads the same way; another
    /// version is not a Photoshop document.
    @Test(
        arguments: [
            (1, true, true, 1_262_401_445, "Maker"),
            (2, true, true, 1_262_401_445, "Maker"),
            (1, false, true, 1_229_334_529, nil),
            (1, false, false, nil, nil),
        ] as [(UInt16, Bool, Bool, TimeInterval?, String?)])
    func photoshopDocumentGivesCanvasSizeAndItsResourcesMetadata(
        version: UInt16, withEXIF: Bool, withXMP: Bool, expected: TimeInterval?, make: String?
    ) throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(ifd0: [0x010F: .ascii("Maker")], exif: [0x9003: .ascii("2010:01:02 03:04:05")])
        let xmp = Array(#"<rdf:Description xmp:CreateDate="2008-12-15T10:48:49+01:00"/>"#.utf8)
        var resources: [(UInt16, [UInt8])] = [(UInt16(0x03ED), [UInt8]([0, 1, 2]))]
        if withXMP { resources.insert((UInt16(0x0424), xmp), at: 0) }
        if withEXIF { resources.append((UInt16(0x0422), tiff)) }
        let path = try directory.write(
            Self.photoshop(version: version, width: 150, height: 91, resources: resources), to: "d.psd")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.mimeType == "image/vnd.adobe.photoshop")
        #expect(metadata.pixelWidth == 150 && metadata.pixelHeight == 91)
        #expect(metadata.make == make)
        #expect(metadata.creationDate == expected.map { Date(timeIntervalSince1970: $0) })
    }

    @Test func photoshopHeaderOfAnotherVersionIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            Self.photoshop(version: 3, width: 150, height: 91, resources: []), to: "d.psd")
        #expect(throws: MetadataError.self) { try MetadataExtractor().extract(path: path) }
    }

    @Test(arguments: [(5, true), (6, true), (7, true), (8, true), (1, false), (3, false), (4, false)])
    func orientationFiveToEightSwapsTheDisplayedSize(orientation: UInt16, swaps: Bool) throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(ifd0: [0x0112: .short(orientation)])
        let path = try directory.write(JPEGBuilder.jpeg(width: 300, height: 200, exif: tiff), to: "o.jpg")

        let metadata = try MetadataExtractor().extract(path: path)

        #expect(metadata.orientation == Int(orientation))
        #expect(metadata.pixelWidth == (swaps ? 200 : 300))
        #expect(metadata.pixelHeight == (swaps ? 300 : 200))
    }

    @Test func floatingTimeIsReadInTheExtractorsTimeZoneAcrossDaylightSaving() throws {
        let directory = try TemporaryDirectory()
        let summer = try directory.write(
            JPEGBuilder.jpeg(width: 8, height: 8, exif: Self.exif(exif: [0x9003: .ascii("2021:07:04 12:00:00")])),
            to: "summer.jpg"
        )
        let winter = try directory.write(
            JPEGBuilder.jpeg(width: 8, height: 8, exif: Self.exif(exif: [0x9003: .ascii("2021:01:04 12:00:00")])),
            to: "winter.jpg"
        )
        let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "America/New_York")!)

        let july = try extractor.extract(path: summer)
        let january = try extractor.extract(path: winter)

        #expect(july.creationDateIsFloating && july.creationDateOffset == nil)
        #expect(july.creationDate == Date(timeIntervalSince1970: 1_625_414_400))  // 16:00 UTC (EDT)
        #expect(january.creationDate == Date(timeIntervalSince1970: 1_609_779_600))  // 17:00 UTC (EST)
    }

    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "2021:13:01 00:00:00", "2021:02:30 10:00:00"])
    func unusableDateTimeOriginalFallsBackToCreateDate(original: String) throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(
            ifd0: [0x0132: .ascii("2022:01:01 00:00:00")],
            exif: [0x9003: .ascii(original), 0x9004: .ascii("2019:05:06 07:08:09"), 0x9012: .ascii("+02:00")]
        )
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff), to: "d.jpg")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_557_119_289))  // 05:08:09 UTC
        #expect(metadata.creationDateOffset == 7200)
    }

    @Test func modifyDateIsTheLastResortAndUsesOffsetTime() throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(ifd0: [0x0132: .ascii("2022:01:01 10:00:00")], exif: [0x9010: .ascii("+01:00")])
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff), to: "m.jpg")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_641_027_600))  // 09:00 UTC
        #expect(metadata.creationDateOffset == 3600)
    }

    @Test func gpsWithoutHemisphereReferenceIsDropped() throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(gps: [0x0002: .rationals([(10, 1), (0, 1), (0, 1)]), 0x0004: .rationals([(20, 1)])])
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff), to: "g.jpg")

        let metadata = try MetadataExtractor().extract(path: path)

        #expect(metadata.latitude == nil && metadata.longitude == nil)
    }

    @Test func gpsWithZeroDenominatorIsDropped() throws {
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(gps: [
            0x0001: .ascii("N"), 0x0002: .rationals([(10, 0), (0, 1), (0, 1)]),
            0x0003: .ascii("E"), 0x0004: .rationals([(20, 1), (0, 1), (0, 1)]),
        ])
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff), to: "z.jpg")

        let metadata = try MetadataExtractor().extract(path: path)

        #expect(metadata.latitude == nil)
    }

    @Test func jpegWithoutExifHasSizeAndNothingElse() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(JPEGBuilder.jpeg(width: 17, height: 23), to: "plain.jpg")

        let metadata = try MetadataExtractor().extract(path: path)

        #expect(
            metadata
                == FileMetadata(
                    kind: .image, mimeType: "image/jpeg", uniformTypeIdentifier: "public.jpeg", pixelWidth: 17,
                    pixelHeight: 23))
    }

    @Test func tiffWithExifBeyond64KiBStillYieldsDateAndLocation() throws {
        // libexif reads at most 64 KiB of EXIF; the EXIF IFD here starts 100 KB into the file.
        let directory = try TemporaryDirectory()
        let tiff = Self.exif(
            ifd0: [
                0x0100: .short(300), 0x0101: .short(200), 0x0111: .long(8), 0x0117: .long(16),
                0x0112: .short(6), 0x010F: .ascii("Scanner"),
            ],
            exif: [0x9003: .ascii("2010:10:10 10:10:10")],
            gps: Self.southWestBelowSeaLevel,
            bigEndian: false,
            exifPadding: 100_000
        )
        let path = try directory.write(tiff, to: "scan.tif")

        let metadata = try MetadataExtractor(timeZone: Self.utc).extract(path: path)

        #expect(metadata.mimeType == "image/tiff")
        #expect(metadata.pixelWidth == 200 && metadata.pixelHeight == 300)
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_286_705_410))
        #expect(metadata.make == "Scanner")
        #expect(metadata.longitude == -70.5)
    }

    /// Sizes are multiplied to pick a RAW's largest image; 4294967295 squared must neither overflow nor be stored.
    @Test func rawWithAbsurdSizesDoesNotOverflowAndIsRejected() throws {
        let directory = try TemporaryDirectory()
        let huge: TIFFBuilder.Value = .long(UInt32.max)
        let tiff = TIFFBuilder().build([
            0x0100: .short(8), 0x0101: .short(8), 0x0111: .long(8), 0x0117: .long(16),
            0x014A: .directory([0x0100: huge, 0x0101: huge, 0x0111: .long(8), 0x0117: .long(16)], padding: 0),
        ])
        let path = try directory.write(tiff, to: "huge.nef")

        let error = #expect(throws: MetadataError.self) { try MetadataExtractor().extract(path: path) }

        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("4294967295×4294967295") == true)
    }

    @Test func tiffWhoseStripsRunPastTheEndIsTruncated() throws {
        let directory = try TemporaryDirectory()
        let tiff = TIFFBuilder().build([
            0x0100: .short(10), 0x0101: .short(10), 0x0111: .long(8), 0x0117: .long(100_000),
        ])
        let path = try directory.write(tiff, to: "cut.tif")

        let error = #expect(throws: MetadataError.self) { try MetadataExtractor().extract(path: path) }
        #expect(error?.code == .truncated)
    }

    @Test func oneExtractorServesManyConcurrentTasksWithTheSameAnswers() async throws {
        let directory = try TemporaryDirectory()
        var paths: [String] = []
        for index in 1...16 {
            let tiff = Self.exif(exif: [0x9003: .ascii("2020:01:\(String(format: "%02d", index)) 12:00:00")])
            paths.append(
                try directory.write(JPEGBuilder.jpeg(width: UInt16(index), height: 9, exif: tiff), to: "\(index).jpg"))
        }
        let extractor = MetadataExtractor(timeZone: Self.utc)
        let sequential = try paths.map { try extractor.extract(path: $0) }

        let concurrent = try await withThrowingTaskGroup(of: (Int, FileMetadata).self) { group in
            for round in 0..<4 {
                for (index, path) in paths.enumerated() {
                    group.addTask { (round * 100 + index, try extractor.extract(path: path)) }
                }
            }
            var results: [Int: FileMetadata] = [:]
            for try await (key, metadata) in group { results[key] = metadata }
            return results
        }

        for (key, metadata) in concurrent {
            #expect(metadata == sequential[key % 100])
        }
        #expect(concurrent.count == 64)
    }
}
