import Foundation
import PhotosCore
import Testing

/// Where an import puts each file of a group: one stem for the whole group, its own extension
/// kept, a suffix or the next number on a clash, never a name already there.
@Suite struct ImportPlannerTests {
    static let facts = ImportFacts(
        captureDate: Date(timeIntervalSince1970: 1_618_174_073), captureOffset: -5 * 3600,
        modificationTime: Date(timeIntervalSince1970: 0), make: "Apple", model: "iPhone 11 Pro Max")
    static let day = "/p/2021/2021-04-11"

    static func planner(name: String = "{original}", existing: [String: [String]] = [:]) throws -> ImportPlanner {
        ImportPlanner(
            destination: "/p/", layout: try ImportLayout(name: name), timeZone: TimeZone(identifier: "UTC")!,
            existingNames: { existing[$0] ?? [] })
    }

    static func group(_ names: [String]) -> ImportGroup {
        let paths = names.map { "/drop/" + $0 }
        let sidecars = paths.filter { ["xmp", "aae", "thm"].contains(($0 as NSString).pathExtension.lowercased()) }
        let media = paths.filter { !sidecars.contains($0) }
        return ImportGroup(
            primary: media[0], pairedVideo: media.first { $0.hasSuffix(".MOV") },
            alternatePhoto: media.first { $0.hasSuffix(".CR2") }, sidecars: sidecars)
    }

    /// A group's files, the name template and the day folder's names, then the names they take there.
    static let cases: [([String], String, [String], [String])] = [
        (["IMG_1.HEIC", "IMG_1.MOV"], "{original}", [], ["IMG_1.HEIC", "IMG_1.MOV"]),
        // Another asset's file with the stem, in any case and extension: the whole group takes a suffix.
        (["IMG_1.HEIC", "IMG_1.MOV"], "{original}", ["img_1.jpg"], ["IMG_1 (2).HEIC", "IMG_1 (2).MOV"]),
        (
            ["IMG_1.HEIC", "IMG_1.MOV"], "{original}", ["IMG_1.HEIC", "IMG_1 (2).xmp"],
            ["IMG_1 (3).HEIC", "IMG_1 (3).MOV"]
        ),
        (["IMG_1.HEIC", "IMG_1.MOV"], "{original}", ["IMG_10.HEIC", "IMG_1-x.MOV"], ["IMG_1.HEIC", "IMG_1.MOV"]),
        // Sidecars in both naming styles, Apple's edits and thumbnails share the new stem.
        (
            ["IMG_1.JPG", "IMG_1.CR2", "IMG_1.xmp", "IMG_1.JPG.xmp", "IMG_1.AAE", "IMG_1.THM"],
            "{yyyyMMdd}-{make}", [],
            [
                "20210411-Apple.JPG", "20210411-Apple.CR2", "20210411-Apple.xmp", "20210411-Apple.JPG.xmp",
                "20210411-Apple.AAE", "20210411-Apple.THM",
            ]
        ),
        (["img_2.jpg", "IMG_2.JPG.XMP", "Img_2.aae"], "new", [], ["new.jpg", "new.JPG.XMP", "new.aae"]),
        // A Live Photo paired by content under two names lands under one.
        (["A.HEIC", "B.MOV", "B.MOV.xmp"], "{original}", [], ["A.HEIC", "A.MOV", "A.MOV.xmp"]),
        // The counter starts after the highest number the folder has for the name, in any case.
        (
            ["IMG_1.JPG"], "P-{counter:3}", ["P-001.JPG", "p-002.jpg", "P-007.HEIC", "P-009 (2).JPG", "Q-010.JPG"],
            ["P-010.JPG"]
        ),
        (["IMG_1.JPG", "IMG_1.JPG.xmp"], "{counter:2}", ["100.JPG"], ["101.JPG", "101.JPG.xmp"]),
        (["IMG_1.JPG"], "{yyyy}-{counter:4}-{make}", ["2021-0001-Apple.JPG"], ["2021-0002-Apple.JPG"]),
        // A dot inside a stem is the stem's: another day's photo, another trip's, is no clash.
        (["IMG_2.JPG"], "{yyyy.MM.dd}-{original}", ["2021.04.11-IMG_1.JPG"], ["2021.04.11-IMG_2.JPG"]),
        (["IMG_1.JPG"], "{yyyy.MM.dd}-{original}", ["2021.04.11-IMG_1.JPG"], ["2021.04.11-IMG_1 (2).JPG"]),
        (
            ["trip.day2.JPG", "trip.day2.JPG.xmp"], "{original}", ["trip.day1.JPG"],
            ["trip.day2.JPG", "trip.day2.JPG.xmp"]
        ),
    ]

    @Test(arguments: cases)
    func aGroupLandsTogetherUnderOneFreeStem(files: [String], name: String, existing: [String], names: [String])
        throws
    {
        var planner = try Self.planner(name: name, existing: [Self.day: existing])
        let plan = try planner.plan(Self.group(files), facts: Self.facts)
        #expect(plan.moves.map(\.destination) == names.map { Self.day + "/" + $0 })
        #expect(plan.moves.map(\.source) == Self.group(files).members.map(\.path))
        #expect(plan.folder == Self.day && plan.dateSource == .captureDateWithOffset)
        let taken = Set(existing.flatMap(GroupNames.prefixes(of:)))
        #expect(!taken.contains(plan.stem.lowercased()))
    }

    @Test func namesPlannedInARunAreTakenForTheRestOfIt() throws {
        var planner = try Self.planner(existing: [Self.day: ["IMG_1.JPG"]])
        let first = try planner.plan(Self.group(["IMG_1.HEIC", "IMG_1.MOV"]), facts: Self.facts)
        let second = try planner.plan(Self.group(["IMG_1.JPG", "IMG_1.CR2"]), facts: Self.facts)
        var otherDay = Self.facts
        otherDay.captureDate = Date(timeIntervalSince1970: 1_618_174_073 + 86_400)
        let third = try planner.plan(Self.group(["IMG_1.JPG"]), facts: otherDay)
        #expect(first.moves.map { PathName.name(of: $0.destination) } == ["IMG_1 (2).HEIC", "IMG_1 (2).MOV"])
        #expect(second.moves.map { PathName.name(of: $0.destination) } == ["IMG_1 (3).JPG", "IMG_1 (3).CR2"])
        #expect(second.stem == "IMG_1 (3)")
        #expect(third.moves.map(\.destination) == ["/p/2021/2021-04-12/IMG_1.JPG"], "another folder, no clash")
    }

    @Test func theCounterCountsPerFolderWithinARun() throws {
        var planner = try Self.planner(
            name: "{yyyyMMdd}-{counter:3}", existing: ["/p/2021/2021-04-12": ["20210412-001.JPG"]])
        var nextDay = Self.facts
        nextDay.captureDate = Date(timeIntervalSince1970: 1_618_174_073 + 86_400)
        let stems = try [Self.facts, Self.facts, nextDay, Self.facts, nextDay].enumerated().map { index, facts in
            try planner.plan(Self.group(["IMG_\(index).JPG", "IMG_\(index).AAE"]), facts: facts).stem
        }
        #expect(stems == ["20210411-001", "20210411-002", "20210412-002", "20210411-003", "20210412-003"])
    }

    @Test func theAssetSaysItsDateCameFromTheFileTime() throws {
        var planner = try Self.planner(name: "{yyyy-MM-dd}")
        let facts = ImportFacts(modificationTime: Date(timeIntervalSince1970: 946_683_000))
        let plan = try planner.plan(Self.group(["scan.tif"]), facts: facts)
        #expect(plan.dateSource == .modificationTime)
        #expect(plan.date == Date(timeIntervalSince1970: 946_683_000) && plan.offset == 0)
        #expect(plan.moves.map(\.destination) == ["/p/1999/1999-12-31/1999-12-31.tif"])
    }

    @Test func aLayoutOfNoFoldersFilesIntoTheRootItself() throws {
        var planner = ImportPlanner(
            destination: "/p", layout: try ImportLayout(layout: "", name: "{original}"), timeZone: .current,
            existingNames: { _ in [] })
        let plan = try planner.plan(Self.group(["a.jpg"]), facts: Self.facts)
        #expect(plan.folder == "/p" && plan.moves.map(\.destination) == ["/p/a.jpg"])
    }

    /// A group that cannot be planned, and why.
    static let refused: [([String], ImportPlanError.Code)] = [
        (["IMG_1.JPG", "DSC_9.xmp"], .sidecarWithoutOwner),
        (["A.HEIC", "B.MOV", "A.xmp", "B.xmp"], .membersCollide),
    ]

    @Test(arguments: refused)
    func aGroupThatCannotLandTogetherIsRefused(files: [String], code: ImportPlanError.Code) throws {
        var planner = try Self.planner()
        #expect(throws: ImportPlanError.self) { try planner.plan(Self.group(files), facts: Self.facts) }
        do {
            _ = try planner.plan(Self.group(files), facts: Self.facts)
        } catch {
            #expect(error.code == code && error.path == "/drop/" + files[0], "\(error)")
        }
    }

    @Test func aLongNameLeavesRoomForItsSidecarAndSuffix() throws {
        let long = String(repeating: "x", count: 250)
        var planner = try Self.planner(existing: [Self.day: [String(repeating: "x", count: 179) + ".JPG"]])
        let plan = try planner.plan(Self.group([long + ".JPG", long + ".JPG.xmp"]), facts: Self.facts)
        let names = plan.moves.map { PathName.name(of: $0.destination) }
        #expect(names.allSatisfy { $0.utf8.count <= SafeNames.safeLength })
        #expect(names == [" (2).JPG", " (2).JPG.xmp"].map { String(repeating: "x", count: 179) + $0 })
    }
}
