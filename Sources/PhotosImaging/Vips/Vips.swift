internal import CPhotosVips

/// libvips, started once per process.
enum Vips {
    /// Starts libvips (VIPS_INIT) with its limits for hostile input (see `cphotos_vips_start`),
    /// and clears its error text, so that a failure's reason is not an earlier warning's.
    static func start() throws(ImagingError) {
        guard started else {
            throw ImagingError(.failed, "libvips could not start: \(takeError() ?? "no reason given")")
        }
        _ = takeError()
    }

    private static let started: Bool = cphotos_vips_start() == 0

    /// libvips' error text since the last call, cleared.
    ///
    /// libvips 8.14 keeps one error buffer for the process: under concurrent failures a reason
    /// can carry another request's text too.
    static func takeError() -> String? {
        guard let text = cphotos_vips_take_error() else { return nil }
        defer { cphotos_vips_free(text) }
        let reason = String(cString: text).split(whereSeparator: \.isNewline).joined(separator: "; ")
        return reason.isEmpty ? nil : reason
    }

    /// The reason for a failure: libvips' text, made plainer, or `fallback` when it gave none.
    static func reason(_ fallback: String) -> String {
        guard let text = takeError() else { return fallback }
        // A loader libvips does not trust with hostile input (ImageMagick for BMP and odd TIFFs, PDF):
        if text.contains("operation is blocked") { return "no trusted decoder reads this format (\(text))" }
        if text.contains("is not a known file format") { return "not an image format libvips reads" }
        return text
    }
}

/// One libvips image or source: owns the reference and releases it.
final class VipsObject {
    let pointer: UnsafeMutableRawPointer

    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }

    deinit { cphotos_vips_release(pointer) }

    var size: PixelSize {
        PixelSize(width: Int(cphotos_vips_width(pointer)), height: Int(cphotos_vips_height(pointer)))
    }

    var bands: Int { Int(cphotos_vips_bands(pointer)) }
}
