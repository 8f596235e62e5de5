import Foundation
import PhotosTestSupport
import Testing

/// `scripts/install` with the debug binaries already built (`--debug --no-build`), into a temporary
/// home: every file lands in its XDG place, the page renders, the installed binaries run, a second
/// install changes nothing, a user's config is never touched, and `--uninstall` leaves nothing behind.
@Suite(.serialized)
struct InstallScriptTests {
    static let script = Corpus.packageRoot.appendingPathComponent("scripts/install").path
    static let builtDebug = Corpus.packageRoot.appendingPathComponent(".build/debug")

    /// A temporary home with its own XDG directories (made by the test, so they are left at the end).
    struct Home {
        let directory: TemporaryDirectory
        var root: URL { directory.url }
        var home: URL { root.appendingPathComponent("home") }
        var data: URL { root.appendingPathComponent("data") }
        var config: URL { root.appendingPathComponent("config") }
        var prefix: URL { root.appendingPathComponent("prefix") }

        init() throws {
            directory = try TemporaryDirectory(prefix: "photos-install")
            for made in [home, data, config] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
        }

        /// The environment of a user whose HOME is here; with `xdg`, XDG_DATA_HOME and XDG_CONFIG_HOME too.
        func environment(xdg: Bool) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment.removeValue(forKey: "XDG_DATA_HOME")
            environment.removeValue(forKey: "XDG_CONFIG_HOME")
            if xdg {
                environment["XDG_DATA_HOME"] = data.path
                environment["XDG_CONFIG_HOME"] = config.path
            }
            return environment
        }

        /// Every path under the root, relative, sorted (directories end in /).
        func tree() -> [String] {
            var paths: [String] = []
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
            while let url = enumerator?.nextObject() as? URL {
                let relative = String(url.path.dropFirst(root.path.count + 1))
                let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
                paths.append(isDirectory ? relative + "/" : relative)
            }
            return paths.sorted()
        }
    }

    static func install(_ arguments: [String], _ environment: [String: String]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await offPool { try TestProcess.run(URL(fileURLWithPath: script), arguments, environment: environment) }
    }

    static func modificationDates(_ paths: [String]) -> [String: Date] {
        var dates: [String: Date] = [:]
        for path in paths {
            dates[path] = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        return dates
    }

    @Test func installsIntoTheXDGPlacesThenChangesNothingThenUninstallsEverything() async throws {
        let home = try Home()
        let environment = home.environment(xdg: true)
        let before = home.tree()
        #expect(before == ["config/", "data/", "home/"])

        let first = try await Self.install(["--debug", "--no-build", "--prefix", home.prefix.path], environment)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        let expected = [
            "prefix/bin/photos", "prefix/bin/photosd",
            "prefix/share/man/man1/photos.1", "prefix/share/man/man1/photosd.1",
            "prefix/share/photosd/install-manifest.json",
            "data/bash-completion/completions/photos", "data/bash-completion/completions/photosd",
            "data/zsh/site-functions/_photos", "data/zsh/site-functions/_photosd",
            "config/fish/completions/photos.fish", "config/fish/completions/photosd.fish",
            "config/systemd/user/photosd.service",
            "config/photosd/config.toml",
        ]
        let files = home.tree().filter { !$0.hasSuffix("/") }
        #expect(files == expected.sorted())

        // The binaries are the built ones, and run from where they landed.
        for name in ["photos", "photosd"] {
            let installed = home.prefix.appendingPathComponent("bin/\(name)")
            #expect(
                FileManager.default.contentsEqual(
                    atPath: installed.path, andPath: Self.builtDebug.appendingPathComponent(name).path))
            #expect(FileManager.default.isExecutableFile(atPath: installed.path))
            let version = try await offPool { try TestProcess.run(installed, ["--version"], environment: environment) }
            #expect(version.status == 0)
            #expect(version.stdout.hasPrefix("\(name) "), "\(version.stdout)")
        }
        // The unit is the repository's, as it is; the config the example, with this home in it.
        let unit = try Data(contentsOf: home.config.appendingPathComponent("systemd/user/photosd.service"))
        #expect(
            unit
                == (try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/systemd/photosd.service")))
        )
        let config = try String(contentsOf: home.config.appendingPathComponent("photosd/config.toml"), encoding: .utf8)
        #expect(config.contains("roots = [\"\(home.home.path)/Pictures\"]"), "\(config)")
        #expect(!config.contains("/home/me"))
        // The completion scripts are the binaries' own.
        let bash = try String(
            contentsOf: home.data.appendingPathComponent("bash-completion/completions/photos"), encoding: .utf8)
        let printed = try await offPool {
            try TestProcess.run(
                home.prefix.appendingPathComponent("bin/photos"), ["completion", "bash"], environment: environment)
        }
        #expect(bash == printed.stdout)
        // The man page renders, when man is there.
        if let man = executableOnPath("man") {
            let page = home.prefix.appendingPathComponent("share/man/man1/photos.1").path
            var manEnvironment = environment
            manEnvironment["MANWIDTH"] = "120"
            let rendered = try await offPool {
                try TestProcess.run(URL(fileURLWithPath: man), ["-l", "-P", "cat", page], environment: manEnvironment)
            }
            #expect(rendered.status == 0, "\(rendered.stderr)")
            for word in ["NAME", "SYNOPSIS", "assets", "--library", "completion"] {
                #expect(rendered.stdout.contains(word), "man -l photos.1 lacks \(word)")
            }
        }
        #expect(first.stdout.contains("systemctl --user enable --now photosd"), "\(first.stdout)")

        // A second install: nothing written, nothing touched.
        let paths = expected.map { home.root.appendingPathComponent($0).path }
        let dates = Self.modificationDates(paths)
        let second = try await Self.install(["--debug", "--no-build", "--prefix", home.prefix.path], environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("nothing changed"), "\(second.stdout)")
        #expect(!second.stdout.contains("installed "), "\(second.stdout)")
        #expect(Self.modificationDates(paths) == dates)
        #expect(home.tree().filter { !$0.hasSuffix("/") } == expected.sorted())

        // Uninstall: back to the three directories the test made.
        let removed = try await Self.install(["--uninstall", "--prefix", home.prefix.path], environment)
        #expect(removed.status == 0, "\(removed.stdout)\n\(removed.stderr)")
        #expect(home.tree() == before)
        // Nothing left to uninstall is an error that says so.
        let again = try await Self.install(["--uninstall", "--prefix", home.prefix.path], environment)
        #expect(again.status != 0)
        #expect(again.stderr.contains("no install to remove"), "\(again.stderr)")
    }

    @Test func aUsersConfigIsNeverTouchedAndOutlivesTheUninstall() async throws {
        let home = try Home()
        // No XDG variables: the defaults under HOME.
        let environment = home.environment(xdg: false)
        let configFile = home.home.appendingPathComponent(".config/photosd/config.toml")
        try FileManager.default.createDirectory(
            at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let mine = Data("# mine\nroots = [\"/srv/photos\"]\n".utf8)
        try mine.write(to: configFile)
        let before = home.tree()

        let first = try await Self.install(["--debug", "--no-build"], environment)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(try Data(contentsOf: configFile) == mine)
        #expect(first.stdout.contains("kept      \(configFile.path)"), "\(first.stdout)")
        for landed in [
            ".local/bin/photos", ".local/bin/photosd", ".local/share/man/man1/photos.1",
            ".local/share/bash-completion/completions/photos", ".local/share/zsh/site-functions/_photos",
            ".config/fish/completions/photos.fish", ".config/systemd/user/photosd.service",
        ] {
            #expect(FileManager.default.fileExists(atPath: home.home.appendingPathComponent(landed).path), "\(landed)")
        }

        // An enabled service is not removed from under systemd.
        let wants = home.home.appendingPathComponent(".config/systemd/user/default.target.wants")
        try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: wants.appendingPathComponent("photosd.service"),
            withDestinationURL: home.home.appendingPathComponent(".config/systemd/user/photosd.service"))
        let refused = try await Self.install(["--uninstall"], environment)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("systemctl --user disable --now photosd"), "\(refused.stderr)")
        try FileManager.default.removeItem(at: wants)

        let removed = try await Self.install(["--uninstall"], environment)
        #expect(removed.status == 0, "\(removed.stdout)\n\(removed.stderr)")
        #expect(try Data(contentsOf: configFile) == mine)
        #expect(home.tree() == before)
    }
}
