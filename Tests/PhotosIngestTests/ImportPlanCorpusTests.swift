import Foundation
import PhotosCore
import PhotosIngest
import PhotosMetadata
import PhotosTestSupport
import Testing

/// A drop folder of real corpus files, grouped as a scan groups them and planned into a root: a
/// Live Photo, a RAW+JPEG pair, sidecars in both styles, Apple's edit file, a photo without a date.
@Suite(.enabled(if: Corpus.isAvailable)) struct ImportPlanCorpusTests {
    let drop: TemporaryDirectory
    let media: [(path: String, metadata: FileMetadata)]
    let sidecars: [String]

    static let utc = TimeZone(identifier: "UTC")!

    init() throws {
        let drop = try TemporaryDirectory(prefix: "import-plan")
        self.drop = drop
        let copies = [
            "Phone/DCIM/100APPLE/IMG_5195.HEIC": "IMG_5195.HEIC", "Phone/DCIM/100APPLE/IMG_5195.MOV": "IMG_5195.MOV",
            "Phone/DCIM/100APPLE/IMG_4120.JPG": "IMG_4120.JPG", "Phone/DCIM/100APPLE/IMG_4120.AAE": "IMG_4120.AAE",
            "Camera/RAW/IMG_0350.CR2": "IMG_0350.CR2", "Phone/DCIM/100APPLE/IMG_3001.JPG": "IMG_0350.JPG",
            "Downloads/no-exif-data.jpg": "scan.jpg",
        ]
        for (source, name) in copies {
            try FileManager.default.copyItem(at: try #require(Corpus.file(source)), to: drop.path(name))
        }
        let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>\n".utf8)
        for name in ["IMG_4120.JPG.xmp", "IMG_0350.xmp", "IMG_9999.xmp"] {
            try xmp.write(to: drop.path(name))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 946_683_000)], ofItemAtPath: drop.path("scan.jpg").path)
        let extractor = MetadataExtractor(timeZone: Self.utc)
        let names = try FileManager.default.contentsOfDirectory(atPath: drop.url.path).sorted()
        media = try names.filter { !ImportGrouping.isSidecar($0) }.map { name in
            let path = drop.path(name).path
            return (path, try extractor.extract(path: path))
        }
        sidecars = names.filter(ImportGrouping.isSidecar).map { drop.path($0).path }
    }

    func modificationTime(_ path: String) throws -> Double {
        let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        return try #require(date).timeIntervalSince1970
    }

    /// Each group planned with `name = "{yyyyMMdd-HHmmss}-{model}"`, by its primary file's name.
    func plans(existing: [String: [String]] = [:]) throws -> [String: ImportGroupPlan] {
        let (groups, unowned) = ImportGrouping.groups(of: media, sidecars: sidecars)
        #expect(unowned.map { PathName.name(of: $0) } == ["IMG_9999.xmp"], "a sidecar of no file stays")
        var planner = ImportPlanner(
            destination: "/p", layout: try ImportLayout(name: "{yyyyMMdd-HHmmss}-{model}"), timeZone: Self.utc,
            existingNames: { existing[$0] ?? [] })
        var plans: [String: ImportGroupPlan] = [:]
        for group in groups {
            let metadata = try #require(media.first { $0.path == group.primary }?.metadata)
            let facts = ImportGrouping.facts(metadata, modificationTime: try modificationTime(group.primary))
            plans[PathName.name(of: group.primary)] = try planner.plan(group, facts: facts)
        }
        return plans
    }

    static func described(_ plan: ImportGroupPlan?) -> [String] {
        plan?.moves.map { "\(PathName.name(of: $0.source)) \($0.role.rawValue) → \($0.destination)" } ?? []
    }

    @Test func eachGroupLandsTogetherByItsDate() throws {
        let plans = try plans()
        #expect(plans.keys.sorted() == ["IMG_0350.JPG", "IMG_4120.JPG", "IMG_5195.HEIC", "scan.jpg"])
        #expect(
            Self.described(plans["IMG_5195.HEIC"]) == [
                "IMG_5195.HEIC primary → /p/2021/2021-04-11/20210411-154753-iPhone 11 Pro Max.HEIC",
                "IMG_5195.MOV pairedVideo → /p/2021/2021-04-11/20210411-154753-iPhone 11 Pro Max.MOV",
            ])
        #expect(plans["IMG_5195.HEIC"]?.dateSource == .captureDateWithOffset, "the file's -05:00, not UTC")
        #expect(
            Self.described(plans["IMG_0350.JPG"]) == [
                "IMG_0350.JPG primary → /p/2017/2017-04-09/20170409-183344-iPhone 5s.JPG",
                "IMG_0350.CR2 alternatePhoto → /p/2017/2017-04-09/20170409-183344-iPhone 5s.CR2",
                "IMG_0350.xmp sidecar → /p/2017/2017-04-09/20170409-183344-iPhone 5s.xmp",
            ])
        #expect(
            Self.described(plans["IMG_4120.JPG"]) == [
                "IMG_4120.JPG primary → /p/2019/2019-06-09/20190609-125732-iPhone SE.JPG",
                "IMG_4120.AAE sidecar → /p/2019/2019-06-09/20190609-125732-iPhone SE.AAE",
                "IMG_4120.JPG.xmp sidecar → /p/2019/2019-06-09/20190609-125732-iPhone SE.JPG.xmp",
            ])
        #expect(plans["IMG_4120.JPG"]?.dateSource == .captureDateInTimeZone, "EXIF time without an offset")
        #expect(
            Self.described(plans["scan.jpg"]) == [
                "scan.jpg primary → /p/1999/1999-12-31/19991231-233000-Unknown.jpg"
            ])
        #expect(plans["scan.jpg"]?.dateSource == .modificationTime, "no date in the file: its time, and it says so")
    }

    @Test func aClashWithAFileThereGivesTheWholePairOneSuffix() throws {
        let plans = try plans(existing: ["/p/2021/2021-04-11": ["20210411-154753-iPhone 11 Pro Max.jpg"]])
        #expect(
            plans["IMG_5195.HEIC"]?.moves.map { PathName.name(of: $0.destination) } == [
                "20210411-154753-iPhone 11 Pro Max (2).HEIC", "20210411-154753-iPhone 11 Pro Max (2).MOV",
            ])
        #expect(
            plans["IMG_4120.JPG"]?.moves.first.map { PathName.name(of: $0.destination) }
                == "20190609-125732-iPhone SE.JPG", "another folder: no suffix")
    }
}
