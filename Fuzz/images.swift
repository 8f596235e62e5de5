@testable import PhotosMetadata

/// libFuzzer target: the other still-image headers, each input through every one: GIF, WebP, BMP, JPEG XL.
///
/// Built by `scripts/fuzz images` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.gif, .webp, .bmp, .jpegXL])
    return 0
}
