import Foundation
import Testing

@testable import PhotosMetadata

/// In-camera HDR read from Canon's, Sony's, Nikon's, Pentax's, Panasonic's, Olympus', Fujifilm's and
/// Casio's maker notes (ExifTool's tags and values), on notes built here in each maker's layout and
/// on the corpus' own Sony and Pentax notes with one field changed; and notes cut short or damaged,
/// which must never crash nor change anything else.
@Suite struct MakerNoteHDRTests {
    static let date = Date(timeIntervalSince1970: 1_577_934_245)  // 2020:01:02 03:04:05 UTC

    /// A JPEG whose EXIF IFD holds `note` as its maker note, with a date beside it, by `make`.
    static func jpeg(make: String, model: String = "Model", note: [UInt8]) -> [UInt8] {
        GroupingAndSubtypeTests.jpeg(
            ifd0: [0x010F: .ascii(make), 0x0110: .ascii(model)],
            exif: [0x927C: .undefined(note), 0x9003: .ascii("2020:01:02 03:04:05")])
    }

    /// A bare directory of `entries` whose values fit in their entries (offsets do not matter).
    static func directory(_ entries: [UInt16: TIFFBuilder.Value], bigEndian: Bool) -> [UInt8] {
        Array(TIFFBuilder(bigEndian: bigEndian).build(entries).dropFirst(8))
    }

    /// Sony's note: `SONY DSC \0\0\0`, then the directory. The HDR tag (0x200A) is one 32-bit
    /// value that ExifTool reads as two 16-bit ones, setting first, in the note's byte order.
    static func sony(
        hdr: (setting: UInt16, image: UInt16)? = nil, extra: [UInt16: TIFFBuilder.Value] = [:],
        bigEndian: Bool = false
    ) -> [UInt8] {
        var entries = extra
        if let hdr {
            let (first, second) = (UInt32(hdr.setting), UInt32(hdr.image))
            entries[0x200A] = .long(bigEndian ? first << 16 | second : second << 16 | first)
        }
        entries[0xB04F] = .short(1)  // Dynamic Range Optimizer: Standard (not HDR)
        return Array("SONY DSC \0\0\0".utf8) + directory(entries, bigEndian: bigEndian)
    }

    /// Nikon's note: `Nikon\0\x02\x10\0\0`, then a whole TIFF structure whose offsets count from its
    /// own header; HDRInfo (0x0035) is 8 bytes, stored out of the entry.
    static func nikon(hdr: UInt8, bigEndian: Bool = true, version2: Bool = false) -> [UInt8] {
        // HDRInfo2 (version 0200) is 6 bytes: HDR and HDRLevel after the version.
        let info: [UInt8] = version2 ? Array("0200".utf8) + [hdr, 5] : Array("0100".utf8) + [hdr, 2, 0, 0]
        return Array("Nikon\0".utf8) + [0x02, 0x10, 0, 0]
            + TIFFBuilder(bigEndian: bigEndian).build([
                0x0001: .undefined(Array("0210".utf8)), 0x0035: .undefined(info),
            ])
    }

    /// Pentax's note: `AOC\0`, the byte-order mark, then the directory.
    static func pentax(_ entries: [UInt16: TIFFBuilder.Value], bigEndian: Bool = true) -> [UInt8] {
        Array("AOC\0".utf8) + Array((bigEndian ? "MM" : "II").utf8) + directory(entries, bigEndian: bigEndian)
    }

    /// Canon's note: a bare directory whose value offsets count from the EXIF TIFF header, so it is
    /// built for the `offset` it has there (see ``noteOffset(make:length:)``). HDRInfo (0x4025) is
    /// int32 values, the first the record's length in bytes, then HDR and HDREffect.
    static func canon(hdrInfo: [UInt32], at offset: Int) -> [UInt8] {
        let tiff = TIFFBuilder(bigEndian: true)
        return tiff.u16(1) + tiff.u16(0x4025) + tiff.u16(4) + tiff.u32(UInt32(hdrInfo.count))
            + tiff.u32(UInt32(offset + 18)) + tiff.u32(0) + hdrInfo.flatMap { tiff.u32($0) }
    }

    /// Where a note of `length` bytes starts in the EXIF TIFF structure of ``jpeg(make:model:note:)``
    /// (the same for every note longer than 4 bytes: it is the last value of the block).
    static func noteOffset(make: String, length: Int) throws -> Int {
        let marker = (0..<length).map { UInt8(0x80 + $0 % 0x70) }
        let bytes = jpeg(make: make, note: marker)
        let tiffStart = try #require(index(of: Array("Exif\0\0".utf8), in: bytes)) + 6
        return try #require(index(of: marker, in: bytes)) - tiffStart
    }

    /// Canon's note with `hdrInfo`, placed where ``jpeg(make:model:note:)`` puts it.
    static func canon(hdrInfo: [UInt32]) throws -> [UInt8] {
        try canon(hdrInfo: hdrInfo, at: noteOffset(make: "Canon", length: 18 + 4 * hdrInfo.count))
    }

    /// Panasonic's note: `Panasonic\0\0\0`, then the directory.
    static func panasonic(_ entries: [UInt16: TIFFBuilder.Value], bigEndian: Bool = false) -> [UInt8] {
        Array("Panasonic\0\0\0".utf8) + directory(entries, bigEndian: bigEndian)
    }

    /// A note whose directory follows `header` and whose offsets count from the note's first byte:
    /// a TIFF structure with its directory moved to the header's end, the header written over it.
    static func noteRelative(
        header: [UInt8], _ entries: [UInt16: TIFFBuilder.Value], bigEndian: Bool
    ) -> [UInt8] {
        header + TIFFBuilder(bigEndian: bigEndian).build(entries, ifd0Padding: header.count - 8).dropFirst(header.count)
    }

    /// Olympus' newer note: `OLYMPUS\0`, the byte-order mark and version 3, the main directory at
    /// 12, its CameraSettings (0x2020) a pointer to the directory of `settings`.
    static func olympus(settings: [UInt16: TIFFBuilder.Value], bigEndian: Bool = false) -> [UInt8] {
        let header = Array("OLYMPUS\0".utf8) + Array((bigEndian ? "MM" : "II").utf8) + [3, 0]
        return noteRelative(header: header, [0x2020: .directory(settings, padding: 0)], bigEndian: bigEndian)
    }

    /// Fujifilm's note: `FUJIFILM`, the directory's offset (12), then the directory, little-endian.
    static func fujifilm(_ entries: [UInt16: TIFFBuilder.Value]) -> [UInt8] {
        noteRelative(header: Array("FUJIFILM".utf8) + [12, 0, 0, 0], entries, bigEndian: false)
    }

    /// Casio's newer note: `QVC\0` and two zero bytes, then the directory.
    static func casio(_ entries: [UInt16: TIFFBuilder.Value], bigEndian: Bool = true) -> [UInt8] {
        Array("QVC\0\0\0".utf8) + directory(entries, bigEndian: bigEndian)
    }

    static func isHDR(make: String, model: String = "Model", note: [UInt8]) throws -> Bool? {
        try GroupingAndSubtypeTests.extract(jpeg(make: make, model: model, note: note), name: "DSC00001.JPG").isHDR
    }

    @Test(
        arguments: [
            ([12, 1, 0], true), ([12, 2, 0], true), ([12, 2, 3], true), ([36, 2, 4, 0, 0, 0, 0, 0, 0], true),
            ([12, 0, 0], false), ([12, 0, 1], false), ([12, 3, 0], false),
            // Not its own length: ExifTool does not read the record.
            ([8, 2, 0], false), ([0, 2, 0], false),
        ] as [([UInt32], Bool)])
    func canonHDRInfoAutoOrOnMeansHDR(hdrInfo: [UInt32], isHDR: Bool) throws {
        #expect((try Self.isHDR(make: "Canon", note: Self.canon(hdrInfo: hdrInfo)) == true) == isHDR)
    }

    /// A program that moved Canon's note without rewriting its offsets leaves a footer (the
    /// byte-order mark, the note's old offset): the values are read where they moved to. When the
    /// offsets were rewritten and only the footer is stale (Picasa), they are read as stated.
    @Test func canonNoteMovedWithItsFooterIsReadWhereItsValuesWent() throws {
        let tiff = TIFFBuilder(bigEndian: true)
        let offset = try Self.noteOffset(make: "Canon", length: 38)
        let old = offset + 256  // the note moved 256 bytes towards the header (the A85 sample did)
        let moved = Self.canon(hdrInfo: [12, 2, 0], at: old) + Array("MM\0*".utf8) + tiff.u32(UInt32(old))
        #expect(try Self.isHDR(make: "Canon", note: moved) == true)
        let rewritten = Self.canon(hdrInfo: [12, 2, 0], at: offset) + Array("MM\0*".utf8) + tiff.u32(UInt32(old))
        #expect(try Self.isHDR(make: "Canon", note: rewritten) == true)
        // Stale offsets and no footer: the record is not where they say, and is not read.
        let stale = Self.canon(hdrInfo: [12, 2, 0], at: old) + [UInt8](repeating: 0, count: 8)
        #expect(try Self.isHDR(make: "Canon", note: stale) == nil)
    }

    @Test(
        arguments: [
            ([0x009E: .short(100)], true), ([0x009E: .short(300)], true), ([0x009E: .short(32968)], true),
            ([0x001F: .short(51)], true), ([0x001F: .short(64)], true), ([0x8001: .short(51)], true),
            ([0x009E: .short(0)], false), ([0x009E: .short(400)], false), ([0x009E: .short(0x8000)], false),
            ([0x001F: .short(2)], false), ([0x8001: .short(0), 0x001F: .short(62)], false),
        ] as [([UInt16: TIFFBuilder.Value], Bool)])
    func panasonicHDRSettingOrSceneMeansHDR(entries: [UInt16: TIFFBuilder.Value], isHDR: Bool) throws {
        for bigEndian in [false, true] {
            let note = Self.panasonic(entries, bigEndian: bigEndian)
            #expect((try Self.isHDR(make: "Panasonic", note: note) == true) == isHDR, "big-endian: \(bigEndian)")
        }
    }

    @Test func leicasPanasonicNotesAreReadWhereExifToolReadsThem() throws {
        let note = Array("LEICA\0\0\0".utf8) + Self.directory([0x001F: .short(51)], bigEndian: false)
        #expect(try Self.isHDR(make: "LEICA", note: note) == true)
        #expect(try Self.isHDR(make: "Leica Camera AG", note: note) == nil, "another Leica table")
        // The D-Lux 7's: `LEICA CAMERA AG\0`, two more bytes, the directory at 18.
        let dLux =
            Array("LEICA CAMERA AG\0".utf8) + [0, 0] + Self.directory([0x009E: .short(200)], bigEndian: false)
        #expect(try Self.isHDR(make: "LEICA CAMERA AG", note: dLux) == true)
    }

    @Test(
        arguments: [
            ([0x0509: .short(154)], true), ([0x0509: .short(204)], true), ([0x0804: .longs([5, 4])], true),
            ([0x0804: .longs([6, 4])], true),
            ([0x0509: .short(197)], false), ([0x0804: .longs([9, 8])], false), ([0x0804: .longs([0, 0])], false),
        ] as [([UInt16: TIFFBuilder.Value], Bool)])
    func olympusHDRSceneOrStackMeansHDR(settings: [UInt16: TIFFBuilder.Value], isHDR: Bool) throws {
        for bigEndian in [false, true] {
            let note = Self.olympus(settings: settings, bigEndian: bigEndian)
            #expect(
                (try Self.isHDR(make: "OLYMPUS CORPORATION", note: note) == true) == isHDR, "big-endian: \(bigEndian)")
        }
    }

    @Test func olympusOlderAndOMSystemNotesAreReadToo() throws {
        // The oldest notes: `OLYMP\0`, the directory at 8, SceneMode 103 in the main directory.
        let old = Array("OLYMP\0".utf8) + [1, 0] + Self.directory([0x0403: .short(103)], bigEndian: false)
        #expect(try Self.isHDR(make: "OLYMPUS IMAGING CORP.", note: old) == true)
        let notHDR = Array("OLYMP\0".utf8) + [1, 0] + Self.directory([0x0403: .short(101)], bigEndian: false)
        #expect(try Self.isHDR(make: "OLYMPUS IMAGING CORP.", note: notHDR) == nil)
        // OM System's: a 16-byte header, CameraSettings as before.
        let header = Array("OM SYSTEM\0\0\0II".utf8) + [4, 0]
        let om = Self.noteRelative(
            header: header, [0x2020: .directory([0x0509: .short(204)], padding: 0)], bigEndian: false)
        #expect(try Self.isHDR(make: "OM Digital Solutions", note: om) == true)
        // Compacts such as the TG-830 keep SceneMode in the MainInfo sub-directory (0x4000).
        let header12 = Array("OLYMPUS\0II".utf8) + [3, 0]
        let compact = Self.noteRelative(
            header: header12, [0x4000: .directory([0x0403: .short(103)], padding: 0)], bigEndian: false)
        #expect(try Self.isHDR(make: "OLYMPUS IMAGING CORP.", note: compact) == true)
    }

    @Test(
        arguments: [
            ([0x1031: .short(0x30)], true), ([0x1150: .long(128)], true),
            ([0x1031: .short(0x40)], false), ([0x1150: .long(32)], false),
            // DR800 develops one exposure: no HDR.
            ([0x1403: .short(800)], false),
        ] as [([UInt16: TIFFBuilder.Value], Bool)])
    func fujifilmHDRPictureOrCompositeMeansHDR(entries: [UInt16: TIFFBuilder.Value], isHDR: Bool) throws {
        #expect((try Self.isHDR(make: "FUJIFILM", note: Self.fujifilm(entries)) == true) == isHDR)
    }

    @Test(
        arguments: [
            ("EX-ZR10", [0x301B: .short(39)], true), ("EX-Z3000", [0x301B: .short(52)], true),
            ("EX-FC200S", [0x3007: .short(6)], true), ("EX-FC200S", [0x3007: .short(7)], true),
            ("EX-ZR10", [0x301B: .short(51)], false),
            // BestShotMode 6 is HDR on the EX-FC200S only.
            ("EX-ZR10", [0x3007: .short(6)], false),
        ] as [(String, [UInt16: TIFFBuilder.Value], Bool)])
    func casioHDRArtModeOrBestShotMeansHDR(model: String, entries: [UInt16: TIFFBuilder.Value], isHDR: Bool) throws {
        for bigEndian in [true, false] {
            let note = Self.casio(entries, bigEndian: bigEndian)
            #expect((try Self.isHDR(make: "CASIO COMPUTER CO.,LTD.", model: model, note: note) == true) == isHDR)
        }
    }

    @Test(
        arguments: [
            // Auto, 1 EV, 6 EV, kept exposure
            ((0x01, 1), true), ((0x10, 1), true), ((0x1A, 1), true), ((0x12, 0), true),
            ((0x00, 0), false), ((0x00, 1), false), ((0x1B, 1), false), ((0xFFFF, 0xFFFF), false),
        ] as [((UInt16, UInt16), Bool)])
    func sonyHDRSettingMeansHDR(hdr: (UInt16, UInt16), isHDR: Bool) throws {
        for bigEndian in [false, true] {
            let note = Self.sony(hdr: (hdr.0, hdr.1), bigEndian: bigEndian)
            #expect((try Self.isHDR(make: "SONY", note: note) == true) == isHDR, "big-endian: \(bigEndian)")
        }
    }

    @Test func sonyHDRScenesMeanHDRAndTheDynamicRangeOptimizerDoesNot() throws {
        #expect(try Self.isHDR(make: "SONY", note: Self.sony(extra: [0xB041: .short(38)])) == true)
        #expect(try Self.isHDR(make: "SONY", note: Self.sony(extra: [0xB023: .long(33)])) == true)
        #expect(try Self.isHDR(make: "SONY", note: Self.sony(extra: [0xB041: .short(6), 0xB023: .long(0)])) == nil)
        #expect(try Self.isHDR(make: "SONY", note: Self.sony(extra: [0xB025: .long(3)])) == nil, "DRO Auto")
        for effect: UInt16 in [64, 65, 66] {
            #expect(try Self.isHDR(make: "SONY", note: Self.sony(extra: [0x200E: .short(effect)])) == true)
        }
        #expect(try Self.isHDR(make: "SONY", note: Self.sony(extra: [0x200E: .short(6)])) == nil, "Soft High Key")
        // An ARW's note is the directory alone, known by the make (and not starting `\x01\0`,
        // which ExifTool leaves to other tables: so two entries, not one).
        let bare = Self.directory([0x200A: .long(0x0001_0010), 0xB04F: .short(1)], bigEndian: false)
        #expect(try Self.isHDR(make: "SONY", note: bare) == true)
        #expect(try Self.isHDR(make: "OtherMaker", note: bare) == nil)
    }

    @Test(arguments: [(1, true), (0, false), (48, false)] as [(UInt8, Bool)])
    func nikonHDRInfoOnMeansHDR(hdr: UInt8, isHDR: Bool) throws {
        for (bigEndian, version2) in [(true, false), (false, false), (true, true), (false, true)] {
            let note = Self.nikon(hdr: hdr, bigEndian: bigEndian, version2: version2)
            #expect(
                (try Self.isHDR(make: "NIKON CORPORATION", note: note) == true) == isHDR,
                "big-endian: \(bigEndian), HDRInfo2: \(version2)")
        }
    }

    @Test(
        arguments: [
            ([0x0085: .undefined([1, 1, 0, 0])], true), ([0x0085: .undefined([5, 0, 4, 0])], true),
            ([0x0034: .undefined([0, 0, 0, 0x10])], true), ([0x0034: .undefined([1, 0, 0, 0xE0])], true),
            ([0x0085: .undefined([0, 1, 0, 0])], false), ([0x0034: .undefined([0, 0, 0, 0x01])], false),
            ([0x0085: .undefined([6, 0, 0, 0])], false),
        ] as [([UInt16: TIFFBuilder.Value], Bool)])
    func pentaxHDRModeOrHDRDriveMeansHDR(entries: [UInt16: TIFFBuilder.Value], isHDR: Bool) throws {
        for bigEndian in [true, false] {
            let note = Self.pentax(entries, bigEndian: bigEndian)
            #expect(
                (try Self.isHDR(make: "PENTAX Corporation", note: note) == true) == isHDR, "big-endian: \(bigEndian)")
        }
    }

    @Test func anotherMakersNoteIsNotReadAsOnesOwn() throws {
        // Sony's HDR tag number in a Nikon-less, Sony-less note, and Nikon's in a bare directory.
        let stranger = Self.directory(
            [0x200A: .long(0x0001_0010), 0x0035: .undefined(Array("0100".utf8) + [1, 0, 0, 0])],
            bigEndian: false)
        #expect(try Self.isHDR(make: "SAMSUNG", note: stranger) == nil)
        #expect(try Self.isHDR(make: "NIKON", note: stranger) == nil, "headerless Nikon notes are not read")
    }

    /// Every length a note can be cut to, and damaged bytes: no crash, the date and camera as
    /// without a note, and HDR only once the note holds the whole field.
    @Test(arguments: ["sony", "nikon", "pentax", "canon", "panasonic", "olympus", "fujifilm", "casio"])
    func aNoteCutShortOrDamagedChangesNothingElse(maker: String) throws {
        let (make, note): (String, [UInt8]) =
            switch maker {
            case "sony": ("SONY", Self.sony(hdr: (0x10, 1)))
            case "nikon": ("NIKON CORPORATION", Self.nikon(hdr: 1))
            case "canon": ("Canon", try Self.canon(hdrInfo: [12, 2, 0]))
            case "panasonic": ("Panasonic", Self.panasonic([0x0001: .short(2), 0x009E: .short(200)]))
            case "olympus": ("OLYMPUS CORPORATION", Self.olympus(settings: [0x0804: .longs([5, 4])]))
            case "fujifilm": ("FUJIFILM", Self.fujifilm([0x1000: .ascii("NORMAL "), 0x1150: .long(128)]))
            case "casio": ("CASIO COMPUTER CO.,LTD.", Self.casio([0x0002: .short(1), 0x301B: .short(52)]))
            default: ("PENTAX Corporation", Self.pentax([0x0085: .undefined([2, 1, 0, 0])]))
            }
        let plain = try GroupingAndSubtypeTests.extract(Self.jpeg(make: make, note: [0, 0]), name: "plain.jpg")
        #expect(plain.isHDR == nil && plain.creationDate == Self.date)
        var results: [Bool] = []
        for length in 0...note.count {
            let bytes = Self.jpeg(make: make, note: Array(note.prefix(length)))
            let cut = try GroupingAndSubtypeTests.extract(bytes, name: "cut.jpg")
            #expect(cut.creationDate == plain.creationDate && cut.make == plain.make && cut.model == plain.model)
            #expect(cut.pixelWidth == plain.pixelWidth && cut.isPanorama == plain.isPanorama)
            results.append(cut.isHDR == true)
        }
        // HDR from some length on, never before it, and for the whole note.
        let first = try #require(results.firstIndex(of: true), "the whole note says HDR")
        #expect(results[first...].allSatisfy { $0 } && !results[..<first].contains(true), "\(results)")

        // Each byte of the note set to 0xFF, then to 0x00, in turn.
        for index in note.indices {
            for value: UInt8 in [0xFF, 0x00] {
                var damaged = note
                damaged[index] = value
                let read = try GroupingAndSubtypeTests.extract(
                    Self.jpeg(make: make, note: damaged), name: "damaged.jpg")
                #expect(read.creationDate == plain.creationDate && read.make == plain.make)
            }
        }

        // The EXIF block itself cut inside the note: the note is not read at all.
        let exifIFD: [UInt16: TIFFBuilder.Value] = [0x9003: .ascii("2020:01:02 03:04:05"), 0x927C: .undefined(note)]
        let exif = TIFFBuilder().build([0x010F: .ascii(make), 0x8769: .directory(exifIFD, padding: 100)])
        for length in stride(from: exif.count - note.count, to: exif.count, by: 3) {
            let bytes = JPEGBuilder.jpeg(width: 40, height: 30, exif: Array(exif.prefix(length)))
            let read = try GroupingAndSubtypeTests.extract(bytes, name: "short-exif.jpg")
            #expect(read.isHDR == nil, "cut at \(length) of \(exif.count)")
        }
    }

    // MARK: The corpus' own notes

    /// Where `pattern` first occurs in `bytes`.
    static func index(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count)
        where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    /// `bytes` with the first occurrence of `pattern` followed by `value` in place of what followed it.
    static func patch(_ bytes: [UInt8], after pattern: [UInt8], with value: [UInt8]) -> [UInt8]? {
        guard let start = index(of: pattern, in: bytes) else { return nil }
        var patched = bytes
        patched.replaceSubrange((start + pattern.count)..<(start + pattern.count + value.count), with: value)
        return patched
    }

    /// The DSC-HX5V's note (little-endian, 43 entries, HDR "Off; Uncorrected image", DRO Standard) is
    /// no HDR; with its HDR setting changed to 1.0 EV, in place, it is.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theCorpusSonyNoteIsReadInPlace() throws {
        let file = Corpus.directory.appendingPathComponent("Camera/2010/Sony/DSC00042.JPG")
        let bytes = try [UInt8](Data(contentsOf: file))
        #expect(try GroupingAndSubtypeTests.extract(bytes, name: "DSC00042.JPG").isHDR == nil)
        // Tag 0x200A, LONG, count 1, little-endian; its 4 value bytes follow.
        let entry: [UInt8] = [0x0A, 0x20, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]
        let patched = try #require(Self.patch(bytes, after: entry, with: [0x10, 0x00]))
        #expect(try GroupingAndSubtypeTests.extract(patched, name: "DSC00042.JPG").isHDR == true)
    }

    /// The TG-830's note (`OLYMPUS\0II`, SceneMode Sport in MainInfo, 7 in CameraSettings) is no
    /// HDR; with either SceneMode changed to HDR, in place, it is (ExifTool reads both so).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theCorpusOlympusNoteIsReadInPlace() throws {
        let file = Corpus.directory.appendingPathComponent("Camera/2015/Olympus/P3200001.JPG")
        let bytes = try [UInt8](Data(contentsOf: file))
        #expect(try GroupingAndSubtypeTests.extract(bytes, name: "P3200001.JPG").isHDR == nil)
        // Tag 0x0403 (MainInfo) and 0x0509 (CameraSettings), SHORT, count 1, little-endian.
        for (tag, hdr) in [(UInt16(0x0403), UInt8(103)), (0x0509, 154)] {
            let entry: [UInt8] = [UInt8(tag & 0xFF), UInt8(tag >> 8), 0x03, 0x00, 0x01, 0x00, 0x00, 0x00]
            let patched = try #require(Self.patch(bytes, after: entry, with: [hdr, 0]))
            #expect(try GroupingAndSubtypeTests.extract(patched, name: "P3200001.JPG").isHDR == true, "\(tag)")
        }
    }

    /// The *ist D's note (big-endian `AOC\0MM`, DriveMode "Single Exposure") is no HDR; with
    /// DriveMode's fourth byte changed to HDR, in place, it is.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theCorpusPentaxNoteIsReadInPlace() throws {
        let file = Corpus.directory.appendingPathComponent("Camera/2004/Pentax/IMGP0001.JPG")
        let bytes = try [UInt8](Data(contentsOf: file))
        #expect(try GroupingAndSubtypeTests.extract(bytes, name: "IMGP0001.JPG").isHDR == nil)
        // Tag 0x0034, BYTE, count 4, big-endian; the fourth value byte is the exposure kind.
        let pattern: [UInt8] = [0x00, 0x34, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04]
        let index = try #require(Self.index(of: pattern, in: bytes))
        #expect(bytes[index + 11] == 0x00, "Single Exposure")
        let firstThree = Array(bytes[(index + 8)..<(index + 11)])
        let patched = try #require(Self.patch(bytes, after: pattern + firstThree, with: [0x10]))
        #expect(try GroupingAndSubtypeTests.extract(patched, name: "IMGP0001.JPG").isHDR == true)
    }
}
