@testable import PhotosMetadata

/// libFuzzer target: the other movie containers, each input through both: AVI (RIFF) and Matroska/WebM (EBML).
///
/// Built by `scripts/fuzz movies` against a PhotosMetadata compiled with testing enabled, so the parser is called
/// with the type fixed rather than after libmagic has judged the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMovies(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzExtract.run(data, size, as: [.avi, .webm])
    return 0
}
