internal import CPhotosVips
import Glibc
import PhotosCore
import PhotosLinux

/// Decodes, orients, crops and scales images with libvips, within limits set for hostile files.
///
/// Files are opened read-only; nothing is ever written beside them. Every result is upright
/// (EXIF orientation applied), sRGB (an embedded colour profile converted), 8 bits a channel,
/// and encoded without metadata. A damaged file throws ``ImagingError`` with the reason; a file
/// whose header declares more than ``Limits-swift.struct/maximumPixelCount`` pixels is refused
/// before any pixel is decoded.
///
/// ```swift
/// let renderer = ImageRenderer()
/// let image = try renderer.render(fileAt: "/photos/IMG_0001.JPG",
///                                 ImageRequest(target: PixelSize(width: 256, height: 256)))
/// try Data(image.data).write(to: URL(fileURLWithPath: "/tmp/thumb.jpg"))
/// ```
public struct ImageRenderer: Sendable {
    /// How large an image the renderer decodes.
    public struct Limits: Sendable, Hashable {
        /// The most pixels (width x height) an image may declare: 200 megapixels by default, above
        /// any camera's sensor and below what a few-kilobyte PNG or JPEG can claim.
        public var maximumPixelCount: Int

        /// Creates limits.
        public init(maximumPixelCount: Int = 200_000_000) {
            self.maximumPixelCount = maximumPixelCount
        }
    }

    /// The largest image decoded.
    public let limits: Limits

    /// What the renderer makes of a file and a request, as a number: raised when the same request
    /// would give other pixels (a changed resampling, colour handling, encoder setting), so that
    /// images kept on disk (``ThumbnailDiskCache``) from before are not served.
    public static let version = 2

    /// Creates a renderer with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The header of the file at `path`, checked against the limits.
    public func header(ofFileAt path: String) throws(ImagingError) -> ImageHeader {
        if let raw = try RawFile.open(path) { return try checked(raw.header, path: path) }
        let file = try OpenImage(path: path)
        return try checked(file.header(), path: path)
    }

    /// The file at `path` rendered as `request` asks.
    public func render(fileAt path: String, _ request: ImageRequest) throws(ImagingError) -> RenderedImage {
        try render(fileAt: path, request, previewEdge: nil)
    }

    /// The size the file at `path` renders at for `request` (its header only: nothing is decoded).
    public func outputSize(ofFileAt path: String, _ request: ImageRequest) throws(ImagingError) -> PixelSize {
        Framing(try header(ofFileAt: path).size, request, previewEdge: nil).output
    }

    /// A quick, smaller rendering of the same request: at most `edge` pixels on its longer side,
    /// from the camera's embedded thumbnail when that is at least half the size needed and has
    /// the picture's proportions, else a shrink-on-load decode (JPEG decodes at 1/2, 1/4 or 1/8).
    public func renderPreview(fileAt path: String, _ request: ImageRequest, edge: Int = 256) throws(ImagingError)
        -> RenderedImage
    {
        try render(fileAt: path, request, previewEdge: max(edge, 1))
    }

    /// The header of encoded image data.
    public func header(of data: [UInt8]) throws(ImagingError) -> ImageHeader {
        try Vips.start()
        try Self.checkChunks(data, path: nil)
        var header = cphotos_vips_header()
        let status = data.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return cphotos_vips_read_header_buffer(base, buffer.count, &header)
        }
        guard status == 0 else { throw ImagingError(.undecodable, Vips.reason("not an image libvips reads")) }
        return try checked(ImageHeader(header), path: nil)
    }

    /// The pixels of encoded image data, upright.
    public func pixels(of data: [UInt8]) throws(ImagingError) -> ImagePixels {
        try Vips.start()
        let image = try decode(data, orientation: 0, size: nil, path: nil)
        var length = 0
        guard let samples = cphotos_vips_pixels(image.pointer, &length) else {
            throw ImagingError(.undecodable, Vips.reason("the pixels could not be decoded"))
        }
        defer { cphotos_vips_free(samples) }
        let bytes = Array(UnsafeRawBufferPointer(start: samples, count: length))
        return ImagePixels(size: image.size, channels: image.bands, bytes: bytes)
    }

    /// Encoded image data decoded, turned upright, and encoded again as `format`.
    public func transcode(_ data: [UInt8], to format: ImageFormat, quality: Int = 85) throws(ImagingError) -> [UInt8] {
        try Vips.start()
        return try encode(decode(data, orientation: 0, size: nil, path: nil), format, quality: quality, path: nil)
    }

    private func render(fileAt path: String, _ request: ImageRequest, previewEdge: Int?) throws(ImagingError)
        -> RenderedImage
    {
        if let raw = try RawFile.open(path) { return try render(raw, request, previewEdge: previewEdge) }
        let file = try OpenImage(path: path)
        let header = try checked(file.header(), path: path)
        let upright = header.size
        let (region, output, whole) = Framing(upright, request, previewEdge: previewEdge).parts

        var image: VipsObject
        var fromThumbnail = false
        let thumbnail = previewEdge == nil ? nil : usableThumbnail(header, whole: whole)
        if let thumbnail, let kept = asItIs(thumbnail, header, request, whole: whole, output: output) {
            return kept
        }
        if previewEdge != nil, output == whole, let kept = heifThumbnail(file, header, whole: whole) {
            image = kept
            fromThumbnail = true
        } else if let thumbnail,
            let decoded = try? decode(thumbnail.data, orientation: header.orientation, size: whole, path: path)
        {
            image = decoded
            fromThumbnail = true
        } else {
            // The picture itself: its memory reserved for the whole decode (libvips decodes lazily,
            // in finish), or refused when it alone would take more than the budget.
            return try DecodeMemory.shared.reserving(
                DecodeCost.bytes(of: header, output: whole), path: path, reason: DecodeCost.reason(of: header)
            ) { () throws(ImagingError) -> RenderedImage in
                guard let scaled = cphotos_vips_thumbnail(file.source.pointer, Int32(whole.width), Int32(whole.height))
                else {
                    throw ImagingError(.undecodable, Vips.reason("libvips cannot decode it"), path: path)
                }
                return try finish(
                    VipsObject(scaled), region: region, of: upright, whole: whole, output: output, request, path: path,
                    fromThumbnail: false)
            }
        }
        // A thumbnail smaller than the preview is delivered at its own size, not enlarged.
        let size = image.size
        if fromThumbnail, size != whole {
            let all = PixelRect(x: 0, y: 0, size: size)
            return try finish(
                image, region: all, of: size, whole: size, output: size, request, path: path, fromThumbnail: true)
        }
        return try finish(
            image, region: region, of: upright, whole: whole, output: output, request, path: path,
            fromThumbnail: fromThumbnail)
    }

    /// The thumbnail a HEIF or AVIF file carries (320x240 from an iPhone), for a preview of the
    /// whole picture scaled to `whole`: as it is when no larger, else shrunk to `whole`; nil when
    /// the file has none, or one too small (under half of `whole`) or of other proportions.
    private func heifThumbnail(_ file: OpenImage, _ header: ImageHeader, whole: PixelSize) -> VipsObject? {
        guard header.loader.hasPrefix("heifload"),
            let pointer = cphotos_vips_heif_thumbnail(
                file.source.pointer, Int32(header.storedSize.width), Int32(header.storedSize.height))
        else { return nil }
        let thumbnail = VipsObject(pointer)
        let size = thumbnail.size
        guard ImageGeometry.sameProportions(size, header.size),
            max(size.width, size.height) * 2 >= max(whole.width, whole.height)
        else { return nil }
        if size.width <= whole.width && size.height <= whole.height { return thumbnail }
        return cphotos_vips_resize(thumbnail.pointer, Int32(whole.width), Int32(whole.height)).map(VipsObject.init)
    }

    /// A camera RAW rendered: from its largest embedded preview when that is as large as the
    /// request needs (most cameras embed one of the full size), or for a preview; else from its
    /// sensor data, developed by LibRaw (at half size when that suffices); else, when the data
    /// cannot be developed, from the preview at its own size.
    private func render(_ raw: RawFile, _ request: ImageRequest, previewEdge: Int?) throws(ImagingError)
        -> RenderedImage
    {
        let path = raw.path
        let picture = try checked(raw.size, path: path)
        let framing = Framing(picture, request, previewEdge: previewEdge)
        var fallback: (RawFile.Preview, PixelSize)?
        var previewProblem = raw.hasPreview ? nil : "no embedded preview"
        let preview = Result { () throws(ImagingError) in try raw.hasPreview ? raw.preview() : nil }
        if case .failure(let error) = preview { previewProblem = error.message }
        if case .success(let preview?) = preview {
            let stored: PixelSize? =
                switch preview {
                case .jpeg(let data): try? header(of: data).storedSize
                case .pixels(_, let size): size
                }
            if let stored, stored.width > 0, stored.height > 0,
                ImageGeometry.sameProportions(raw.orientation >= 5 ? stored.transposed : stored, picture)
            {
                let upright = raw.orientation >= 5 ? stored.transposed : stored
                if previewEdge != nil
                    || (upright.width >= framing.whole.width && upright.height >= framing.whole.height)
                {
                    return try render(preview, upright: upright, of: raw, request, previewEdge: previewEdge)
                }
                fallback = (preview, upright)
            } else {
                previewProblem = "the embedded preview is not of the picture's proportions"
            }
        }
        let half = picture.width / 2 >= framing.whole.width && picture.height / 2 >= framing.whole.height
        // LibRaw holds the sensor data (2 bytes a photosite), its 4-channel 16-bit working image
        // and the developed RGB: reserved so that large develops run one after the other. A RAW
        // is under the pixel limit already and has no cheaper way to be developed, so it is not
        // refused: it takes the whole budget at most, alone.
        let pixels = picture.width * picture.height
        let developCost = pixels * 2 + (half ? pixels / 4 : pixels) * 14
        return try DecodeMemory.shared.reserving(
            min(developCost, DecodeMemory.shared.budget), path: path, reason: "a camera RAW developed"
        ) { () throws(ImagingError) -> RenderedImage in
            try develop(
                raw, request, framing: framing, half: half, fallback: fallback, previewProblem: previewProblem,
                previewEdge: previewEdge)
        }
    }

    /// A RAW's sensor data developed and rendered; when it cannot be developed, its preview
    /// (`fallback`), else the reasons.
    private func develop(
        _ raw: RawFile, _ request: ImageRequest, framing: Framing, half: Bool,
        fallback: (RawFile.Preview, PixelSize)?, previewProblem: String?, previewEdge: Int?
    ) throws(ImagingError) -> RenderedImage {
        let path = raw.path
        let picture = raw.size
        let developed: VipsObject
        do {
            developed = try raw.develop(half: half, maximumPixelCount: limits.maximumPixelCount)
        } catch {
            guard let (preview, upright) = fallback else {
                let reasons = [previewProblem, error.message].compactMap { $0 }.joined(separator: "; ")
                throw ImagingError(error.code, reasons, path: path)
            }
            return try render(preview, upright: upright, of: raw, request, previewEdge: previewEdge)
        }
        var image = developed
        if image.size != framing.whole {
            guard
                let scaled = cphotos_vips_resize(image.pointer, Int32(framing.whole.width), Int32(framing.whole.height))
            else { throw ImagingError(.failed, Vips.reason("the developed picture could not be scaled"), path: path) }
            image = VipsObject(scaled)
        }
        return try finish(
            image, region: framing.region, of: picture, whole: framing.whole, output: framing.output, request,
            path: path, fromThumbnail: false)
    }

    /// A RAW's embedded preview rendered as the picture (`upright` its size as displayed).
    private func render(
        _ preview: RawFile.Preview, upright: PixelSize, of raw: RawFile, _ request: ImageRequest, previewEdge: Int?
    ) throws(ImagingError) -> RenderedImage {
        let framing = Framing(upright, request, previewEdge: previewEdge)
        var image: VipsObject
        switch preview {
        case .jpeg(let data):
            image = try decode(data, orientation: raw.orientation, size: framing.whole, path: raw.path)
        case .pixels(let pixels, let size):
            let rotation: Int32 =
                raw.orientation == 3 ? 180 : raw.orientation == 6 ? 90 : raw.orientation == 8 ? 270 : 0
            guard let turned = cphotos_vips_from_rgb(pixels, Int32(size.width), Int32(size.height), rotation),
                let scaled = cphotos_vips_resize(turned, Int32(framing.whole.width), Int32(framing.whole.height))
            else { throw ImagingError(.failed, Vips.reason("the preview could not be scaled"), path: raw.path) }
            cphotos_vips_release(turned)
            image = VipsObject(scaled)
        }
        return try finish(
            image, region: framing.region, of: upright, whole: framing.whole, output: framing.output, request,
            path: raw.path, fromThumbnail: false)
    }

    /// The first frame of the video at `path` rendered as `request` asks: its poster frame,
    /// decoded by FFmpeg, upright (the track's rotation applied), scaled and encoded as an image.
    public func render(videoAt path: String, _ request: ImageRequest) throws(ImagingError) -> RenderedImage {
        let file = try VideoFile(path: path)
        guard let track = file.info.primaryVideo else {
            throw ImagingError(.undecodable, "the file has no video track", path: path)
        }
        let upright = try checked(track.displaySize, path: path)
        let (region, output, whole) = Framing(upright, request, previewEdge: nil).parts
        // FFmpeg scales the frame as stored; libvips turns it upright after.
        let stored = track.rotation % 180 == 90 ? whole.transposed : whole
        let image = try file.firstFrame(scaledTo: stored, maximumPixelCount: limits.maximumPixelCount)
        return try finish(
            image, region: region, of: upright, whole: whole, output: output, request, path: path,
            fromThumbnail: false)
    }

    /// An image scaled to `whole` (the upright picture's size at the output's scale): the
    /// request's `region` cut from it, then converted to sRGB and encoded.
    private func finish(
        _ image: VipsObject, region: PixelRect, of upright: PixelSize, whole: PixelSize, output: PixelSize,
        _ request: ImageRequest, path: String, fromThumbnail: Bool
    ) throws(ImagingError) -> RenderedImage {
        var image = image
        if output != whole {
            let area = ImageGeometry.place(region, of: upright, in: whole, output: output)
            guard
                let cropped = cphotos_vips_crop(
                    image.pointer, Int32(area.x), Int32(area.y), Int32(area.size.width), Int32(area.size.height))
            else { throw ImagingError(.failed, Vips.reason("the crop failed"), path: path) }
            image = VipsObject(cropped)
        }
        guard let finished = cphotos_vips_finish(image.pointer) else {
            throw ImagingError(.undecodable, Vips.reason("libvips cannot decode it"), path: path)
        }
        image = VipsObject(finished)
        let hasAlpha = image.bands == 2 || image.bands == 4
        let format = request.format ?? (hasAlpha ? .png : .jpeg)
        let data = try encode(image, format, quality: request.quality, path: path)
        return RenderedImage(
            size: image.size, data: data, format: format, hasAlpha: hasAlpha && format != .jpeg,
            isFromEmbeddedThumbnail: fromThumbnail)
    }

    /// The camera's thumbnail itself, not decoded, when it can be the preview as it is: a JPEG
    /// (grey or RGB) of an upright picture, no larger than the preview, for a request of the whole
    /// picture as JPEG. A preview smaller than asked is what PhotoKit's fast results are too; it
    /// saves a decode and an encode (about 1.5 ms of libvips' per-image costs for 250 px).
    private func asItIs(
        _ thumbnail: (data: [UInt8], header: ImageHeader), _ header: ImageHeader, _ request: ImageRequest,
        whole: PixelSize, output: PixelSize
    ) -> RenderedImage? {
        let own = thumbnail.header
        guard header.orientation == 1, output == whole, request.format == nil || request.format == .jpeg,
            own.loader.hasPrefix("jpegload"), own.orientation == 1, own.bands == 1 || own.bands == 3,
            own.storedSize.width <= whole.width, own.storedSize.height <= whole.height
        else { return nil }
        return RenderedImage(
            size: own.storedSize, data: thumbnail.data, format: .jpeg, hasAlpha: false, isFromEmbeddedThumbnail: true)
    }

    /// The embedded thumbnail when it can stand in for the picture scaled to `whole`.
    private func usableThumbnail(_ header: ImageHeader, whole: PixelSize) -> (data: [UInt8], header: ImageHeader)? {
        guard let thumbnail = header.embeddedThumbnail, let thumbnailHeader = try? self.header(of: thumbnail),
            ImageGeometry.sameProportions(thumbnailHeader.storedSize, header.storedSize),
            max(thumbnailHeader.storedSize.width, thumbnailHeader.storedSize.height) * 2
                >= max(whole.width, whole.height)
        else { return nil }
        return (thumbnail, thumbnailHeader)
    }

    private func decode(_ data: [UInt8], orientation: Int, size: PixelSize?, path: String?) throws(ImagingError)
        -> VipsObject
    {
        try Self.checkChunks(data, path: path)
        let decoded = data.withUnsafeBytes { buffer -> UnsafeMutableRawPointer? in
            guard let base = buffer.baseAddress else { return nil }
            return cphotos_vips_decode_buffer(
                base, buffer.count, Int32(orientation), Int32(size?.width ?? 0), Int32(size?.height ?? 0),
                Double(limits.maximumPixelCount))
        }
        guard let decoded else { throw ImagingError(.undecodable, Vips.reason("libvips cannot decode it"), path: path) }
        return VipsObject(decoded)
    }

    /// Refuses encoded `data` that is a PNG with a chunk past its end (``PNGChunks``).
    private static func checkChunks(_ data: [UInt8], path: String?) throws(ImagingError) {
        if let overrun = data.withUnsafeBytes({ PNGChunks.overrun(in: $0) }) {
            throw ImagingError(.undecodable, "not a whole PNG: " + overrun, path: path)
        }
    }

    private func encode(_ image: VipsObject, _ format: ImageFormat, quality: Int, path: String?) throws(ImagingError)
        -> [UInt8]
    {
        let code: Int32 =
            switch format {
            case .jpeg: Int32(CPHOTOS_VIPS_JPEG)
            case .png: Int32(CPHOTOS_VIPS_PNG)
            case .webp: Int32(CPHOTOS_VIPS_WEBP)
            }
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard cphotos_vips_encode(image.pointer, code, Int32(min(max(quality, 1), 100)), &data, &length) == 0,
            let data
        else { throw ImagingError(.failed, Vips.reason("cannot encode \(format.rawValue)"), path: path) }
        defer { cphotos_vips_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// `header`, or ``ImagingError/Code/tooLarge`` when it declares more pixels than the limit.
    private func checked(_ header: ImageHeader, path: String?) throws(ImagingError) -> ImageHeader {
        _ = try checked(header.storedSize, path: path)
        return header
    }

    /// `size`, or ``ImagingError/Code/tooLarge`` when it is more pixels than the limit.
    private func checked(_ size: PixelSize, path: String?) throws(ImagingError) -> PixelSize {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard size.width > 0, size.height > 0 else {
            throw ImagingError(.undecodable, "the image declares no pixels (\(size))", path: path)
        }
        guard !overflow, pixels <= limits.maximumPixelCount else {
            let megapixels = Double(size.width) * Double(size.height) / 1e6
            throw ImagingError(
                .tooLarge,
                "the image is \(size) (\(megapixels.formatted1) megapixels), above the limit of "
                    + "\((Double(limits.maximumPixelCount) / 1e6).formatted1); not decoded",
                path: path)
        }
        return size
    }
}

extension Double {
    fileprivate var formatted1: String { String((self * 10).rounded() / 10) }
}

extension ImageHeader {
    init(_ header: cphotos_vips_header) {
        var header = header
        let loader = withUnsafeBytes(of: &header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var exif: [UInt8]?
        if let block = header.exif {
            exif = Array(UnsafeRawBufferPointer(start: block, count: header.exif_length))
            cphotos_vips_free(block)
        }
        self.init(
            storedSize: PixelSize(width: Int(header.width), height: Int(header.height)),
            orientation: (1...8).contains(header.orientation) ? Int(header.orientation) : 1, pages: Int(header.pages),
            loader: loader, exif: exif, bands: Int(header.bands), bytesPerSample: max(Int(header.bytes_per_sample), 1),
            interlaced: header.interlaced != 0, progressive: header.progressive != 0)
    }
}

/// An image file open for reading: its descriptor and the libvips source over it.
private struct OpenImage {
    let source: VipsObject
    let path: String

    /// Opens `path` read-only (see ``OpenFile``).
    init(path: String) throws(ImagingError) {
        try Vips.start()
        self.path = path
        let (descriptor, size) = try OpenFile.open(path)
        defer { close(descriptor) }
        if let overrun = PNGChunks.overrun(descriptor: descriptor, size: size) {
            throw ImagingError(.undecodable, "not a whole PNG: " + overrun, path: path)
        }
        guard let source = cphotos_vips_source(descriptor) else {
            throw ImagingError(.unreadable, Vips.reason("libvips cannot read it"), path: path)
        }
        self.source = VipsObject(source)
    }

    func header() throws(ImagingError) -> ImageHeader {
        var header = cphotos_vips_header()
        guard cphotos_vips_read_header(source.pointer, &header) == 0 else {
            throw ImagingError(.undecodable, Vips.reason("not an image libvips reads"), path: path)
        }
        return ImageHeader(header)
    }
}

/// Opening the files the renderer reads, through PhotosLinux's calls.
enum OpenFile {
    /// A descriptor of `path`, opened read-only. A name that is not a regular file (a FIFO would
    /// block; a directory has no pixels) or an empty file is refused before a decoder sees it.
    static func descriptor(_ path: String) throws(ImagingError) -> Int32 {
        try open(path).descriptor
    }

    /// ``descriptor(_:)`` with the file's size in bytes, as the check of its type found it.
    static func open(_ path: String) throws(ImagingError) -> (descriptor: Int32, size: Int) {
        let descriptor: Int32
        do {
            descriptor = try Syscall.openForReading(path)
        } catch {
            throw ImagingError(error.errno == ENOENT ? .missing : .unreadable, error.reason, path: path)
        }
        guard let file = try? Syscall.regularFileSize(descriptor), file.isRegular else {
            Syscall.close(descriptor)
            throw ImagingError(.unreadable, "not a regular file", path: path)
        }
        guard file.size > 0 else {
            Syscall.close(descriptor)
            throw ImagingError(.undecodable, "the file is empty", path: path)
        }
        return (descriptor, file.size)
    }
}

/// Where a request's picture comes from in the upright image, and at what size: the region asked
/// for (the whole picture, or its crop), the output's size, and the size the whole picture is
/// scaled to so that the region comes out at the output's.
struct Framing {
    let region: PixelRect
    let output: PixelSize
    let whole: PixelSize

    init(_ upright: PixelSize, _ request: ImageRequest, previewEdge: Int?) {
        let region =
            request.crop.flatMap { $0.isEmpty ? nil : $0.pixels(in: upright) } ?? PixelRect(x: 0, y: 0, size: upright)
        var output =
            request.target.map { ImageGeometry.scaled(region.size, into: $0, fill: request.fill) } ?? region.size
        if let previewEdge {
            output = ImageGeometry.scaled(output, into: PixelSize(width: previewEdge, height: previewEdge), fill: false)
        }
        self.region = region
        self.output = output
        whole = ImageGeometry.whole(upright, region: region, output: output)
    }

    var parts: (PixelRect, PixelSize, PixelSize) { (region, output, whole) }
}
