@testable import PhotosMetadata

/// libFuzzer target: JPEG: markers, frame and scan headers, the walk to EOI, EXIF APP1, XMP, MPF and motion-photo
/// trailers.
///
/// Built by `scripts/fuzz jpeg` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJpeg(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.jpeg])
    return 0
}
