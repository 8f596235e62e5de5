import Foundation
import PhotosConfig
import PhotosCore
import PhotosTestSupport
import Testing

/// `[[imports]]` tables: every key and its default, and every problem named by file, line and key.
@Suite struct ConfigImportsTests {
    static let roots = """
        roots = [
            { path = "/home/me/Pictures", write = "files" },
            { path = "/mnt/camera", write = "sidecars" },
            "/srv/archive",
        ]

        """

    @Test func anImportReadsEveryKey() throws {
        let config = try ConfigFile.parse(
            Self.roots + """
                [[imports]]
                from = "/home/me/Sync/Phone/"
                to = "/home/me/Pictures"
                layout = "{yyyy}/{MM}"
                name = "{yyyyMMdd-HHmmss}-{make}-{counter:4}"
                mode = "copy"
                duplicates = "keep"
                settle_ms = 500

                [[imports]]
                from = "/media/me/CARD/DCIM"
                to = "/home/me/Pictures/"
                """)
        #expect(config.imports.count == 2)
        let phone = config.imports[0]
        #expect(phone.from == "/home/me/Sync/Phone" && phone.to == "/home/me/Pictures", "standardized")
        #expect(phone.layout == (try ImportLayout(layout: "{yyyy}/{MM}", name: "{yyyyMMdd-HHmmss}-{make}-{counter:4}")))
        #expect(phone.mode == .copy && phone.duplicates == .keep && phone.settle == .milliseconds(500))
        let card = config.imports[1]
        #expect(card.layout == (try ImportLayout()), "layout {yyyy}/{yyyy-MM-dd}, name {original}")
        #expect(card.mode == .move && card.duplicates == .skip && card.settle == .milliseconds(2000))
        #expect(card.to == "/home/me/Pictures")
        #expect(try ConfigFile.parse(Self.roots).imports.isEmpty)
    }

    static let importKeys = "known: from, to, layout, name, mode, duplicates, settle_ms"
    static let first = roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/home/me/Pictures\"\n"

    /// A file, the problem's code, and the error's text (the roots take lines 1 to 5).
    static let rejected: [(String, ConfigError.Code, String)] = [
        (
            roots + "[[imports]]\nto = \"/home/me/Pictures\"", .missingKey,
            "config.toml:6: imports[0].from: missing: every import needs the drop folder to take files from"
        ),
        (
            roots + "[[imports]]\nfrom = \"/drop\"", .missingKey,
            "config.toml:6: imports[0].to: missing: every import needs the root to file them into (a root with write = \"files\")"
        ),
        (
            roots + "[[imports]]\nfrom = \"drop\"\nto = \"/home/me/Pictures\"", .invalidValue,
            "config.toml:7: imports[0].from: must be an absolute directory, not \"drop\""
        ),
        (first + "colour = 1", .unknownKey, "config.toml:9: imports[0].colour: unknown key (\(importKeys))"),
        (
            first + "mode = \"moved\"", .invalidValue,
            "config.toml:9: imports[0].mode: must be one of \"move\", \"copy\", not \"moved\""
        ),
        (
            first + "duplicates = \"delete\"", .invalidValue,
            "config.toml:9: imports[0].duplicates: must be one of \"skip\", \"trash\", \"keep\", not \"delete\""
        ),
        (
            first + "mode = \"copy\"\nduplicates = \"trash\"", .invalidValue,
            "config.toml:10: imports[0].duplicates: \"trash\" needs mode = \"move\": a copying import never touches the drop folder"
        ),
        (
            first + "settle_ms = -1", .invalidValue,
            "config.toml:9: imports[0].settle_ms: must be a whole number of milliseconds, 0 or more, not -1"
        ),
        (
            first + "settle_ms = \"2s\"", .wrongType,
            "config.toml:9: imports[0].settle_ms: must be a whole number of milliseconds, 0 or more, not a string"
        ),
        (
            first + "layout = 2021", .wrongType,
            "config.toml:9: imports[0].layout: must be a string (a template such as \"{yyyy}/{yyyy-MM-dd}\"), not an integer"
        ),
        (
            first + "layout = \"{yyyy}/{orignal}\"", .invalidTemplate,
            "config.toml:9: imports[0].layout: unknown token {orignal} (did you mean {original}?); the tokens are a date such as {yyyy-MM-dd}, {make}, {model}, {original}, {ext} and {counter:N} at offset 7 in layout \"{yyyy}/{orignal}\""
        ),
        (
            first + "\nname = \"{yyyy-MM-dd}/{original}\"", .invalidTemplate,
            "config.toml:10: imports[0].name: a name is one file name: no / (folders belong in layout) at offset 12 in name \"{yyyy-MM-dd}/{original}\""
        ),
        (
            first + "layout = \"{counter:3}\"", .invalidTemplate,
            "config.toml:9: imports[0].layout: {counter:3} numbers files: it belongs in name, not in layout at offset 0 in layout \"{counter:3}\""
        ),
        (
            roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/home/me/Photos\"", .invalidValue,
            "config.toml:8: imports[0].to: \"/home/me/Photos\" must be one of the roots (they are \"/home/me/Pictures\", \"/mnt/camera\", \"/srv/archive\")"
        ),
        (
            "[[imports]]\nfrom = \"/drop\"\nto = \"/home/me/Pictures\"", .invalidValue,
            "config.toml:3: imports[0].to: \"/home/me/Pictures\" must be one of the roots (there are none)"
        ),
        (
            roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/home/me/Pictures/2024\"", .invalidValue,
            "config.toml:8: imports[0].to: \"/home/me/Pictures/2024\" must be one of the roots (they are \"/home/me/Pictures\", \"/mnt/camera\", \"/srv/archive\")"
        ),
        (
            roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/mnt/camera\"", .invalidValue,
            "config.toml:8: imports[0].to: the root \"/mnt/camera\" has write = \"sidecars\": an import files photos only into a root with write = \"files\""
        ),
        (
            roots + "[[imports]]\nfrom = \"/drop\"\nto = \"/srv/archive\"", .invalidValue,
            "config.toml:8: imports[0].to: the root \"/srv/archive\" has write = \"none\": an import files photos only into a root with write = \"files\""
        ),
        (
            roots + "[[imports]]\nfrom = \"/home/me/Pictures/Drop\"\nto = \"/home/me/Pictures\"", .invalidValue,
            "config.toml:7: imports[0].from: \"/home/me/Pictures/Drop\" is inside the root \"/home/me/Pictures\": a drop folder lies outside every root"
        ),
        (
            roots + "[[imports]]\nfrom = \"/srv/archive\"\nto = \"/home/me/Pictures\"", .invalidValue,
            "config.toml:7: imports[0].from: \"/srv/archive\" is inside the root \"/srv/archive\": a drop folder lies outside every root"
        ),
        (
            roots + "[[imports]]\nfrom = \"/mnt\"\nto = \"/home/me/Pictures\"", .invalidValue,
            "config.toml:7: imports[0].from: \"/mnt\" holds the root \"/mnt/camera\": a drop folder lies outside every root"
        ),
        (
            first + "\n[[imports]]\nfrom = \"/drop/\"\nto = \"/home/me/Pictures\"", .duplicateSource,
            "config.toml:11: imports[1].from: \"/drop\" is already the from of imports[0]"
        ),
        (
            first + "\n[[imports]]\nfrom = \"/drop/Phone\"\nto = \"/home/me/Pictures\"", .duplicateSource,
            "config.toml:11: imports[1].from: \"/drop/Phone\" overlaps the from of imports[0]"
        ),
        (
            roots + "imports = [{ from = \"/drop\", to = \"/srv/archive\" }]", .invalidValue,
            "config.toml:6: imports[0].to: the root \"/srv/archive\" has write = \"none\": an import files photos only into a root with write = \"files\""
        ),
        (
            roots + "imports = 1", .wrongType,
            "config.toml:6: imports: must be an array of tables ([[imports]]), not an integer"
        ),
    ]

    @Test(arguments: rejected)
    func problemsNameTheFileLineAndKey(text: String, code: ConfigError.Code, message: String) {
        #expect(throws: ConfigError.self) { try ConfigFile.parse(text) }
        do {
            _ = try ConfigFile.parse(text)
        } catch {
            #expect(error.description == message)
            #expect(error.code == code, "\(error)")
        }
    }

    /// A drop folder that is a link into a root, or to a folder holding one, is the root's own
    /// folder: refused as its path would be (photosd would import, or trash as duplicates, the
    /// root's own photos).
    @Test func aDropFolderThatLeadsIntoARootThroughALinkIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "config-drop-link")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/Inbox", withIntermediateDirectories: true)
        let into = directory.path("drop").path
        let above = directory.path("everything").path
        try FileManager.default.createSymbolicLink(atPath: into, withDestinationPath: root + "/Inbox")
        try FileManager.default.createSymbolicLink(atPath: above, withDestinationPath: directory.url.path)
        let resolvedRoot = try #require(
            realpath(root, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
        for (from, how) in [
            (into, "is inside the root \"\(root)\""), (into + "/Phone", "is inside the root \"\(root)\""),
            (above, "holds the root \"\(root)\""),
        ] {
            let text = """
                roots = [{ path = "\(root)", write = "files" }]
                [[imports]]
                from = "\(from)"
                to = "\(root)"
                """
            let error = #expect(throws: ConfigError.self) { try ConfigFile.parse(text) }
            #expect(error?.code == .invalidValue)
            #expect(
                error?.description.contains("imports[0].from: \"\(from)\" (through its links, ") == true,
                "\(String(describing: error))")
            #expect(error?.description.contains(how) == true, "\(String(describing: error))")
            #expect(error?.description.contains(resolvedRoot) == true, "\(String(describing: error))")
        }
    }

    @Test func aTemplatesErrorIsTheCauseOfTheConfigsError() {
        do {
            _ = try ConfigFile.parse(Self.first + "name = \"{Make}\"")
            Issue.record("the name parsed")
        } catch {
            let cause = error.cause as? ImportTemplateError
            #expect(cause?.code == .unknownToken && cause?.template == .name && cause?.offset == 0)
        }
    }
}
