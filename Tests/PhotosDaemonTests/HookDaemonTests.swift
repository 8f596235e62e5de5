import Foundation
import Glibc
import Photos
import PhotosDaemon
import PhotosStore
import PhotosTestSupport
import Testing

/// Exec hooks end to end: the real `photosd` with a config declaring hooks, real corpus files
/// copied into a watched root, and the payloads the hook programs received.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct HookDaemonTests: DaemonSuite {
    let fixture: DaemonFixture
    var output: URL { directory.path("hook-output") }

    init() throws { fixture = try DaemonFixture(prefix: "photosd-hooks", folders: ["hook-output"]) }

    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"
    static let other = "Camera/1997/Ricoh/RIMG0001.JPG"
    static let video = "Videos/2020/VID_20201120_150402.mp4"

    /// A shell hook that copies its payload to OUTPUT/<since>-<until>.json; it fails while
    /// OUTPUT/broken exists, its first run hangs while OUTPUT/hang-once exists, and a run does not
    /// end (after copying its payload) while OUTPUT/hold exists. (Its sleeps are kept: the hang is
    /// what is tested, and a shell has nothing to block on until a file goes but a poll.)
    var recorder: String {
        """
        if [ -e "$0/broken" ]; then echo "broken on purpose" >&2; exit 7; fi
        if [ -e "$0/hang-once" ]; then rm "$0/hang-once"; echo "$PHOTOS_SINCE" > "$0/hung.since"; echo $$ > "$0/hung.pid"; sleep 60; fi
        cat > "$0/.partial-$PHOTOS_UNTIL" && mv "$0/.partial-$PHOTOS_UNTIL" "$0/$PHOTOS_SINCE-$PHOTOS_UNTIL.json"
        while [ -e "$0/hold" ]; do sleep 0.05; done
        """
    }

    func hook(_ name: String, extra: String = "") -> String {
        """
        [[hooks]]
        name = "\(name)"
        command = ["/bin/sh", "-c", \(Self.tomlString(recorder)), "\(output.path)"]
        \(extra)

        """
    }

    static func tomlString(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// The payloads the recorder wrote, by `since`.
    func payloads() throws -> [[String: Any]] {
        try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".json") }
            .sorted { Int($0.split(separator: "-")[0])! < Int($1.split(separator: "-")[0])! }
            .map { name in
                try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent(name)))
                        as? [String: Any])
            }
    }

    static func assets(_ payload: [String: Any], _ kind: String = "inserted") -> [[String: Any]] {
        (payload["changes"] as? [[String: Any]] ?? []).flatMap {
            (($0["assets"] as? [String: Any])?[kind] as? [[String: Any]]) ?? []
        }
    }

    /// Whether a process exists and is not a zombie waiting to be reaped.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    func startDaemon() throws -> HookedDaemon {
        try HookedDaemon(fixture)
    }

    func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", arguments + ["--library", library, "--config", config.path])
    }

    @Test func copiedFilesReachTheHookWithTheirMetadataAndAlbum() async throws {
        try writeConfig(hook("record"))
        let daemon = try startDaemon()
        try put(Self.photo, at: "Trips/Death Valley/inn.jpg")
        try await waitUntil("the hook's run") { !Self.assets(try merged()).isEmpty }
        let assets = Self.assets(try merged())
        #expect(assets.count == 1)
        let asset = try #require(assets.first)
        #expect(asset["mediaType"] as? String == "image")
        #expect(asset["pixelWidth"] as? Int == 400 && asset["pixelHeight"] as? Int == 300)
        #expect((asset["creationDate"] as? String)?.hasPrefix("2008-") == true)
        let resources = try #require(asset["resources"] as? [[String: Any]])
        #expect(resources.first?["path"] as? String == root.appendingPathComponent("Trips/Death Valley/inn.jpg").path)
        let albums = try #require(asset["albums"] as? [[String: Any]])
        #expect(albums.map { $0["path"] as? String } == [root.appendingPathComponent("Trips/Death Valley").path])
        #expect(albums.first?["localizedTitle"] as? String == "Death Valley")
        // The run's environment named it.
        let payload = try #require(try payloads().first)
        #expect(payload["hook"] as? String == "record")
        try await offPool { try daemon.stop() }
        let status = try photos(["hooks", "status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(
            status.stdout.contains("\"name\":\"record\"") && status.stdout.contains("\"state\":\"ok\""),
            "\(status.stdout)")
        // `photos status` shows the hooks beside the daemon's own status.
        let overall = try BuiltProducts.run("photos", ["status", "--library", libraryURL.path])
        #expect(overall.stdout.contains("hooks:") && overall.stdout.contains("record"), "\(overall.stdout)")
        let json = try BuiltProducts.run("photos", ["status", "--library", libraryURL.path, "--json"])
        #expect(json.stdout.contains("\"hooks\":[{"), "\(json.stdout)")
    }

    /// Every payload's changes in one document (for tests that don't care how runs were split).
    func merged() throws -> [String: Any] {
        ["changes": try payloads().flatMap { ($0["changes"] as? [[String: Any]]) ?? [] }]
    }

    @Test func aFilterKeepsOutWhatItShould() async throws {
        try writeConfig(
            hook("videos", extra: "objects = [\"asset\"]\nchanges = [\"inserted\"]\npredicate = \"mediaType == 2\""))
        let daemon = try startDaemon()
        try put(Self.photo, at: "Mixed/inn.jpg")
        try put(Self.video, at: "Mixed/clip.mov")
        try await waitUntil("the video's run") { !Self.assets(try merged()).isEmpty }
        // Both files are in the library; only the video reached the hook, and nothing but assets.
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        try await waitUntil("both ingested") { PHAsset.fetchAssets(with: options).count == 2 }
        try await waitUntil("the cursor at the end") {
            let status = try photos(["hooks", "status", "--json"]).stdout
            return status.contains("\"lag\":0")
        }
        let all = try merged()
        #expect(Self.assets(all).map { $0["mediaType"] as? String } == ["video"])
        for change in all["changes"] as? [[String: Any]] ?? [] {
            for type in ["assetCollections", "collectionLists"] {
                let objects = change[type] as? [String: [Any]] ?? [:]
                let empty = objects.values.allSatisfy { $0.isEmpty }
                #expect(empty, "\(type): \(objects)")
            }
        }
        try await offPool { try daemon.stop() }
    }

    @Test func aFailingHookIsParkedThenResumedWithTheDaemonRunning() async throws {
        try writeConfig(hook("flaky", extra: "max_failures = 2"))
        _ = FileManager.default.createFile(atPath: output.appendingPathComponent("broken").path, contents: nil)
        let daemon = try startDaemon()
        try put(Self.photo, at: "A/inn.jpg")
        try await waitUntil("parked") {
            try photos(["hooks", "status", "--json"]).stdout.contains("\"state\":\"parked\"")
        }
        let parked = try photos(["hooks", "status"])
        #expect(parked.stdout.contains("flaky is parked: exit 7"), "\(parked.stdout)")
        #expect(parked.stdout.contains("broken on purpose"), "\(parked.stdout)")
        #expect(try payloads().isEmpty)
        try FileManager.default.removeItem(at: output.appendingPathComponent("broken"))
        let resumed = try photos(["hooks", "resume", "flaky"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        try await waitUntil("delivered after resume") { Self.assets(try merged()).count == 1 }
        try await offPool { try daemon.stop() }
    }

    @Test func aBatchInterruptedByKill9IsGivenAgainWithTheSameSince() async throws {
        try writeConfig(hook("steady"))
        var daemon = try startDaemon()
        // The root's folder, from the startup scan, is delivered first; the run after it hangs.
        try await waitUntil("the startup scan's run") { !(try payloads()).isEmpty }
        _ = FileManager.default.createFile(atPath: output.appendingPathComponent("hang-once").path, contents: nil)
        try put(Self.photo, at: "B/inn.jpg")
        let pidFile = output.appendingPathComponent("hung.pid").path
        try await waitUntil("the hook hanging") {
            (try? String(contentsOfFile: pidFile, encoding: .utf8))?.hasSuffix("\n") == true
        }
        let since = try String(contentsOfFile: output.appendingPathComponent("hung.since").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        daemon.kill9()
        // The run goes with photosd (its reaper kills the group: `HookProcessGroupDaemonTests`); killed
        // here too, so that this test does not depend on it.
        if let pid = Int32(
            try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        daemon = try startDaemon()
        try await waitUntil("delivered after the restart") {
            try payloads().contains { "\($0["since"] ?? "")" == since }
        }
        let again = try #require(try payloads().first { "\($0["since"] ?? "")" == since })
        #expect(Self.assets(again).count == 1, "\(again)")
        try await offPool { try daemon.stop() }
    }

    @Test func sigtermWithAHangingHookExitsWithinTheGracePeriod() async throws {
        // (The hook's sleep is kept: a hook that outlives the grace period is what is tested.)
        let hang = """
            [[hooks]]
            name = "stubborn"
            command = ["/bin/sh", "-c", "trap '' TERM; sleep 60 & echo $! > \(output.path)/child.pid; echo $$ > \(output.path)/stubborn.pid; wait"]
            """
        try writeConfig(hang)
        let daemon = try startDaemon()
        try put(Self.photo, at: "C/inn.jpg")
        let pidFile = output.appendingPathComponent("stubborn.pid").path
        // Its pid written whole: its trap is set and its child started.
        try await waitUntil("the hook running") {
            (try? String(contentsOfFile: pidFile, encoding: .utf8))?.hasSuffix("\n") == true
        }
        let started = Date()
        try daemon.stop(within: 15)
        #expect(Date().timeIntervalSince(started) < 10)
        // Both ignored SIGTERM; the SIGKILL after the grace reached the hook and what it forked.
        for file in [pidFile, output.appendingPathComponent("child.pid").path] {
            let pid = try #require(
                Int32(try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
            )
            #expect(!Self.isRunning(pid), "the hook's process \(pid) outlived the daemon")
        }
    }

    /// What arrives while a run goes on forms the next batches: the first run is held until the
    /// whole burst is in the library, then the rest comes in batches of at most 5,000 objects (the
    /// burst's commits are of about 500 files each), whatever the machine's speed.
    @Test func aTenThousandFileBurstIsDeliveredInOrderInAFewRuns() async throws {
        try writeConfig(hook("burst", extra: "objects = [\"asset\"]\nbatch = 5000\ntimeout_s = 600"))
        let hold = output.appendingPathComponent("hold")
        _ = FileManager.default.createFile(atPath: hold.path, contents: nil)
        var daemon = try startDaemon()
        let source = try #require(Corpus.file(Self.photo))
        let count = 10_000
        for directory in 0..<20 {
            let folder = root.appendingPathComponent("burst/d\(directory)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for index in 0..<(count / 20) {
                try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent("f\(index).jpg"))
            }
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        try await waitUntil("the burst ingested", timeout: .seconds(300)) {
            PHAsset.fetchAssets(with: options).count >= count
        }
        try await Task.sleep(for: .milliseconds(300))  // Kept: a quiet period, proving that nothing comes.
        #expect(try self.payloads().count == 1, "the first run is held")
        try FileManager.default.removeItem(at: hold)
        try await waitUntil("every file delivered", timeout: .seconds(300)) { Self.assets(try merged()).count >= count }
        let payloads = try payloads()
        let identifiers = payloads.flatMap { Self.assets($0).compactMap { $0["localIdentifier"] as? String } }
        #expect(identifiers.count == count)
        #expect(Set(identifiers).count == count, "an asset was delivered twice")
        // The held run, then runs of at most 5,000 objects, entries whole (commits of at most 500
        // files and their albums): 10,000 assets in two to three more.
        #expect(payloads.count >= 2 && payloads.count <= 4, "\(payloads.count) runs")
        // In order: each run starts where the one before ended, and tokens only grow.
        for (previous, next) in zip(payloads, payloads.dropFirst()) {
            #expect("\(next["since"] ?? "")" == "\(previous["until"] ?? "")")
        }
        let tokens = payloads.flatMap { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["token"] as? Int } }
        #expect(tokens == tokens.sorted())
        // A clean stop and a restart give nothing twice.
        try await offPool { try daemon.stop() }
        daemon = try startDaemon()
        try await Task.sleep(for: .seconds(1))  // Kept: a quiet period, proving that nothing comes.
        #expect(try self.payloads().count == payloads.count)
        try await offPool { try daemon.stop() }
    }

    @Test func theBackupExampleCopiesAFavoriteUnderItsAlbumPath() async throws {
        let script = Corpus.packageRoot.appendingPathComponent("Examples/hooks/backup-favorites.sh").path
        let backup = directory.path("backup")
        try writeConfig(
            """
            [[hooks]]
            name = "backup-favorites"
            command = ["\(script)", "\(backup.path)"]
            objects = ["asset"]
            changes = ["inserted", "updated"]
            predicate = "favorite == YES"
            """)
        let daemon = try startDaemon()
        try put(Self.photo, at: "Family/inn.jpg")
        try put(Self.other, at: "Family/ricoh.jpg")
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        try await waitUntil("both ingested") { PHAsset.fetchAssets(with: options).count == 2 }
        let inn = try #require(
            PHAsset.fetchAssets(with: options).first { asset in
                PHAssetResource.assetResources(for: asset).first?.originalFilename == "inn.jpg"
            })
        try library.performChangesAndWait { PHAssetChangeRequest(for: inn).isFavorite = true }
        let copy = backup.appendingPathComponent(root.path).appendingPathComponent("Family/inn.jpg")
        try await waitUntil("the favorite backed up") { FileManager.default.fileExists(atPath: copy.path) }
        // The script renames a whole copy into place: what appears is the whole file.
        #expect(
            FileManager.default.contentsEqual(
                atPath: copy.path, andPath: root.appendingPathComponent("Family/inn.jpg").path))
        let folder = copy.deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }.isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: backup.appendingPathComponent(root.path).appendingPathComponent("Family/ricoh.jpg").path))
        try await offPool { try daemon.stop() }
    }
}

/// A `photosd` process on a fixture with a config file, ready once its hooks are enrolled.
final class HookedDaemon {
    let photosd: PhotosdProcess

    init(_ fixture: DaemonFixture) throws {
        photosd = try fixture.start()
        // The hook runner enrolls its hooks as the daemon starts: changes from then on are theirs.
        let database = try LibraryDatabase(existingAt: fixture.library)
        try photosd.waitWhileRunning("photosd to enroll its hooks") {
            try !database.hookStates().filter(\.enabled).isEmpty
        }
    }

    /// SIGTERM; the exit status must be 0 within `seconds` (a minute by default, as
    /// ``PhotosdProcess/stop(within:)``'s: a full run stalled this 10 s bound too).
    func stop(within seconds: Double = 60) throws { try photosd.stop(within: seconds) }

    func kill9() { photosd.kill9() }
}
