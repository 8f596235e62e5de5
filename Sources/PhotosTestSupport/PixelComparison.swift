import PhotosImaging

/// Comparing decoded images by their pixels, with a tolerance: how the orientation charts are
/// checked (bytes would differ with every encoder).
public enum PixelComparison {
    /// The mean absolute difference of two images' samples, 0 (same) to 255, leaving out the
    /// pixels `excluded` says to. Each image's mean is taken off each channel first: the charts
    /// were exported at different brightness (chart 3 is 13 levels darker than chart 1 all over).
    public static func difference(
        _ a: ImagePixels, _ b: ImagePixels, excluding excluded: (Int, Int) -> Bool = { _, _ in false }
    ) -> Double {
        precondition(a.size == b.size && a.channels == b.channels)
        var points: [(Int, Int)] = []
        for y in 0..<a.size.height {
            for x in 0..<a.size.width where !excluded(x, y) { points.append((x, y)) }
        }
        func means(_ image: ImagePixels) -> [Double] {
            var sums = [Double](repeating: 0, count: image.channels)
            for (x, y) in points {
                for (channel, sample) in image.pixel(x: x, y: y).enumerated() { sums[channel] += Double(sample) }
            }
            return sums.map { $0 / Double(max(points.count, 1)) }
        }
        let meanA = means(a)
        let meanB = means(b)
        var total = 0.0
        for (x, y) in points {
            for (channel, (p, q)) in zip(a.pixel(x: x, y: y), b.pixel(x: x, y: y)).enumerated() {
                total += abs((Double(p) - meanA[channel]) - (Double(q) - meanB[channel]))
            }
        }
        return total / Double(max(points.count * a.channels, 1))
    }

    /// The middle of a chart, where each shows its own orientation's digit.
    public static func isDigit(_ size: PixelSize) -> (Int, Int) -> Bool {
        { x, y in x * 8 >= size.width * 3 && x * 8 < size.width * 5 && y * 4 >= size.height && y * 4 < size.height * 3 }
    }

    /// `pixels` turned half a turn (what an orientation 3 chart looks like if its tag is ignored),
    /// or only mirrored left to right (orientation 2).
    public static func transformed(_ pixels: ImagePixels, halfTurn: Bool) -> ImagePixels {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pixels.bytes.count)
        let rows = Array(0..<pixels.size.height)
        for y in halfTurn ? rows.reversed() : rows {
            for x in (0..<pixels.size.width).reversed() { bytes += pixels.pixel(x: x, y: y) }
        }
        return ImagePixels(size: pixels.size, channels: pixels.channels, bytes: bytes)
    }

    /// The rows `rows` of `pixels`.
    public static func cropped(_ pixels: ImagePixels, rows: Range<Int>) -> ImagePixels {
        let stride = pixels.size.width * pixels.channels
        let bytes = Array(pixels.bytes[rows.lowerBound * stride..<rows.upperBound * stride])
        return ImagePixels(
            size: PixelSize(width: pixels.size.width, height: rows.count), channels: pixels.channels, bytes: bytes)
    }
}
