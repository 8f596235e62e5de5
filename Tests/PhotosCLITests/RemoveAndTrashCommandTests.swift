import Foundation
import PhotosTestSupport
import Testing

/// `photos rm` and `photos trash list|restore|empty`, the built binary on a scanned folder whose root
/// allows file changes (`write = "files"` in the config), with a Trash of the test's own.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RemoveAndTrashCommandTests {
    @Test func rmTrashesThePhotoAndTrashRestoresAndEmptiesNamingEachFile() throws {
        let directory = try TemporaryDirectory(prefix: "photos-rm")
        let root = directory.path("Pictures").path
        let photo = root + "/2024/IMG_0001.JPG"
        try FileManager.default.createDirectory(atPath: root + "/2024", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path, toPath: photo)
        let config = directory.path("config.toml").path
        try Data("roots = [{ path = \"\(root)\", write = \"files\" }]\n".utf8).write(to: URL(fileURLWithPath: config))
        let library = directory.path("library.sqlite").path
        let environment = [
            "XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path,
            "XDG_CONFIG_HOME": directory.path("config-home").path, "XDG_RUNTIME_DIR": directory.path("run").path,
        ]
        func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try BuiltProducts.run(
                "photos", arguments + ["--library", library, "--config", config], environment: environment)
        }
        let trashed = directory.path("data/Trash/files/IMG_0001.JPG").path

        let scan = try BuiltProducts.run("photos", ["scan", "--library", library, root], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let listed = try photos(["assets", "--json"])
        let asset = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "\(listed.stdout)")
        let identifier = try #require(asset["localIdentifier"] as? String)

        let dry = try photos(["rm", "--dry-run", photo])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "\(identifier)  would trash \(photo)\n")
        #expect(FileManager.default.fileExists(atPath: photo), "a dry run moves nothing")
        // With --json, one object a file, the action named and the dry run said.
        let dryJSON = try photos(["rm", "--dry-run", "--json", photo])
        #expect(
            dryJSON.stdout == #"{"action":"trash","dryRun":true,"from":"\#(photo)","localIdentifier":"\#(identifier)"}"#
                + "\n")

        let removed = try photos(["rm", photo])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout == "\(identifier)  trashed \(photo) -> \(trashed)\n")
        #expect(!FileManager.default.fileExists(atPath: photo) && FileManager.default.fileExists(atPath: trashed))
        #expect(try photos(["assets", "--json"]).stdout.isEmpty)

        let list = try photos(["trash", "list", "--json"])
        let entry = try #require(
            try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any], "\(list.stdout)")
        #expect(entry["localIdentifier"] as? String == identifier)
        #expect((entry["files"] as? [[String: Any]])?.first?["trashPath"] as? String == trashed)

        let wouldRestore = try photos(["trash", "restore", "--dry-run", "--json", identifier])
        #expect(
            wouldRestore.stdout
                == #"{"action":"restore","dryRun":true,"localIdentifier":"\#(identifier)","to":"\#(photo)"}"# + "\n")
        let restored = try photos(["trash", "restore", String(identifier.prefix(8))])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout == "\(identifier)  restored \(photo)\n")
        #expect(FileManager.default.fileExists(atPath: photo) && !FileManager.default.fileExists(atPath: trashed))
        #expect(try photos(["assets", "--json"]).stdout.contains(identifier), "the same asset is back")

        let removedJSON = try photos(["rm", "--json", identifier])
        #expect(
            removedJSON.stdout
                == #"{"action":"trash","dryRun":false,"from":"\#(photo)","localIdentifier":"\#(identifier)","to":"\#(trashed)"}"#
                + "\n", "\(removedJSON.stderr)")
        let wouldEraseJSON = try photos(["trash", "empty", "--dry-run", "--json"])
        #expect(
            wouldEraseJSON.stdout
                == #"{"action":"erase","dryRun":true,"from":"\#(trashed)","localIdentifier":"\#(identifier)"}"# + "\n")
        let wouldErase = try photos(["trash", "empty", "--dry-run"])
        #expect(wouldErase.stdout == "\(identifier)  would erase \(trashed)\n")
        #expect(FileManager.default.fileExists(atPath: trashed))
        let erased = try photos(["trash", "empty"])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(erased.stdout == "\(identifier)  erased \(trashed)\n")
        #expect(!FileManager.default.fileExists(atPath: trashed) && !FileManager.default.fileExists(atPath: photo))
        #expect(try photos(["trash", "list", "--json"]).stdout.isEmpty)

        // Many assets, named on standard input (`-`), one a line.
        let second = root + "/2024/IMG_0002.JPG"
        for path in [photo, second] {
            try FileManager.default.copyItem(
                atPath: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path, toPath: path)
        }
        #expect(
            try BuiltProducts.run("photos", ["scan", "--library", library, root], environment: environment).status == 0)
        let both = try photos(["assets", "--json"]).stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["localIdentifier"] as? String
        }
        #expect(both.count == 2)
        let none = try BuiltProducts.run(
            "photos", ["rm", "-", "--library", library, "--config", config], environment: environment, input: "")
        #expect(none.status == 0 && none.stdout.isEmpty, "nothing on standard input deletes nothing: \(none.stderr)")
        let piped = try BuiltProducts.run(
            "photos", ["rm", "-", "--library", library, "--config", config], environment: environment,
            input: both.joined(separator: "\n") + "\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.split(separator: "\n").count == 2, "\(piped.stdout)")
        #expect(!FileManager.default.fileExists(atPath: photo) && !FileManager.default.fileExists(atPath: second))
        let back = try BuiltProducts.run(
            "photos", ["trash", "restore", "-", "--library", library, "--config", config], environment: environment,
            input: both.joined(separator: "\n"))
        #expect(back.status == 0, "\(back.stderr)")
        #expect(FileManager.default.fileExists(atPath: photo) && FileManager.default.fileExists(atPath: second))
        try FileManager.default.removeItem(atPath: second)
        #expect(
            try BuiltProducts.run("photos", ["scan", "--library", library, root], environment: environment).status == 0)

        // A root that does not allow it: refused, naming the file and the root.
        try Data("roots = [\"\(root)\"]\n".utf8).write(to: URL(fileURLWithPath: config))
        let refused = try photos(["rm", photo])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("\(photo) is under \(root), whose write policy is \"none\""), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: photo))
    }
}

extension RemoveAndTrashCommandTests {
    /// An asset whose file is already gone from disk is deleted with nothing to trash, and `photos rm`
    /// says so (it printed nothing and exited 0), as its dry run does beforehand; it waits in Recently
    /// Deleted with no file.
    /// The table of `photos trash list` shows a path as `rm` printed it: escaped once, so that a
    /// backslash in a name reads as one escaped backslash, not two.
    @Test func trashListShowsANameWithABackslashAsRmPrintedIt() throws {
        let directory = try TemporaryDirectory(prefix: "photos-rm-escaped")
        let root = directory.path("Pictures").path
        let photo = root + "/back\\slash.jpg"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path, toPath: photo)
        let config = directory.path("config.toml").path
        try Data("roots = [{ path = \"\(root)\", write = \"files\" }]\n".utf8).write(to: URL(fileURLWithPath: config))
        let environment = ["XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path]
        func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try BuiltProducts.run(
                "photos", arguments + ["--library", directory.path("library.sqlite").path, "--config", config],
                environment: environment)
        }
        #expect(try photos(["scan", root]).status == 0)
        let removed = try photos(["rm", photo])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("/back\\\\slash.jpg -> "), "\(removed.stdout)")
        let listed = try photos(["trash", "list"])
        #expect(listed.stdout.contains(root + "/back\\\\slash.jpg "), "\(listed.stdout)")
        #expect(!listed.stdout.contains("\\\\\\\\"), "escaped twice: \(listed.stdout)")
    }

    @Test func anAssetWhoseFileIsGoneIsDeletedSayingSo() throws {
        let one = try OnePhoto(prefix: "photos-rm-gone", write: "files")
        let (root, photo, photos) = (one.root, one.photo, one.photos)
        #expect(try photos(["scan", root]).status == 0)
        let listed = try photos(["assets", "--json"])
        let asset = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "\(listed.stdout)")
        let identifier = try #require(asset["localIdentifier"] as? String)
        try FileManager.default.removeItem(atPath: photo)

        let dry = try photos(["rm", "--dry-run", identifier])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("\(identifier)  would delete it: none of its files is on disk"), "\(dry.stdout)")
        // The path the library has for it still names it, its file gone; another path does not.
        let byPath = try photos(["rm", "--dry-run", photo])
        #expect(byPath.status == 0 && byPath.stdout == dry.stdout, "\(byPath.stderr)")
        let elsewhere = try photos(["rm", "--dry-run", photo + ".not"])
        #expect(elsewhere.status != 0 && elsewhere.stderr.contains("no such file, and not an identifier"))
        let removed = try photos(["rm", photo])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(
            removed.stdout
                == "\(identifier)  deleted: none of its files is on disk, so nothing goes to the Trash (it waits in "
                + "Recently Deleted: photos trash)\n", "\(removed.stdout)")
        #expect(try photos(["assets", "--json"]).stdout.isEmpty)
        #expect(try photos(["trash", "list", "--json"]).stdout.contains(identifier))
    }
}

extension RemoveAndTrashCommandTests {
    /// A restore's dry run refuses what the restore would: a file is at the photo's path again.
    @Test func aRestoresDryRunRefusesAPathThatIsTakenAgain() throws {
        let one = try OnePhoto(prefix: "photos-restore-taken", write: "files")
        let (root, photo, photos) = (one.root, one.photo, one.photos)
        #expect(try photos(["scan", root]).status == 0)
        #expect(try photos(["rm", photo]).status == 0)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: photo))
        let listed = try photos(["trash", "list", "--json"]).stdout
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])
        let identifier = try #require(entry["localIdentifier"] as? String)
        for dryRun in [true, false] {
            let refused = try photos(["trash", "restore", identifier] + (dryRun ? ["--dry-run"] : []))
            #expect(refused.status != 0 && refused.stderr.contains("a file is already there"), "\(refused.stderr)")
        }
        #expect(try String(contentsOfFile: photo, encoding: .utf8) == "someone else's")
        try FileManager.default.removeItem(atPath: photo)
        let dry = try photos(["trash", "restore", "--dry-run", identifier])
        #expect(dry.status == 0 && dry.stdout == "\(identifier)  would restore \(photo)\n", "\(dry.stderr)")
    }
}

extension RemoveAndTrashCommandTests {
    /// A restore that another program's file refuses (at the second of three photos' paths) moves
    /// nothing and names the file, which is left as it is; the first photo restored alone, the same
    /// command with all three is run again: the first is said restored already and the others come
    /// back (it failed: "no asset … in Recently Deleted"). An identifier the library never had is
    /// still an error naming it.
    @Test func theSameRestoreRunAgainSaysWhatIsRestoredAlreadyAndBringsTheRest() throws {
        let one = try OnePhoto(prefix: "photos-restore-again", write: "files")
        let (root, photos) = (one.root, one.photos)
        let paths = [one.photo, root + "/IMG_0002.JPG", root + "/IMG_0003.JPG"]
        for path in paths.dropFirst() { try FileManager.default.copyItem(atPath: one.photo, toPath: path) }
        #expect(try photos(["scan", root]).status == 0)
        var ids: [String] = []
        for path in paths {
            let listed = try photos([
                "assets", "--json", "--predicate", "filename == '\((path as NSString).lastPathComponent)'",
            ])
            let asset = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "\(listed.stdout)")
            ids.append(try #require(asset["localIdentifier"] as? String))
        }
        #expect(try photos(["rm"] + ids).status == 0)

        let theirs = "another program's file"
        try Data(theirs.utf8).write(to: URL(fileURLWithPath: paths[1]))
        let refused = try photos(["trash", "restore"] + ids)
        #expect(refused.status != 0 && refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(
            refused.stderr.contains("cannot restore \(paths[1]) from ")
                && refused.stderr.contains("a file is already there"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: paths[1], encoding: .utf8) == theirs, "their file is untouched")
        #expect(!FileManager.default.fileExists(atPath: paths[0]), "checked before anything moves")
        try FileManager.default.removeItem(atPath: paths[1])

        let first = try photos(["trash", "restore", ids[0]])
        #expect(first.status == 0 && first.stdout == "\(ids[0])  restored \(paths[0])\n", "\(first.stderr)")
        let dry = try photos(["trash", "restore", "--dry-run"] + ids)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.split(separator: "\n").sorted()
                == [
                    "\(ids[0])  already restored: not in Recently Deleted, it is in the library",
                    "\(ids[1])  would restore \(paths[1])", "\(ids[2])  would restore \(paths[2])",
                ].sorted(), "\(dry.stdout)")
        let again = try photos(["trash", "restore"] + ids)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout.split(separator: "\n").sorted()
                == [
                    "\(ids[0])  already restored: not in Recently Deleted, it is in the library",
                    "\(ids[1])  restored \(paths[1])", "\(ids[2])  restored \(paths[2])",
                ].sorted(), "\(again.stdout)")
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(try photos(["trash", "list", "--json"]).stdout.isEmpty)
        let json = try photos(["trash", "restore", "--json", ids[2]])
        #expect(
            json.stdout
                == #"{"action":"skip","dryRun":false,"localIdentifier":"\#(ids[2])","reason":"already restored: not in Recently Deleted, it is in the library"}"#
                + "\n", "\(json.stderr)")

        let unknown = "00000000-0000-0000-0000-000000000000/L0/001"
        let none = try photos(["trash", "restore", ids[0], unknown])
        #expect(none.status != 0 && none.stdout.isEmpty)
        #expect(none.stderr.contains("no asset \(unknown) in Recently Deleted"), "\(none.stderr)")
    }
}

extension RemoveAndTrashCommandTests {
    /// A deletion refused reads the same in its dry run as in the change (the dry run added
    /// PhotoKit's code in front).
    @Test func aRefusedDeletionReadsTheSameInItsDryRun() throws {
        let one = try OnePhoto(prefix: "photos-rm-refused", write: "sidecars")
        let (root, photo, photos) = (one.root, one.photo, one.photos)
        #expect(try photos(["scan", root]).status == 0)
        let dry = try photos(["rm", "--dry-run", photo])
        let real = try photos(["rm", photo])
        #expect(dry.status != 0 && real.status != 0)
        #expect(real.stderr.hasPrefix("Error: cannot delete IMG_0001.JPG: "), "\(real.stderr)")
        #expect(dry.stderr == real.stderr)
        #expect(FileManager.default.fileExists(atPath: photo))
    }
}

/// One photo (`Pictures/IMG_0001.JPG`) under a root with the `write` policy given, a config with no
/// socket, a library, a Trash and an environment of the test's own; `photos` runs the built binary
/// on them.
struct OnePhoto {
    let directory: TemporaryDirectory
    var root: String { directory.path("Pictures").path }
    var photo: String { root + "/IMG_0001.JPG" }

    init(prefix: String, write: String) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        try FileManager.default.createDirectory(
            atPath: directory.path("Pictures").path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")).path,
            toPath: directory.path("Pictures/IMG_0001.JPG").path)
        try Data(
            "roots = [{ path = \"\(directory.path("Pictures").path)\", write = \"\(write)\" }]\nsocket = \"\"\n".utf8
        )
        .write(to: directory.path("config.toml"))
    }

    func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let environment = [
            "XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path,
            "XDG_CONFIG_HOME": directory.path("config-home").path, "XDG_RUNTIME_DIR": directory.path("run").path,
        ]
        return try BuiltProducts.run(
            "photos",
            arguments + [
                "--library", directory.path("library.sqlite").path, "--config", directory.path("config.toml").path,
            ],
            environment: environment)
    }
}
