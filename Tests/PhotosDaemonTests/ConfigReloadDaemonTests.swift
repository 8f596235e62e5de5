import Foundation
import Glibc
import PhotosDaemon
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// SIGHUP end to end: the real `photosd` reads its config again, watches and crawls a new root,
/// runs a new hook, and loses no change made while it reloads; a config with a mistake is logged
/// and the old one kept.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ConfigReloadDaemonTests: DaemonSuite {
    let fixture: DaemonFixture
    var first: URL { root }
    var second: URL { directory.path("Camera Roll") }
    var output: URL { directory.path("hook-output") }

    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"

    init() throws { fixture = try DaemonFixture(prefix: "photosd-reload", folders: ["Camera Roll", "hook-output"]) }

    /// A shell hook writing each payload to OUTPUT/<since>-<until>.json.
    var recorder: String {
        #"cat > "$0/.partial-$PHOTOS_UNTIL" && mv "$0/.partial-$PHOTOS_UNTIL" "$0/$PHOTOS_SINCE-$PHOTOS_UNTIL.json""#
    }

    func writeConfig(roots: [URL], hook: Bool, extra: String = "") throws {
        var text = "roots = [\(roots.map { "\"\($0.path)\"" }.joined(separator: ", "))]\nsettle_ms = 0\n\(extra)\n"
        if hook {
            text += """
                [[hooks]]
                name = "record"
                command = ["/bin/sh", "-c", \(HookDaemonTests.tomlString(recorder)), "\(output.path)"]

                """
        }
        try writeConfig(text)
    }

    func put(_ name: String, in root: URL) throws {
        try FileManager.default.copyItem(
            at: try #require(Corpus.file(Self.photo)), to: root.appendingPathComponent(name))
    }

    /// The library's assets as `photos assets --json` prints them.
    func assets() throws -> [[String: Any]] {
        let result = try BuiltProducts.run("photos", ["assets", "--json", "--library", library, "--no-daemon"])
        guard result.status == 0 else { throw DaemonError("photos assets: \(result.stderr)") }
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The paths of the library's assets.
    func assetPaths() throws -> Set<String> { Set(Self.paths(ofAssets: try assets())) }

    static func paths(ofAssets assets: [[String: Any]]) -> [String] {
        assets.flatMap { ($0["resources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
    }

    /// The paths of the assets the hook was given as inserted, over all its runs.
    func hookPaths() throws -> Set<String> {
        var paths = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: output.path) where name.hasSuffix(".json") {
            let payload = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent(name)))
                    as? [String: Any])
            paths.formUnion(Self.paths(ofAssets: HookDaemonTests.assets(payload)))
        }
        return paths
    }

    /// The identifiers of the assets inserted in the change log since the library began, in order.
    func insertedIdentifiers() throws -> [String] {
        let result = try BuiltProducts.run("photos", ["changes", "--json", "--library", library, "--no-daemon"])
        guard result.status == 0 else { throw DaemonError("photos changes: \(result.stderr)") }
        return try result.stdout.split(separator: "\n").flatMap { line -> [String] in
            let change = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (change["asset"] as? [String: Any])?["inserted"] as? [String] ?? []
        }
    }

    /// Waits for `condition`, polled off the shared pool (it runs `photos`).
    static func eventually(_ what: String, _ condition: @escaping () throws -> Bool) async throws {
        try await offPool { try blockUntil(what, condition) }
    }

    func logText() throws -> String { try String(contentsOf: log, encoding: .utf8) }

    @Test func sighupAddsARootAndAHookAndLosesNoChangeMadeWhileItReloads() async throws {
        try writeConfig(roots: [first], hook: false)
        try put("before.jpg", in: first)
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--config", fixture.config.path, "--log-level", "notice"])
        }
        #expect(try await offPool { try self.assetPaths() } == [first.appendingPathComponent("before.jpg").path])

        // The new root holds a file before the reload (found by its crawl); files arrive in both
        // roots just before and right after the signal, while photosd reloads.
        try writeConfig(roots: [first, second], hook: true)
        try put("waiting.jpg", in: second)
        try put("racing-old-root-1.jpg", in: first)
        kill(daemon.process.processIdentifier, SIGHUP)
        try put("racing-new-root.jpg", in: second)
        try put("racing-old-root-2.jpg", in: first)

        let newRoot = ["waiting.jpg", "racing-new-root.jpg"].map { second.appendingPathComponent($0).path }
        let oldRoot = ["before.jpg", "racing-old-root-1.jpg", "racing-old-root-2.jpg"].map {
            first.appendingPathComponent($0).path
        }
        try await Self.eventually("every file ingested") { try assetPaths() == Set(newRoot + oldRoot) }
        try await Self.eventually("the new hook given the new root's files") {
            try hookPaths().isSuperset(of: newRoot)
        }
        // After the reload: the new root is watched, and its files reach the hook.
        let later = second.appendingPathComponent("later.jpg").path
        try put("later.jpg", in: second)
        try await Self.eventually("a file made after the reload reaches the hook") {
            try hookPaths().contains(later)
        }
        // The change log has every file's asset inserted once: nothing lost, nothing twice.
        let (inserted, assets) = try await offPool { (try self.insertedIdentifiers(), try self.assets()) }
        #expect(assets.count == 6 && Set(Self.paths(ofAssets: assets)) == Set(newRoot + oldRoot + [later]))
        #expect(inserted.sorted() == assets.compactMap { $0["localIdentifier"] as? String }.sorted())

        let text = try logText()
        let line = try #require(text.split(separator: "\n").first { $0.contains("configuration reloaded") })
        #expect(line.contains("roots.added=\(second.path)") && line.contains("hooks.added=record"), "\(line)")
        try await offPool { try daemon.stop() }
    }

    @Test func aRemovedRootIsNoLongerWatchedAndItsAssetsStay() async throws {
        try writeConfig(roots: [first, second], hook: false)
        try put("kept.jpg", in: second)
        let daemon = try await offPool { [fixture] in try fixture.start(["--config", fixture.config.path]) }
        let kept = second.appendingPathComponent("kept.jpg").path
        #expect(try await offPool { try self.assetPaths() }.contains(kept))
        try writeConfig(roots: [first], hook: false)
        kill(daemon.process.processIdentifier, SIGHUP)
        let statusPath = DaemonConfiguration.statusPath(forLibrary: library)
        try await Self.eventually("the removed root gone from the status") {
            try DaemonStatus.read(from: statusPath).roots.map(\.path) == [first.path]
        }
        // A file in the removed root is not ingested; one in the kept root is, and the removed
        // root's asset is still in the library.
        try put("ignored.jpg", in: second)
        try put("seen.jpg", in: first)
        let seen = first.appendingPathComponent("seen.jpg").path
        try await Self.eventually("the kept root's new file") { try assetPaths().contains(seen) }
        #expect(try await offPool { try self.assetPaths() } == [kept, seen])
        try await offPool { try daemon.stop() }
    }

    @Test func aConfigWithAMistakeIsLoggedWithItsLineAndTheOldOneKept() async throws {
        try writeConfig(roots: [first], hook: false)
        let daemon = try await offPool { [fixture] in try fixture.start(["--config", fixture.config.path]) }
        // Line 3: a key of the wrong type.
        try writeConfig(roots: [first, second], hook: false, extra: "poll_interval_s = \"soon\"")
        kill(daemon.process.processIdentifier, SIGHUP)
        try await Self.eventually("the refusal logged") { try logText().contains("configuration not reloaded") }
        let text = try logText()
        #expect(text.contains("\(config.path):3: poll_interval_s: must be"), "\(text)")
        // Still running on the old config: its root watched, the new one not.
        #expect(daemon.process.isRunning)
        try put("still.jpg", in: first)
        try put("not-yet.jpg", in: second)
        let still = first.appendingPathComponent("still.jpg").path
        try await Self.eventually("the old root still watched") { try assetPaths().contains(still) }
        #expect(try await offPool { try self.assetPaths() } == [still])
        try await offPool { try daemon.stop() }
    }
}
