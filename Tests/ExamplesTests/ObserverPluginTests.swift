import Foundation
import Glibc
import Photos
import PhotosTestSupport
import Testing

/// Examples/observer-plugin, run as a program: another process's commits reach its observer.
@Suite struct ObserverPluginTests {
    @Test func anotherProcesssChangesReachThePlugin() async throws {
        let fixture = try LibraryFixture()
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("observer-plugin")
        process.arguments = ["--count", "2"]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["PHOTOS_LIBRARY": fixture.libraryURL.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Our copy of the write end would keep the pipe open after the plugin exits.
        try output.fileHandleForWriting.close()
        defer { if process.isRunning { process.terminate() } }
        // A plugin that never hears of both changes is stopped, and the expectations below fail.
        // Not after one minute: a full `swift test` on 2 cores kept this test's own pool busy for
        // that long between starting the plugin and committing the changes (CI), and the guard,
        // on a clock of its own, stopped a plugin that had not yet been sent anything.
        let pid = process.processIdentifier
        DispatchQueue(label: "plugin-guard").asyncAfter(deadline: .now() + 600) { kill(pid, SIGKILL) }
        let reader = output.fileHandleForReading
        // It has registered once it has said how many favorites it watches.
        let first = String(decoding: await Self.offThePool { reader.availableData }, as: UTF8.self)
        #expect(first.hasPrefix("watching 3 favorites"), "\(first)")

        let screen = fixture.asset("screen.png")
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: screen).isFavorite = true }
        // Under load the plugin may hear of both commits in one PHChange; it counts favorites, not calls.
        let beach = fixture.asset("beach.jpg")
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite = false }

        let rest = String(decoding: await Self.offThePool { reader.readDataToEndOfFile() }, as: UTF8.self)
        await Self.offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        #expect(rest.contains("favorite: \(screen.localIdentifier) 2021-01-01T09:00:00Z"), "\(rest)")
        #expect(rest.contains("no longer a favorite: \(beach.localIdentifier)"), "\(rest)")
        #expect(rest.hasSuffix("favorites now: 3\n"), "\(rest)")
    }

    /// Runs a blocking read on a thread of its own, not one of the shared pool's few threads.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
