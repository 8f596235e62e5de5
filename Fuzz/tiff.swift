@testable import PhotosMetadata

/// libFuzzer target: TIFF, and TIFF-based RAW (run as DNG; NEF, CR2 and ARW take the same path): IFD chains,
/// SubIFDs, strip and tile tables, EXIF repacking.
///
/// Built by `scripts/fuzz tiff` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTiff(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.tiff, .dng])
    return 0
}
