import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

/// `photos import`, the built binary: a dry run that prints the plan and changes nothing, a run that
/// files a phone folder by date and names what it left, templates and roots it refuses.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ImportCLITests {
    struct Setup {
        let directory: TemporaryDirectory
        let root: String
        let drop: String
        let config: String
        let library: String

        init(write: String = "files") throws {
            directory = try TemporaryDirectory(prefix: "photos-import-cli")
            root = directory.path("Pictures").path
            drop = directory.path("Drop").path
            config = directory.path("config.toml").path
            library = directory.path("library.sqlite").path
            let manager = FileManager.default
            try manager.createDirectory(atPath: root, withIntermediateDirectories: true)
            try manager.createDirectory(atPath: drop, withIntermediateDirectories: true)
            for name in ["IMG_5195.HEIC", "IMG_5195.MOV", "IMG_0004.JPG"] {
                try manager.copyItem(
                    atPath: try #require(Corpus.file("Phone/DCIM/100APPLE/" + name)).path, toPath: drop + "/" + name)
            }
            try manager.copyItem(
                atPath: try #require(Corpus.file("Bad/notes.txt")).path, toPath: drop + "/notes.txt")
            try Data(
                """
                roots = [{ path = "\(root)", write = "\(write)" }]
                library = "\(library)"
                time_zone = "UTC"

                """.utf8
            ).write(to: URL(fileURLWithPath: config))
        }

        func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try BuiltProducts.run("photos", arguments + ["--config", config])
        }

        func names(_ directory: String) -> [String] {
            ((FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? [])
                .filter { !($0 as NSString).lastPathComponent.hasPrefix(".") && $0.contains(".") }.sorted()
        }
    }

    @Test func aDryRunPrintsThePlanAndTheRunFilesThePhotosNamingWhatItLeft() throws {
        let setup = try Setup()
        let dry = try setup.photos([
            "import", setup.drop, "--to", setup.root, "--name", "{yyyyMMdd-HHmmss}", "--dry-run",
        ])
        #expect(dry.status == 0, "\(dry.stderr)")
        let live = "\(setup.root)/2021/2021-04-11/20210411-154753"
        #expect(
            dry.stdout == """
                left \(setup.drop)/notes.txt: the content is text/plain, not an image or a video
                would move \(setup.drop)/IMG_0004.JPG -> \(setup.root)/2011/2011-01-13/20110113-143339.JPG
                would move \(setup.drop)/IMG_5195.HEIC -> \(live).HEIC
                would move \(setup.drop)/IMG_5195.MOV -> \(live).MOV
                would import 2 photos (3 files), 0 duplicates, 0 rejected, 1 left

                """)
        #expect(setup.names(setup.root).isEmpty, "a dry run moves nothing")
        #expect(!FileManager.default.fileExists(atPath: setup.library), "nor makes a library")
        // With --json, one object a file and no summary.
        let dryJSON = try setup.photos([
            "import", setup.drop, "--to", setup.root, "--name", "{yyyyMMdd-HHmmss}", "--dry-run", "--json",
        ])
        let lines = dryJSON.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(lines.count == 4 && lines.allSatisfy { $0?["dryRun"] as? Bool == true }, "\(dryJSON.stdout)")
        #expect(lines.map { $0?["action"] as? String } == ["leave", "move", "move", "move"])
        #expect(lines.last??["from"] as? String == "\(setup.drop)/IMG_5195.MOV")
        #expect(lines.last??["to"] as? String == "\(live).MOV")

        let run = try setup.photos(["import", setup.drop, "--to", setup.root, "--name", "{yyyyMMdd-HHmmss}"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.hasSuffix("imported 2 photos (3 files), 0 duplicates, 0 rejected, 1 left\n"), "\(run.stdout)")
        #expect(run.stdout.contains("moved \(setup.drop)/IMG_5195.MOV -> \(live).MOV"))
        #expect(
            setup.names(setup.root) == [
                "2011/2011-01-13/20110113-143339.JPG", "2021/2021-04-11/20210411-154753.HEIC",
                "2021/2021-04-11/20210411-154753.MOV",
            ])
        #expect(setup.names(setup.drop) == ["notes.txt"])
        // The library has them: the Live Photo as one asset.
        let assets = try setup.photos(["assets", "--json"])
        #expect(assets.stdout.split(separator: "\n").count == 2, "\(assets.stdout)")
        #expect(assets.stdout.contains("20210411-154753.HEIC"))

        // The same photos dropped again are duplicates: they stay, listed.
        for name in ["IMG_5195.HEIC", "IMG_5195.MOV"] {
            try FileManager.default.copyItem(
                atPath: try #require(Corpus.file("Phone/DCIM/100APPLE/" + name)).path,
                toPath: setup.drop + "/" + name)
        }
        // A dry run finds them so without writing to the library (the content hashes it computes
        // of the library's files are the run's alone); the run keeps them for the next.
        func hashed() throws -> Int64? {
            try LibraryDatabase(path: setup.library).read { db in
                try db.scalarInt64("SELECT COUNT(*) FROM resource WHERE contentHash IS NOT NULL", [])
            }
        }
        let hashedBefore = try hashed()
        let dryAgain = try setup.photos(["import", setup.drop, "--to", setup.root, "--dry-run"])
        #expect(dryAgain.stdout.contains("duplicate \(setup.drop)/IMG_5195.HEIC"), "\(dryAgain.stdout)")
        #expect(try hashed() == hashedBefore)
        let again = try setup.photos(["import", setup.drop, "--to", setup.root])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try hashed() ?? 0 > hashedBefore ?? 0, "the run keeps what it hashed")
        #expect(again.stdout.contains("duplicate \(setup.drop)/IMG_5195.HEIC (the library has \(live).HEIC)"))
        #expect(setup.names(setup.drop) == ["IMG_5195.HEIC", "IMG_5195.MOV", "notes.txt"])
    }

    /// A source that holds the root, lies inside it (or inside another root the library scanned),
    /// or leads into it through a link is refused before anything moves: its photos are the
    /// library's where they lie, and `--duplicates trash` took each for its own duplicate and
    /// trashed the only copy.
    @Test func aSourceThatHoldsOrLiesInARootIsRefusedBeforeAnythingMoves() throws {
        let setup = try Setup()
        let trip = setup.root + "/Trip"
        let archive = setup.directory.path("Archive").path
        try FileManager.default.createDirectory(atPath: trip, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        for name in ["IMG_0004.JPG", "IMG_5195.HEIC"] {
            try FileManager.default.moveItem(atPath: setup.drop + "/" + name, toPath: trip + "/" + name)
        }
        try FileManager.default.moveItem(atPath: setup.drop + "/IMG_5195.MOV", toPath: archive + "/IMG_5195.MOV")
        #expect(try setup.photos(["scan", setup.root]).status == 0)
        #expect(try setup.photos(["scan", archive]).status == 0)
        let link = setup.directory.path("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: trip)
        let tree = setup.names(setup.directory.url.path)
        for (source, how) in [
            (setup.directory.url.path, "it holds the root \(setup.root)"),
            (trip, "it is inside the root \(setup.root)"),
            (link, "it is inside the root \(setup.root)"),
            (archive, "it is inside the root \(archive)"),
        ] {
            for extra in [["--duplicates", "trash"], ["--duplicates", "keep"], ["--dry-run"]] {
                let refused = try setup.photos(["import", source, "--to", setup.root] + extra)
                #expect(refused.status != 0, "\(source) \(extra)")
                #expect(
                    refused.stderr.contains("cannot import from \(source): \(how)"), "\(source): \(refused.stderr)")
            }
        }
        #expect(setup.names(setup.directory.url.path) == tree, "nothing moved")
        let assets = try setup.photos(["assets", "--json"])
        #expect(assets.stdout.split(separator: "\n").count == 3, "\(assets.stdout)")
    }

    @Test func aBadTemplateAndARootThatMayNotBeWrittenAreRefusedBeforeAnythingMoves() throws {
        let setup = try Setup()
        let bad = try setup.photos(["import", setup.drop, "--to", setup.root, "--name", "{orignal}"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("did you mean {original}"), "\(bad.stderr)")

        let readOnly = try Setup(write: "sidecars")
        let refused = try readOnly.photos(["import", readOnly.drop, "--to", readOnly.root])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(readOnly.root) && refused.stderr.contains("sidecars"), "\(refused.stderr)")
        #expect(readOnly.names(readOnly.drop).count == 4, "nothing moved")
    }
}
