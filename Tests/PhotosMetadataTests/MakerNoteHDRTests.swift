import Foundation
import Testing

@testable import PhotosMetadata

/// In-camera HDR read from Sony's, Nikon's and Pentax's maker notes (ExifTool's tags and values),
/// on notes built here in each maker's layout and on the corpus' own Sony and Pentax notes with one
/// field changed; and notes cut short or damaged, which must never crash nor change anything else.
@Suite struct MakerNoteHDRTests {
    static let date = Date(timeIntervalSince1970: 1_577_934_245)  // 2020:01:02 03:04:05 UTC

    /// A JPEG whose EXIF IFD holds `note` as its maker note, with a date beside it, by `make`.
    static func jpeg(make: String, note: [UInt8]) -> [UInt8] {
        GroupingAndSubtypeTests.jpeg(
            ifd0: [0x010F: .ascii(make), 0x0110: .ascii("Model")],
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
    static func nikon(hdr: UInt8, bigEndian: Bool = true) -> [UInt8] {
        let info: [UInt8] = Array("0100".utf8) + [hdr, 2, 0, 0]
        return Array("Nikon\0".utf8) + [0x02, 0x10, 0, 0]
            + TIFFBuilder(bigEndian: bigEndian).build([
                0x0001: .undefined(Array("0210".utf8)), 0x0035: .undefined(info),
            ])
    }

    /// Pentax's note: `AOC\0`, the byte-order mark, then the directory.
    static func pentax(_ entries: [UInt16: TIFFBuilder.Value], bigEndian: Bool = true) -> [UInt8] {
        Array("AOC\0".utf8) + Array((bigEndian ? "MM" : "II").utf8) + directory(entries, bigEndian: bigEndian)
    }

    static func isHDR(make: String, note: [UInt8]) throws -> Bool? {
        try GroupingAndSubtypeTests.extract(jpeg(make: make, note: note), name: "DSC00001.JPG").isHDR
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
        // An ARW's note is the directory alone, known by the make (and not starting `\x01\0`,
        // which ExifTool leaves to other tables: so two entries, not one).
        let bare = Self.directory([0x200A: .long(0x0001_0010), 0xB04F: .short(1)], bigEndian: false)
        #expect(try Self.isHDR(make: "SONY", note: bare) == true)
        #expect(try Self.isHDR(make: "OtherMaker", note: bare) == nil)
    }

    @Test(arguments: [(1, true), (0, false), (48, false)] as [(UInt8, Bool)])
    func nikonHDRInfoOnMeansHDR(hdr: UInt8, isHDR: Bool) throws {
        for bigEndian in [true, false] {
            let note = Self.nikon(hdr: hdr, bigEndian: bigEndian)
            #expect(
                (try Self.isHDR(make: "NIKON CORPORATION", note: note) == true) == isHDR, "big-endian: \(bigEndian)")
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
    @Test(arguments: ["sony", "nikon", "pentax"])
    func aNoteCutShortOrDamagedChangesNothingElse(maker: String) throws {
        let (make, note): (String, [UInt8]) =
            switch maker {
            case "sony": ("SONY", Self.sony(hdr: (0x10, 1)))
            case "nikon": ("NIKON CORPORATION", Self.nikon(hdr: 1))
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
