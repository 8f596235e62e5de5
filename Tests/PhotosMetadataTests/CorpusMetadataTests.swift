import Foundation
import PhotosMetadata
import Testing

/// Every ingestable corpus file, extracted and compared field by field with the ExifTool oracle.
///
/// Floating EXIF times are extracted in UTC here so that the wall-clock comparison cannot be
/// disturbed by a daylight-saving gap; `CapturedDateTests` covers other zones.
@Suite(
    "Corpus metadata against truth.json",
    // The corpus lives outside the repository; without it there is nothing to compare.
    .enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json")
)
struct CorpusMetadataTests {
    enum Field: String, CaseIterable, Comparable {
        case type, size, orientation, creationDate, location, altitude, camera, duration
        case contentIdentifier, burstIdentifier, hdr, frameRate, subtypes

        static func < (lhs: Field, rhs: Field) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    struct Difference: CustomStringConvertible {
        let path: String
        let field: Field
        let ours: String
        let truth: String

        var description: String { "\(path) [\(field.rawValue)]: ours \(ours), truth \(truth)" }
    }

    static let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!)

    @Test func everyIngestableFileMatchesTheOracle() throws {
        let records = Corpus.ingestable
        try #require(!records.isEmpty, "truth.json lists no ingestable files")
        var differences: [Difference] = []
        var matchesPerField: [Field: Int] = [:]
        for record in records {
            let found = compare(record)
            differences += found
            for field in Field.allCases where !found.contains(where: { $0.field == field }) {
                matchesPerField[field, default: 0] += 1
            }
        }

        print("Corpus accuracy over \(records.count) ingestable files:")
        for field in Field.allCases {
            print("  \(field.rawValue): \(matchesPerField[field, default: 0])/\(records.count)")
        }
        // No allow-list: every checked field of every file agrees with the oracle.
        #expect(differences.isEmpty, "\(differences.map(\.description).joined(separator: "\n"))")
    }

    /// The fields in which extraction differs from the record.
    private func compare(_ record: Corpus.Record) -> [Difference] {
        func differ(_ field: Field, _ ours: Any?, _ truth: Any?) -> Difference {
            Difference(
                path: record.path, field: field, ours: ours.map { "\($0)" } ?? "nil",
                truth: truth.map { "\($0)" } ?? "nil"
            )
        }
        let metadata: FileMetadata
        do {
            metadata = try Self.extractor.extract(path: record.url.path)
        } catch {
            return [differ(.type, "error \(error)", record.mime)]
        }
        var found: [Difference] = []
        let expectedMIME = record.mime ?? record.libmagicMIME
        if metadata.mimeType != expectedMIME || "\(metadata.kind)" != record.kind {
            found.append(
                differ(.type, "\(metadata.mimeType) \(metadata.kind)", "\(expectedMIME ?? "nil") \(record.kind)"))
        }
        if metadata.pixelWidth != record.width || metadata.pixelHeight != record.height {
            found.append(
                differ(
                    .size, "\(metadata.pixelWidth ?? 0)×\(metadata.pixelHeight ?? 0)",
                    "\(record.width ?? 0)×\(record.height ?? 0)"
                )
            )
        }
        // truth.json keeps ExifTool's out-of-range values (0); the module reports only 1–8.
        let expectedOrientation = record.orientation.flatMap { (1...8).contains($0) ? $0 : nil }
        if metadata.orientation != expectedOrientation {
            found.append(differ(.orientation, metadata.orientation, record.orientation))
        }
        if !sameDate(metadata, record) {
            let date = metadata.creationDate.map { "\($0)" } ?? "nil"
            let offset = metadata.creationDateOffset.map { "\($0)" } ?? "nil"
            found.append(differ(.creationDate, "\(date) offset \(offset)", record.creationDate))
        }
        if !close(metadata.latitude, record.lat, 1e-5) || !close(metadata.longitude, record.lon, 1e-5) {
            found.append(
                differ(
                    .location, "\(metadata.latitude ?? .nan), \(metadata.longitude ?? .nan)",
                    "\(record.lat ?? .nan), \(record.lon ?? .nan)"))
        }
        if !close(metadata.altitude, record.alt, 0.01) {
            found.append(differ(.altitude, metadata.altitude, record.alt))
        }
        if metadata.make != record.make || metadata.model != record.model {
            found.append(
                differ(
                    .camera, "\(metadata.make ?? "nil") / \(metadata.model ?? "nil")",
                    "\(record.make ?? "nil") / \(record.model ?? "nil")"))
        }
        if !close(metadata.duration, record.durationSeconds, 0.01) {
            found.append(differ(.duration, metadata.duration, record.durationSeconds))
        }
        if metadata.contentIdentifier != record.contentIdentifier {
            found.append(differ(.contentIdentifier, metadata.contentIdentifier, record.contentIdentifier))
        }
        if metadata.burstIdentifier != record.burstID {
            found.append(differ(.burstIdentifier, metadata.burstIdentifier, record.burstID))
        }
        if (metadata.isHDR == true) != (record.hdr == true) {
            found.append(differ(.hdr, metadata.isHDR, record.hdr))
        }
        if !close(metadata.frameRate, record.fps, 0.01) {
            found.append(differ(.frameRate, metadata.frameRate, record.fps))
        }
        let ours = Self.subtypes(of: metadata)
        let (truth, judgementCalls) = Self.comparableSubtypes(record)
        if ours.subtracting(judgementCalls) != truth {
            found.append(differ(.subtypes, ours.sorted(), (truth.sorted() + judgementCalls.sorted().map { $0 + "?" })))
        }
        return found
    }

    /// The truth's subtypes that a single file's content decides, and its judgement calls apart:
    /// the corpus README marks with a `?` what the evidence leaves open (`panorama?` on a 2.95:1
    /// photo with no panorama tags, where the truth also gives 4:1 and 4.65:1 pictures no
    /// panorama; `slomo?` for a rate alone), so either answer agrees. `duplicate` needs the other
    /// files and `noExif` is not a subtype PhotoKit has, so neither is compared here.
    static func comparableSubtypes(_ record: Corpus.Record) -> (decided: Set<String>, judgementCalls: Set<String>) {
        let names = (record.subtypes ?? []).filter { $0 != "duplicate" && $0 != "noExif" }
        return (
            Set(names.filter { !$0.hasSuffix("?") }),
            Set(names.filter { $0.hasSuffix("?") }.map { String($0.dropLast()) })
        )
    }

    /// The truth's names for what the extractor found. A Live Photo half is a file with a content
    /// identifier (the pairing itself is the ingest pipeline's job).
    static func subtypes(of metadata: FileMetadata) -> Set<String> {
        var names: Set<String> = []
        if metadata.contentIdentifier != nil { names.insert("livePhoto") }
        if metadata.burstIdentifier != nil { names.insert("burst") }
        if metadata.isHDR == true { names.insert("hdr") }
        if metadata.isScreenshot == true { names.insert("screenshot") }
        if metadata.isPanorama == true { names.insert("panorama") }
        if metadata.embeddedVideoOffset != nil { names.insert("motionPhoto") }
        if metadata.isHighFrameRate == true { names.insert("slomo") }
        // The truth names none of these: no corpus file is a Portrait, spatial, time-lapse or
        // Cinematic capture (its iPhone gain map HEIC, Pixel Ultra HDR JPEG and Live Photo movies
        // with timed metadata are near-misses), so any of them is a difference.
        if metadata.isDepthEffect == true { names.insert("depthEffect") }
        if metadata.isSpatial == true { names.insert("spatial") }
        if metadata.isTimelapse == true { names.insert("timelapse") }
        if metadata.isCinematic == true { names.insert("cinematic") }
        return names
    }

    /// Within one second: as instants when the truth states an offset (then the offsets must agree
    /// too), otherwise as wall-clock times, and floating only when the truth is floating.
    private func sameDate(_ metadata: FileMetadata, _ record: Corpus.Record) -> Bool {
        guard let text = record.creationDate else { return metadata.creationDate == nil }
        guard let truth = TruthDate(text), let ours = metadata.creationDate else { return false }
        if let instant = truth.instant {
            // A `Z` date from a movie header is UTC by specification, not a local offset.
            let offsetAgrees =
                metadata.creationDateOffset == truth.offset
                || (text.hasSuffix("Z") && metadata.creationDateOffset == nil && !metadata.creationDateIsFloating)
            return offsetAgrees && abs(ours.timeIntervalSince(instant)) <= 1
        }
        guard metadata.creationDateIsFloating, metadata.creationDateOffset == nil else { return false }
        // Extracted in UTC, so the instant's UTC reading is the camera's wall clock.
        return abs(ours.timeIntervalSince(truth.wallClock)) <= 1
    }

    private func close(_ ours: Double?, _ truth: Double?, _ tolerance: Double) -> Bool {
        switch (ours, truth) {
        case (nil, nil): true
        case let (ours?, truth?): abs(ours - truth) <= tolerance
        default: false
        }
    }
}
