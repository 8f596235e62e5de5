import Foundation
import Testing

/// The shared corpus of real files (`../shared/corpus`) and its oracle (`../shared/truth.json`),
/// found relative to this package. Neither is copied into the repository.
enum Corpus {
    /// One record of `truth.json` (see `corpus/README.md` for every field).
    struct Record: Decodable, Sendable, CustomTestStringConvertible {
        let path: String
        let kind: String
        let expect: String
        let category: String?
        let mime: String?
        let libmagicMIME: String?
        let width: Int?
        let height: Int?
        let orientation: Int?
        let rotation: Int?
        let creationDate: String?
        let creationDateUTC: String?
        let lat: Double?
        let lon: Double?
        let alt: Double?
        let make: String?
        let model: String?
        let durationSeconds: Double?
        let fps: Double?
        let contentIdentifier: String?
        let livePairOf: String?
        let burstID: String?
        let hdr: Bool?
        /// Expected subtypes (`livePhoto`, `burst`, `screenshot`, `panorama`, `hdr`, `motionPhoto`,
        /// `slomo`, `noExif`, `duplicate`); a trailing `?` marks a judgement call.
        let subtypes: [String]?
        let note: String?

        enum CodingKeys: String, CodingKey {
            case path, kind, expect, category, mime, width, height, orientation, rotation, creationDate
            case lat, lon, alt, make, model, fps, hdr, subtypes, note
            case libmagicMIME = "libmagic_mime"
            case creationDateUTC = "creationDate_utc"
            case durationSeconds = "duration_s"
            case contentIdentifier = "content_identifier"
            case livePairOf = "live_pair_of"
            case burstID = "burst_id"
        }

        /// The file's absolute path.
        var url: URL { Corpus.directory.appendingPathComponent(path) }

        var testDescription: String { path }
    }

    /// `…/shared`, two levels above this package's `Tests` folder (symlinks resolved, so a scratch
    /// package that links this folder finds the same corpus).
    static let sharedDirectory: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // …/Tests/PhotosMetadataTests/Support
        .deletingLastPathComponent()  // …/Tests/PhotosMetadataTests
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the package root
        .deletingLastPathComponent()  // its parent, which holds `shared`
        .appendingPathComponent("shared")

    static let directory = sharedDirectory.appendingPathComponent("corpus")
    static let truthFile = sharedDirectory.appendingPathComponent("truth.json")

    /// Whether the corpus and its truth file are present; when not, the corpus tests are skipped
    /// and say so loudly.
    static let isAvailable: Bool = {
        let available =
            FileManager.default.fileExists(atPath: truthFile.path)
            && FileManager.default.fileExists(atPath: directory.path)
        if !available {
            print(
                """
                ************************************************************************
                PhotosMetadataTests: corpus not found at \(directory.path)
                (expected \(truthFile.path)). Corpus tests are SKIPPED.
                ************************************************************************
                """
            )
        }
        return available
    }()

    /// Every record of `truth.json`, or none when the corpus is absent.
    static let records: [Record] = {
        guard isAvailable, let data = try? Data(contentsOf: truthFile) else { return [] }
        do {
            return try JSONDecoder().decode([Record].self, from: data)
        } catch {
            print("PhotosMetadataTests: cannot decode \(truthFile.path): \(error)")
            return []
        }
    }()

    /// The records the library should ingest.
    static var ingestable: [Record] { records.filter { $0.expect == "ingest" } }

    /// The records of files under `Bad/`.
    static var bad: [Record] { records.filter { $0.path.hasPrefix("Bad/") } }

    /// Records of existing files (the truth also lists the README, which is not a corpus file).
    static var files: [Record] {
        records.filter { FileManager.default.fileExists(atPath: $0.url.path) }
    }
}
