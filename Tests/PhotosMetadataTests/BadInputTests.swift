import Foundation
import PhotosMetadata
import PhotosTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Bad input is data, not a crash: every broken file is rejected with a code and a reason.
@Suite struct BadInputTests {
    static let extractor = MetadataExtractor()

    /// The code each rejected corpus file must get. Files under Bad/ that truth.json expects to be
    /// ingested (pixels intact, EXIF damaged or extension wrong) must extract.
    static let corpusRejections: [String: MetadataError.Code] = [
        "Bad/empty.jpg": .empty,
        "Bad/not_really_a_photo.jpg": .notMedia,
        "Bad/notes.txt": .notMedia,
        "Bad/document.pdf": .notMedia,
        "Bad/truncated.jpg": .truncated,
        "Bad/corrupt.png": .truncated,
        "Bad/exif_only_no_image.jpg": .corrupt,
        "Bad/garbage_ifd0.jpg": .corrupt,
        "Bad/heap-oob-write.tiff": .corrupt,
    ]

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),  // the corpus lives outside the repository
        arguments: Corpus.bad
    )
    func badCorpusFileIsRejectedWithItsReasonOrIngested(record: Corpus.Record) throws {
        let expected = Self.corpusRejections[record.path]
        do {
            let metadata = try Self.extractor.extract(path: record.url.path)
            #expect(expected == nil, "\(record.path) should be rejected as \(expected.map { "\($0)" } ?? "")")
            #expect(record.expect == "ingest")
            #expect(metadata.kind == .image)
        } catch {
            print("rejected \(record.path): \(error)")
            #expect(error.code == expected, "\(record.path): \(error)")
            #expect(!error.message.isEmpty)
            #expect(error.path == record.url.path)
        }
    }

    @Test func emptyFileIsEmpty() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write([], to: "empty.jpg")
        #expect(code(path) == .empty)
    }

    @Test func textNamedJPEGIsNotMediaAndTheReasonSaysSo() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Array("just some words\n".utf8), to: "photo.jpg")
        let error = #expect(throws: MetadataError.self) { try Self.extractor.extract(path: path) }
        #expect(error?.code == .notMedia)
        #expect(error?.message.contains("text/plain") == true)
        #expect(error?.message.contains(".jpg") == true)
    }

    @Test func missingFileDirectoryAndFIFOAreUnreadable() throws {
        let directory = try TemporaryDirectory()
        #expect(code(directory.url.appendingPathComponent("nope.jpg").path) == .unreadable)
        #expect(code(directory.url.path) == .unreadable)
        let fifo = directory.url.appendingPathComponent("pipe.jpg").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO must not block waiting for a writer.
        #expect(code(fifo) == .unreadable)
    }

    @Test(arguments: [
        ("SOI and a cut marker", [0xFF, 0xD8, 0xFF] as [UInt8], MetadataError.Code.truncated),
        ("SOI then EOI", [0xFF, 0xD8, 0xFF, 0xD9], .corrupt),
        ("segment longer than the file", [0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 0x45], .truncated),
        ("zero segment length", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00, 0x00, 0x00], .corrupt),
        ("scan before frame", [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9], .corrupt),
        (
            "frame with zero width", [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x00, 1, 1, 0x11, 0],
            .corrupt
        ),
    ])
    func brokenJPEGStructureIsRejected(name: String, bytes: [UInt8], expected: MetadataError.Code) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(bytes, to: "broken.jpg")
        #expect(code(path) == expected, "\(name)")
    }

    @Test func jpegCutInsideItsImageDataIsTruncated() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 8, endOfImage: false), to: "cut.jpg")
        #expect(code(path) == .truncated)
    }

    /// Bad/sigma_bad_format.jpg ends 6 bytes into its scan header: a metadata stub, ingested with
    /// its size, while a file cut anywhere after the first entropy-coded byte is an interrupted
    /// copy (Bad/truncated.jpg).
    @Test func jpegEndingInsideOrRightAfterItsScanHeaderIsAMetadataStubWithItsSize() throws {
        let directory = try TemporaryDirectory()
        let whole = JPEGBuilder.jpeg(width: 31, height: 7)
        let scanHeader = try #require(JPEGBuilder.scanHeaderRange(in: whole))
        for end in [
            scanHeader.lowerBound + 2, scanHeader.lowerBound + 4, scanHeader.upperBound - 1,
            scanHeader.upperBound,
        ] {
            let path = try directory.write(Array(whole.prefix(end)), to: "stub.jpg")
            let metadata = try Self.extractor.extract(path: path)
            #expect(metadata.pixelWidth == 31 && metadata.pixelHeight == 7, "cut at \(end)")
        }
        let oneEntropyByte = try directory.write(Array(whole.prefix(scanHeader.upperBound + 1)), to: "cut.jpg")
        #expect(code(oneEntropyByte) == .truncated)
    }

    @Test func jpegWithoutFrameHeaderCutInItsScanHeaderIsStillRejected() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x0C, 0x03], to: "noframe.jpg")
        #expect(code(path) == .truncated)
    }

    @Test func jpegWithTrailerAfterEOIIsFine() throws {
        let directory = try TemporaryDirectory()
        let trailer = [UInt8](repeating: 0x11, count: 200_000)  // like a motion photo's video
        let path = try directory.write(JPEGBuilder.jpeg(width: 8, height: 9) + trailer, to: "motion.jpg")
        let metadata = try Self.extractor.extract(path: path)
        #expect(metadata.pixelHeight == 9)
    }

    /// Broken files named by their format (libmagic calls some of these fragments unknown data;
    /// the extension then decides which parser rejects them).
    static let brokenHeaders: [(String, [UInt8])] = {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let gif: [UInt8] = Array("GIF89a".utf8) + [1]
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0xFF, 0x00, 0x00, 0x00]
        var webp: [UInt8] = Array("RIFF".utf8)
        webp += [0xFF, 0xFF, 0, 0]
        webp += Array("WEBPVP8 ".utf8)
        var mp4: [UInt8] = [0, 0, 0, 0x14]
        mp4 += Array("ftypisom".utf8)
        mp4 += [0, 0, 0, 0]
        mp4 += Array("isom".utf8)
        mp4 += [0, 1, 0, 0]
        mp4 += Array("mdat".utf8)
        var huge: [UInt8] = Array(mp4.prefix(20))
        huge += [0, 0, 0, 1] + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        return [
            ("signature-only.png", png), ("header-cut.gif", gif), ("ifd-past-the-end.tif", tiff),
            ("riff-size-past-the-end.webp", webp), ("box-past-the-end.mp4", mp4),
            ("largest-64-bit-box-size.mp4", huge),
        ]
    }()

    @Test(arguments: brokenHeaders)
    func brokenHeadersOfOtherFormatsAreRejected(name: String, bytes: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(bytes, to: name)
        let result = code(path)
        #expect(result == .truncated || result == .corrupt, "\(name): \(String(describing: result))")
    }

    /// Every ingestable corpus file up to 2 MB, cut at several points and with bytes flipped, must
    /// extract or throw: never trap, never hang.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))  // the corpus lives outside the repository
    func damagedCopiesOfCorpusFilesNeverCrashTheExtractor() throws {
        let directory = try TemporaryDirectory()
        var random = SplitMix64(seed: 0x5EED)
        var outcomes: [String: Int] = [:]
        for record in Corpus.ingestable {
            guard let original = try? [UInt8](Data(contentsOf: record.url)), original.count <= 2_000_000 else {
                continue
            }
            var variants: [[UInt8]] = []
            for fraction in [0.01, 0.1, 0.3, 0.6, 0.9, 0.999] {
                variants.append(Array(original.prefix(Int(Double(original.count) * fraction))))
            }
            for _ in 0..<6 {
                var copy = original
                // Damage the headers, where the parsers look.
                let span = min(copy.count, 4096)
                for _ in 0..<8 {
                    copy[Int.random(in: 0..<span, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                variants.append(copy)
            }
            let name = "fuzz." + (record.path.split(separator: ".").last.map(String.init) ?? "bin")
            for variant in variants {
                let path = try directory.write(variant, to: name)
                do {
                    _ = try Self.extractor.extract(path: path)
                    outcomes["extracted", default: 0] += 1
                } catch {
                    #expect(!error.message.isEmpty)
                    outcomes["\(error.code)", default: 0] += 1
                }
            }
        }
        print("damaged copies: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes.values.reduce(0, +) > 500)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))  // the corpus lives outside the repository
    func plainJPEGCutAnywhereInsideItsImageDataIsTruncated() throws {
        let directory = try TemporaryDirectory()
        let original = try [UInt8](
            Data(contentsOf: Corpus.directory.appendingPathComponent("Camera/2008/Road trip/DSCN0010.jpg")))
        for fraction in [0.2, 0.5, 0.8, 0.99] {
            let path = try directory.write(
                Array(original.prefix(Int(Double(original.count) * fraction))), to: "cut.jpg")
            #expect(code(path) == .truncated, "cut at \(fraction)")
        }
        let lastByteMissing = try directory.write(Array(original.dropLast()), to: "cut.jpg")
        #expect(code(lastByteMissing) == .truncated)
    }

    private func code(_ path: String) -> MetadataError.Code? {
        do {
            _ = try Self.extractor.extract(path: path)
            return nil
        } catch {
            return error.code
        }
    }
}
