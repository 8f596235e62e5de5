import Foundation
import PhotosImaging
import PhotosTestSupport
import Synchronization
import Testing

/// Rendering real files from the corpus (`../shared/corpus`), and hostile ones made here.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ImageRendererTests {
    let renderer = ImageRenderer()

    static func chart(_ orientation: Int) -> String {
        Corpus.file("Test charts/Orientation/landscape_\(orientation).jpg")!.path
    }

    @Test(arguments: 1...8)
    func orientationChartRendersUpright(orientation: Int) throws {
        let request = ImageRequest(target: PixelSize(width: 96, height: 96))
        let upright = try renderer.pixels(of: renderer.render(fileAt: Self.chart(1), request).data)
        let rendered = try renderer.render(fileAt: Self.chart(orientation), request)
        #expect(rendered.size == PixelSize(width: 96, height: 72), "every chart is 600x450 as displayed")
        let pixels = try renderer.pixels(of: rendered.data)
        #expect(pixels.size == upright.size)
        // Each chart shows its number in the middle; the scene around it is the same.
        let difference = PixelComparison.difference(pixels, upright, excluding: PixelComparison.isDigit(upright.size))
        #expect(difference < 12, "orientation \(orientation) differs from the upright chart by \(difference)")
        // The comparison can fail: the upright chart turned half a turn, or mirrored, is far from
        // itself (about 61 and 40 here, against 5.5 for every correctly oriented chart).
        for halfTurn in [true, false] {
            let wrong = PixelComparison.difference(
                PixelComparison.transformed(upright, halfTurn: halfTurn), upright,
                excluding: PixelComparison.isDigit(upright.size))
            #expect(wrong > 30, "\(wrong)")
        }
    }

    @Test func headerGivesTheDisplayedSize() throws {
        let header = try renderer.header(ofFileAt: Self.chart(6))
        #expect(header.storedSize == PixelSize(width: 450, height: 600))
        #expect(header.orientation == 6)
        #expect(header.size == PixelSize(width: 600, height: 450))
        #expect(header.loader.hasPrefix("jpegload"))
    }

    @Test func fitAndFillOfALandscapeAndAPortrait() throws {
        let box = PixelSize(width: 200, height: 200)
        let landscape = Self.chart(1)  // 600x450
        #expect(
            try renderer.render(fileAt: landscape, ImageRequest(target: box)).size == PixelSize(width: 200, height: 150)
        )
        #expect(
            try renderer.render(fileAt: landscape, ImageRequest(target: box, fill: true)).size
                == PixelSize(width: 267, height: 200))
        let portrait = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_0815.HEIC")).path  // 3024x4032
        #expect(
            try renderer.render(fileAt: portrait, ImageRequest(target: box)).size == PixelSize(width: 150, height: 200))
        #expect(
            try renderer.render(fileAt: portrait, ImageRequest(target: box, fill: true)).size
                == PixelSize(width: 200, height: 267))
    }

    @Test func cropKeepsTheAskedPart() throws {
        // The right half of the upright chart, rendered alone, matches the right half of the whole.
        let whole = try renderer.pixels(of: renderer.render(fileAt: Self.chart(8), ImageRequest()).data)
        var request = ImageRequest(target: PixelSize(width: 300, height: 450))
        request.crop = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let rendered = try renderer.render(fileAt: Self.chart(8), request)
        #expect(rendered.size == PixelSize(width: 300, height: 450))
        let half = try renderer.pixels(of: rendered.data)
        var right: [UInt8] = []
        var left: [UInt8] = []
        for y in 0..<450 {
            for x in 300..<600 { right += whole.pixel(x: x, y: y) }
            for x in 0..<300 { left += whole.pixel(x: x, y: y) }
        }
        let expected = ImagePixels(size: half.size, channels: 3, bytes: right)
        let wrong = ImagePixels(size: half.size, channels: 3, bytes: left)
        #expect(PixelComparison.difference(half, expected) < 8)
        #expect(PixelComparison.difference(half, wrong) > 20, "the left half would not do")
    }

    @Test func formatsAreWhatTheyAskFor() throws {
        for format in ImageFormat.allCases {
            let image = try renderer.render(
                fileAt: Self.chart(1), ImageRequest(target: PixelSize(width: 64, height: 64), format: format))
            #expect(image.format == format)
            let header = try renderer.header(of: image.data)
            #expect(header.loader.hasPrefix("\(format.rawValue)load"), "\(header.loader)")
            #expect(header.storedSize == PixelSize(width: 64, height: 48))
        }
    }

    @Test func previewComesFromTheEmbeddedThumbnailWhenLargeEnough() throws {
        let path = try #require(Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")).path
        let request = ImageRequest(target: PixelSize(width: 256, height: 256))
        let preview = try renderer.renderPreview(fileAt: path, request, edge: 256)
        #expect(preview.isFromEmbeddedThumbnail)
        // Upright, a JPEG, and smaller than the preview: the camera's thumbnail as it is, not decoded.
        #expect(preview.size == PixelSize(width: 160, height: 120))
        let header = try renderer.header(ofFileAt: path)
        #expect(preview.data == header.embeddedThumbnail)
        // Asked as PNG, or for a part of the picture, it is decoded and scaled to the preview's size.
        for asked in [
            ImageRequest(target: PixelSize(width: 256, height: 256), format: .png),
            ImageRequest(
                target: PixelSize(width: 200, height: 200), crop: NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)),
        ] {
            let decoded = try renderer.renderPreview(fileAt: path, asked, edge: 256)
            #expect(decoded.isFromEmbeddedThumbnail)
            #expect(decoded.data != header.embeddedThumbnail)
            #expect(
                decoded.size
                    == (asked.format == .png ? PixelSize(width: 256, height: 192) : PixelSize(width: 133, height: 200)))
        }
        // A larger preview than the thumbnail can give is decoded from the picture.
        let large = try renderer.renderPreview(
            fileAt: path, ImageRequest(target: PixelSize(width: 600, height: 600)), edge: 600)
        #expect(!large.isFromEmbeddedThumbnail)
        #expect(large.size == PixelSize(width: 600, height: 450))
        // The final rendering never uses it.
        #expect(try !renderer.render(fileAt: path, request).isFromEmbeddedThumbnail)
    }

    /// Channel means at 64 px of pictures with embedded profiles (Display P3 in iPhone HEICs, a
    /// camera profile in a JPEG), as libvips' own transform (`vips_icc_transform`, which the renderer
    /// used before keeping one lcms transform per profile) gave them. Leaving the profile out moves
    /// IMG_0815's red by -0.8 and its blue by +1.6: far outside the tolerance.
    @Test func embeddedProfilesAreConvertedToSRGB() throws {
        let expected: [(String, [Double])] = [
            ("Phone/DCIM/100APPLE/IMG_0815.HEIC", [168.3, 163.7, 151.3]),
            ("Phone/DCIM/100APPLE/IMG_5195.HEIC", [124.3, 119.8, 117.6]),
            ("Camera/2021/Norway/aurora.jpg", [9.1, 71.8, 83.7]),
        ]
        for (name, means) in expected {
            let path = try #require(Corpus.file(name)).path
            let image = try renderer.render(
                fileAt: path, ImageRequest(target: PixelSize(width: 64, height: 64), format: .png))
            let pixels = try renderer.pixels(of: image.data)
            var sums = [Double](repeating: 0, count: pixels.channels)
            for (index, sample) in pixels.bytes.enumerated() { sums[index % pixels.channels] += Double(sample) }
            let ours = sums.map { $0 / Double(pixels.size.width * pixels.size.height) }
            for (channel, (mean, want)) in zip(ours, means).enumerated() {
                #expect(abs(mean - want) < 0.2, "\(name) channel \(channel): \(mean), libvips gave \(want)")
            }
        }
    }

    /// One transform per profile serves every thread at once: the same pixels as one at a time.
    @Test func renderingAtOnceGivesTheSameImages() throws {
        let paths = [
            "Phone/DCIM/100APPLE/IMG_0815.HEIC", "Phone/DCIM/100APPLE/IMG_2682.HEIC", "Camera/2021/Norway/aurora.jpg",
        ]
        .map { Corpus.file($0)!.path }
        let request = ImageRequest(target: PixelSize(width: 48, height: 48), format: .png)
        let alone = try paths.map { try renderer.render(fileAt: $0, request).data }
        let results = Mutex([Int: [UInt8]]())
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            let data = try? renderer.render(fileAt: paths[index % paths.count], request).data
            results.withLock { $0[index] = data }
        }
        for (index, data) in results.withLock({ $0 }) {
            #expect(data == alone[index % paths.count], "render \(index) differs")
        }
    }

    /// A HEIC's own thumbnail (320x240 beside an iPhone's 4032x3024 picture) serves previews: shrunk
    /// to the preview when larger, as it is when smaller, and upright like the picture.
    @Test(arguments: ["Phone/DCIM/100APPLE/IMG_0815.HEIC", "Phone/DCIM/100APPLE/IMG_2682.HEIC"])
    func previewComesFromTheHEIFThumbnail(name: String) throws {
        let path = try #require(Corpus.file(name)).path
        let upright = try renderer.header(ofFileAt: path).size
        let small = try renderer.renderPreview(fileAt: path, ImageRequest(target: PixelSize(width: 128, height: 128)))
        #expect(small.isFromEmbeddedThumbnail)
        #expect(small.size == ImageGeometry.scaled(upright, into: PixelSize(width: 128, height: 128), fill: false))
        let large = try renderer.renderPreview(
            fileAt: path, ImageRequest(target: PixelSize(width: 512, height: 512)), edge: 512)
        #expect(large.isFromEmbeddedThumbnail)
        #expect(max(large.size.width, large.size.height) == 320, "the thumbnail's own size: \(large.size)")
        #expect(ImageGeometry.sameProportions(large.size, upright))
        // The same picture as the full decode, the same way up.
        let final = try renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 128, height: 128)))
        let difference = PixelComparison.difference(
            try renderer.pixels(of: small.data), try renderer.pixels(of: final.data))
        #expect(difference < 12, "the preview is \(difference) from the picture")
        // Too large a preview for the thumbnail is decoded from the picture.
        let decoded = try renderer.renderPreview(
            fileAt: path, ImageRequest(target: PixelSize(width: 1024, height: 1024)), edge: 1024)
        #expect(!decoded.isFromEmbeddedThumbnail)
    }

    @Test func truncatedAndCorruptFilesAreErrorsWithTheFile() throws {
        for name in [
            "Bad/truncated.jpg", "Bad/corrupt.png", "Bad/empty.jpg", "Bad/not_really_a_photo.jpg",
            "Bad/heap-oob-write.tiff",
        ] {
            let path = try #require(Corpus.file(name)).path
            let error = #expect(throws: ImagingError.self) {
                try renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 128, height: 128)))
            }
            #expect(error?.code == .undecodable, "\(name): \(String(describing: error))")
            #expect(error?.path == path)
            #expect(error?.message.isEmpty == false)
        }
    }

    @Test func aMissingFileIsMissing() {
        let error = #expect(throws: ImagingError.self) {
            try renderer.render(fileAt: "/nonexistent/photo.jpg", ImageRequest())
        }
        #expect(error?.code == .missing)
    }

    @Test func aDecompressionBombIsRefusedBeforeDecoding() throws {
        let directory = try TemporaryDirectory()
        let bomb = directory.path("bomb.png")
        try TestImages.bombPNG().write(to: bomb)
        #expect(try Data(contentsOf: bomb).count < 2000)
        let error = #expect(throws: ImagingError.self) {
            try renderer.render(fileAt: bomb.path, ImageRequest(target: PixelSize(width: 256, height: 256)))
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("60000x60000") == true, "\(String(describing: error))")
        // The same limit holds for encoded data handed over in memory.
        let inMemory = #expect(throws: ImagingError.self) { try renderer.pixels(of: [UInt8](TestImages.bombPNG())) }
        #expect(inMemory?.code == .undecodable || inMemory?.code == .tooLarge)
    }

    @Test func aPNGWhoseChunkClaimsMoreThanTheFileHoldsIsRefusedBeforeDecoding() throws {
        // libpng allocated such a chunk's claimed length (1.9 GB for this 213-byte file) before
        // finding the file's end; every way in refuses it first, naming the chunk.
        let directory = try TemporaryDirectory()
        let file = directory.path("overclaiming.png")
        let data = TestImages.overclaimingPNG()
        try data.write(to: file)
        #expect(data.count == 213)
        let reason = "its iTXt chunk at byte 33 claims 1986621555 bytes, past the end of the 213-byte file"
        let errors = [
            #expect(throws: ImagingError.self) { try renderer.header(ofFileAt: file.path) },
            #expect(throws: ImagingError.self) { try renderer.render(fileAt: file.path, ImageRequest()) },
            #expect(throws: ImagingError.self) { try renderer.renderPreview(fileAt: file.path, ImageRequest()) },
            #expect(throws: ImagingError.self) { try renderer.header(of: [UInt8](data)) },
            #expect(throws: ImagingError.self) { try renderer.pixels(of: [UInt8](data)) },
        ]
        for error in errors {
            #expect(
                error?.code == .undecodable && error?.message.hasSuffix(reason) == true, "\(String(describing: error))")
        }
        // A whole PNG, its chunks walked to its end, is read as before, from a file and from memory.
        let png = try renderer.render(
            fileAt: Self.chart(1), ImageRequest(target: PixelSize(width: 64, height: 64), format: .png))
        let whole = directory.path("whole.png")
        try Data(png.data).write(to: whole)
        #expect(try renderer.header(ofFileAt: whole.path).storedSize == PixelSize(width: 64, height: 48))
        #expect(try renderer.pixels(of: png.data).size == PixelSize(width: 64, height: 48))
    }
}

/// Every image of the corpus that libvips reads, against `truth.json`'s displayed size.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json"))
struct CorpusImageTests {
    struct Record: Decodable {
        let path: String
        let kind: String
        let expect: String
        let width: Int?
        let height: Int?
    }

    static let images: [Record] = {
        guard let root = Corpus.root,
            let data = try? Data(contentsOf: root.deletingLastPathComponent().appendingPathComponent("truth.json")),
            let records = try? JSONDecoder().decode([Record].self, from: data)
        else { return [] }
        return records.filter { $0.kind == "image" && $0.expect == "ingest" && $0.width != nil }
    }()

    /// Files truth.json counts as images that are not rendered at their size here, and why.
    /// The corpus' RAW samples other than the DNG are ExifTool's stripped test files: their image
    /// data and previews were removed (`RawRenderingTests.strippedSamplesAreErrorsThatSayWhy`).
    static func notRendered(_ path: String) -> String? {
        if path.hasPrefix("Camera/RAW/"), !path.hasSuffix(".dng") { return "a stripped RAW sample: no image data" }
        if path == "Bad/sigma_bad_format.jpg" {
            return "ends at its scan header: no pixels (truth.json has it for its EXIF)"
        }
        return nil
    }

    @Test func everyImageRendersAtItsDisplayedProportions() throws {
        try #require(Self.images.count > 50, "truth.json lists \(Self.images.count) images")
        let renderer = ImageRenderer()
        var failures: [String] = []
        for record in Self.images {
            let path = Corpus.file(record.path)!.path
            if Self.notRendered(record.path) != nil {
                // Still no crash: an image or an error.
                _ = try? renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 64, height: 64)))
                continue
            }
            let expected = PixelSize(width: record.width!, height: record.height!)
            do {
                let header = try renderer.header(ofFileAt: path)
                if header.size != expected { failures.append("\(record.path): \(header.size), truth \(expected)") }
                let image = try renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 64, height: 64)))
                let fitted = ImageGeometry.scaled(expected, into: PixelSize(width: 64, height: 64), fill: false)
                if image.size != fitted {
                    failures.append("\(record.path): rendered \(image.size), expected \(fitted)")
                }
            } catch {
                failures.append("\(record.path): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.images.count):\n\(failures.joined(separator: "\n"))")
    }
}
