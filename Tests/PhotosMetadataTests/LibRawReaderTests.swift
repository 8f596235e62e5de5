import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMetadata

#if canImport(Glibc)
    import Glibc
#endif

/// Whether LibRaw can be opened here; says so loudly when it cannot.
enum LibRawAvailability {
    static let loads: Bool = {
        guard let file = Corpus.records.first(where: { $0.path.hasPrefix("Camera/RAW/") }) else { return true }
        do {
            _ = try MetadataExtractor(rawReading: .libRaw).extract(path: file.url.path)
        } catch let error as MetadataError where error.code == .libraryUnavailable {
            print(
                """
                ************************************************************************
                LibRawReaderTests: LibRaw cannot be loaded (\(error.message)).
                LibRaw tests are SKIPPED: install libraw20 (Debian's libraw-dev brings it).
                ************************************************************************
                """)
            return false
        } catch {}
        return true
    }()
}

/// Camera RAW files read through LibRaw (``RAWReading/libRaw``): every corpus RAW against the ExifTool oracle,
/// the families routed to LibRaw by the default extractor, and the gate in front of LibRaw.
///
/// No corpus file is of a family only LibRaw reads (MRW, X3F, IIQ...), so the reader is proved on the corpus
/// RAWs the parsers also read, and the routing on a corpus RAW under a LibRaw family's name.
@Suite(
    "LibRaw reader",
    .enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json"),
    .enabled(if: LibRawAvailability.loads, "needs LibRaw (libraw20, the thread-safe libraw_r)")
)
struct LibRawReaderTests {
    static let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!, rawReading: .libRaw)

    /// Where LibRaw and the oracle part, each with the value LibRaw gives and why. A listed value that changes, or
    /// a listed file that starts to agree, fails the test too.
    static let knownDifferences: [String: (size: String?, camera: String?, refused: String?, why: String)] = [
        "Camera/RAW/IMG_0350.CR2": (
            nil, nil, "not a camera RAW LibRaw reads: Unsupported file format or not RAW file",
            "ExifTool's test stub: its raw image data was stripped, and LibRaw does not identify a CR2 without it "
                + "(the TIFF parser reads the file)"
        ),
        "Camera/RAW/DSC_0070.NEF": (
            "3039×2014", nil, nil,
            "LibRaw drops the D70's last sensor column, which holds no picture; ExifTool reports the stored 3040"
        ),
        "Camera/RAW/DSCF5000.RAF": (
            "3030×2036", nil, nil,
            "the S5Pro's SuperCCD sensor is turned 45°: LibRaw's size is the picture it develops from it, ExifTool's "
                + "(4256×1424) the RAF header's raw size"
        ),
        "Camera/RAW/CRW_0040.CRW": (
            nil, "Canon / PowerShot S40", nil,
            "a CRW has no EXIF Make and Model tags; LibRaw names the camera without the maker in the model, "
                + "where the CIFF text (and ExifTool) says \"Canon PowerShot S40\""
        ),
    ]

    static var rawRecords: [Corpus.Record] { Corpus.ingestable.filter { $0.path.hasPrefix("Camera/RAW/") } }

    @Test func everyCorpusRAWAgreesWithTheOracleExceptForListedDifferences() throws {
        let records = Self.rawRecords
        // RAF, CRW, DNG, CR2, NEF: a family missing from the corpus would make this test prove less.
        #expect(
            Set(records.map { URL(fileURLWithPath: $0.path).pathExtension.uppercased() })
                == ["RAF", "CRW", "DNG", "CR2", "NEF"])
        var seen: Set<String> = []
        for record in records {
            let known = Self.knownDifferences[record.path]
            let metadata: FileMetadata
            do {
                metadata = try Self.extractor.extract(path: record.url.path)
            } catch {
                #expect(error.message == known?.refused, "\(record.path): \(error)")
                if known?.refused != nil { seen.insert(record.path) }
                continue
            }
            #expect(known?.refused == nil, "\(record.path) is read now: drop it from knownDifferences")
            #expect(metadata.kind == .image && metadata.isRAW, "\(record.path)")

            let size = "\(metadata.pixelWidth ?? 0)×\(metadata.pixelHeight ?? 0)"
            #expect(size == (known?.size ?? "\(record.width ?? 0)×\(record.height ?? 0)"), "\(record.path)")
            let camera = "\(metadata.make ?? "nil") / \(metadata.model ?? "nil")"
            #expect(camera == (known?.camera ?? "\(record.make ?? "nil") / \(record.model ?? "nil")"), "\(record.path)")
            if known?.size != nil || known?.camera != nil { seen.insert(record.path) }

            // The corpus RAWs state no offset: a floating wall-clock time, extracted in UTC.
            let truth = try #require(record.creationDate.flatMap(TruthDate.init), "\(record.path)")
            #expect(truth.offset == nil)
            let date = try #require(metadata.creationDate, "\(record.path) has no date")
            #expect(abs(date.timeIntervalSince(truth.wallClock)) <= 1, "\(record.path): \(date) vs \(truth)")
            #expect(metadata.creationDateIsFloating && metadata.creationDateOffset == nil, "\(record.path)")
            #expect(metadata.orientation == (record.orientation ?? 1), "\(record.path)")
        }
        #expect(seen == Set(Self.knownDifferences.keys), "listed differences that no longer occur")
    }

    @Test func theLensIsReadWhereTheFileNamesIt() throws {
        let dng = try #require(Corpus.records.first { $0.path == "Camera/RAW/canon_eos_6d.dng" })
        #expect(try Self.extractor.extract(path: dng.url.path).lensModel == "EF24-105mm f/4L IS USM")
        // The parsers report the same lens from EXIF.
        #expect(try MetadataExtractor().extract(path: dng.url.path).lensModel == "EF24-105mm f/4L IS USM")
    }

    /// LibRaw keeps an EXIF date as `mktime` of its text in this process's zone; the reader must give the text's
    /// fields back whatever that zone is, and count CRW and X3F seconds on the camera's clock.
    @Test(arguments: [
        (2004, 6, 9, 16, 2, 35), (2019, 12, 31, 23, 59, 59), (2008, 2, 29, 0, 0, 0), (1999, 7, 1, 12, 30, 0),
    ])
    func theTimestampGivesTheWallClockBack(_ fields: (Int, Int, Int, Int, Int, Int)) throws {
        var time = tm()
        time.tm_year = Int32(fields.0 - 1900)
        time.tm_mon = Int32(fields.1 - 1)
        time.tm_mday = Int32(fields.2)
        time.tm_hour = Int32(fields.3)
        time.tm_min = Int32(fields.4)
        time.tm_sec = Int32(fields.5)
        time.tm_isdst = -1  // As LibRaw's get_timestamp does.
        let timestamp = Int(mktime(&time))
        let expected = CapturedDate(
            year: fields.0, month: fields.1, day: fields.2, hour: fields.3, minute: fields.4, second: fields.5)
        #expect(LibRawReader.wallClock(timestamp: timestamp, countsWallClockSeconds: false) == expected)

        let utc = try #require(expected.date(in: TimeZone(identifier: "UTC")!))
        let seconds = Int(utc.timeIntervalSince1970)
        #expect(LibRawReader.wallClock(timestamp: seconds, countsWallClockSeconds: true) == expected)
    }

    // MARK: Routing

    /// A TIFF-based RAW named as a family only LibRaw reads (Hasselblad 3FR) goes to LibRaw, and the same bytes
    /// named .NEF to the TIFF parser. The D70's width tells which read it: LibRaw says 3039, the parser 3040.
    @Test func aFamilyNoParserReadsGoesToLibRaw() throws {
        let nef = try #require(Corpus.records.first { $0.path == "Camera/RAW/DSC_0070.NEF" })
        let directory = try TemporaryDirectory()
        let asHasselblad = directory.url.appendingPathComponent("DSC_0070.3FR")
        try FileManager.default.copyItem(at: nef.url, to: asHasselblad)
        let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!)

        let byLibRaw = try extractor.extract(path: asHasselblad.path)
        #expect(byLibRaw.mimeType == "image/x-hasselblad-3fr")
        #expect(byLibRaw.uniformTypeIdentifier == "com.hasselblad.3fr-raw-image" && byLibRaw.isRAW)
        #expect(byLibRaw.pixelWidth == 3039 && byLibRaw.pixelHeight == 2014)
        #expect(byLibRaw.make == "NIKON CORPORATION" && byLibRaw.model == "NIKON D70")

        let byParser = try extractor.extract(path: nef.url.path)
        #expect(byParser.mimeType == "image/x-nikon-nef")
        #expect(byParser.pixelWidth == 3040 && byParser.pixelHeight == 2014)
        #expect(byParser.creationDate == byLibRaw.creationDate)
    }

    /// A Minolta MRW made here (no corpus file is one): a PRD block with the sensor's and the picture's sizes (those
    /// of ExifTool's DiMAGE A2 sample) and a TTW block with
    /// a TIFF whose IFD0 names the camera and turns the picture (orientation 6) and whose EXIF IFD dates it. It is
    /// found by its signature under any name, read by LibRaw, and described as the parsers describe a file.
    @Test func aMinoltaMRWIsReadThroughLibRaw() throws {
        let tiff = TIFFBuilder().build([
            0x010F: .ascii("Konica Minolta Camera, Inc."),
            0x0110: .ascii("DiMAGE A2"),
            0x0112: .short(6),
            0x8769: .directory([0x9003: .ascii("2004:11:18 23:14:58"), 0x9011: .ascii("+09:00")], padding: 0),
        ])
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
        func block(_ name: String, _ payload: [UInt8]) -> [UInt8] {
            [0] + Array(name.utf8) + be32(payload.count) + payload
        }
        // PRD: version, sensor height and width, image height and width, data size, 12 bits, packed (0x52), Bayer.
        let prd = block(
            "PRD",
            Array("21810002".utf8) + be16(2456) + be16(3272) + be16(2448) + be16(3264) + [12, 12, 0x52]
                + [0, 0, 0, 0] + [0x01, 0x00])
        let blocks = prd + block("TTW", tiff)
        let file = [0x00, 0x4D, 0x52, 0x4D] + be32(blocks.count) + blocks + [UInt8](repeating: 0, count: 1024)

        let directory = try TemporaryDirectory()
        let path = try directory.write(file, to: "PICT0001")
        let metadata = try MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!).extract(path: path)
        #expect(
            metadata.mimeType == "image/x-minolta-mrw"
                && metadata.uniformTypeIdentifier == "com.konicaminolta.raw-image")
        #expect(metadata.isRAW)
        #expect(metadata.orientation == 6)
        // The picture the PRD block states (3264×2448, ExifTool's ImageSize), not the sensor LibRaw develops
        // (3272×2456), turned by orientation 6.
        #expect(metadata.pixelWidth == 2448 && metadata.pixelHeight == 3264, "the camera's picture, turned")
        #expect(metadata.make == "Konica Minolta Camera, Inc." && metadata.model == "DiMAGE A2")
        // The wall clock at the stated offset: 23:14:58 at +09:00 is 14:14:58 UTC.
        #expect(metadata.creationDateOffset == 9 * 3600 && !metadata.creationDateIsFloating)
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_100_787_298))
    }

    /// The size rule on LibRaw's answers (sensor, inset crop, stated picture, developed picture, flip), with the
    /// values LibRaw 0.20 gives for ExifTool's samples: the camera's picture wins over the sensor LibRaw develops.
    @Test(
        arguments: [
            // Minolta DiMAGE A2 (MRW): no inset crop; the PRD block states 3264×2448 in a 3272×2456 sensor.
            ((3272, 2456), (0, 0), (3264, 2448), (3272, 2456), 1, (3264, 2448)),
            // Canon EOS M50 (CR3): the inset crop is the camera's 6000×4000.
            ((6288, 4056), (6000, 4000), (0, 0), (6024, 4020), 1, (6000, 4000)),
            // Panasonic DMC-LX3 (RW2): the inset crop from the sensor borders.
            ((3724, 2754), (3648, 2736), (0, 0), (3664, 2754), 1, (3648, 2736)),
            // Leaf Credo 40 (IIQ): nothing stated; the developed picture is ExifTool's 7320×5484.
            ((7372, 5536), (0, 0), (0, 0), (7320, 5484), 1, (7320, 5484)),
            // A developed picture LibRaw has turned (flip 6) is held as stored.
            ((7372, 5536), (0, 0), (0, 0), (5484, 7320), 6, (7320, 5484)),
            // A stated size larger than the sensor means nothing.
            ((3272, 2456), (0, 0), (4000, 2448), (3272, 2456), 1, (3272, 2456)),
            ((3272, 2456), (3300, 2000), (3264, 2448), (3272, 2456), 1, (3264, 2448)),
        ] as [((Int, Int), (Int, Int), (Int, Int), (Int, Int), Int, (Int, Int))])
    func theSizeIsTheCamerasPictureNotTheSensor(
        sensor: (Int, Int), crop: (Int, Int), declared: (Int, Int), developed: (Int, Int), flip: Int,
        expected: (Int, Int)
    ) {
        let size = LibRawReader.storedSize(
            of: .init(sensor: sensor, crop: crop, declared: declared, developed: developed, flip: flip))
        #expect(size?.width == expected.0 && size?.height == expected.1)
    }

    /// The families the parsers read keep the parsers' answer by default.
    @Test func theParsersFamiliesKeepTheParsersAnswer() throws {
        let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!)
        for record in Self.rawRecords {
            let metadata = try extractor.extract(path: record.url.path)
            #expect(metadata.pixelWidth == record.width && metadata.pixelHeight == record.height, "\(record.path)")
            #expect(metadata.make == record.make && metadata.model == record.model, "\(record.path)")
        }
    }

    /// A file named as a LibRaw family that does not start as any RAW family is rejected before LibRaw sees it;
    /// one whose content is another format is read as that format.
    @Test func onlyFilesThatStartAsARAWReachLibRaw() throws {
        let directory = try TemporaryDirectory()
        var generator = SplitMix64(seed: 14)
        let noise = try directory.write(
            [0x00, 0x01, 0x02, 0x03] + (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) },
            to: "noise.mrw")
        let error = #expect(throws: MetadataError.self) { try MetadataExtractor().extract(path: noise) }
        #expect(error?.code == .corrupt)
        #expect(
            error?.message == "the file does not start as any camera RAW family LibRaw reads",
            "\(String(describing: error))")

        let jpeg = try #require(Corpus.records.first { $0.path == "Camera/2008/Misc/Canon_40D.jpg" })
        let jpegAsRAW = directory.url.appendingPathComponent("Canon_40D.IIQ")
        try FileManager.default.copyItem(at: jpeg.url, to: jpegAsRAW)
        let metadata = try MetadataExtractor().extract(path: jpegAsRAW.path)
        #expect(metadata.mimeType == "image/jpeg")
        #expect(metadata.pixelWidth == jpeg.width && metadata.pixelHeight == jpeg.height)
    }
}
