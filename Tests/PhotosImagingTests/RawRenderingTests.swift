import Foundation
import PhotosImaging
import PhotosTestSupport
import Testing

/// Camera RAW through LibRaw: the corpus' DNG (a real 1224x816 Canon EOS 6D sensor with a 1024x683
/// preview) and its stripped samples (NEF, CRW, RAF, CR2 with their image data removed).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RawRenderingTests {
    let renderer = ImageRenderer()
    static let dng = Corpus.file("Camera/RAW/canon_eos_6d.dng")!.path

    /// The channel means of an image.
    func means(_ image: RenderedImage) throws -> [Double] {
        let pixels = try renderer.pixels(of: image.data)
        var sums = [Double](repeating: 0, count: pixels.channels)
        for (index, sample) in pixels.bytes.enumerated() { sums[index % pixels.channels] += Double(sample) }
        return sums.map { $0 / Double(pixels.size.width * pixels.size.height) }
    }

    @Test func headerIsTheDevelopedPicture() throws {
        let header = try renderer.header(ofFileAt: Self.dng)
        #expect(header.loader == "libraw")
        #expect(header.size == PixelSize(width: 1224, height: 816), "truth.json's displayed size")
    }

    @Test func smallImagesComeFromThePreviewAndLargeOnesFromTheSensor() throws {
        // 256 px: the embedded 1024x683 preview is large enough.
        let small = try renderer.render(fileAt: Self.dng, ImageRequest(target: PixelSize(width: 256, height: 256)))
        #expect(small.size == PixelSize(width: 256, height: 171))
        // The whole picture is larger than the preview: developed from the sensor data.
        let whole = try renderer.render(fileAt: Self.dng, ImageRequest())
        #expect(whole.size == PixelSize(width: 1224, height: 816))
        // Both are the same dark scene (a monitor in a dim room, blue light): the development is
        // not garbage. The camera's rendering is brighter than LibRaw's (its own tone curve: the
        // means are 36/27/46 against 29/21/36), so the colour is compared as each channel's share
        // of the total (0.33/0.24/0.43 for both); red and blue swapped would move it by 0.09.
        let (preview, developed) = (try means(small), try means(whole))
        let (previewTotal, developedTotal) = (preview.reduce(0, +), developed.reduce(0, +))
        #expect(developedTotal > previewTotal * 0.6 && developedTotal < previewTotal * 1.4)
        for (channel, (a, b)) in zip(preview, developed).enumerated() {
            #expect(
                abs(a / previewTotal - b / developedTotal) < 0.03, "channel \(channel): preview \(a), developed \(b)")
        }
    }

    @Test func strippedSamplesAreErrorsThatSayWhy() throws {
        for name in ["Camera/RAW/DSC_0070.NEF", "Camera/RAW/CRW_0040.CRW", "Camera/RAW/DSCF5000.RAF"] {
            let path = Corpus.file(name)!.path
            let error = #expect(throws: ImagingError.self) {
                try renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 64, height: 64)))
            }
            #expect(error?.code == .undecodable)
            #expect(error?.path == path)
            #expect(
                error?.message.contains("the sensor data cannot be developed") == true, "\(String(describing: error))")
        }
    }

    /// A file named .nef that is a JPEG is read as the JPEG it is.
    @Test func contentNotTheNameDecides() throws {
        let path = Corpus.file("Bad/DSC_0247.nef")!.path
        #expect(try renderer.header(ofFileAt: path).loader.hasPrefix("jpegload"))
        let image = try renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 64, height: 64)))
        #expect(image.size == PixelSize(width: 43, height: 64))
    }
}
