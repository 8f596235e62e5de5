import Foundation
import PhotosTestSupport
import Testing

/// `photos mv`: the built `photos` renames a directory-backed album and moves it into a folder,
/// under a root with `write = "files"`; without that policy it changes nothing and says why.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct MoveCLITests {
    let directory: TemporaryDirectory
    let root: String
    var library: String { directory.path("library.sqlite").path }
    var config: String { directory.path("config.toml").path }

    /// Pictures/2024/Zoo, Pictures/2024/Trip and Pictures/Animals/Cats, one photo each, scanned.
    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-mv")
        root = directory.path("Pictures").path
        let photo = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        for folder in ["2024/Zoo", "2024/Trip", "Animals/Cats"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo.path, toPath: root + "/" + folder + "/photo.jpg")
        }
        try Data("roots = [{ path = \"\(root)\", write = \"files\" }]\n".utf8).write(to: URL(fileURLWithPath: config))
        let scan = try BuiltProducts.run("photos", ["scan", "--library", library, root])
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", arguments + ["--library", library])
    }

    func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + path)) ?? []).sorted()
    }

    @Test func renamesThenMovesAnAlbumsDirectoryAndSaysWhereItWent() throws {
        let dry = try photos(["mv", root + "/2024/Zoo", "Aquarium", "--config", config, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "would rename album \(root)/2024/Zoo to Aquarium: \(root)/2024/Aquarium\n")
        #expect(entries("2024") == ["Trip", "Zoo"], "a dry run changes nothing")
        // A dry run plans as the change checks: a taken name's suffix, a root that cannot be renamed.
        let taken = try photos(["mv", root + "/2024/Zoo", "Trip", "--config", config, "--dry-run"])
        #expect(taken.stdout == "would rename album \(root)/2024/Zoo to Trip: \(root)/2024/Trip (2)\n", "\(taken)")
        let whole = try photos(["mv", root, "Renamed", "--config", config, "--dry-run"])
        #expect(whole.status != 0 && whole.stderr.contains("is the watched root"), "\(whole.stderr)")
        #expect(entries("2024") == ["Trip", "Zoo"], "a dry run changes nothing")

        let renamed = try photos(["mv", root + "/2024/Zoo", "Aquarium", "--config", config])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == "album \(root)/2024/Zoo -> \(root)/2024/Aquarium\n")
        #expect(entries("2024") == ["Aquarium", "Trip"])

        let moved = try photos(["mv", root + "/2024/Aquarium", root + "/Animals", "--config", config, "--json"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let line = try #require(
            try JSONSerialization.jsonObject(with: Data(moved.stdout.utf8)) as? [String: Any], "\(moved.stdout)")
        #expect(line["from"] as? String == root + "/2024/Aquarium")
        #expect(line["to"] as? String == root + "/Animals/Aquarium")
        #expect(entries("Animals") == ["Aquarium", "Cats"] && entries("2024") == ["Trip"])
        #expect(entries("Animals/Aquarium") == ["photo.jpg"])
    }

    @Test func withoutAFilesRootNothingMovesAndTheErrorSaysWhy() throws {
        for dryRun in [true, false] {
            let refused = try photos(["mv", root + "/2024/Zoo", "Aquarium"] + (dryRun ? ["--dry-run"] : []))
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("is in no watched root with write = \"files\""), "\(refused.stderr)")
        }
        #expect(entries("2024") == ["Trip", "Zoo"])
        let unknown = try photos(["mv", root + "/2024/Zoo", root + "/Nowhere/Else", "--config", config])
        #expect(unknown.status != 0 && unknown.stderr.contains("no such directory"), "\(unknown.stderr)")
    }

    @Test func movesAPhotoIntoADirectoryAlbumAndSaysWhichFileWentWhere() throws {
        let photo = root + "/2024/Zoo/photo.jpg"
        let dry = try photos(["mv", photo, root + "/2024/Trip", "--config", config, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        // Trip has a photo.jpg: the moved photo's files take a suffix together.
        #expect(dry.stdout.hasSuffix("  would move \(photo) -> \(root)/2024/Trip/photo (2).jpg\n"), "\(dry.stdout)")
        #expect(entries("2024/Zoo") == ["photo.jpg"], "a dry run changes nothing")

        let moved = try photos(["mv", photo, root + "/2024/Trip", "--config", config])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.hasSuffix("  moved \(photo) -> \(root)/2024/Trip/photo (2).jpg\n"), "\(moved.stdout)")
        #expect(entries("2024/Trip") == ["photo (2).jpg", "photo.jpg"] && entries("2024/Zoo") == [])
        let assets = try photos(["assets", "--json"])
        let paths = assets.stdout.split(separator: "\n").compactMap { line -> [String]? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["resources"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        }.flatMap { $0 }
        #expect(paths.contains("\(root)/2024/Trip/photo (2).jpg"), "the library follows: \(assets.stdout)")

        // Into the album it is in, named as typed: nothing moves, and the album is named as the library names it.
        let again = try photos(["mv", "\(root)/2024/Trip/photo (2).jpg", root + "/2024/Trip/.", "--config", config])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasSuffix(" is in \(root)/2024/Trip already: nothing moves\n"), "\(again.stdout)")

        // Without a files root: refused, naming the directory.
        let refused = try photos(["mv", root + "/Animals/Cats/photo.jpg", root + "/2024/Trip"])
        #expect(refused.status != 0 && refused.stderr.contains(root + "/2024/Trip"), "\(refused.stderr)")
        #expect(entries("Animals/Cats") == ["photo.jpg"])
    }
}
