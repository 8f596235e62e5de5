import PhotosImaging

/// libFuzzer target: hostile images (and camera RAWs, through LibRaw) through the renderer, as PHImageManager asks: the header, a
/// 64 px thumbnail, the fast preview (EXIF and HEIF thumbnails), and the buffer paths
/// (`pixels(of:)`, `header(of:)`) that UIImage(data:) and embedded thumbnails take. Each may throw
/// an `ImagingError`; none may crash, read out of bounds, or run past the limits.
///
/// Built by `scripts/fuzz vips`: PhotosImaging and its C wrappers compiled with AddressSanitizer,
/// libvips, libheif, libjpeg and Little CMS as Debian ships them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVips(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard DecoderInput.write(data, size) else { return 0 }
    let renderer = ImageRenderer()
    let path = DecoderInput.path
    _ = try? renderer.header(ofFileAt: path)
    _ = try? renderer.render(fileAt: path, ImageRequest(target: PixelSize(width: 64, height: 64)))
    _ = try? renderer.renderPreview(fileAt: path, ImageRequest(target: PixelSize(width: 200, height: 200), fill: true))
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? renderer.header(of: bytes)
    if size < 65536 { _ = try? renderer.pixels(of: bytes) }
    return 0
}
