import PhotosImaging
import Testing

/// The size rules, as a table.
@Suite struct ImageGeometryTests {
    @Test(arguments: [
        // source, target, fill, expected
        (
            PixelSize(width: 600, height: 450), PixelSize(width: 200, height: 200), false,
            PixelSize(width: 200, height: 150)
        ),
        (
            PixelSize(width: 600, height: 450), PixelSize(width: 200, height: 200), true,
            PixelSize(width: 267, height: 200)
        ),
        (
            PixelSize(width: 450, height: 600), PixelSize(width: 200, height: 200), false,
            PixelSize(width: 150, height: 200)
        ),
        (
            PixelSize(width: 450, height: 600), PixelSize(width: 200, height: 200), true,
            PixelSize(width: 200, height: 267)
        ),
        // Never enlarged.
        (
            PixelSize(width: 600, height: 450), PixelSize(width: 1000, height: 1000), false,
            PixelSize(width: 600, height: 450)
        ),
        (
            PixelSize(width: 600, height: 450), PixelSize(width: 1000, height: 100), true,
            PixelSize(width: 600, height: 450)
        ),
        // A sliver keeps a pixel.
        (
            PixelSize(width: 10000, height: 10), PixelSize(width: 100, height: 100), false,
            PixelSize(width: 100, height: 1)
        ),
    ])
    func fitAndFillSizes(source: PixelSize, target: PixelSize, fill: Bool, expected: PixelSize) {
        #expect(ImageGeometry.scaled(source, into: target, fill: fill) == expected)
    }

    @Test func normalizedRectsBecomeClampedPixels() {
        let size = PixelSize(width: 600, height: 400)
        #expect(
            NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.5).pixels(in: size)
                == PixelRect(x: 300, y: 0, size: PixelSize(width: 300, height: 200)))
        // Past the edge: clamped to the image.
        #expect(
            NormalizedRect(x: 0.75, y: 0.75, width: 1, height: 1).pixels(in: size)
                == PixelRect(x: 450, y: 300, size: PixelSize(width: 150, height: 100)))
        // Zero is no crop; NaN is clamped, not trapped on.
        #expect(NormalizedRect(x: 0, y: 0, width: 0, height: 0).isEmpty)
        #expect(NormalizedRect(x: .nan, y: 0, width: 0.1, height: 0.1).pixels(in: size).size.width >= 1)
    }

    @Test func paddedThumbnailsAreNotTheSameShape() {
        #expect(ImageGeometry.sameProportions(PixelSize(width: 160, height: 120), PixelSize(width: 4000, height: 3000)))
        #expect(
            !ImageGeometry.sameProportions(PixelSize(width: 160, height: 120), PixelSize(width: 6000, height: 4000)))
    }
}
