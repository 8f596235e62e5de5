import Foundation
import Glibc
import PhotosDaemon
import PhotosTestSupport
import PhotosWire
import Testing

/// Running photosd as a service, end to end with the real binary: JSON logs, the startup crawl's
/// progress told to systemd and `photos status`, optional listeners, and the systemd unit.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DaemonOperationsTests: DaemonSuite {
    let fixture: DaemonFixture

    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"

    init() throws { fixture = try DaemonFixture(prefix: "photosd-ops") }

    func put(_ relative: String) throws { try put(Self.photo, at: relative) }

    // MARK: Logs

    @Test func jsonLogsAreOneObjectALineWithAHooksMultiLineStderrInOneRecord() async throws {
        let marker = directory.path("hook-ran")
        let script = #"printf 'first line\nsecond "quoted" line\n\tthird\n' >&2; cat > /dev/null; touch "$0""#
        try writeConfig(
            """
            [[hooks]]
            name = "chatty"
            command = ["/bin/sh", "-c", \(HookDaemonTests.tomlString(script)), "\(marker.path)"]

            """)
        let daemon = try await offPool { [fixture] in
            try fixture.start([
                "--watch", fixture.root.path, "--config", fixture.config.path, "--settle", "0", "--log-format", "json",
                "--log-level", "info",
            ])
        }
        try put("a.jpg")
        let logFile = self.log
        try await offPool {
            try daemon.waitWhileRunning("the hook's stderr in the log") {
                (try? String(contentsOf: logFile, encoding: .utf8))?.contains("hook.stderr") == true
            }
        }
        try await offPool { try daemon.stop() }
        #expect(FileManager.default.fileExists(atPath: marker.path))
        let lines = try String(contentsOf: log, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        var records: [[String: Any]] = []
        for line in lines.dropLast() {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(record != nil, "not a JSON object: \(line)")
            if let record { records.append(record) }
        }
        for record in records {
            #expect(record["level"] is String && record["label"] is String && record["message"] is String)
            #expect(record["metadata"] is [String: Any])
            let time = try #require(record["time"] as? String)
            #expect(try time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?[+-]\d\d:\d\d/) != nil, "\(time)")
        }
        let stderr = records.compactMap { ($0["metadata"] as? [String: Any])?["hook.stderr"] as? String }
        // One record per run (a busy machine may see the file change twice: two runs), each with all its lines.
        #expect(
            !stderr.isEmpty && stderr.allSatisfy { $0 == "first line\nsecond \"quoted\" line\n\tthird" }, "\(records)")
        let hookRecord = try #require(records.first { ($0["metadata"] as? [String: Any])?["hook.stderr"] != nil })
        #expect(hookRecord["level"] as? String == "warning" && hookRecord["label"] as? String == "photosd.hooks")
    }

    @Test func textLogsKeepAMultiLineRecordOnOneLine() async throws {
        let marker = directory.path("hook-ran")
        let script = #"printf 'first line\nsecond line\n' >&2; cat > /dev/null; touch "$0""#
        try writeConfig(
            """
            [[hooks]]
            name = "chatty"
            command = ["/bin/sh", "-c", \(HookDaemonTests.tomlString(script)), "\(marker.path)"]

            """)
        let daemon = try await offPool { [fixture] in try fixture.start() }
        try put("a.jpg")
        let logFile = self.log
        try await offPool {
            try daemon.waitWhileRunning("the hook's stderr in the log") {
                (try? String(contentsOf: logFile, encoding: .utf8))?.contains("hook.stderr") == true
            }
        }
        try await offPool { try daemon.stop() }
        let text = try String(contentsOf: log, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("hook.stderr=") }, "\(text)")
        #expect(
            line.contains(#"hook.stderr=first line\nsecond line"#) && line.contains(" warning photosd.hooks "),
            "\(line)")
        #expect(!text.contains("\nsecond line"))
    }

    @Test func anUnknownLogFormatIsRefused() async throws {
        let result = try await offPool {
            try BuiltProducts.run("photosd", ["--library", library, "--watch", root.path, "--log-format", "xml"])
        }
        #expect(
            result.status != 0 && result.stderr.contains("--log-format must be text or json, not 'xml'"),
            "\(result.stderr)")
    }

    // MARK: Startup progress

    @Test func theStartupCrawlTellsSystemdItsProgressThenReadyAndStatusKeepsTheTotals() async throws {
        // Several directories: the first progress report (sent at once) counts only the first's files.
        for folder in 0..<6 {
            for file in 0..<4 { try put("folder-\(folder)/photo-\(file).jpg") }
        }
        try put("not-a-photo/readme.jpg")
        try Data("not an image".utf8).write(to: root.appendingPathComponent("not-a-photo/readme.jpg"), options: .atomic)
        let notify = try NotifySocket(directory: directory)
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path], environment: ["NOTIFY_SOCKET": notify.path])
        }
        let messages = try await offPool { try notify.messages(until: "READY=1") }
        try await offPool { try daemon.stop() }
        let ready = try #require(messages.firstIndex(of: "READY=1"), "\(messages)")
        let statuses = messages[..<ready].filter { $0.hasPrefix("STATUS=startup crawl: ") }
        #expect(statuses.count >= 2, "\(messages)")
        #expect(statuses.dropLast().allSatisfy { !$0.contains("done in") }, "\(statuses)")
        // The counts grow, and the last, sent before READY=1, has the totals.
        let seen = statuses.map { Self.number(before: " files seen", in: $0) }
        #expect(seen == seen.sorted() && seen.first! < 25 && seen.last == 25, "\(statuses)")
        let last = try #require(statuses.last)
        #expect(last.contains("24 ingested, 1 rejected, done in"), "\(last)")
        // `photos status` keeps the crawl's totals once photosd is ready; no progress file is left.
        let status = try await offPool { try BuiltProducts.run("photos", ["status", "--library", library]) }
        #expect(
            status.stdout.contains(" directories, 25 files seen, 24 ingested, 1 rejected, done in"), "\(status.stdout)")
        #expect(status.stdout.contains(" 1 rejected (photos rejected says which and why)\n"), "\(status.stdout)")
        #expect(!FileManager.default.fileExists(atPath: StartupProgress.path(forLibrary: library)))
    }

    @Test func statusShowsTheProgressOfACrawlStillRunning() async throws {
        // The progress file of a photosd still crawling (this process stands for it: it is alive).
        let progress = StartupProgress(
            pid: getpid(), startedAt: Date().timeIntervalSince1970 - 3, updatedAt: Date().timeIntervalSince1970,
            done: false, directoriesDone: 120, directories: 300, filesSeen: 5000, ingested: 4000, rejected: 2,
            seconds: 12.4)
        try progress.write(to: StartupProgress.path(forLibrary: library))
        let text = try await offPool { try BuiltProducts.run("photos", ["status", "--library", library]) }
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout == "photosd starting (pid \(getpid())): startup crawl: 120 of 300 directories, "
                + "5000 files seen, 4000 ingested, 2 rejected, 12 s\n")
        let json = try await offPool { try BuiltProducts.run("photos", ["status", "--library", library, "--json"]) }
        let decoded = try JSONDecoder().decode(StartupProgress.self, from: Data(json.stdout.utf8))
        #expect(decoded == progress)
    }

    static func number(before suffix: String, in text: String) -> Int {
        guard let end = text.range(of: suffix) else { return -1 }
        let digits = text[..<end.lowerBound].reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed())) ?? -1
    }

    // MARK: Optional listeners

    @Test func anOptionalListenerThatCannotBeHadIsAWarningAndPhotosdRunsOn() async throws {
        let (tcp, port) = try DaemonStartupTests.listeningTCPSocket()
        defer { close(tcp) }
        let socket = directory.path("api.sock").path
        try writeConfig("listen = \"127.0.0.1:\(port)\"\nlisten_optional = true\n")
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--config", fixture.config.path, "--socket", socket])
        }
        // Running, its socket served, the taken port logged as a warning.
        let served = try await offPool { try BuiltProducts.run("photos", ["assets", "--socket", socket, "--json"]) }
        #expect(served.status == 0, "\(served.stderr)")
        #expect(daemon.process.isRunning)
        try await offPool { try daemon.stop() }
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(
            text.contains("warning") && text.contains("TCP listener is optional and cannot be had")
                && text.contains("127.0.0.1:\(port) is taken"), "\(text)")
    }

    @Test func aListenerNotMarkedOptionalStillStopsPhotosd() async throws {
        let (tcp, port) = try DaemonStartupTests.listeningTCPSocket()
        defer { close(tcp) }
        try writeConfig("listen = \"127.0.0.1:\(port)\"\n")
        let result = try await offPool {
            try BuiltProducts.run(
                "photosd", ["--library", library, "--watch", root.path, "--config", config.path, "--socket", ""])
        }
        #expect(result.status == 78 && result.stderr.contains("127.0.0.1:\(port) is taken"), "\(result.stderr)")
    }

    @Test func anOptionalSocketWhoseDirectoryIsMissingLeavesTheTCPListener() async throws {
        let nowhere = directory.path("no/such/dir/photosd.sock").path
        // A port free a moment ago.
        let (probe, port) = try DaemonStartupTests.listeningTCPSocket()
        close(probe)
        try writeConfig("socket_optional = true\nlisten = \"127.0.0.1:\(port)\"\n")
        let daemon = try await offPool { [fixture] in
            try fixture.start([
                "--watch", fixture.root.path, "--config", fixture.config.path, "--socket", nowhere, "--log-level",
                "info",
            ])
        }
        let logFile = self.log
        try await offPool {
            try daemon.waitWhileRunning("the TCP listener") {
                (try? String(contentsOf: logFile, encoding: .utf8))?.contains("API listening") == true
            }
        }
        #expect(daemon.process.isRunning)
        try await offPool { try daemon.stop() }
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(
            text.contains("socket is optional and cannot be had") && text.contains("address=127.0.0.1:\(port)"),
            "\(text)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("no").path))
    }

    // MARK: The systemd unit

    @Test func theSystemdUnitRunsPhotosdWithItsConfigAndReloadsItWithSIGHUP() async throws {
        let unit = try String(
            contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/systemd/photosd.service"),
            encoding: .utf8)
        func value(_ key: String) -> String? {
            unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        #expect(value("Type") == "notify")
        #expect(value("ExecReload") == "/bin/kill -HUP $MAINPID")
        #expect(value("Restart") == "on-failure")
        let exec = try #require(value("ExecStart"))
        #expect(!exec.contains("--watch"), "the unit's roots must come from the config: \(exec)")
        // ExecStart as systemd runs it for a user whose home is the test's directory (%h), with the
        // built binary in place of ~/.local/bin's.
        let home = directory.url.path
        var arguments = exec.replacingOccurrences(of: "%h", with: home).split(separator: " ").map(String.init)
        #expect(arguments.removeFirst() == home + "/.local/bin/photosd")
        let configPath = try #require(arguments.last)
        try FileManager.default.createDirectory(
            atPath: (configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("library = \"\(library)\"\nroots = [\"\(root.path)\"]\nsettle_ms = 0\nsocket = \"\"\n".utf8)
            .write(to: URL(fileURLWithPath: configPath))
        let notify = try NotifySocket(directory: directory)
        let daemon = try await offPool {
            try PhotosdProcess(
                arguments: arguments, library: library,
                environment: ["NOTIFY_SOCKET": notify.path, "HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        }
        let messages = try await offPool { try notify.messages(until: "READY=1") }
        #expect(messages.contains("READY=1"), "\(messages)")
        // ExecReload: SIGHUP, told to systemd as RELOADING=1 … READY=1.
        kill(daemon.process.processIdentifier, SIGHUP)
        let reload = try await offPool { try notify.messages(until: "READY=1") }
        #expect(
            reload.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true && reload.last == "READY=1", "\(reload)")
        #expect(daemon.process.isRunning)
        try await offPool { try daemon.stop() }
    }
}
