import PhotosImaging

/// libFuzzer target: hostile movies through FFmpeg, as the AVAsset stand-ins and poster frames
/// read them: the tracks (`VideoInfo`), and a 64 px poster frame. Each may throw an
/// `ImagingError`; none may crash or write past a buffer (swscale writes into ours).
///
/// Built by `scripts/fuzz video`: PhotosImaging and its C wrappers compiled with AddressSanitizer,
/// FFmpeg's libraries as Debian ships them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVideo(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard DecoderInput.write(data, size) else { return 0 }
    _ = try? VideoInfo(fileAt: DecoderInput.path)
    _ = try? ImageRenderer().render(videoAt: DecoderInput.path, ImageRequest(target: PixelSize(width: 64, height: 64)))
    return 0
}
