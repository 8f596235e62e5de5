import Foundation
import PhotosCore

/// What decoding an image for a render costs in memory, from its header alone, by how its
/// format's decoder works (libvips 8.14 and the libraries under it):
///
/// | file | decoded as | estimate |
/// |---|---|---|
/// | baseline JPEG | a few rows at a time, shrunk on load | streamed |
/// | progressive JPEG | every DCT coefficient of the picture kept (2 bytes a sample), whatever the shrink | width × height × bands × 2 |
/// | PNG, not interlaced | row by row | streamed |
/// | interlaced PNG | the whole picture into memory first | width × height × bands × bytes a sample |
/// | WebP | decoded already scaled (shrink-on-load) | streamed |
/// | anything else (HEIF/AVIF, JPEG XL, GIF, TIFF...) | whole, or not known to stream | width × height × bands × bytes a sample |
///
/// *Streamed* is a band of rows of the stored width (libvips' tiles and its threads' buffers)
/// plus the scaled picture: `width × bands × bytes × 256 + output pixels × 4 × 2`.
///
/// ```swift
/// DecodeCost.bytes(of: header, output: PixelSize(width: 256, height: 256))
/// // an interlaced 16-bit RGBA PNG of 14000x14000: 1_568_000_000
/// ```
public enum DecodeCost {
    /// The estimated peak bytes of decoding `header`'s picture to render `output` pixels (the
    /// whole picture at the size asked for).
    public static func bytes(of header: ImageHeader, output: PixelSize) -> Int {
        let width = header.storedSize.width
        let height = header.storedSize.height
        let bands = max(header.bands, 1)
        let sample = max(header.bytesPerSample, 1)
        let whole = width.saturatingMultiplied(by: height).saturatingMultiplied(by: bands)
        let streamed = width.saturatingMultiplied(by: bands * sample * 256)
            .saturatingAdded(output.width.saturatingMultiplied(by: output.height).saturatingMultiplied(by: 8))
        let loader = header.loader
        if loader.hasPrefix("jpegload") {
            return header.progressive ? max(whole.saturatingMultiplied(by: 2), streamed) : streamed
        }
        if loader.hasPrefix("pngload") {
            return header.interlaced ? max(whole.saturatingMultiplied(by: sample), streamed) : streamed
        }
        if loader.hasPrefix("webpload") { return streamed }
        return max(whole.saturatingMultiplied(by: sample), streamed)
    }

    /// Why `header`'s picture costs what it does, in a few words, for a refusal's message.
    static func reason(of header: ImageHeader) -> String {
        let size = "\(header.storedSize.width)x\(header.storedSize.height) pixels"
        let samples = "\(header.bands) samples of \(header.bytesPerSample) byte\(header.bytesPerSample == 1 ? "" : "s")"
        if header.loader.hasPrefix("pngload"), header.interlaced {
            return "an interlaced PNG is decoded whole: \(size), \(samples)"
        }
        if header.loader.hasPrefix("jpegload"), header.progressive {
            return "a progressive JPEG keeps all its coefficients: \(size), \(header.bands) samples of 2 bytes"
        }
        return "\(header.loader.split(separator: "_").first ?? "its loader") decodes it whole: \(size), \(samples)"
    }
}

/// The memory the process lets image decodes take at once: a budget in bytes, shared by every
/// renderer, that a decode reserves its estimated cost (``DecodeCost``) from before any pixel is
/// decoded and gives back when done.
///
/// A decode that alone would exceed the budget is refused (``ImagingError/Code/tooLarge``, with
/// the estimate and the reason) rather than started; one that fits waits while others hold the
/// memory, so two large files asked for at once are decoded one after the other instead of side
/// by side on every core. photosd sets the budget from its config (`decode_memory_mb`).
///
/// ```swift
/// DecodeMemory.shared.budget = 128 << 20
/// let image = try renderer.render(fileAt: path, request)   // reserves, decodes, gives back
/// ```
public final class DecodeMemory: @unchecked Sendable {  // `limit` and `inUse` are guarded by `condition`.
    /// The process's budget, which every ``ImageRenderer`` draws from.
    public static let shared = DecodeMemory()

    /// 256 MB: with the daemon's own 100 to 200 MB, any file under the pixel limit is thumbnailed
    /// (or refused) within 512 MB.
    public static let defaultBudget = 256 << 20

    private let condition = NSCondition()
    private var limit: Int
    private var inUse = 0

    /// A budget of `budget` bytes.
    public init(budget: Int = DecodeMemory.defaultBudget) {
        limit = max(budget, 1)
    }

    /// The most bytes decodes may hold at once; at least 1. Lowering it does not stop decodes under
    /// way; raising it lets waiting ones start.
    public var budget: Int {
        get { condition.withLock { limit } }
        set {
            condition.withLock {
                limit = max(newValue, 1)
                condition.broadcast()
            }
        }
    }

    /// The bytes reserved now.
    public var reserved: Int { condition.withLock { inUse } }

    /// Runs `body` with `bytes` reserved: refused at once when `bytes` is more than the whole budget
    /// (`reason` says why the file costs that much), else after waiting for that much to be free.
    func reserving<T>(
        _ bytes: Int, path: String?, reason: @autoclosure () -> String, _ body: () throws(ImagingError) -> T
    ) throws(ImagingError) -> T {
        let bytes = max(bytes, 0)
        let budget = self.budget
        guard bytes <= budget else {
            throw ImagingError(
                .tooLarge,
                "decoding it would take about \(Self.megabytes(bytes)) MB (\(reason())), more than the decode memory "
                    + "budget of \(Self.megabytes(budget)) MB (decode_memory_mb); not decoded",
                path: path)
        }
        condition.withLock {
            while inUse > 0 && inUse + bytes > limit { condition.wait() }
            inUse += bytes
        }
        defer {
            condition.withLock {
                inUse -= bytes
                condition.broadcast()
            }
        }
        return try body()
    }

    static func megabytes(_ bytes: Int) -> Int { (bytes + (1 << 20) - 1) >> 20 }
}

extension Int {
    fileprivate func saturatingMultiplied(by other: Int) -> Int {
        let (value, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : value
    }

    fileprivate func saturatingAdded(_ other: Int) -> Int {
        let (value, overflow) = addingReportingOverflow(other)
        return overflow ? .max : value
    }
}
