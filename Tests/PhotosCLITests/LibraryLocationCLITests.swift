import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// Every command finds its library by one rule: `--library`, `$PHOTOS_LIBRARY`, the config's
/// `library =`, the library photosd serves on its usual socket, the default; and says which one it
/// looked for when there is none.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct LibraryLocationCLITests {
    let directory: TemporaryDirectory
    var root: String { directory.path("Pictures").path }
    var configured: String { directory.path("configured/library.sqlite").path }
    var config: String { directory.path("config/photosd/config.toml").path }
    /// No config, library or socket of the user's: everything points into the test's directory.
    var environment: [String: String] {
        [
            "XDG_CONFIG_HOME": directory.path("config").path, "XDG_DATA_HOME": directory.path("data").path,
            "XDG_RUNTIME_DIR": directory.path("run").path, "PHOTOS_LIBRARY": "",
        ]
    }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-library-location")
        for folder in ["Pictures", "config/photosd", "data", "run", "configured"] {
            try FileManager.default.createDirectory(
                atPath: directory.path(folder).path, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")),
            to: directory.path("Pictures/inn.jpg"))
        try Data("library = \"\(configured)\"\nroots = [\"\(root)\"]\n".utf8).write(to: URL(fileURLWithPath: config))
    }

    func photos(_ arguments: [String], _ extra: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try BuiltProducts.run("photos", arguments, environment: environment.merging(extra) { $1 })
    }

    @Test func everyCommandTakesTheLibraryFromTheConfig() async throws {
        // The default config (XDG_CONFIG_HOME) names the library: scan makes it there.
        let scan = try await offPool { try self.photos(["scan", root]) }
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(FileManager.default.fileExists(atPath: configured))
        #expect(!FileManager.default.fileExists(atPath: directory.path("data/photosd/library.sqlite").path))
        let assets = try await offPool { try self.photos(["assets", "--json"]) }
        #expect(assets.status == 0 && assets.stdout.contains("inn.jpg"), "\(assets.stderr)")
        // --config names it just as well, for the hooks' commands too.
        let elsewhere = ["XDG_CONFIG_HOME": directory.path("none").path]
        #expect(try await offPool { try self.photos(["albums", "--json", "--config", config], elsewhere) }.status == 0)
        let hooks = try await offPool { try self.photos(["hooks", "status", "--config", config], elsewhere) }
        #expect(hooks.status == 0, "\(hooks.stderr)")
        let status = try await offPool { try self.photos(["status", "--config", config], elsewhere) }
        #expect(
            status.stderr.contains("photosd has not run on the library \(configured) (library = in \(config))"),
            "\(status.stderr)")
        // $PHOTOS_LIBRARY comes before the config, and an error names the library and the rule that chose it.
        let missing = directory.path("missing.sqlite").path
        let named = try await offPool { try self.photos(["assets"], ["PHOTOS_LIBRARY": missing]) }
        #expect(named.status != 0)
        #expect(named.stderr.contains("no library at \(missing) ($PHOTOS_LIBRARY)"), "\(named.stderr)")
        let fallback = try await offPool { try self.photos(["assets"], elsewhere) }
        #expect(fallback.stderr.contains("(the default library)"), "\(fallback.stderr)")
    }

    /// `photos watch-query` asks photosd on the config's socket, as every other command does.
    @Test func aLiveQueryAsksTheConfigsSocket() async throws {
        let socket = directory.path("run/elsewhere.sock").path
        let other = directory.path("other.toml").path
        try Data("library = \"\(configured)\"\nsocket = \"\(socket)\"\n".utf8).write(to: URL(fileURLWithPath: other))
        let named = try await offPool { try self.photos(["watch-query", "--config", other]) }
        #expect(named.status != 0 && named.stderr.contains("photosd is not running on \(socket)"), "\(named.stderr)")
        try FileManager.default.copyItem(atPath: other, toPath: directory.path("config/photosd/other.toml").path)
        try FileManager.default.removeItem(atPath: config)
        try FileManager.default.moveItem(atPath: directory.path("config/photosd/other.toml").path, toPath: config)
        let usual = try await offPool { try self.photos(["watch-query"]) }
        #expect(usual.status != 0 && usual.stderr.contains("photosd is not running on \(socket)"), "\(usual.stderr)")
    }

    @Test func withoutAnyNameTheLibraryPhotosdServesIsUsedAndNamedInErrors() async throws {
        let scan = try await offPool { try self.photos(["scan", "--library", configured, root]) }
        #expect(scan.status == 0, "\(scan.stderr)")
        let daemon = TestProcess()
        daemon.executableURL = BuiltProducts.directory.appendingPathComponent("photosd")
        daemon.arguments = ["--library", configured, "--watch", root, "--log-level", "warning"]
        daemon.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        try daemon.run()
        defer {
            if daemon.isRunning {
                daemon.terminate()
                daemon.waitUntilExit()
            }
        }
        let socket = directory.path("run/photosd.sock").path
        try await waitUntil("photosd to make its socket \(socket)", whileRunning: daemon) {
            FileManager.default.fileExists(atPath: socket)
        }
        // No --library, no $PHOTOS_LIBRARY, no config: photosd's library, through photosd.
        let none = ["XDG_CONFIG_HOME": directory.path("none").path]
        let assets = try await offPool { try self.photos(["assets", "--json"], none) }
        #expect(assets.status == 0 && assets.stdout.contains("inn.jpg"), "\(assets.stderr)")
        let hooks = try await offPool { try self.photos(["hooks", "status"], none) }
        #expect(hooks.status == 0, "\(hooks.stderr)")
        // A library named that does not exist: the error says which one photosd serves.
        let missing = directory.path("missing.sqlite").path
        let wrong = try await offPool { try self.photos(["assets"], none.merging(["PHOTOS_LIBRARY": missing]) { $1 }) }
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("photosd on \(socket) serves \(configured)"), "\(wrong.stderr)")
    }
}
