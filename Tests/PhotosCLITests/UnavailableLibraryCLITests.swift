import Dispatch
import Foundation
import GRDB
import Photos
import PhotosStore
import PhotosTestSupport
import Testing

/// The built `photos` binary on libraries that cannot be read: the reason and a non-zero exit,
/// never an empty listing; and on libraries it creates: private modes, no creation race.
@Suite struct UnavailableLibraryCLITests {
    let fixture: LibraryFixture

    init() throws {
        fixture = try LibraryFixture()
    }

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", arguments)
    }

    var photos: String { BuiltProducts.directory.appendingPathComponent("photos").path }

    /// Starts a program (its output to files, so that nothing can block on a full pipe).
    func start(_ executable: String, _ arguments: [String], output: URL) throws -> TestProcess {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        return process
    }

    /// Runs a program to its end: its status and everything it printed.
    func runTool(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let log = fixture.directory.path("tool-\(UUID().uuidString).log")
        let process = try start(executable, arguments, output: log)
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    @Test func aDamagedLibraryIsAnErrorNotAnEmptyTable() throws {
        let path = fixture.directory.path("damaged.sqlite").path
        try DamagedLibrary.copyWithDamagedAssets(of: fixture.library.database, to: path)
        for arguments in [["assets", "--library", path], ["assets", "--library", path, "--json"]] {
            let output = try run(arguments)
            #expect(output.status != 0, "\(arguments)")
            #expect(output.stdout.isEmpty, "\(output.stdout)")
            #expect(output.stderr.contains("damaged or not a photo library"), "\(output.stderr)")
            #expect(output.stderr.contains("3302"), "\(output.stderr)")
        }
        // Albums keep their counts and dates apart from the assets (issue 15): they still list,
        // with the counts they had, never as an empty list.
        let albums = try run(["albums", "--user", "--library", path, "--json"])
        #expect(albums.status == 0, "\(albums.stderr)")
        #expect(albums.stdout.split(separator: "\n").count == 2, "\(albums.stdout)")
        #expect(albums.stdout.contains("\"estimatedAssetCount\":3"), "\(albums.stdout)")
        // What is intact still lists.
        let smart = try run(["albums", "--smart", "--library", path, "--json"])
        #expect(smart.status == 0, "\(smart.stderr)")
        #expect(!smart.stdout.isEmpty)
    }

    @Test func anOfflineRootIsAWarningAndItsAssetsAreListed() throws {
        try fixture.library.database.write { transaction in try transaction.setRoot("/fixture", offline: true) }
        let output = try run(["assets", "--library", fixture.libraryURL.path, "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").count == 10)
        #expect(output.stderr.contains("warning: a watched folder is offline (/fixture)"), "\(output.stderr)")
    }

    @Test func aFileOfGarbageIsAnError() throws {
        let path = fixture.directory.path("garbage.sqlite").path
        try DamagedLibrary.writeGarbage(to: path)
        let output = try run(["assets", "--library", path])
        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("cannot open the library at \(path)"), "\(output.stderr)")
        #expect(output.stderr.contains("not a photo library"), "\(output.stderr)")
    }

    @Test func aLibraryOfANewerBuildIsRefused() throws {
        let path = fixture.directory.path("newer.sqlite").path
        try DamagedLibrary.copy(fixture.library.database, to: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: later')")
        }
        let output = try run(["assets", "--library", path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("newer version of photosd"), "\(output.stderr)")
        let scan = try run(["scan", "--library", path, fixture.directory.url.path])
        #expect(scan.status != 0, "scan does not migrate a newer library either")
    }

    /// Root reads any file, whatever its mode: the binary runs as `nobody` (setpriv) to meet a
    /// real EACCES on a 0000 library.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anUnreadableLibraryIsAnError() throws {
        let directory = try TemporaryDirectory(prefix: "unreadable")
        chmod(directory.url.path, 0o755)
        let path = directory.path("library.sqlite").path
        try DamagedLibrary.copy(fixture.library.database, to: path)
        chmod(path, 0)
        let output = try runTool(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", photos, "assets", "--library", path])
        #expect(output.status != 0)
        #expect(output.output.contains("no permission"), "\(output.output)")
        #expect(output.output.contains("3310"), "\(output.output)")
        #expect(!output.output.contains("IDENTIFIER"), "no table is printed")
    }

    @Test func statusSaysTheLibraryIsUnavailableAndExitsNonZero() throws {
        let library = fixture.directory.path("status-library.sqlite").path
        let status = """
            {"pid": 1, "startedAt": 0, "updatedAt": 0, "roots": [], "watches": 0, "watchBudget": 0,
             "unwatchedDirectories": 0, "queueDepth": 0, "ingested": 0, "updated": 0, "moved": 0, "removed": 0,
             "rejected": 0, "lastErrors": [],
             "library": {"state": "unavailable", "reason": "no space left to write the library",
                         "consecutiveFailures": 3, "retryAt": 100}}
            """
        try Data(status.utf8).write(to: URL(fileURLWithPath: library + ".status.json"))
        let output = try run(["status", "--library", library])
        #expect(output.status != 0)
        #expect(output.stdout.contains("library: unavailable after 3 failed scans"), "\(output.stdout)")
        #expect(output.stdout.contains("no space left to write the library"))
    }

    @Test func concurrentScansCreateOneLibrary() throws {
        let directory = try TemporaryDirectory(prefix: "creation-race")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let path = directory.path("new/library.sqlite").path
        // Six processes started together, each likely to find no library there.
        let logs = (0..<6).map { directory.path("scan-\($0).log") }
        let processes = try logs.map { try start(photos, ["scan", "--library", path, root.path], output: $0) }
        for process in processes { process.waitUntilExit() }
        for (process, log) in zip(processes, logs) {
            #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        let assets = try run(["assets", "--library", path, "--json"])
        #expect(assets.status == 0, "\(assets.stderr)")
    }

    @Test func aNewLibraryIsPrivateWithTheUsualUmask() throws {
        let directory = try TemporaryDirectory(prefix: "umask")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let data = directory.path("share/photosd")
        let path = data.appendingPathComponent("library.sqlite").path
        let output = try runTool(
            "/bin/sh", ["-c", "umask 022 && exec \"$0\" \"$@\"", photos, "scan", "--library", path, root.path])
        #expect(output.status == 0, "\(output.output)")
        func mode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        }
        #expect(try mode(directory.path("share").path) == 0o700)
        #expect(try mode(data.path) == 0o700)
        #expect(try mode(path) == 0o600)
        #expect(try mode(root.path) == 0o755, "the scanned folder is the user's: left as it was")
    }
}
