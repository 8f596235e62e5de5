import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// Naming assets and albums as git names commits (a unique prefix, or a file or directory), the
/// predicate keys of the JSON's vocabulary, `photos export` as `cp -p`, and the change table's
/// paths: the built `photos` on a scanned library of corpus files.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ShortIdentifierCLITests {
    let directory: TemporaryDirectory
    let root: URL
    var library: String { directory.path("library.sqlite").path }

    /// Valley/FurnaceCreekInn.jpg (in Death Valley), Trip/DSCN0010.jpg and Trip/DSCN0012.jpg (in
    /// Tuscany, 40 m apart), and 15 copies of a photo without a place in Many/: 18 assets, so that
    /// at least two identifiers share their first character.
    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-short-ids")
        root = directory.path("Pictures")
        let files = [
            ("Valley", "Camera/2008/Death Valley/FurnaceCreekInn.jpg"), ("Trip", "Camera/2008/Road trip/DSCN0010.jpg"),
            ("Trip", "Camera/2008/Road trip/DSCN0012.jpg"),
        ]
        for (folder, name) in files {
            let source = try #require(Corpus.file(name))
            let target = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target.appendingPathComponent(source.lastPathComponent))
        }
        let plain = try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Many"), withIntermediateDirectories: true)
        for index in 0..<15 {
            try FileManager.default.copyItem(at: plain, to: root.appendingPathComponent("Many/copy-\(index).jpg"))
        }
        // A mode and times of the user's own, for export to keep.
        let inn = root.appendingPathComponent("Valley/FurnaceCreekInn.jpg").path
        #expect(chmod(inn, 0o640) == 0)
        var times = [
            timespec(tv_sec: 1_000_000_000, tv_nsec: 123_456_789),
            timespec(tv_sec: 1_100_000_000, tv_nsec: 987_654_321),
        ]
        #expect(utimensat(AT_FDCWD, inn, &times, 0) == 0)
        let scan = try BuiltProducts.run("photos", ["scan", "--library", library, root.path])
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    func photos(_ arguments: [String], in workingDirectory: URL? = nil) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        guard let workingDirectory else { return try BuiltProducts.run("photos", arguments + ["--library", library]) }
        // The same run, from another directory (for relative paths).
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        process.arguments = arguments + ["--library", library]
        process.currentDirectoryURL = workingDirectory
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": BuiltProducts.cacheHome]) {
            $1
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)
        )
    }

    /// Every asset: identifier → first file's path.
    func assets(_ predicate: String? = nil) throws -> [String: String] {
        let listed = try photos(["assets", "--json", "--no-daemon"] + (predicate.map { ["--predicate", $0] } ?? []))
        #expect(listed.status == 0, "\(listed.stderr)")
        var result: [String: String] = [:]
        for line in listed.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let resources = try #require(object["resources"] as? [[String: Any]])
            result[try #require(object["localIdentifier"] as? String)] = resources.first?["path"] as? String
        }
        return result
    }

    /// The shortest prefix of `identifier` that no other identifier starts with (case aside).
    static func shortest(_ identifier: String, among all: [String]) -> String {
        for length in 1...identifier.count {
            let prefix = String(identifier.prefix(length)).lowercased()
            if all.filter({ $0.lowercased().hasPrefix(prefix) }).count == 1 { return prefix }
        }
        return identifier
    }

    @Test func aUniquePrefixAFileAndARelativePathEachNameTheirAsset() throws {
        let all = try assets()
        #expect(all.count == 18)
        let (identifier, path) = try #require(all.first { $0.value.hasSuffix("/FurnaceCreekInn.jpg") })
        let prefix = Self.shortest(identifier, among: Array(all.keys))
        #expect(prefix.count < identifier.count)

        let byPrefix = try photos(["export", prefix, "-o", directory.path("by-prefix").path, "--json"])
        #expect(byPrefix.status == 0, "\(byPrefix.stderr)")
        #expect(byPrefix.stdout.contains("\"localIdentifier\":\"\(identifier)\""), "\(byPrefix.stdout)")

        let byPath = try photos([
            "export", root.appendingPathComponent("Trip/DSCN0010.jpg").path, "-o", directory.path("by-path").path,
        ])
        #expect(byPath.status == 0, "\(byPath.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("by-path/DSCN0010.jpg").path))

        // Relative to the working directory, with `..` in it.
        let relative = try photos(
            ["export", "../Trip/DSCN0012.jpg", "-o", "../../relative"], in: root.appendingPathComponent("Valley"))
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("relative/DSCN0012.jpg").path))

        // `thumbnail` reads identifiers as export does (and case aside).
        let thumbnail = try photos(["thumbnail", prefix.uppercased(), "-o", directory.path("thumb.jpg").path, "--json"])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(thumbnail.stdout.contains("\"localIdentifier\":\"\(identifier)\""), "\(thumbnail.stdout)")
    }

    @Test func anAmbiguousPrefixListsTheCandidatesAndAnUnknownOneSaysWhatWasLookedFor() throws {
        let all = Array(try assets().keys)
        // 18 identifiers, 16 hexadecimal digits: two of them start alike.
        let shared = try #require(Dictionary(grouping: all) { $0.prefix(1) }.first { $0.value.count > 1 })
        let out = directory.path("never")
        let ambiguous = try photos(["export", String(shared.key), "-o", out.path])
        #expect(ambiguous.status != 0)
        #expect(
            ambiguous.stderr.contains("short identifier \(shared.key) is ambiguous: assets "), "\(ambiguous.stderr)")
        for candidate in shared.value.sorted().prefix(10) {
            #expect(ambiguous.stderr.contains(candidate), "\(candidate) in \(ambiguous.stderr)")
        }
        // Nothing was made for it: arguments are resolved before anything is written.
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let unknown = try photos(["export", "ZZZZ", "-o", out.path])
        #expect(unknown.status != 0 && unknown.stderr.contains("no asset ZZZZ"), "\(unknown.stderr)")
        let missing = try photos(["export", root.appendingPathComponent("Trip/none.jpg").path, "-o", out.path])
        #expect(missing.status != 0 && missing.stderr.contains("none.jpg"), "\(missing.stderr)")
        let outside = directory.path("outside.jpg")
        try Data("not in the library".utf8).write(to: outside)
        let stranger = try photos(["export", outside.path, "-o", out.path])
        #expect(stranger.status != 0, "\(stranger.stderr)")
        #expect(stranger.stderr.contains("no asset has the file \(outside.path)"), "\(stranger.stderr)")
    }

    @Test func anExportKeepsTheOriginalsModeAndTimesAsCpDashPDoes() throws {
        let source = root.appendingPathComponent("Valley/FurnaceCreekInn.jpg").path
        let run = try photos(["export", source, "-o", directory.path("kept").path])
        #expect(run.status == 0, "\(run.stderr)")
        var original = stat()
        var copy = stat()
        #expect(stat(source, &original) == 0)
        #expect(stat(directory.path("kept/FurnaceCreekInn.jpg").path, &copy) == 0)
        #expect(copy.st_mode & 0o7777 == 0o640, "\(String(copy.st_mode & 0o7777, radix: 8))")
        #expect(copy.st_mtim.tv_sec == 1_100_000_000 && copy.st_mtim.tv_nsec == 987_654_321)
        #expect(copy.st_mtim.tv_sec == original.st_mtim.tv_sec && copy.st_mtim.tv_nsec == original.st_mtim.tv_nsec)
        #expect(copy.st_atim.tv_sec == original.st_atim.tv_sec && copy.st_atim.tv_nsec == original.st_atim.tv_nsec)
        #expect(copy.st_ino != original.st_ino)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: source))
                == Data(contentsOf: directory.path("kept/FurnaceCreekInn.jpg")))
    }

    @Test func anExportOfAnAlbumOrAPredicateNeverWritesOverAndSaysWhatHappenedToEachAsset() throws {
        let out = directory.path("album")
        // The album by its directory, relative to the working directory.
        let first = try photos(["export", "--album", "Pictures/Trip", "-o", out.path], in: directory.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("exported 2 of 2 assets (2 files)"), "\(first.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["DSCN0010.jpg", "DSCN0012.jpg"])

        // The user's own file under one of the names is left as it is; the other asset is in the way too.
        let mine = out.appendingPathComponent("DSCN0010.jpg")
        try FileManager.default.removeItem(at: mine)
        try Data("the user's own file".utf8).write(to: mine)
        let again = try photos(
            ["export", "--predicate", "distanceToLocation(location, 43.4674, 11.8851) < 1", "-o", out.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("DSCN0010.jpg exists: nothing was copied for this asset"), "\(again.stderr)")
        #expect(again.stderr.contains("exported 0 of 2 assets (0 files); 2 failed: "), "\(again.stderr)")
        let trip = try assets("filename BEGINSWITH 'DSCN'")
        #expect(trip.count == 2)
        for identifier in trip.keys { #expect(again.stderr.contains("error: \(identifier): "), "\(again.stderr)") }
        #expect(try String(contentsOf: mine, encoding: .utf8) == "the user's own file")

        // --rename: each under the first free number, the user's file still untouched.
        let renamed = try photos(["export", "--predicate", "filename BEGINSWITH 'DSCN'", "--rename", "-o", out.path])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stderr.contains("exported 2 of 2 assets (2 files); 2 under a new name"), "\(renamed.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["DSCN0010-1.jpg", "DSCN0010.jpg", "DSCN0012-1.jpg", "DSCN0012.jpg"])
        #expect(try String(contentsOf: mine, encoding: .utf8) == "the user's own file")
        #expect(renamed.stdout.contains("wrote \(out.path)/DSCN0010-1.jpg (photo)"), "\(renamed.stdout)")

        // Several assets named at once, one of them twice.
        let many = try assets("filename BEGINSWITH 'copy-'")
        let named = Array(many.keys.prefix(3))
        let several = try photos(["export"] + named + [named[0], "-o", directory.path("several").path])
        #expect(several.status == 0, "\(several.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("several").path).count == 3)
        #expect(several.stderr.contains("exported 3 of 3 assets"), "\(several.stderr)")
    }

    @Test func predicatesKnowTheFileNameThePlaceAndTheMediaTypesByName() throws {
        #expect(
            try assets("filename == 'FurnaceCreekInn.jpg'").values.map { ($0 as NSString).lastPathComponent }
                == ["FurnaceCreekInn.jpg"])
        #expect(try assets("filename LIKE[c] 'copy-1*.JPG'").count == 6)  // copy-1, copy-10 … copy-14
        #expect(try assets("mediaType == image").count == 18)
        #expect(try assets("mediaType == \"video\"").isEmpty)
        #expect(
            try assets("distanceToLocation(location, 36.4483, -116.855) < 5").values.map {
                ($0 as NSString).lastPathComponent
            }
                == ["FurnaceCreekInn.jpg"])
        #expect(try assets("distanceToLocation(location, 36.4483, -116.855) > 5").count == 2)
        #expect(try assets("location == nil").count == 15)
        // The camera, from the files' EXIF.
        #expect(try assets("make == 'NIKON' AND model == 'COOLPIX P6000'").count == 2)
        #expect(
            try assets("model CONTAINS[c] 'powershot'").values.map { ($0 as NSString).lastPathComponent }
                == ["FurnaceCreekInn.jpg"])
        #expect(try assets("make BEGINSWITH 'Canon'").count == 16)
        let wrong = try photos(["assets", "--predicate", "mediaType == 'imgae'"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("not a mediaType name (did you mean 'image'?)"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("at offset 13"), "\(wrong.stderr)")
    }

    @Test func theAlbumOptionTakesADirectoryOrAPrefix() throws {
        let albums = try photos(["albums", "--json", "--user"])
        let trip = try albums.stdout.split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { ($0["path"] as? String)?.hasSuffix("/Trip") == true }
        let identifier = try #require(trip?["localIdentifier"] as? String)
        let byDirectory = try photos(["assets", "--album", root.appendingPathComponent("Trip").path, "--no-daemon"])
        let byIdentifier = try photos(["assets", "--album", identifier, "--no-daemon"])
        #expect(byDirectory.status == 0, "\(byDirectory.stderr)")
        #expect(byDirectory.stdout == byIdentifier.stdout)
        #expect(byDirectory.stdout.contains("DSCN0010.jpg") && !byDirectory.stdout.contains("copy-"))
        let none = try photos(["assets", "--album", root.appendingPathComponent("Nowhere").path, "--no-daemon"])
        #expect(none.status != 0 && none.stderr.contains("no album"), "\(none.stderr)")
        let notMirrored = try photos(["assets", "--album", directory.url.path, "--no-daemon"])
        #expect(notMirrored.stderr.contains("no album mirrors the directory"), "\(notMirrored.stderr)")

        // A limited token's album by a unique prefix (among smart albums too), case aside.
        let all = try photos(["albums", "--json"]).stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["localIdentifier"] as? String
        }
        let prefix = Self.shortest(identifier, among: all)
        let token = try photos(["token", "create", "--access", "limited", "--album", prefix, "--json"])
        #expect(token.status == 0, "\(token.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(token.stdout.utf8)) as? [String: Any])
        #expect(object["albums"] as? [String] == [identifier], "\(token.stdout)")
    }

    @Test func theChangeTableShowsTheTimeTheKindAndTheFile() throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent("Trip/DSCN0012.jpg"))
        let rescan = try photos(["scan", root.path])
        #expect(rescan.status == 0, "\(rescan.stderr)")
        let table = try photos(["changes", "--no-daemon"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        let inserted = try #require(lines.first { $0.count >= 6 && $0[2] == "inserted" && $0[3] == "asset" })
        // TOKEN, TIME (ISO 8601 with its offset), KIND, TYPE, IDENTIFIER, PATH.
        #expect(inserted[1].count == 25 && inserted[1].contains("T"), "\(inserted)")
        #expect(inserted[5].hasPrefix(root.path + "/"), "\(inserted)")
        let deleted = try #require(
            lines.first { $0.count >= 6 && $0[2] == "deleted" && $0[3] == "asset" }, "\(table.stdout)")
        #expect(deleted[5] == root.appendingPathComponent("Trip/DSCN0012.jpg").path, "\(deleted)")
        let album = try #require(lines.first { $0.count >= 6 && $0[3] == "album" && $0[5].hasSuffix("/Valley") })
        #expect(album[2] == "inserted")

        // The same table through photosd: the deleted asset's path from its tombstone.
        let socket = directory.path("photosd.sock").path
        let daemon = TestProcess()
        daemon.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        daemon.arguments = ["--library", library, "--watch", root.path, "--socket", socket, "--log-level", "warning"]
        let log = directory.path("photosd.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        daemon.standardError = try FileHandle(forWritingTo: log)
        try daemon.run()
        defer {
            if daemon.isRunning {
                daemon.terminate()
                daemon.waitUntilExit()
            }
        }
        try blockUntil(
            "photosd to make its socket; its log:\n" + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""),
            whileRunning: daemon
        ) {
            FileManager.default.fileExists(atPath: socket)
        }
        let served = try photos(["changes", "--socket", socket])
        #expect(served.status == 0, "\(served.stderr)")
        let servedLines = served.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        let servedDeleted = try #require(
            servedLines.first { $0.count >= 6 && $0[2] == "deleted" && $0[3] == "asset" }, "\(served.stdout)")
        #expect(servedDeleted[5] == deleted[5], "\(servedDeleted)")
    }
}
