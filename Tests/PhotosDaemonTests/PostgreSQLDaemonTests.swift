import Foundation
import Glibc
import PhotosStore
import PhotosTestSupport
import Testing

/// photosd on two hosts sharing one library kept in PostgreSQL, run as a user runs them: each
/// "host" is a photosd with a data home of its own (where its lock, status file and import folder
/// are), its own root and its own API socket, against one schema of the tests' server. A photo
/// dropped on either host is listed through the other host's API, named by its host; a second
/// photosd on one host stops at that host's lock. Where the machine allows, each host's photosd
/// runs in a network namespace of its own, and sees a disk of its own at one path: two hosts'
/// `Pictures` at one path are two roots. A host killed
/// with SIGKILL leaves its photos in the library, unavailable, and restarted takes what arrived
/// while it was down, once; a host whose database connections are cut while it takes in photos
/// connects again and takes each, once. The library then holds every host's photos, each once.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
struct PostgreSQLDaemonTests {
    /// One host: its disk, the root its photosd watches there, its photosd's environment and its
    /// API socket.
    struct Host {
        /// The directory where the test puts this host's photos.
        let disk: URL
        /// The path of its root as its photosd sees it: where the machine lets each host have a disk
        /// of its own, every host's is `Pictures` (its disk is mounted there), else its disk's.
        let root: URL
        let environment: [String: String]
        let socket: String

        init(_ name: String, in directory: TemporaryDirectory) throws {
            disk = directory.path("\(name)/Pictures")
            root = PostgreSQLDaemonTests.ownDisks ? directory.path("Pictures") : disk
            for path in [disk, root] {
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            }
            environment = ["XDG_DATA_HOME": directory.path("\(name)/data").path, "PHOTOS_HOST": name]
            socket = directory.path("\(name)/photosd.sock").path
        }

        /// Starts this host's photosd and waits for its startup scan (blocking: call it off the pool),
        /// in a network namespace of its own where the machine allows it, with its disk at its root.
        func start(_ url: String) throws -> PhotosdProcess {
            try PhotosdProcess(
                arguments: ["--library", url, "--watch", root.path, "--settle", "0", "--socket", socket],
                library: url, environment: environment, isolatedNetwork: PostgreSQLDaemonTests.isolated,
                disk: PostgreSQLDaemonTests.ownDisks ? (disk.path, root.path) : nil)
        }

        /// Starts `photos changes --follow` through this host's photosd, its lines written to `output`.
        func follow(_ url: String, into output: URL) throws -> TestProcess {
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let follower = TestProcess()
            follower.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
            follower.arguments = ["changes", "--follow", "--library", url, "--socket", socket]
            follower.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            follower.standardOutput = try FileHandle(forWritingTo: output)
            try follower.run()
            return follower
        }

        /// The path, as this host's photosd reads it, of the photo `name` on `host`'s disk.
        func path(of name: String, on host: Host, named hostName: String) -> String {
            let path = host.root.appendingPathComponent(name).path
            return host.socket == socket ? path : hostName + ":" + path
        }

        /// The file names of the assets `photos assets` lists through this host's photosd.
        func listed(_ url: String) throws -> [String] {
            try assets(url).map(\.name)
        }

        /// The assets `photos assets` lists through this host's photosd: each one's file name,
        /// whether it is available, its identifier and its file's path, by name.
        func assets(_ url: String) throws -> [(name: String, available: Bool, identifier: String, path: String)] {
            let result = try BuiltProducts.run(
                "photos", ["assets", "--json", "--library", url, "--socket", socket], environment: environment)
            guard result.status == 0 else { throw DaemonError("photos assets: \(result.stderr)") }
            return try Self.assets(result.stdout)
        }

        /// A GET of the API through this host's socket, with curl: the status and the body.
        func get(_ target: String) throws -> (status: Int, body: String) {
            let curl = TestProcess()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = [
                "-s", "--max-time", "60", "--unix-socket", socket, "-w", "\n%{http_code}", "http://photosd" + target,
            ]
            let output = Pipe()
            curl.standardOutput = output
            try curl.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            let status = Int(text.split(separator: "\n").last ?? "") ?? 0
            return (status, String(text.dropLast(String(status).count)))
        }

        static func assets(_ lines: String) throws -> [(
            name: String, available: Bool, identifier: String, path: String
        )] {
            try lines.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let resources = object?["resources"] as? [[String: Any]]
                let path = resources?.first?["path"] as? String ?? ""
                return (
                    (path as NSString).lastPathComponent, object?["isAvailable"] as? Bool ?? false,
                    object?["localIdentifier"] as? String ?? "", path
                )
            }.sorted { $0.name < $1.name }
        }
    }

    /// Whether each host's photosd runs in a network namespace of its own: where the machine lets
    /// the tests make them (CI runs as root). Each then has no network but a loopback of its own,
    /// as on machines of their own, and reaches the database through the server's Unix socket.
    static let isolated: Bool = {
        guard PhotosdProcess.networkNamespacesWork else {
            FileHandle.standardError.write(
                Data("⚠️  no network namespaces here (unshare --net): the hosts' photosd share this one\n".utf8))
            return false
        }
        return true
    }()

    /// Whether each host's photosd sees a disk of its own at one path, as two machines' `Pictures`
    /// (a mount namespace each, where the machine lets the tests make them: CI runs as root).
    /// Elsewhere each host's root has a path of its own.
    static let ownDisks: Bool = {
        guard isolated, PhotosdProcess.mountNamespacesWork else {
            FileHandle.standardError.write(
                Data("⚠️  no mount namespaces here (unshare --mount): the hosts' roots have paths of their own\n".utf8))
            return false
        }
        return true
    }()

    @Test func photosdOnTwoHostsSharesOneLibrary() async throws {
        let photo = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        let other = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn2.jpg"))
        try #require(FileManager.default.fileExists(atPath: photo.path), "needs ../shared/corpus")
        // Blocking throughout (processes, waits): off the shared pool, which other tests need.
        try await PostgreSQLTestServer.inNewSchema { url in
            // A host in a network namespace of its own reaches the server through its socket.
            let url = Self.isolated ? try #require(try PostgreSQLTestServer.throughSocket(url)) : url
            try await offPool { try Self.twoHosts(url, photo, other) }
        }
    }

    /// The story of the test above, on the library at `url`.
    static func twoHosts(_ url: String, _ photo: URL, _ other: URL) throws {
        let directory = try TemporaryDirectory(prefix: "photosd-postgresql")
        let nas = try Host("nas", in: directory)
        let laptop = try Host("laptop", in: directory)
        var first = try nas.start(url)
        let second = try laptop.start(url)
        if isolated {
            let ours = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
            let theirs = [first.networkNamespace, second.networkNamespace]
            #expect(Set(theirs + [ours]).count == 3, "each host's photosd has a network of its own: \(theirs), \(ours)")
        }

        // One photosd per host: a second one on the NAS stops at its lock, naming the first.
        let again = try BuiltProducts.run(
            "photosd", ["--library", url, "--watch", nas.root.path, "--socket", ""], environment: nas.environment)
        #expect(again.status == 75 && again.stderr.contains("\(first.process.processIdentifier)"), "\(again)")
        let local = LibraryDatabase.localPath(forLibrary: url, environment: nas.environment)
        #expect(FileManager.default.fileExists(atPath: local + ".status.json"))
        // `photos status` on each host reads that host's status: its own root.
        let status = try BuiltProducts.run("photos", ["status", "--library", url], environment: laptop.environment)
        #expect(status.status == 0 && status.stdout.contains(laptop.root.path), "\(status)")

        // A photo dropped on each host's disk is listed through the other's API, named by the
        // host that holds it: two hosts' Pictures at one path are two roots, neither taking the
        // other's photos for gone. The laptop's change stream tells of the NAS's photo.
        let followed = directory.path("laptop-changes.txt")
        let follower = try laptop.follow(url, into: followed)
        defer { if follower.isRunning { follower.terminate() } }
        Thread.sleep(forTimeInterval: 0.5)
        try FileManager.default.copyItem(at: photo, to: nas.disk.appendingPathComponent("nas.jpg"))
        try FileManager.default.copyItem(at: other, to: laptop.disk.appendingPathComponent("laptop.jpg"))
        try second.waitWhileRunning("the laptop's API to list the NAS's photo") {
            try laptop.listed(url) == ["laptop.jpg", "nas.jpg"]
        }
        try first.waitWhileRunning("the NAS's API to list the laptop's photo") {
            try nas.listed(url) == ["laptop.jpg", "nas.jpg"]
        }
        for reader in [laptop, nas] {
            let expected = [
                reader.path(of: "laptop.jpg", on: laptop, named: "laptop"),
                reader.path(of: "nas.jpg", on: nas, named: "nas"),
            ]
            #expect(try reader.assets(url).map(\.path) == expected)
        }
        try second.waitWhileRunning("the laptop's change stream to tell of both photos") {
            let lines = (try? String(contentsOf: followed, encoding: .utf8))?.split(separator: "\n") ?? []
            let inserted = lines.filter { $0.contains("\tinserted\tasset\t") }.compactMap {
                $0.split(separator: "\t").last
            }
            return Set(inserted) == [
                Substring(laptop.path(of: "nas.jpg", on: nas, named: "nas")),
                Substring(laptop.path(of: "laptop.jpg", on: laptop, named: "laptop")),
            ]
        }
        follower.terminate()

        // The laptop's API does not read the NAS's files: it names the host that serves them.
        let theirs = try #require(try laptop.assets(url).first { $0.name == "nas.jpg" }?.identifier)
        for resource in ["original", "thumbnail"] {
            let fetched = try laptop.get("/v1/assets/\(theirs)/\(resource)")
            #expect(fetched.status == 421 && fetched.body.contains("is on host nas"), "\(fetched)")
        }
        let ours = try #require(try laptop.assets(url).first { $0.name == "laptop.jpg" }?.identifier)
        #expect(try laptop.get("/v1/assets/\(ours)/original").status == 200)

        // The NAS dies: its photos stay, unavailable, as an offline disk's do. A photo arrives
        // while it is down; restarted, it takes it, once, and its photos are available again.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        try second.waitWhileRunning("the laptop's API to show the NAS's photo unavailable") {
            try laptop.assets(url).map { "\($0.name) \($0.available)" } == ["laptop.jpg true", "nas.jpg false"]
        }
        try FileManager.default.copyItem(at: other, to: nas.disk.appendingPathComponent("while-down.jpg"))
        first = try nas.start(url)
        var expected = ["laptop.jpg", "nas.jpg", "while-down.jpg"]
        try second.waitWhileRunning("the laptop's API to list what the NAS took after its restart") {
            try laptop.assets(url).map { "\($0.name) \($0.available)" } == expected.map { "\($0) true" }
        }

        // The laptop's connections to the database are cut while it takes in 30 photos: it
        // connects again and takes each of them, once.
        let server = try #require(PostgreSQLTestServer.url)
        // photosd's connections name its host and the library's schema.
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let names = (0..<30).map { String(format: "burst-%02d.jpg", $0) }
        for name in names {
            try FileManager.default.copyItem(at: photo, to: laptop.disk.appendingPathComponent(name))
        }
        var cuts = 0
        for _ in 0..<5 {
            let cut = TestProcess()
            cut.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
            cut.arguments = [
                server, "-qtAc",
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    + "WHERE application_name = 'photosd@laptop \(schema)'",
            ]
            let output = Pipe()
            cut.standardOutput = output
            try cut.run()
            cut.waitUntilExit()
            cuts +=
                Int(
                    String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(cuts > 0, "the laptop's photosd was connected, as photosd@laptop \(schema)")
        expected = (expected + names).sorted()
        try first.waitWhileRunning("the NAS's API to list the laptop's 30 photos") {
            try nas.listed(url) == expected
        }
        let direct = try BuiltProducts.run(
            "photos", ["assets", "--json", "--library", url, "--no-daemon"], environment: nas.environment)
        #expect(try Host.assets(direct.stdout).map(\.name) == expected, "\(direct.stderr)")
        // The library against every host's disk, as the NAS names them: each file once, none else.
        var onDisks: [String] = []
        for (host, name) in [(nas, "nas"), (laptop, "laptop")] {
            for file in try FileManager.default.contentsOfDirectory(atPath: host.disk.path) {
                onDisks.append(nas.path(of: file, on: host, named: name))
            }
        }
        #expect(try Host.assets(direct.stdout).map(\.path).sorted() == onDisks.sorted())
        try first.stop()
        try second.stop()
    }
}
