import Foundation
import PhotosCore
import Testing

/// An import's `layout` and `name` templates: what parses, what each token renders, where an
/// asset's date comes from, and that nothing unsafe comes out.
@Suite struct ImportLayoutTests {
    /// IMG_5195.HEIC of the corpus: 2021-04-11 15:47:53.054 at -05:00 (20:47:53 UTC), an iPhone 11 Pro Max.
    static let livePhoto = ImportFacts(
        captureDate: Date(timeIntervalSince1970: 1_618_174_073.054), captureOffset: -5 * 3600,
        modificationTime: Date(timeIntervalSince1970: 1_700_000_000), make: "Apple", model: "iPhone 11 Pro Max")
    static let paris = TimeZone(identifier: "Europe/Paris")!
    let utc = TimeZone(identifier: "UTC")!

    /// Layout, name, then the folders and stem they render for IMG_5195.HEIC.
    static let rendered: [(String, String, [String], String)] = [
        ("{yyyy}/{yyyy-MM-dd}", "{original}", ["2021", "2021-04-11"], "IMG_5195"),
        ("", "{yyyyMMdd-HHmmss}", [], "20210411-154753"),
        ("{yy}/{M}/{d}", "{H}h{m}m{s}s", ["21", "4", "11"], "15h47m53s"),
        ("Phones/{make}/{model}", "{original}.{ext}", ["Phones", "Apple", "iPhone 11 Pro Max"], "IMG_5195.HEIC"),
        ("{yyyy}", "{yyyy.MM.dd HH.mm.ss}", ["2021"], "2021.04.11 15.47.53"),
        ("{yyyy}/{MM}", "{make}-{counter:4}", ["2021", "04"], "Apple-0001"),
        ("Imports/{yyyy}-{MM}", "{yyyy_MM_dd}_{original}", ["Imports", "2021-04"], "2021_04_11_IMG_5195"),
    ]

    @Test(arguments: rendered)
    func tokensRenderTheAssetsFacts(layout: String, name: String, folders: [String], stem: String) throws {
        let template = try ImportLayout(layout: layout, name: name)
        let rendering = template.render(original: "IMG_5195.HEIC", facts: Self.livePhoto, timeZone: Self.paris)
        #expect(rendering.folders == folders)
        #expect(rendering.stem == stem)
        #expect(rendering.dateSource == .captureDateWithOffset)
    }

    @Test func theDefaultsFileByDayUnderTheOriginalName() throws {
        let template = try ImportLayout()
        #expect(template.layoutTemplate == "{yyyy}/{yyyy-MM-dd}" && template.nameTemplate == "{original}")
        #expect(!template.usesCounter)
        #expect(try ImportLayout(name: "{counter:2}").usesCounter)
    }

    /// Layout, name, then the template at fault, the code, the offset and a part of the message.
    static let rejected: [(String, String, ImportTemplateError.Template, ImportTemplateError.Code, Int, String)] = [
        ("{yyyy", "{original}", .layout, .unbalancedBrace, 0, "a { without its }"),
        ("yyyy}", "{original}", .layout, .unbalancedBrace, 4, "a } without its {"),
        ("{yyyy}", "{origin{al}", .name, .unbalancedBrace, 0, "a { without its }"),
        (
            "{yyyy}/{orignal}", "{original}", .layout, .unknownToken, 7,
            "unknown token {orignal} (did you mean {original}?)"
        ),
        ("{yyyy}", "{Make}", .name, .unknownToken, 0, "(did you mean {make}?)"),
        ("{yyyy}", "IMG-{modle}", .name, .unknownToken, 4, "(did you mean {model}?)"),
        ("{yyyy}", "{YYYY-MM-DD}", .name, .unknownToken, 0, "(did you mean {yyyy-MM-dd}?)"),
        ("{yyyy}", "{yyyy-mm-dd}", .name, .unknownToken, 0, "mm is the minute (did you mean {yyyy-MM-dd}?"),
        ("{yyyy}", "{camera}", .name, .unknownToken, 0, "unknown token {camera}; the tokens are"),
        ("{yyyy}", "{}", .name, .unknownToken, 0, "an empty token {}"),
        ("{yyyy}", "{yyy}", .name, .unknownToken, 1, "yyy is no year"),
        ("{yyyy}", "x{MMM}", .name, .unknownToken, 2, "MMM is too long"),
        ("{yyyy}", "{counter}", .name, .unknownToken, 0, "needs its number of digits"),
        ("{yyyy}", "{counter:0}", .name, .unknownToken, 0, "needs its number of digits"),
        ("{yyyy}", "{counter:2}-{counter:3}", .name, .misplacedToken, 12, "a second one"),
        ("{yyyy}/{counter:3}", "{original}", .layout, .misplacedToken, 7, "it belongs in name"),
        ("/{yyyy}", "{original}", .layout, .invalidPath, 0, "must not start with /"),
        ("{yyyy}//{MM}", "{original}", .layout, .invalidPath, 7, "an empty folder name"),
        ("{yyyy}/", "{original}", .layout, .invalidPath, 6, "an empty folder name"),
        ("../{yyyy}", "{original}", .layout, .invalidPath, 0, "the folder \"..\" is not allowed"),
        ("{yyyy}/.", "{original}", .layout, .invalidPath, 7, "the folder \".\" is not allowed"),
        ("{yyyy}", "a/{original}", .name, .invalidPath, 1, "no / (folders belong in layout)"),
        ("{yyyy}", "..", .name, .invalidPath, 0, "the name \"..\" is not allowed"),
        ("{yyyy}", "", .name, .empty, 0, "the name must not be empty"),
    ]

    @Test(arguments: rejected)
    func aBadTemplateSaysWhereAndWhatWasMeant(
        layout: String, name: String, template: ImportTemplateError.Template, code: ImportTemplateError.Code,
        offset: Int, message: String
    ) {
        #expect(throws: ImportTemplateError.self) { try ImportLayout(layout: layout, name: name) }
        do {
            _ = try ImportLayout(layout: layout, name: name)
        } catch {
            #expect(error.template == template && error.code == code && error.offset == offset, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            let text = template == .layout ? layout : name
            #expect(error.description.hasSuffix("at offset \(offset) in \(template.rawValue) \"\(text)\""))
        }
    }

    /// Facts, the configured zone, then the name `{yyyy-MM-dd HH.mm.ss}` renders and the date's source.
    static let dates: [(ImportFacts, String, String, ImportDateSource)] = [
        // The file's own offset wins over the configured zone.
        (livePhoto, "Europe/Paris", "2021-04-11 15.47.53", .captureDateWithOffset),
        (livePhoto, "Asia/Tokyo", "2021-04-11 15.47.53", .captureDateWithOffset),
        (
            ImportFacts(
                captureDate: Date(timeIntervalSince1970: 1_618_174_073), captureOffset: 14 * 3600,
                modificationTime: Date(timeIntervalSince1970: 0)),
            "UTC", "2021-04-12 10.47.53", .captureDateWithOffset
        ),
        // Without one, the configured zone (summer time in April in Paris).
        (
            ImportFacts(captureDate: Date(timeIntervalSince1970: 1_618_174_073), modificationTime: .init()),
            "Europe/Paris", "2021-04-11 22.47.53", .captureDateInTimeZone
        ),
        (
            ImportFacts(captureDate: Date(timeIntervalSince1970: 1_618_174_073), modificationTime: .init()),
            "America/New_York", "2021-04-11 16.47.53", .captureDateInTimeZone
        ),
        // Without a capture date, the file's time in the configured zone: here across a year's end.
        (
            ImportFacts(modificationTime: Date(timeIntervalSince1970: 946_683_000), make: "Canon"),
            "Europe/Paris", "2000-01-01 00.30.00", .modificationTime
        ),
        (
            ImportFacts(modificationTime: Date(timeIntervalSince1970: 946_683_000)), "UTC", "1999-12-31 23.30.00",
            .modificationTime
        ),
        // Before 1970.
        (
            ImportFacts(captureDate: Date(timeIntervalSince1970: -1.5), captureOffset: 0, modificationTime: .init()),
            "UTC", "1969-12-31 23.59.58", .captureDateWithOffset
        ),
    ]

    @Test(arguments: dates)
    func theDateComesFromTheFileItsOffsetTheZoneOrTheFileTime(
        facts: ImportFacts, zone: String, stem: String, source: ImportDateSource
    ) throws {
        let template = try ImportLayout(layout: "{yyyy}", name: "{yyyy-MM-dd HH.mm.ss}")
        let rendering = template.render(original: "a.jpg", facts: facts, timeZone: TimeZone(identifier: zone)!)
        #expect(rendering.stem == stem)
        #expect(rendering.folders == [String(stem.prefix(4))])
        #expect(rendering.dateSource == source)
    }

    static let long = String(repeating: "é", count: 150)

    /// A make, a model and an original name, then the folders `{make}/{model}` and the stem `{original}`.
    static let unsafe: [(String?, String?, String, [String], String)] = [
        ("Canon", "Canon EOS 5D/Mark II", "IMG_1.CR2", ["Canon", "Canon EOS 5D_Mark II"], "IMG_1"),
        ("../etc", "..", "..passwd.jpg", ["_etc", "_"], "passwd"),
        (nil, "  ", ".hidden.jpg", ["Unknown", "Unknown"], "hidden"),
        ("Nikon\u{7}\n", "D70\u{0}x", "a\u{1B}b\u{0}c.jpg", ["Nikon_", "D70_x"], "a_b_c"),
        (" . ", "\u{202E}gnp.exe", "  .jpg", ["_", "\u{202E}gnp.exe"], "_"),
        ("Apple", "iPhone", long + ".JPG", ["Apple", "iPhone"], String(repeating: "é", count: 97)),
    ]

    @Test(arguments: unsafe)
    func everyFolderAndStemIsOneSafeName(
        make: String?, model: String?, original: String, folders: [String], stem: String
    ) throws {
        let template = try ImportLayout(layout: "{make}/{model}", name: "{original}")
        let facts = ImportFacts(modificationTime: Date(timeIntervalSince1970: 0), make: make, model: model)
        let rendering = template.render(original: original, facts: facts, timeZone: utc)
        #expect(rendering.folders == folders)
        #expect(rendering.stem == stem)
        for component in rendering.folders + [rendering.stem] {
            #expect(!component.isEmpty && component != "." && component != "..")
            #expect(!component.contains("/") && !component.hasPrefix(".") && !component.contains("\0"))
            #expect(component.utf8.count <= SafeNames.safeLength)
        }
    }

    @Test func aLongNameIsCutInItsTextNeverInItsCounter() throws {
        let template = try ImportLayout(layout: "", name: "{original}-{counter:4}")
        let facts = ImportFacts(modificationTime: Date(timeIntervalSince1970: 0))
        let rendering = template.render(
            original: Self.long + ".JPG", facts: facts, timeZone: utc, counter: 12, stemLimit: 100)
        #expect(rendering.stem.utf8.count <= 100)
        #expect(rendering.stem.hasSuffix("é-0012"))
        let placeholder = template.render(original: "IMG_1.JPG", facts: facts, timeZone: utc, counter: nil)
        #expect(placeholder.stem == "IMG_1-" + String(repeating: ImportLayout.counterPlaceholder, count: 4))
    }
}

/// The one rule for names made safe as one path component, and the rule for a group's free names.
@Suite struct SafeNamesTests {
    static let cases: [(String, String)] = [
        ("IMG_1.JPG", "IMG_1.JPG"),
        ("a/b.jpg", "a_b.jpg"),
        ("..", "fallback"),
        (".", "fallback"),
        (".hidden.jpg", "hidden.jpg"),
        ("  x.jpg ", "x.jpg"),
        ("", "fallback"),
        ("a\u{1}b\u{0}c", "a_b_c"),
        ("\u{7F}.jpg", "_.jpg"),
        ("\tx.jpg\t", "_x.jpg_"),
        ("\u{A0}x.jpg\u{2003}", "x.jpg"),
        ("a\u{85}b.jpg", "a_b.jpg"),
        ("été.jpg", "été.jpg"),
        (String(repeating: "a", count: 300) + ".jpg", String(repeating: "a", count: 191) + ".jpg"),
        (String(repeating: "€", count: 100), String(repeating: "€", count: 65)),
    ]

    @Test(arguments: cases)
    func namesBecomeOneSafeComponent(name: String, safe: String) {
        #expect(SafeNames.sanitized(name, fallback: "fallback") == safe)
    }

    static let stems: [([String], [String], [String])] = [
        (["IMG_1.JPG", "IMG_1.JPG.xmp"], ["IMG_1", "IMG_1"], ["IMG_1 (2).JPG", "IMG_1 (2).JPG.xmp"]),
        (
            ["IMG_1.HEIC", "IMG_1.MOV", "IMG_1.xmp"], ["IMG_1", "IMG_1", "IMG_1"],
            ["IMG_1 (2).HEIC", "IMG_1 (2).MOV", "IMG_1 (2).xmp"]
        ),
        (
            ["2024.05.01-IMG_7.JPG", "2024.05.01-IMG_7.xmp"], ["2024.05.01-IMG_7", "2024.05.01-IMG_7"],
            ["2024.05.01-IMG_7 (2).JPG", "2024.05.01-IMG_7 (2).xmp"]
        ),
        (["trip.day1.JPG"], ["trip.day1"], ["trip.day1 (2).JPG"]),
        (["README"], ["README"], ["README (2)"]),
        ([".hidden.jpg"], [".hidden"], [".hidden (2).jpg"]),
    ]

    @Test(arguments: stems)
    func aGroupsStemIsItsNamesWithoutTheirExtensionAndTheSuffixFollowsIt(
        names: [String], stems: [String], suffixed: [String]
    ) {
        #expect(GroupNames.split(names).map(\.stem) == stems)
        #expect(GroupNames.free(GroupNames.split(names), besides: Set(stems.map { $0.lowercased() })) == suffixed)
    }

    /// A name takes each stem it starts with up to a dot: a file named so would pair with the
    /// group's, or be taken for its sidecar; a dot inside a stem is the stem's.
    @Test func aNameTakesTheStemsItStartsWith() {
        #expect(GroupNames.prefixes(of: "IMG_1.JPG.xmp") == ["img_1", "img_1.jpg", "img_1.jpg.xmp"])
        let day = Set(["2017.04.09-IMG_3001.JPG", "trip.day1.JPG"].flatMap(GroupNames.prefixes(of:)))
        #expect(GroupNames.free([("2017.04.09-IMG_3002", ".JPG")], besides: day) == ["2017.04.09-IMG_3002.JPG"])
        #expect(GroupNames.free([("trip.day2", ".JPG")], besides: day) == ["trip.day2.JPG"])
        #expect(GroupNames.free([("trip", ".JPG")], besides: day) == ["trip (2).JPG"], "trip.xmp would be its sidecar")
    }

    @Test func aGroupTakesOneSuffixWhenAnyOfItsStemsIsTaken() {
        let names = GroupNames.split(["IMG_1.HEIC", "IMG_1.MOV"])
        #expect(GroupNames.free(names, besides: []) == ["IMG_1.HEIC", "IMG_1.MOV"])
        #expect(GroupNames.free(names, besides: ["img_1"]) == ["IMG_1 (2).HEIC", "IMG_1 (2).MOV"])
        #expect(GroupNames.free(names, besides: ["img_1", "img_1 (2)"]) == ["IMG_1 (3).HEIC", "IMG_1 (3).MOV"])
        #expect(GroupNames.free(names, besides: ["img_1", "img_1 (2)"], attempts: 2) == nil)
    }
}
