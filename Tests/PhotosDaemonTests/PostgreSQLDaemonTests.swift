import Foundation
import Glibc
import PhotosStore
import PhotosTestSupport
import Testing

/// photosd on two hosts sharing one library kept in PostgreSQL, run as a user runs them: each
/// "host" is a photosd with a data home of its own (where its lock, status file and import folder
/// are), its own root and its own API socket, against one schema of the tests' server. A photo
/// dropped on either host is listed through the other host's API; a second photosd on one host
/// stops at that host's lock, and one on another host refuses the first host's root; a host killed with SIGKILL and restarted takes what arrived while it
/// was down, once, and the library then holds every host's photos, each once.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLDaemonTests {
    /// One host: its root, its photosd's environment and its API socket.
    struct Host {
        let root: URL
        let environment: [String: String]
        let socket: String

        init(_ name: String, in directory: TemporaryDirectory) throws {
            root = directory.path("\(name)/Pictures")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            environment = ["XDG_DATA_HOME": directory.path("\(name)/data").path, "PHOTOS_HOST": name]
            socket = directory.path("\(name)/photosd.sock").path
        }

        func start(_ url: String) async throws -> PhotosdProcess {
            try await offPool {
                try PhotosdProcess(
                    arguments: ["--library", url, "--watch", root.path, "--settle", "0", "--socket", socket],
                    library: url, environment: environment)
            }
        }

        /// The file names of the assets `photos assets` lists through this host's photosd.
        func listed(_ url: String) throws -> [String] {
            let result = try BuiltProducts.run(
                "photos", ["assets", "--json", "--library", url, "--socket", socket], environment: environment)
            guard result.status == 0 else { throw DaemonError("photos assets: \(result.stderr)") }
            return try Self.filenames(result.stdout)
        }

        static func filenames(_ lines: String) throws -> [String] {
            try lines.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let resources = object?["resources"] as? [[String: Any]]
                return ((resources?.first?["path"] as? String ?? "") as NSString).lastPathComponent
            }.sorted()
        }
    }

    @Test func photosdOnTwoHostsSharesOneLibrary() async throws {
        let photo = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let other = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn2.jpg"))
        try #require(FileManager.default.fileExists(atPath: photo.path), "needs ../shared/corpus")
        try await PostgreSQLTestServer.inNewSchema { url in
            let directory = try TemporaryDirectory(prefix: "photosd-postgresql")
            let nas = try Host("nas", in: directory)
            let laptop = try Host("laptop", in: directory)
            var first = try await nas.start(url)
            let second = try await laptop.start(url)

            // One photosd per host: a second one on the NAS stops at its lock, naming the first.
            let again = try BuiltProducts.run(
                "photosd", ["--library", url, "--watch", nas.root.path, "--socket", ""], environment: nas.environment)
            #expect(again.status == 75 && again.stderr.contains("\(first.process.processIdentifier)"), "\(again)")
            let local = LibraryDatabase.localPath(forLibrary: url, environment: nas.environment)
            #expect(FileManager.default.fileExists(atPath: local + ".status.json"))
            // Nor does another host watch the NAS's root: finding none of its photos, it would drop them.
            let elsewhere = ["PHOTOS_HOST": "laptop", "XDG_DATA_HOME": directory.path("elsewhere").path]
            let intruder = try BuiltProducts.run(
                "photosd", ["--library", url, "--watch", nas.root.path, "--socket", ""], environment: elsewhere)
            #expect(intruder.status == 78 && intruder.stderr.contains("is host nas's"), "\(intruder)")

            // A photo dropped on each host is listed through the other's API.
            try FileManager.default.copyItem(at: photo, to: nas.root.appendingPathComponent("nas.jpg"))
            try FileManager.default.copyItem(at: other, to: laptop.root.appendingPathComponent("laptop.jpg"))
            try await offPool {
                try second.waitWhileRunning("the laptop's API to list the NAS's photo") {
                    try laptop.listed(url) == ["laptop.jpg", "nas.jpg"]
                }
                try first.waitWhileRunning("the NAS's API to list the laptop's photo") {
                    try nas.listed(url) == ["laptop.jpg", "nas.jpg"]
                }
            }

            // The NAS dies; a photo arrives while it is down; restarted, it takes it, once.
            kill(first.process.processIdentifier, SIGKILL)
            first.process.waitUntilExit()
            try FileManager.default.copyItem(at: other, to: nas.root.appendingPathComponent("while-down.jpg"))
            first = try await nas.start(url)
            let expected = ["laptop.jpg", "nas.jpg", "while-down.jpg"]
            try await offPool {
                try second.waitWhileRunning("the laptop's API to list what the NAS took after its restart") {
                    try laptop.listed(url) == expected
                }
            }
            let direct = try BuiltProducts.run(
                "photos", ["assets", "--json", "--library", url, "--no-daemon"], environment: nas.environment)
            #expect(try Host.filenames(direct.stdout) == expected, "\(direct.stderr)")
            try await offPool {
                try first.stop()
                try second.stop()
            }
        }
    }
}
