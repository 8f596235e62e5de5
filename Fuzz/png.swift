@testable import PhotosMetadata

/// libFuzzer target: PNG and APNG: the chunk walk, IHDR and its CRC, eXIf, iTXt XMP, acTL.
///
/// Built by `scripts/fuzz png` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPng(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.png])
    return 0
}
