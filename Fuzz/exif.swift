@testable import PhotosMetadata

/// libFuzzer target: EXIF through libexif, the way JPEG APP1 segments, PNG `eXIf` chunks and HEIF `Exif` items
/// reach it: the input is a TIFF structure, handed to libexif directly (with the `Exif\0\0` prefix) and also
/// repacked by ``ExifBlockBuilder`` first, as TIFF files and RAWs are.
///
/// Built by `scripts/fuzz exif` against a PhotosMetadata compiled with testing enabled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let direct = Array("Exif".utf8) + [0, 0] + FuzzInput.bytes(data, size)
    if let exif = ExifReader(block: direct) {
        _ = ExifSummary(exif, block: direct)
    }
    let path = FuzzInput.file(data, size)
    if let reader = try? FileReader(path: path),
        let block = ExifBlocks.fromTIFF(in: reader, at: 0, length: reader.size),
        let exif = ExifReader(block: block)
    {
        _ = ExifSummary(exif, block: block)
    }
    return 0
}
