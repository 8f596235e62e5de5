internal import CPhotosRaw
import PhotosCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a camera RAW file's headers through LibRaw: the families no container parser here reads
/// (Minolta MRW, Sigma X3F, Phase One IIQ, Hasselblad 3FR, ...), one library instead of a parser
/// per maker. LibRaw identifies the file (headers and maker notes; nothing is decoded), and the
/// reader keeps what ``MetadataExtractor`` needs:
///
/// - **Size.** The visible area the camera declares inside its sensor (LibRaw's inset crop, which
///   is the size of the camera's own JPEG and what ExifTool reports for Canon, Panasonic...), else
///   the picture size the file states beside the sensor's (Minolta's MRW), else the picture LibRaw
///   develops (with Fujifilm's 45° sensors and non-square pixels adjusted). The
///   orientation turns it as for EXIF: the file's IFD0 Orientation tag, else LibRaw's flip (LibRaw
///   does not apply the tag in every family: an MRW's is in a TIFF block it reads for tags only).
/// - **Capture date.** LibRaw keeps it as a `time_t`. For dates it reads from EXIF or TIFF text,
///   that is `mktime` of the wall-clock text, in this process's zone; `localtime_r` in the same zone
///   gives the text's fields back (except in the hour a daylight-saving change skips, which no
///   clock shows). CRW and X3F count seconds on the camera's clock, read as UTC. The wall clock is
///   then read in the extractor's zone like any EXIF date without an offset, or at
///   OffsetTimeOriginal when the file states it.
/// - **Camera and lens.** Make and Model as the file's IFD0 tags write them (as the parsers and
///   ExifTool report them), else LibRaw's own names (`Canon` / `PowerShot S40` for a CRW); the lens
///   as EXIF LensModel or LibRaw's maker-note tables name it.
///
/// Only files that start as a RAW family does (``RAWSignature``) are given to LibRaw. LibRaw is
/// opened on the first such file (CPhotosRaw's dlopen), so a scan without RAW files never loads it.
enum LibRawReader {
    static func read(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        guard let signature = RAWSignature(head: reader.head[...]) else {
            throw reader.corrupt("the file does not start as any camera RAW family LibRaw reads")
        }
        var metadata = cphotos_raw_metadata()
        var error = [CChar](repeating: 0, count: 256)
        let status = error.withUnsafeMutableBufferPointer { buffer in
            PathBytes.withCString(reader.path) {
                cphotos_raw_metadata_read($0, &metadata, buffer.baseAddress!, buffer.count)
            }
        }
        guard status == 0 else {
            let reason = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw MetadataError(
                code: status == -2 ? .libraryUnavailable : .corrupt,
                message: reason.isEmpty ? "LibRaw cannot read it" : reason, path: reader.path)
        }
        return info(of: metadata, signature: signature)
    }

    /// What ``MetadataExtractor`` takes from LibRaw's answer.
    static func info(of metadata: cphotos_raw_metadata, signature: RAWSignature) -> ContainerInfo {
        var info = ContainerInfo()
        let flip = (1...8).contains(metadata.orientation) ? Int(metadata.orientation) : 1
        // The file's own Orientation tag, as the parsers and ExifTool read it, over LibRaw's flip, which
        // ignores it in some families (MRW).
        info.orientation = (1...8).contains(metadata.exif_orientation) ? Int(metadata.exif_orientation) : flip
        if let (width, height) = storedSize(of: Sizes(metadata)) { info.setSize(width, height) }
        if metadata.timestamp > 0 {
            info.statedDate = wallClock(
                timestamp: Int(metadata.timestamp), countsWallClockSeconds: signature.countsWallClockSeconds)
            if !signature.countsWallClockSeconds {
                info.statedDate?.offset = CapturedDate.offset(parsing: text(metadata.offset_time))
            }
        }
        info.make = nonEmpty(text(metadata.exif_make)) ?? nonEmpty(text(metadata.make))
        info.model = nonEmpty(text(metadata.exif_model)) ?? nonEmpty(text(metadata.model))
        info.lensModel = nonEmpty(text(metadata.lens))
        return info
    }

    /// The sizes LibRaw states for a file (width, height), as ``cphotos_raw_metadata`` gives them.
    struct Sizes {
        /// The whole sensor, as stored.
        var sensor: (Int, Int)
        /// The visible area the camera declares inside the sensor (LibRaw's inset crop), as stored.
        var crop: (Int, Int)
        /// The picture size the file states beside the sensor's (Minolta's PRD block), as stored.
        var declared: (Int, Int)
        /// The picture LibRaw develops, turned by `flip`.
        var developed: (Int, Int)
        /// LibRaw's flip as an EXIF orientation.
        var flip: Int

        init(sensor: (Int, Int), crop: (Int, Int), declared: (Int, Int), developed: (Int, Int), flip: Int) {
            (self.sensor, self.crop, self.declared, self.developed, self.flip) =
                (sensor, crop, declared, developed, flip)
        }

        init(_ metadata: cphotos_raw_metadata) {
            self.init(
                sensor: (Int(metadata.raw_width), Int(metadata.raw_height)),
                crop: (Int(metadata.crop_width), Int(metadata.crop_height)),
                declared: (Int(metadata.declared_width), Int(metadata.declared_height)),
                developed: (Int(metadata.developed_width), Int(metadata.developed_height)),
                flip: (1...8).contains(metadata.orientation) ? Int(metadata.orientation) : 1)
        }
    }

    /// The camera's picture inside the sensor, as stored (before orientation): the first of the visible area the
    /// camera declares (LibRaw's inset crop: Canon, Panasonic...), the picture size the file states beside the
    /// sensor's (Minolta's PRD block, where LibRaw develops the whole sensor), and the picture LibRaw develops. A
    /// stated size larger than the sensor means nothing.
    static func storedSize(of sizes: Sizes) -> (width: Int, height: Int)? {
        for (width, height) in [sizes.crop, sizes.declared]
        where width > 0 && height > 0 && width <= sizes.sensor.0 && height <= sizes.sensor.1 {
            return (width, height)
        }
        let (width, height) = sizes.developed
        guard width > 0, height > 0 else { return nil }
        // Developed sizes are upright already; ContainerInfo holds sizes as stored.
        return sizes.flip >= 5 ? (height, width) : (width, height)
    }

    /// The camera's wall-clock time that LibRaw's `timestamp` stands for.
    static func wallClock(timestamp: Int, countsWallClockSeconds: Bool) -> CapturedDate? {
        if countsWallClockSeconds { return CapturedDate(wallClockSecondsSince1970: timestamp) }
        var seconds = time_t(timestamp)
        var fields = tm()
        guard localtime_r(&seconds, &fields) != nil else { return nil }
        return CapturedDate(
            year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
            hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
    }

    /// A C string field of fixed size, trimmed.
    private static func text<Field>(_ field: Field) -> String {
        withUnsafeBytes(of: field) { bytes in
            let characters = bytes.prefix { $0 != 0 }
            return String(decoding: characters, as: UTF8.self).trimmingWhitespace()
        }
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
