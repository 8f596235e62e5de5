@testable import PhotosMetadata

/// libFuzzer target: the camera RAW containers not built on TIFF: Canon CRW (CIFF) and Fujifilm RAF.
///
/// Built by `scripts/fuzz raw` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRaw(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.crw, .raf])
    return 0
}
