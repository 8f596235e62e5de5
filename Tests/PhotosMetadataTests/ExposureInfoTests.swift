import Foundation
import PhotosMetadata
import Testing

/// The camera, lens and exposure read for one file, against ExifTool.
///
/// truth.json carries make and model; the exposure fields come from `Support/exposure-truth.json`,
/// which `scripts/exposure-truth` writes from ExifTool's EXIF values for the same corpus. Integers
/// and text compare exactly; fractions within a millionth (relative), because ExifTool rounds them
/// to ten significant digits. Where ExifTool gives a value that EXIF means as "unknown" (a zero
/// 35 mm focal length, a zero f-number, `inf` for a zero denominator) the reader gives none. Where
/// ExifTool warns that it gave up on the EXIF directory or IFD0 after a bad entry, the fields it
/// does not give are not compared (libexif skips the bad entry and reads the others).
@Suite(
    "Exposure fields against ExifTool",
    .enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json")
)
struct ExposureInfoTests {
    /// One file as ExifTool reads it.
    struct Oracle: Decodable {
        let path: String
        let exposureTime: Number?
        let exposureTimeText: String?
        let fNumber: Number?
        let isoSpeed: Int?
        let focalLength: Number?
        let focalLengthIn35mm: Int?
        let flash: Int?
        let exposureBias: Number?
        let lensMake: String?
        let lensModel: String?
        let software: String?
        /// ExifTool's warning when it gave up on part of a directory.
        let warning: String?
    }

    /// A number, or text where ExifTool had none (`inf`, `undef`).
    enum Number: Decodable {
        case value(Double)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Double.self) {
                self = .value(value)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        /// The value, when it is a finite number other than zero (EXIF's "unknown").
        var known: Double? {
            guard case .value(let value) = self, value.isFinite, value != 0 else { return nil }
            return value
        }
    }

    static let oracleFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/exposure-truth.json")

    static let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!)

    static func close(_ ours: Double?, _ truth: Double?) -> Bool {
        guard let ours, let truth else { return ours == nil && truth == nil }
        return abs(ours - truth) <= 1e-6 * max(1, abs(truth))
    }

    @Test func everyCorpusFileReadsTheExposureExifToolReads() throws {
        let oracle = try JSONDecoder().decode([Oracle].self, from: Data(contentsOf: Self.oracleFile))
        let expected = Dictionary(uniqueKeysWithValues: Corpus.records.map { ($0.path, $0.expect) })
        var differences: [String] = []
        var compared: [String: Int] = [:]
        var rejected: [String] = []
        for row in oracle {
            let url = Corpus.directory.appendingPathComponent(row.path)
            let exposure: ExposureInfo
            do {
                exposure = try Self.extractor.exposure(path: url.path)
            } catch {
                // A file the library rejects is no asset, and has no metadata page.
                if expected[row.path] == "ingest" { differences.append("\(row.path): \(error)") }
                rejected.append(row.path)
                continue
            }
            // Where ExifTool gave up on the EXIF directory or IFD0 after a bad entry (libexif skips
            // the entry and reads the rest), a field only we read is no difference.
            let exifToolStopped = row.warning.map { $0.contains("ExifIFD") || $0.contains("IFD0") } ?? false
            func check(_ field: String, _ agree: Bool, _ ours: Any?, _ truth: Any?) {
                if truth != nil { compared[field, default: 0] += 1 }
                if !agree, !(exifToolStopped && truth == nil) {
                    differences.append(
                        "\(row.path) [\(field)]: ours \(ours.map { "\($0)" } ?? "nil"), "
                            + "ExifTool \(truth.map { "\($0)" } ?? "nil")")
                }
            }
            let time = row.exposureTime?.known
            check("exposureTime", Self.close(exposure.exposureTimeSeconds, time), exposure.exposureTimeSeconds, time)
            let text = time == nil ? nil : row.exposureTimeText
            check("exposureTimeText", exposure.exposureTimeText == text, exposure.exposureTimeText, text)
            check("fNumber", Self.close(exposure.fNumber, row.fNumber?.known), exposure.fNumber, row.fNumber?.known)
            let focal = row.focalLength?.known
            check("focalLength", Self.close(exposure.focalLength, focal), exposure.focalLength, focal)
            let equivalent = row.focalLengthIn35mm == 0 ? nil : row.focalLengthIn35mm
            check("focalLengthIn35mm", exposure.focalLengthIn35mm == equivalent, exposure.focalLengthIn35mm, equivalent)
            let iso = row.isoSpeed == 0 ? nil : row.isoSpeed
            check("isoSpeed", exposure.isoSpeed == iso, exposure.isoSpeed, iso)
            check("flash", exposure.flash == row.flash, exposure.flash, row.flash)
            // A bias of zero is a value: "no compensation".
            let bias: Double? =
                switch row.exposureBias {
                case .value(let value)?: value
                default: nil
                }
            check("exposureBias", Self.close(exposure.exposureBias, bias), exposure.exposureBias, bias)
            check("lensMake", exposure.lensMake == row.lensMake, exposure.lensMake, row.lensMake)
            check("lensModel", exposure.lensModel == row.lensModel, exposure.lensModel, row.lensModel)
            check("software", exposure.software == row.software, exposure.software, row.software)
        }
        print("Exposure fields compared: \(compared.sorted { $0.key < $1.key }); rejected files: \(rejected)")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        // The corpus holds some sixty photos with exposure EXIF; fewer compared means the reader
        // or the oracle lost them.
        #expect(compared["exposureTime", default: 0] >= 55)
        #expect(compared["fNumber", default: 0] >= 55)
        #expect(compared["isoSpeed", default: 0] >= 50)
        #expect(compared["focalLength", default: 0] >= 55)
        #expect(compared["focalLengthIn35mm", default: 0] >= 30)
        #expect(compared["flash", default: 0] >= 55)
        #expect(compared["lensModel", default: 0] >= 10)
    }

    @Test func everyIngestableFileNamesTheCameraTruthNames() throws {
        let records = Corpus.ingestable.filter { FileManager.default.fileExists(atPath: $0.url.path) }
        try #require(!records.isEmpty)
        var differences: [String] = []
        var compared = 0
        for record in records {
            let exposure = try Self.extractor.exposure(path: record.url.path)
            if record.make != nil || record.model != nil { compared += 1 }
            if exposure.make != record.make || exposure.model != record.model {
                differences.append(
                    "\(record.path): ours \(exposure.make ?? "nil") / \(exposure.model ?? "nil"), "
                        + "truth \(record.make ?? "nil") / \(record.model ?? "nil")")
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(compared >= 50)
    }

    @Test(
        "exposure times are written as ExifTool writes them",
        arguments: [
            (1, 250, "1/250"), (10, 2500, "1/250"), (10, 800, "1/80"), (1, 4, "1/4"), (10, 600, "1/60"),
            (1, 3, "0.3"), (5, 10, "0.5"), (2, 1, "2"), (25, 10, "2.5"), (30, 1, "30"), (32, 10, "3.2"),
            // A reciprocal of 652.5, which ExifTool's rounding to ten digits puts below the half.
            (12, 7830, "1/652"),
        ] as [(Int, Int, String)])
    func exposureTimeText(numerator: Int, denominator: Int, text: String) {
        var exposure = ExposureInfo()
        exposure.exposureTime = ExposureInfo.Rational(numerator: numerator, denominator: denominator)
        #expect(exposure.exposureTimeText == text)
    }

    @Test func aFileWithoutExifHasAnEmptyDescriptionAndAGoneFileThrows() throws {
        let png = try #require(
            Corpus.records.first { $0.expect == "ingest" && $0.mime == "image/png" && $0.make == nil })
        #expect(try Self.extractor.exposure(path: png.url.path).isEmpty)
        #expect(throws: MetadataError.self) {
            try Self.extractor.exposure(path: Corpus.directory.appendingPathComponent("no such file.jpg").path)
        }
    }
}
