import Foundation
import Glibc
import PhotosLinux
import PhotosTestSupport
import Synchronization
import Testing

/// `photos changes --follow` through photosd goes on across the daemon's restart: it says photosd
/// stopped, waits, and resumes after the last entry it printed, so nothing is missed or twice (it
/// ended with status 0 and no word, and a pipeline could not tell a restart from an end).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct FollowAcrossRestartTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-follow-restart", folders: ["run"]) }

    @Test func aFollowerThroughPhotosdGoesOnAcrossARestart() async throws {
        let socket = directory.path("run/photosd.sock").path
        let arguments = ["--watch", root.path, "--settle", "0", "--socket", socket]
        /// The log's tokens, read from the file.
        func logged() throws -> [Int] {
            try BuiltProducts.run("photos", ["changes", "--json", "--no-daemon", "--library", library]).stdout
                .split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["token"] as? Int
                }
        }
        func assetCount() throws -> Int {
            try BuiltProducts.run("photos", ["assets", "--json", "--no-daemon", "--library", library]).stdout
                .split(separator: "\n").count
        }
        var daemon = try await offPool { [fixture] in try fixture.start(arguments) }
        try put("Camera/2008/Death Valley/FurnaceCreekInn.jpg", at: "a.jpg")
        try await waitUntil("the first photo") { try await offPool { try assetCount() == 1 } }

        let follower = TestProcess()
        follower.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        follower.arguments = [
            "changes", "--follow", "--since", "0", "--json", "--library", library, "--socket", socket,
        ]
        let output = Pipe()
        let errors = Pipe()
        follower.standardOutput = output
        follower.standardError = errors
        try follower.run()
        defer {
            if follower.isRunning {
                kill(follower.processIdentifier, SIGKILL)
                follower.waitUntilExit()
            }
        }
        // Every token the follower prints, read as the lines come (until the pipe closes at its end).
        let printed = Mutex<[Int]>([])
        let handle = output.fileHandleForReading
        let reader = try SystemThread(name: "test-follower-reader") {
            var pending: [UInt8] = []
            while case let chunk = handle.availableData, !chunk.isEmpty {
                pending += chunk
                while let newline = pending.firstIndex(of: 10) {
                    let line = Data(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if let token = (try? JSONSerialization.jsonObject(with: line) as? [String: Any])?["token"] as? Int {
                        printed.withLock { $0.append(token) }
                    }
                }
            }
        }
        defer { reader.detach() }  // It ends when the follower does (its pipe closes).
        let before = try await offPool { try logged() }
        try await waitUntil("the log so far", whileRunning: follower) { printed.withLock { $0 } == before }

        try await offPool { try daemon.stop() }
        // While photosd is away, a photo arrives; the restarted daemon takes it in.
        try put("Camera/1997/Ricoh/RIMG0001.JPG", at: "b.jpg")
        try await Task.sleep(for: .milliseconds(600))
        #expect(follower.isRunning, "the follower waits for photosd")
        daemon = try await offPool { [fixture] in try fixture.start(arguments) }
        try await waitUntil("the second photo") { try await offPool { try assetCount() == 2 } }
        let after = try await offPool { try logged() }
        #expect(after.count > before.count)
        try await waitUntil("every entry, none twice", whileRunning: follower) { printed.withLock { $0 } == after }
        #expect(follower.isRunning)
        try await offPool { try daemon.stop() }
        kill(follower.processIdentifier, SIGTERM)
        follower.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            said.contains("photosd stopped: waiting for it, to follow on after token \(before.last ?? 0)"), "\(said)")
        #expect(said.contains("photosd is back"), "\(said)")
    }
}
