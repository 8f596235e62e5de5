import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// `photos` through photosd and from the library file print the same bytes when the config sets a
/// time zone, and name albums the same ways (a directory, a unique prefix): the real binaries.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CLIParityDaemonTests {
    @Test func theSameBytesThroughPhotosdAndFromTheFileWithATimeZoneInTheConfig() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-time-zone")
        let root = directory.path("Pictures")
        for (folder, name) in [
            ("Valley", "Camera/2008/Death Valley/FurnaceCreekInn.jpg"), ("Trip", "Camera/2008/Road trip/DSCN0010.jpg"),
        ] {
            let source = try #require(Corpus.file(name))
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: source, to: root.appendingPathComponent("\(folder)/\(source.lastPathComponent)"))
        }
        // A zone that is not the machine's (a test run sets TZ to it, or the machine is in UTC).
        let zone = TimeZone.current.secondsFromGMT() == 9 * 3600 ? "America/Los_Angeles" : "Asia/Tokyo"
        let config = directory.path("photosd.toml").path
        try Data("time_zone = \"\(zone)\"\n".utf8).write(to: URL(fileURLWithPath: config))
        let daemon = try await APIDaemon(directory: directory, root: root, arguments: ["--config", config])
        let library = directory.path("library.sqlite").path

        let albums = try await offPool {
            try BuiltProducts.run("photos", ["albums", "--json", "--config", config, "--library", library])
        }
        let identifiers = albums.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["localIdentifier"] as? String
        }
        let trip = try #require(
            albums.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.first { ($0["path"] as? String)?.hasSuffix("/Trip") == true }?["localIdentifier"] as? String)
        var prefix = ""
        for character in trip.lowercased() where identifiers.filter({ $0.lowercased().hasPrefix(prefix) }).count > 1 {
            prefix.append(character)
        }

        let commands: [[String]] = [
            ["assets"], ["assets", "--json"], ["albums"], ["changes"],
            [
                "assets", "--json", "--predicate",
                "mediaType == image AND distanceToLocation(location, 36.4483, -116.855) < 5",
            ],
        ]
        for command in commands {
            let file = try await offPool {
                try BuiltProducts.run("photos", command + ["--config", config, "--library", library])
            }
            let socket = try await offPool {
                try BuiltProducts.run("photos", command + ["--config", config, "--socket", daemon.socket])
            }
            #expect(file.status == 0 && socket.status == 0, "\(command): \(file.stderr) \(socket.stderr)")
            #expect(socket.stdout == file.stdout, "\(command)")
            #expect(!file.stdout.isEmpty, "\(command)")
        }
        // The Inn's photo has a local time and no offset: written in the config's zone, both ways.
        let json = try await offPool {
            try BuiltProducts.run("photos", ["assets", "--json", "--config", config, "--socket", daemon.socket])
        }
        let offset = zone == "Asia/Tokyo" ? "+09:00" : "-07:00"
        #expect(json.stdout.contains("\"creationDate\":\"2008-05-08T09:54:28\(offset)\""), "\(json.stdout)")

        // --album: a directory from the file, a unique prefix through photosd, the same listing.
        let byDirectory = try await offPool {
            try BuiltProducts.run(
                "photos",
                [
                    "assets", "--album", root.appendingPathComponent("Trip").path, "--config", config, "--library",
                    library,
                ])
        }
        let byPrefix = try await offPool {
            try BuiltProducts.run(
                "photos", ["assets", "--album", prefix, "--config", config, "--socket", daemon.socket])
        }
        #expect(byDirectory.status == 0 && byPrefix.status == 0, "\(byDirectory.stderr) \(byPrefix.stderr)")
        #expect(byDirectory.stdout == byPrefix.stdout)
        #expect(byPrefix.stdout.contains("DSCN0010.jpg") && !byPrefix.stdout.contains("FurnaceCreekInn"))
        let unknown = try await offPool {
            try BuiltProducts.run("photos", ["assets", "--album", "ZZZZ", "--socket", daemon.socket])
        }
        #expect(unknown.status != 0 && unknown.stderr.contains("no album ZZZZ"), "\(unknown.stderr)")

        // watch-query's --album reads a directory too: its first result is the album's one asset.
        let watch = TestProcess()
        watch.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        watch.arguments = [
            "watch-query", "--socket", daemon.socket, "--album", root.appendingPathComponent("Trip").path,
        ]
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let lines = LineReader(output)
        let first = try await offPool {
            try lines.lines(until: { $0.split(separator: "\t").dropFirst().first == "count" })
        }
        #expect(first.count == 2, "\(first)")
        #expect(first.first?.hasSuffix("/Trip/DSCN0010.jpg") == true, "\(first)")
        #expect(first.last?.hasSuffix("\tcount\t1") == true, "\(first)")
    }
}
