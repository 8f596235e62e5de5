/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size with width and height exchanged (a quarter turn).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in whole pixels, origin at the top left.
public struct PixelRect: Sendable, Hashable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// The rectangle's size.
    public var size: PixelSize

    /// Creates a rectangle.
    public init(x: Int, y: Int, size: PixelSize) {
        self.x = x
        self.y = y
        self.size = size
    }
}

/// A rectangle in the unit square of an upright image: (0, 0) is its top left corner and (1, 1)
/// the opposite one, whatever the image's proportions (PhotoKit's `normalizedCropRect`).
public struct NormalizedRect: Sendable, Hashable {
    /// Left edge, 0...1.
    public var x: Double
    /// Top edge, 0...1.
    public var y: Double
    /// Width, 0...1.
    public var width: Double
    /// Height, 0...1.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle is empty or zero (PhotoKit's "no crop").
    public var isEmpty: Bool { !(width > 0) || !(height > 0) }

    /// The pixels of an image of `size` the rectangle covers: clamped to the image, at least one
    /// pixel each way.
    public func pixels(in size: PixelSize) -> PixelRect {
        func clamp(_ value: Double) -> Double { value.isFinite ? min(max(value, 0), 1) : 0 }
        let left = clamp(x)
        let top = clamp(y)
        let right = clamp(x + width)
        let bottom = clamp(y + height)
        let x0 = min(Int((left * Double(size.width)).rounded()), size.width - 1)
        let y0 = min(Int((top * Double(size.height)).rounded()), size.height - 1)
        let x1 = max(Int((right * Double(size.width)).rounded()), x0 + 1)
        let y1 = max(Int((bottom * Double(size.height)).rounded()), y0 + 1)
        return PixelRect(x: x0, y: y0, size: PixelSize(width: x1 - x0, height: y1 - y0))
    }
}

/// The size rules of image requests, as pure functions.
public enum ImageGeometry {
    /// `source` scaled, proportions kept, to fit inside `target` (every pixel shown) or to fill it
    /// (`fill`: the target covered, the excess left for the caller to crop). Never enlarged, and at
    /// least one pixel each way.
    ///
    /// | source | target | fit | fill |
    /// |---|---|---|---|
    /// | 600x450 | 200x200 | 200x150 | 267x200 |
    /// | 450x600 | 200x200 | 150x200 | 200x267 |
    /// | 600x450 | 1000x1000 | 600x450 | 600x450 |
    public static func scaled(_ source: PixelSize, into target: PixelSize, fill: Bool) -> PixelSize {
        guard source.width > 0, source.height > 0 else { return PixelSize(width: 1, height: 1) }
        let horizontal = Double(max(target.width, 1)) / Double(source.width)
        let vertical = Double(max(target.height, 1)) / Double(source.height)
        let scale = min(fill ? max(horizontal, vertical) : min(horizontal, vertical), 1)
        return PixelSize(
            width: max(1, Int((Double(source.width) * scale).rounded())),
            height: max(1, Int((Double(source.height) * scale).rounded())))
    }

    /// The size the whole image of `size` is scaled to so that its `region` comes out at `output`.
    public static func whole(_ size: PixelSize, region: PixelRect, output: PixelSize) -> PixelSize {
        PixelSize(
            width: max(
                output.width, Int((Double(size.width) * Double(output.width) / Double(region.size.width)).rounded())),
            height: max(
                output.height, Int((Double(size.height) * Double(output.height) / Double(region.size.height)).rounded())
            ))
    }

    /// `region` of an image of `size`, moved to the same place in the image scaled to `whole`, with
    /// `output` as its size (kept inside `whole`).
    public static func place(_ region: PixelRect, of size: PixelSize, in whole: PixelSize, output: PixelSize)
        -> PixelRect
    {
        let x = Int((Double(region.x) * Double(whole.width) / Double(size.width)).rounded())
        let y = Int((Double(region.y) * Double(whole.height) / Double(size.height)).rounded())
        return PixelRect(
            x: max(0, min(x, whole.width - output.width)), y: max(0, min(y, whole.height - output.height)), size: output
        )
    }

    /// Whether an embedded thumbnail of `thumbnail` pixels has the proportions of a picture of
    /// `picture` pixels (both as stored), within 2 %: cameras that pad it to 4:3 with black bars
    /// fail this.
    public static func sameProportions(_ thumbnail: PixelSize, _ picture: PixelSize) -> Bool {
        guard thumbnail.width > 0, thumbnail.height > 0, picture.width > 0, picture.height > 0 else { return false }
        let a = Double(thumbnail.width) / Double(thumbnail.height)
        let b = Double(picture.width) / Double(picture.height)
        return abs(a - b) <= 0.02 * b
    }
}
