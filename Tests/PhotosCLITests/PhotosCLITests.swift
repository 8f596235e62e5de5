import Foundation
import PhotosTestSupport
import Photos
import Synchronization
import Testing

/// Runs the built `photos` binary against a fixture library and reads what it prints.
@Suite struct PhotosCLITests {
    let fixture: LibraryFixture

    init() throws {
        fixture = try LibraryFixture()
    }

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", arguments)
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func assetsAsJSONLinesWithPhotoKitNames() throws {
        let output = try run(["assets", "--library", fixture.libraryURL.path, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let assets = try jsonLines(output.stdout)
        #expect(assets.count == 10)
        let beach = try #require(assets.first { $0["localIdentifier"] as? String == fixture.assets["beach.jpg"] })
        #expect(beach["mediaType"] as? String == "image")
        #expect(beach["mediaSubtypes"] as? [String] == [])
        #expect(beach["pixelWidth"] as? Int == 4000 && beach["pixelHeight"] as? Int == 3000)
        #expect(beach["creationDate"] as? String == "2020-01-01T10:00:00+00:00")
        #expect(beach["isFavorite"] as? Bool == true && beach["isHidden"] as? Bool == false)
        let location = try #require(beach["location"] as? [String: Any])
        #expect(location["latitude"] as? Double == 43.55 && location["longitude"] as? Double == 7.01)
        let resources = try #require(beach["resources"] as? [[String: Any]])
        #expect(resources.first?["type"] as? String == "photo")
        #expect(resources.first?["path"] as? String == "/fixture/beach.jpg")
        let live = try #require(assets.first { $0["localIdentifier"] as? String == fixture.assets["live.heic"] })
        #expect(live["mediaSubtypes"] as? [String] == ["photoLive"])
        let movie = try #require(assets.first { $0["localIdentifier"] as? String == fixture.assets["movie.mov"] })
        #expect(movie["duration"] as? Double == 12.5 && movie["mediaType"] as? String == "video")
        // The albums holding each asset, every key written; a user album has no path.
        let albums = try #require(beach["albums"] as? [[String: Any]])
        #expect(albums.count == 1)
        #expect(albums.first?["localIdentifier"] as? String == fixture.collections["Trip"])
        #expect(albums.first?["localizedTitle"] as? String == "Trip")
        #expect(albums.first?["path"] is NSNull)
        let sunset = try #require(assets.first { $0["localIdentifier"] as? String == fixture.assets["sunset.heic"] })
        #expect((sunset["albums"] as? [[String: Any]])?.map { $0["localizedTitle"] as? String } == ["Winter"])
        #expect((live["albums"] as? [[String: Any]])?.isEmpty == true, "smart albums are not listed")
        // Every line has every key, whatever the asset.
        for asset in assets {
            #expect(
                Set(asset.keys).isSuperset(of: ["albums", "burstIdentifier", "creationDate", "location", "resources"]))
        }
    }

    @Test func assetsWithPredicateSortAndLimit() throws {
        let output = try run([
            "assets", "--library", fixture.libraryURL.path, "--json", "--predicate",
            "mediaType == 1 AND favorite == YES",
            "--sort", "-creationDate", "--limit", "1",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try jsonLines(output.stdout).map { $0["localIdentifier"] as? String } == [fixture.assets["beach.jpg"]])
        let hidden = try run([
            "assets", "--library", fixture.libraryURL.path, "--json", "--include-hidden", "--include-all-bursts",
        ])
        #expect(try jsonLines(hidden.stdout).count == 12)
    }

    @Test func aBadPredicateIsAClearError() throws {
        let output = try run(["assets", "--library", fixture.libraryURL.path, "--predicate", "colour == 'red'"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("unsupported key 'colour'"), "\(output.stderr)")
        #expect(output.stderr.contains("offset 0"))
        #expect(output.stdout.isEmpty)
    }

    @Test func aMissingLibraryIsAClearError() throws {
        let path = fixture.directory.path("nowhere.sqlite").path
        let output = try run(["assets", "--library", path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("no library at \(path)"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "the CLI does not create libraries")
    }

    @Test func albumsAndFoldersAsJSON() throws {
        let albums = try jsonLines(try run(["albums", "--library", fixture.libraryURL.path, "--json"]).stdout)
        let trip = try #require(albums.first { $0["localizedTitle"] as? String == "Trip" })
        #expect(trip["type"] as? String == "album" && trip["subtype"] as? String == "albumRegular")
        #expect(trip["estimatedAssetCount"] as? Int == 3)
        let favorites = try #require(albums.first { $0["subtype"] as? String == "smartAlbumFavorites" })
        #expect(favorites["type"] as? String == "smartAlbum" && favorites["estimatedAssetCount"] as? Int == 3)
        let winter = try #require(albums.first { $0["localizedTitle"] as? String == "Winter" })
        #expect(winter["parentLocalIdentifier"] as? String == fixture.collections["2020"])
        #expect(albums.count == 20, "2 user albums and 18 smart albums")
        let folders = try jsonLines(try run(["folders", "--library", fixture.libraryURL.path, "--json"]).stdout)
        #expect(folders.map { $0["localizedTitle"] as? String } == ["2020"])
        #expect(folders.first?["type"] as? String == "folder")
        let table = try run(["albums", "--library", fixture.libraryURL.path, "--user"]).stdout
        #expect(table.hasPrefix("IDENTIFIER") && table.contains("Trip") && !table.contains("Favorites"))
    }

    @Test func changesSinceAToken() throws {
        let all = try jsonLines(try run(["changes", "--library", fixture.libraryURL.path, "--json"]).stdout)
        #expect(all.count == 1, "the fixture is written in one transaction")
        let first = try #require(all.first)
        #expect(first["token"] as? Int == 1)
        let assets = try #require(first["asset"] as? [String: Any])
        #expect((assets["inserted"] as? [String])?.count == 12)
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: fixture.asset("pano.jpg")).isHidden = true
        }
        let since = try jsonLines(
            try run(["changes", "--library", fixture.libraryURL.path, "--json", "--since", "1"]).stdout)
        #expect(since.count == 1)
        let updated = try #require(since.first?["asset"] as? [String: Any])
        #expect(updated["updated"] as? [String] == [fixture.assets["pano.jpg"]!])
        #expect((updated["changedProperties"] as? [String: [String]])?[fixture.assets["pano.jpg"]!] == ["isHidden"])
        // A token is a whole number from 0, as the API has it.
        let negative = try BuiltProducts.run("photos", ["changes", "--library", fixture.libraryURL.path, "--since=-1"])
        #expect(negative.status == 64 && negative.stderr.contains("--since takes a token"), "\(negative.stderr)")
    }

    @Test func followPrintsEachCommitOfAnotherProcessAsItLands() async throws {
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        // --since 0: the history first, whose last line says that it is reading or waiting.
        process.arguments = ["changes", "--library", fixture.libraryURL.path, "--json", "--follow", "--since", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let printed = Mutex(Data())
        // Collect the output as it comes; the pipe ends when the process does.
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            printed.withLock { $0 += data }
        }
        try process.run()
        // Never leave it behind, even when an expectation below fails.
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func waitForLines(_ count: Int) async throws -> [[String: Any]] {
            try await waitUntil("\(count) lines from photos changes --follow", whileRunning: process) {
                printed.withLock { $0.count { $0 == UInt8(ascii: "\n") } } >= count
            }
            return try jsonLines(String(decoding: printed.withLock { $0 }, as: UTF8.self))
        }
        // The fixture's entry first: once printed, `photos` is reading or waiting for the next.
        #expect(try await waitForLines(1).map { $0["token"] as? Int } == [1])
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: fixture.asset("pano.jpg")).isFavorite = false
        }
        let entries = try await waitForLines(2)
        #expect(entries.map { $0["token"] as? Int } == [1, 2], "the commit woke it")
        #expect((entries.last?["asset"] as? [String: Any])?["updated"] as? [String] == [fixture.assets["pano.jpg"]!])
        #expect(process.isRunning, "--follow keeps running")
        // This test runs on a thread that blocks signals, and the child inherits that mask:
        // `photos` unblocks SIGTERM so that it can be stopped all the same.
        process.terminate()
        try await waitForExit(of: process, "SIGTERM to stop it", timeout: .seconds(5))
    }

    @Test func followWithAnExpiredTokenFailsAtOnce() throws {
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: fixture.asset("pano.jpg")).isHidden = true
        }
        try fixture.library.database.pruneHistory(keeping: 1)
        let output = try run(["changes", "--library", fixture.libraryURL.path, "--json", "--follow", "--since", "0"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("no longer kept") && output.stderr.contains("3105"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func scanRejectedAndDuplicates() throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-scan")
        let root = directory.path("Pictures")
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        for (source, name) in [
            ("Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Trip/a.jpg"),
            ("Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Trip/copy.jpg"),
            ("Bad/truncated.jpg", "broken.jpg"), ("Bad/notes.txt", "notes.txt"),
        ] {
            try manager.copyItem(at: try #require(Corpus.file(source)), to: root.appendingPathComponent(name))
        }
        let library = directory.path("new/library.sqlite").path
        let scan = try run(["scan", "--library", library, "--json", "--time-zone", "Europe/Paris", root.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        let report = try #require(try jsonLines(scan.stdout).first)
        #expect(report["seen"] as? Int == 4 && report["ingested"] as? Int == 2)
        #expect(report["rejected"] as? Int == 1 && report["skipped"] as? Int == 1)

        let rejected = try jsonLines(try run(["rejected", "--library", library, "--json"]).stdout)
        #expect(rejected.map { $0["path"] as? String } == [root.appendingPathComponent("broken.jpg").path])
        #expect((rejected.first?["reason"] as? String)?.isEmpty == false)
        // The shape GET /v1/rejected answers with, each file's keys and nothing more.
        #expect(rejected.map { Set($0.keys) } == [["code", "path", "reason"]])

        let groups = try run(["duplicates", "--library", library, "--json"]).stdout.split(separator: "\n")
        #expect(groups.count == 1 && groups[0].contains("copy.jpg") && groups[0].contains("a.jpg"))

        let assets = try jsonLines(try run(["assets", "--library", library, "--json"]).stdout)
        #expect(assets.count == 2)
        // The file's DateTimeOriginal has no offset: read in Europe/Paris (summer time, +02:00).
        #expect(
            assets.map { $0["creationDate"] as? String } == ["2008-05-08T09:54:28+02:00", "2008-05-08T09:54:28+02:00"])
        #expect(assets.allSatisfy { $0["creationDateHasOffset"] as? Bool == false })
        let albums = try jsonLines(try run(["albums", "--library", library, "--json", "--user"]).stdout)
        #expect(albums.map { $0["localizedTitle"] as? String } == ["Trip"])
        #expect(albums.first?["path"] as? String == root.appendingPathComponent("Trip").path)
        // Each asset names the directory album holding it.
        for asset in assets {
            let held = try #require(asset["albums"] as? [[String: Any]])
            #expect(held.map { $0["path"] as? String } == [root.appendingPathComponent("Trip").path])
            #expect(held.map { $0["localIdentifier"] as? String } == [albums.first?["localIdentifier"] as? String])
        }

        let badZone = try run(["scan", "--library", library, "--time-zone", "Mars/Olympus", root.path])
        #expect(badZone.status != 0 && badZone.stderr.contains("unknown time zone 'Mars/Olympus'"))
        let again = try run(["scan", "--library", library, "--json", root.path])
        #expect(try jsonLines(again.stdout).first?["unchanged"] as? Int == 2)
    }

    @Test func helpNamesEverySubcommand() throws {
        let help = try run(["--help"]).stdout
        for command in ["scan", "assets", "albums", "folders", "rejected", "duplicates", "changes"] {
            #expect(help.contains(command))
        }
    }
}
