import Foundation
import PhotosDaemon
import PhotosTestSupport
import Testing

/// The real `photosd` binary refuses a bad configuration with EX_CONFIG before starting anything.
@Suite struct ConfigDaemonTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "config-photosd") }

    /// Runs photosd on the library with the config `text`, to its exit.
    func refused(_ text: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try writeConfig(text)
        return try BuiltProducts.run("photosd", ["--library", library, "--config", config.path])
    }

    @Test func photosdExitsWithStatus78AndTheProblem() throws {
        let bad = try refused(
            """
            roots = ["\(root.path)"]

            [[hooks]]
            name = "backup"
            command = ["/bin/cat"]
            changes = ["inserted2"]
            """)
        #expect(bad.status == 78, "\(bad.stderr)")
        #expect(
            bad.stderr.contains(
                "photosd: \(config.path):6: hooks[0].changes: "
                    + "\"inserted2\" is not one of inserted, updated, deleted\n"),
            "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: library), "nothing started: not even the library")

        // A --config that cannot be read is a configuration problem too.
        let absent = directory.path("absent.toml").path
        let missing = try BuiltProducts.run("photosd", ["--library", library, "--config", absent])
        #expect(missing.status == 78 && missing.stderr.contains("photosd: \(absent): cannot read the file: "))

        // A limited hook names the albums its token sees.
        let limited = try refused(
            """
            roots = ["\(root.path)"]

            [[hooks]]
            name = "tagger"
            command = ["/bin/cat"]
            access = "limited"
            """)
        #expect(limited.status == 78, "\(limited.stderr)")
        #expect(
            limited.stderr.contains(
                "photosd: \(config.path):6: hooks[0].access: \"limited\" sees only the assets of the hook's albums: "
                    + "name them, e.g. albums = ["),
            "\(limited.stderr)")
        #expect(!FileManager.default.fileExists(atPath: library))

        // An unknown album is found once the library is open, still before any service starts.
        let album = try refused(
            """
            roots = ["\(root.path)"]

            [[hooks]]
            name = "backup"
            command = ["/bin/cat"]
            albums = ["\(root.path)/Nowhere"]
            """)
        #expect(album.status == 78, "\(album.stderr)")
        #expect(
            album.stderr.contains(
                "photosd: \(config.path):6: hooks[0].albums: "
                    + "\"\(root.path)/Nowhere\" is not the directory of an album"),
            "\(album.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: DaemonConfiguration.statusPath(forLibrary: library)),
            "no service wrote a status")

        // An https webhook's ca_file that is not there.
        let ca = try refused(
            """
            [[hooks]]
            name = "nas"
            url = "https://nas.home/photos"
            ca_file = "missing-ca.pem"
            """)
        #expect(ca.status == 78, "\(ca.stderr)")
        #expect(
            ca.stderr.contains(
                "photosd: \(config.path):4: hooks[0].ca_file: cannot read the file \"\(directory.path("missing-ca.pem").path)\""
            ),
            "\(ca.stderr)")
    }
}
