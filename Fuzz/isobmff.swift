@testable import PhotosMetadata

/// libFuzzer target: ISO base media: HEIF/HEIC/AVIF items and properties, MP4/QuickTime/3GPP movie boxes and
/// QuickTime metadata; run as an image and as a movie.
///
/// Built by `scripts/fuzz isobmff` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIsobmff(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.heic, .quickTime])
    return 0
}
