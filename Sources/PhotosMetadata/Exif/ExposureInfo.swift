import Foundation

/// The camera, the lens and the exposure a photo was taken with: what a photographer looks at
/// beside the picture.
///
/// Read on demand for one file by ``MetadataExtractor/exposure(path:)``, never during a scan: the
/// library's rows keep the camera's make and model, not the exposure. The values come from the
/// EXIF block the container readers already find (a JPEG's APP1, a TIFF-based RAW's IFDs, a HEIF
/// `Exif` item, a PNG `eXIf` chunk, a WebP `EXIF` chunk...), read by ``ExifReader`` like every
/// other EXIF field. A tag a camera wrote to IFD0 instead of the EXIF directory is taken from there.
/// A movie gives what its container states (make, model, lens); a RAW read through LibRaw the same.
/// Every field the file does not state is `nil`, and so is a value that means "unknown" in EXIF
/// (a zero f-number, ISO, focal length or 35 mm equivalent, a zero denominator).
///
/// ```swift
/// let exposure = try MetadataExtractor().exposure(path: "/photos/Road trip/DSCN0010.jpg")
/// print(exposure.model ?? "", exposure.exposureTimeText ?? "", exposure.fNumber ?? 0, exposure.isoSpeed ?? 0)
/// // COOLPIX P6000 1/75 5.9 64
/// ```
public struct ExposureInfo: Sendable, Hashable {
    /// A value as EXIF stores it, a fraction.
    public struct Rational: Sendable, Hashable {
        /// The numerator.
        public var numerator: Int
        /// The denominator, never zero.
        public var denominator: Int

        /// Creates `numerator / denominator`; the denominator must not be zero.
        public init(numerator: Int, denominator: Int) {
            precondition(denominator != 0, "a rational's denominator is not zero")
            self.numerator = numerator
            self.denominator = denominator
        }

        /// The fraction's value.
        public var value: Double { Double(numerator) / Double(denominator) }
    }

    /// The camera maker (EXIF `Make`), trimmed.
    public var make: String?
    /// The camera model (EXIF `Model`), trimmed.
    public var model: String?
    /// The lens maker (EXIF `LensMake`).
    public var lensMake: String?
    /// The lens (EXIF `LensModel`, a movie's QuickTime lens key, or LibRaw's name for a RAW's lens).
    public var lensModel: String?
    /// The program that wrote the file (IFD0 `Software`).
    public var software: String?
    /// How long the shutter was open, as stored (EXIF `ExposureTime`, `1/250` or `10/2500`).
    public var exposureTime: Rational?
    /// The aperture's f-number (EXIF `FNumber`): `2.8` for f/2.8.
    public var fNumber: Double?
    /// The sensitivity (EXIF `PhotographicSensitivity`, formerly `ISOSpeedRatings`).
    public var isoSpeed: Int?
    /// The lens's focal length in millimetres (EXIF `FocalLength`).
    public var focalLength: Double?
    /// The focal length a 35 mm film camera would need for the same view (EXIF
    /// `FocalLengthIn35mmFilm`).
    public var focalLengthIn35mm: Int?
    /// EXIF `Flash` as stored: bit 0 fired, bits 1-2 the return light, bits 3-4 the mode, bit 5 no
    /// flash function, bit 6 red-eye reduction.
    public var flash: Int?
    /// The exposure bias in EV (EXIF `ExposureBiasValue`): `-0.7` for two thirds of a stop under.
    public var exposureBias: Double?

    /// Creates an empty description.
    public init() {}

    /// The exposure time in seconds.
    public var exposureTimeSeconds: Double? { exposureTime?.value }

    /// The exposure time as photographers write it, in ExifTool's notation: `1/250` below a
    /// quarter of a second (the reciprocal rounded), else seconds with one decimal and no `.0`
    /// (`0.3`, `2`, `2.5`). Like ExifTool, the time is first rounded to ten significant digits, so
    /// that a reciprocal halfway between two numbers goes where ExifTool's does (12/7830 s is
    /// `1/652`).
    public var exposureTimeText: String? {
        guard let seconds = exposureTimeSeconds, seconds.isFinite, seconds > 0 else { return nil }
        return Self.exposureTimeText(seconds: seconds)
    }

    /// Whether the flash fired (bit 0 of ``flash``).
    public var flashFired: Bool? { flash.map { $0 & 1 == 1 } }

    /// Whether the file states none of the fields.
    public var isEmpty: Bool { self == ExposureInfo() }

    /// `seconds` in ExifTool's notation (see ``exposureTimeText``).
    static func exposureTimeText(seconds: Double) -> String {
        let seconds = Double(String(format: "%.10g", seconds)) ?? seconds
        if seconds < 0.25001 { return "1/\(Int(0.5 + 1 / seconds))" }
        let tenths = (seconds * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
    }

    enum Tag {
        static let software: UInt16 = 0x0131
        static let exposureTime: UInt16 = 0x829A
        static let fNumber: UInt16 = 0x829D
        static let photographicSensitivity: UInt16 = 0x8827
        static let exposureBiasValue: UInt16 = 0x9204
        static let flash: UInt16 = 0x9209
        static let focalLength: UInt16 = 0x920A
        static let focalLengthIn35mmFilm: UInt16 = 0xA405
        static let lensMake: UInt16 = 0xA433
    }

    /// Reads the fields of a parsed EXIF block.
    init(_ exif: ExifReader) {
        // The EXIF directory first, then IFD0, where some cameras write their exposure tags.
        let directories: [ExifReader.Directory] = [.exif, .ifd0]
        func first<Value>(_ read: (ExifReader.Directory) -> Value?) -> Value? {
            directories.lazy.compactMap(read).first
        }
        make = exif.string(ExifSummary.Tag.make, in: .ifd0)
        model = exif.string(ExifSummary.Tag.model, in: .ifd0)
        software = exif.string(Tag.software, in: .ifd0)
        lensMake = first { exif.string(Tag.lensMake, in: $0) }
        lensModel = first { exif.string(ExifSummary.Tag.lensModel, in: $0) }
        exposureTime = first { exif.rational(Tag.exposureTime, in: $0) }
            .flatMap {
                $0.numerator > 0 && $0.denominator > 0
                    ? Rational(numerator: $0.numerator, denominator: $0.denominator) : nil
            }
        fNumber = first { Self.positive(exif.rationals(Tag.fNumber, in: $0)) }
        focalLength = first { Self.positive(exif.rationals(Tag.focalLength, in: $0)) }
        isoSpeed = first { exif.integer(Tag.photographicSensitivity, in: $0) }.flatMap { $0 > 0 ? $0 : nil }
        focalLengthIn35mm = first { exif.integer(Tag.focalLengthIn35mmFilm, in: $0) }.flatMap { $0 > 0 ? $0 : nil }
        flash = first { exif.integer(Tag.flash, in: $0) }
        exposureBias = first { exif.rationals(Tag.exposureBiasValue, in: $0)?.first ?? nil }
            .flatMap { $0.isFinite ? $0 : nil }
    }

    /// The first value when it is a finite positive number; zero means unknown.
    private static func positive(_ values: [Double?]?) -> Double? {
        guard let value = values?.first ?? nil, value.isFinite, value > 0 else { return nil }
        return value
    }
}

extension MetadataExtractor {
    /// Reads the camera, lens and exposure of the file at `path` (see ``ExposureInfo``).
    ///
    /// The file is opened, typed and its container read as ``extract(path:)`` does; a file whose EXIF
    /// is corrupt gives an empty or partial description, like the fields ``extract(path:)`` skips.
    ///
    /// - Throws: ``MetadataError`` with the codes of ``extract(path:)``: a file that is gone,
    ///   unreadable, empty, not a picture or a movie, cut short or corrupt.
    public func exposure(path: String) throws(MetadataError) -> ExposureInfo {
        let (reader, type) = try open(path: path)
        let info = try containerInfo(reader, type: type)
        var exposure = ExposureInfo()
        if let block = info.exifBlock, let exif = ExifReader(block: block) {
            exposure = ExposureInfo(exif)
        }
        exposure.make = exposure.make ?? info.make
        exposure.model = exposure.model ?? info.model
        exposure.lensModel = exposure.lensModel ?? info.lensModel
        return exposure
    }
}
