internal import CPhotosRaw
internal import CPhotosVips
import Glibc
import PhotosCore

/// A camera RAW file open in LibRaw: what it holds, its largest embedded preview, and its sensor
/// data developed.
///
/// Files are told apart by content: only those whose first bytes are a RAW family's (TIFF-based
/// ones, ORF, RW2, RAF, CRW, CR3, X3F, MRW) are offered to LibRaw, and only those LibRaw identifies
/// as a camera's are RAW; a plain TIFF goes on to libvips.
final class RawFile {
    let path: String
    /// The developed picture's size as stored, and how it is turned (EXIF orientation 1-8).
    let storedSize: PixelSize
    let orientation: Int
    let hasPreview: Bool
    private let raw: UnsafeMutableRawPointer

    /// The RAW at `path`, or nil when it is not one LibRaw reads (then it is not a RAW here); a
    /// missing file, or one that is not a regular file or is empty, throws as for any image.
    static func open(_ path: String) throws(ImagingError) -> RawFile? {
        let descriptor = try OpenFile.descriptor(path)
        defer { close(descriptor) }
        guard isCandidate(descriptor) else { return nil }
        return RawFile(path: path)
    }

    private init?(path: String) {
        self.path = path
        var info = cphotos_raw_info()
        var error = ErrorText()
        guard
            let raw = error.withBuffer({ buffer, size in
                PathBytes.withCString(path) { cphotos_raw_open($0, &info, buffer, size) }
            })
        else { return nil }
        self.raw = raw
        storedSize = PixelSize(width: Int(info.width), height: Int(info.height))
        orientation = (1...8).contains(info.orientation) ? Int(info.orientation) : 1
        hasPreview = info.has_preview != 0
    }

    deinit { cphotos_raw_close(raw) }

    /// The developed picture's size as displayed.
    var size: PixelSize { orientation >= 5 ? storedSize.transposed : storedSize }

    /// What ``ImageRenderer/header(ofFileAt:)`` says of a RAW.
    var header: ImageHeader {
        ImageHeader(storedSize: storedSize, orientation: orientation, pages: 1, loader: "libraw", exif: nil, bands: 3)
    }

    /// The largest embedded preview: JPEG data, or RGB pixels of `size`.
    enum Preview {
        case jpeg([UInt8])
        case pixels([UInt8], PixelSize)
    }

    func preview() throws(ImagingError) -> Preview {
        var data: UnsafeMutableRawPointer?
        var length = 0
        var isJPEG: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var error = ErrorText()
        let status = error.withBuffer { cphotos_raw_preview(raw, &data, &length, &isJPEG, &width, &height, $0, $1) }
        guard status == 0, let data else {
            throw ImagingError(.undecodable, error.text ?? "LibRaw cannot read it", path: path)
        }
        defer { cphotos_raw_free(data) }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: length))
        return isJPEG != 0 ? .jpeg(bytes) : .pixels(bytes, PixelSize(width: Int(width), height: Int(height)))
    }

    /// The sensor data developed (camera white balance, sRGB, 8 bits), upright, at half size when
    /// `half`. Once per file: LibRaw develops an opened file once.
    func develop(half: Bool, maximumPixelCount: Int) throws(ImagingError) -> VipsObject {
        var pixels: UnsafeMutableRawPointer?
        var width: Int32 = 0
        var height: Int32 = 0
        var error = ErrorText()
        let status = error.withBuffer {
            cphotos_raw_develop(raw, half ? 1 : 0, Double(maximumPixelCount), &pixels, &width, &height, $0, $1)
        }
        guard status == 0, let pixels else {
            throw ImagingError(.undecodable, error.text ?? "LibRaw cannot develop it", path: path)
        }
        defer { cphotos_raw_free(pixels) }
        try Vips.start()
        guard let image = cphotos_vips_from_rgb(pixels, width, height, 0) else {
            throw ImagingError(.failed, Vips.reason("the developed picture could not be copied"), path: path)
        }
        return VipsObject(image)
    }

    /// Whether the file open as `descriptor` starts as a RAW family does.
    private static func isCandidate(_ descriptor: Int32) -> Bool {
        var head = [UInt8](repeating: 0, count: 16)
        guard pread(descriptor, &head, 16, 0) == 16 else { return false }
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            Array(head[offset..<offset + bytes.count]) == bytes
        }
        return starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])  // TIFF: NEF, DNG, CR2, ARW...
            || starts(Array("IIRO".utf8)) || starts(Array("IIRS".utf8)) || starts(Array("MMOR".utf8))  // ORF
            || starts([0x49, 0x49, 0x55, 0x00])  // RW2
            || starts(Array("FUJIFILMCCD-RAW".utf8))  // RAF
            || starts(Array("HEAPCCDR".utf8), at: 6)  // CRW
            || (starts(Array("ftyp".utf8), at: 4) && starts(Array("crx ".utf8), at: 8))  // CR3
            || starts(Array("FOVb".utf8))  // X3F
            || starts([0x00, 0x4D, 0x52, 0x4D])  // MRW
    }
}
